// The pure rules behind PostEntry and opening balances (src/domain/source-posting.ts).
import { newId } from '@ledgerline/platform';
import { describe, expect, it } from 'vitest';
import { bodyHash, checkPostingRequest, openingBalanceLines } from '../src/domain/source-posting.js';

const a = newId();
const b = newId();
const good = () => ({
  sourceType: 'Invoice',
  sourceId: newId(),
  version: 1n,
  date: '2026-05-31',
  description: '  Invoice 42  ',
  lines: [
    { accountId: a, direction: 'debit', amountCents: 1_000n },
    { accountId: b, direction: 'credit', amountCents: 1_000n },
  ],
});

describe('checkPostingRequest', () => {
  it('accepts a balanced request (description trimmed) and a void with no lines and no date', () => {
    const { request, problems } = checkPostingRequest(good());
    expect(problems).toEqual([]);
    expect(request).toMatchObject({
      sourceType: 'Invoice',
      version: 1,
      description: 'Invoice 42',
      lines: [
        { accountId: a, direction: 'debit', amountCents: 1_000 },
        { accountId: b, direction: 'credit', amountCents: 1_000 },
      ],
    });
    expect(checkPostingRequest({ sourceType: 'Bill', sourceId: newId(), version: 2n, lines: [] }).request).toMatchObject({ date: '', lines: [] });
  });

  it('names every field at fault at once', () => {
    const { request, problems } = checkPostingRequest({
      sourceType: 'Payout',
      sourceId: '42',
      version: 0n,
      date: '31/05/2026',
      description: 'x'.repeat(1001),
      lines: [
        { accountId: 'x', direction: 'up', amountCents: 0n },
        { accountId: b, direction: 'credit', amountCents: 1n },
      ],
    });
    expect(request).toBeUndefined();
    expect(problems.map((p) => p.field)).toEqual([
      'sourceType',
      'sourceId',
      'version',
      'date',
      'description',
      'lines[0].accountId',
      'lines[0].direction',
      'lines[0].amountCents',
    ]);
  });

  it('refuses unbalanced lines, a single line, too many lines and amounts beyond safe integers', () => {
    const unbalanced = {
      ...good(),
      lines: [
        { accountId: a, direction: 'debit', amountCents: 1_000n },
        { accountId: b, direction: 'credit', amountCents: 999n },
      ],
    };
    expect(checkPostingRequest(unbalanced).problems).toEqual([{ field: 'lines', message: 'lines do not balance: debits 1000 cents, credits 999 cents' }]);
    expect(checkPostingRequest({ ...good(), lines: [{ accountId: a, direction: 'debit', amountCents: 5n }] }).problems.map((p) => p.field)).toEqual(['lines']);
    const many = Array.from({ length: 501 }, (_, i) => ({ accountId: i % 2 ? a : b, direction: i % 2 ? 'debit' : 'credit', amountCents: 1n }));
    expect(checkPostingRequest({ ...good(), lines: many }).problems.map((p) => p.field)).toContain('lines');
    const huge = {
      ...good(),
      lines: [
        { accountId: a, direction: 'debit', amountCents: 2n ** 60n },
        { accountId: b, direction: 'credit', amountCents: 2n ** 60n },
      ],
    };
    expect(checkPostingRequest(huge).problems.map((p) => p.field)).toEqual(['lines[0].amountCents', 'lines[1].amountCents']);
  });

  it('takes only the document source types (bank transactions and opening balances have their own paths)', () => {
    for (const t of ['ManualEntry', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'])
      expect(checkPostingRequest({ ...good(), sourceType: t }).problems).toEqual([]);
    for (const t of ['WorkspaceTransaction', 'OpeningBalance', '', 'bill'])
      expect(checkPostingRequest({ ...good(), sourceType: t }).problems.map((p) => p.field)).toEqual(['sourceType']);
  });
});

describe('bodyHash', () => {
  const lines = [
    { accountId: a, direction: 'debit' as const, amountCents: 10 },
    { accountId: b, direction: 'credit' as const, amountCents: 10 },
  ];
  it('is the same for the same body and differs when the date, description, an amount, an account or the order changes', () => {
    const base = bodyHash({ date: '2026-01-01', description: 'x', lines });
    expect(bodyHash({ date: '2026-01-01', description: 'x', lines: lines.map((l) => ({ ...l })) })).toBe(base);
    const variants = [
      bodyHash({ date: '2026-01-02', description: 'x', lines }),
      bodyHash({ date: '2026-01-01', description: 'y', lines }),
      bodyHash({ date: '2026-01-01', description: 'x', lines: lines.map((l) => ({ ...l, amountCents: 11 })) }),
      bodyHash({
        date: '2026-01-01',
        description: 'x',
        lines: [{ ...lines[0], accountId: newId() } as (typeof lines)[number], lines[1] as (typeof lines)[number]],
      }),
      bodyHash({ date: '2026-01-01', description: 'x', lines: [...lines].reverse() }),
    ];
    expect(new Set([base, ...variants]).size).toBe(6);
  });

  it('a void is only a void, whatever date or description came with it', () => {
    expect(bodyHash({ date: '', description: '', lines: [] })).toBe(bodyHash({ date: '2026-01-01', description: 'void it', lines: [] }));
  });
});

describe('openingBalanceLines', () => {
  const acct = newId();
  const obe = newId();
  it('debits a debit-normal account and credits a credit-normal one; a negative amount goes the other way; zero books nothing', () => {
    expect(openingBalanceLines(acct, 'Assets', obe, 500)).toEqual([
      { accountId: acct, direction: 'debit', amountCents: 500 },
      { accountId: obe, direction: 'credit', amountCents: 500 },
    ]);
    expect(openingBalanceLines(acct, 'Assets', obe, -500)).toEqual([
      { accountId: acct, direction: 'credit', amountCents: 500 },
      { accountId: obe, direction: 'debit', amountCents: 500 },
    ]);
    expect(openingBalanceLines(acct, 'Liability', obe, 500)).toEqual([
      { accountId: acct, direction: 'credit', amountCents: 500 },
      { accountId: obe, direction: 'debit', amountCents: 500 },
    ]);
    expect(openingBalanceLines(acct, 'Equity', obe, -1)).toEqual([
      { accountId: acct, direction: 'debit', amountCents: 1 },
      { accountId: obe, direction: 'credit', amountCents: 1 },
    ]);
    expect(openingBalanceLines(acct, 'Assets', obe, 0)).toEqual([]);
  });
});
