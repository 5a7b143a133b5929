// The cash summary of GET /accounts (issue #12): bank accounts as money held, cards as owed (negative),
// only USD accounts with a bank balance, and the status that says whether the books can be trusted yet.
import { create } from '@bufbuild/protobuf';
import { BankTieOutSchema } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { describe, expect, it } from 'vitest';
import { tieOutJson, tieOutSummary } from '../src/banking/present.js';

const tie = (status: string, bank: number, books: number) =>
  create(BankTieOutSchema, {
    status,
    bankBalanceCents: BigInt(bank),
    hasBankBalance: status !== 'unknown',
    booksBalanceCents: BigInt(books),
    differenceCents: BigInt(books - bank),
    asOf: '2026-10-20T12:00:00.000Z',
    ledgerAccountId: 'l',
  });

describe('the tie-out summary', () => {
  it('sums bank accounts as held and cards as owed, in cents', () => {
    const s = tieOutSummary([
      { type: 'depository', tieOut: tie('matches', 14_793_501, 14_793_501) },
      { type: 'depository', tieOut: tie('matches', 17_638_340, 17_638_340) },
      { type: 'credit', tieOut: tie('matches', 239_119, 239_119) },
    ]);
    expect(s).toEqual({ bankTotal: 321_927.22, booksTotal: 321_927.22, difference: 0, status: 'matches' });
  });

  it('catching_up wins over differs, differs over matches; currency, unknown, missing and other types are left out', () => {
    const rest = [
      { type: 'depository', tieOut: tie('currency', 999_999, 0) },
      { type: 'depository', tieOut: tie('unknown', 0, 5_000) },
      { type: 'depository', tieOut: undefined },
      { type: 'loan', tieOut: tie('matches', 100, 100) },
    ];
    expect(
      tieOutSummary([{ type: 'depository', tieOut: tie('differs', 10_000, 9_000) }, { type: 'credit', tieOut: tie('matches', 2_000, 2_000) }, ...rest]),
    ).toEqual({ bankTotal: 80, booksTotal: 70, difference: -10, status: 'differs' });
    expect(
      tieOutSummary([
        { type: 'depository', tieOut: tie('differs', 10_000, 9_000) },
        { type: 'credit', tieOut: tie('catching_up', 2_000, 1_000) },
      ]).status,
    ).toBe('catching_up');
    expect(tieOutSummary(rest)).toEqual({ bankTotal: 0, booksTotal: 0, difference: 0, status: 'unknown' });
  });

  it('presents one account in dollars, asOf null before the first sync', () => {
    expect(tieOutJson(tie('differs', 10_001, 9_000))).toEqual({
      status: 'differs',
      bankBalance: 100.01,
      booksBalance: 90,
      pendingAmount: 0,
      difference: -10.01,
      asOf: '2026-10-20T12:00:00.000Z',
      ledgerAccountId: 'l',
    });
    expect(tieOutJson(create(BankTieOutSchema, { status: 'unknown', ledgerAccountId: 'l' })).asOf).toBeNull();
  });
});
