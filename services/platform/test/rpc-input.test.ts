// The input rules every service applies to its RPC requests (issue #15, defence in depth), read from the
// request's descriptor: text without control characters and of bounded length, amounts in cents below
// 10^13 dollars, whole numbers in range, real dates in 1900-01-01..2100-12-31, each refusal naming its field.
import { create } from '@bufbuild/protobuf';
import {
  BulkUpdateTransactionsRequestSchema,
  CreateCategoryRequestSchema,
  ListTransactionsRequestSchema,
  SetOpeningBalanceRequestSchema,
  SplitTransactionRequestSchema,
} from '@ledgerline/proto/ledger/v1/ledger_pb';
import { GetProfitLossRequestSchema } from '@ledgerline/proto/reporting/v1/reporting_pb';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { assertInput, dateProblem, inputProblems } from '../src/validation/rpc-input.js';

const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe('RPC input rules', () => {
  it('accept an ordinary request', () => {
    const req = create(BulkUpdateTransactionsRequestSchema, {
      transactions: [{ id: '0193e0a0-0000-7000-8000-000000000001', billerName: 'Blue Bottle\tCoffee\n', vendorId: '' }],
    });
    expect(inputProblems(BulkUpdateTransactionsRequestSchema, req)).toEqual([]);
    expect(
      inputProblems(
        ListTransactionsRequestSchema,
        create(ListTransactionsRequestSchema, { startDate: '1900-01-01', endDate: '2100-12-31', page: 3, take: 100, minAmountCents: 99_999_999_999_999_9n }),
      ),
    ).toEqual([]);
  });

  it('refuse NUL and other control characters in text, at any depth, naming the field', () => {
    for (const bad of ['a\u0000b', '\u0007', 'x\u001by', '\u007f']) {
      const req = create(BulkUpdateTransactionsRequestSchema, { transactions: [{ id: 'x' }, { billerName: bad }] });
      expect(inputProblems(BulkUpdateTransactionsRequestSchema, req)).toEqual([
        { field: 'transactions.1.billerName', message: 'transactions.1.billerName must not contain control characters' },
      ]);
    }
    expect(fields(inputProblems(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { categoryIds: ['ok', 'n\u0000o'] })))).toEqual([
      'categoryIds.1',
    ]);
  });

  it('refuse over-long text and over-long lists', () => {
    expect(fields(inputProblems(CreateCategoryRequestSchema, create(CreateCategoryRequestSchema, { name: 'x'.repeat(10_001) })))).toEqual(['name']);
    expect(inputProblems(CreateCategoryRequestSchema, create(CreateCategoryRequestSchema, { name: 'x'.repeat(10_000) }))).toEqual([]);
    expect(
      fields(inputProblems(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { accountIds: Array.from({ length: 10_001 }, () => 'a') }))),
    ).toEqual(['accountIds']);
  });

  it('refuse amounts of 10^13 dollars or more (in cents) and int64 beyond safe integers, naming the REST field', () => {
    const at = (amountCents: bigint) =>
      inputProblems(SetOpeningBalanceRequestSchema, create(SetOpeningBalanceRequestSchema, { categoryId: 'c', amountCents, date: '2026-01-01' }));
    expect(at(10n ** 15n - 1n)).toEqual([]);
    expect(at(-(10n ** 15n) + 1n)).toEqual([]);
    expect(fields(at(10n ** 15n))).toEqual(['amount']);
    expect(fields(at(-(10n ** 15n)))).toEqual(['amount']);
    expect(fields(at(2n ** 63n - 1n))).toEqual(['amount']);
    const split = create(SplitTransactionRequestSchema, {
      parentTransaction: { id: 'p', amountCents: 10n ** 17n, categoryId: 'c' },
      splitTransactions: [{ amountCents: 1n, categoryId: 'c' }],
    });
    expect(fields(inputProblems(SplitTransactionRequestSchema, split))).toEqual(['parentTransaction.amount']);
  });

  it("refuse page beyond its bound and coaId beyond 8 digits (smaller ones are the use case's own rule)", () => {
    expect(fields(inputProblems(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { page: 2 ** 31 - 1 })))).toEqual(['page']);
    expect(fields(inputProblems(CreateCategoryRequestSchema, create(CreateCategoryRequestSchema, { name: 'X', coaId: 2 ** 31 - 1 })))).toEqual(['coaId']);
    expect(inputProblems(CreateCategoryRequestSchema, create(CreateCategoryRequestSchema, { name: 'X', coaId: 9999 }))).toEqual([]);
  });

  it("refuse dates that are not real or outside 1900-01-01..2100-12-31, year 0000 included; other shapes are the use case's", () => {
    for (const bad of ['0000-01-01', '1899-12-31', '2101-01-01', '9999-12-31', '2023-02-29', '2026-13-01', '2026-04-31'])
      expect(dateProblem('startDate', bad), bad).toBeDefined();
    for (const good of ['1900-01-01', '2024-02-29', '2100-12-31']) expect(dateProblem('startDate', good), good).toBeUndefined();
    expect(dateProblem('startDate', 'yesterday')).toBeUndefined();
    expect(
      fields(inputProblems(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { startDate: '0000-01-01', endDate: '9999-12-31' }))),
    ).toEqual(['startDate', 'endDate']);
    expect(fields(inputProblems(GetProfitLossRequestSchema, create(GetProfitLossRequestSchema, { query: { startDate: '0000-01-01' } })))).toEqual([
      'startDate',
    ]);
  });

  it('throw one InvalidInput AppError listing every field', () => {
    const req = create(ListTransactionsRequestSchema, { description: 'a\u0000', startDate: '0000-01-01' });
    try {
      assertInput(ListTransactionsRequestSchema, req);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).kind).toBe('INVALID_INPUT');
      expect(fields((err as AppError).fields).sort()).toEqual(['description', 'startDate']);
    }
  });
});
