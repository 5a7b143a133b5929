import { describe, expect, it } from 'vitest';
import { matchTransactions, sameRealAccount } from '../src/domain/duplicates.js';
import { retryDelayMs, storedStatusesFor } from '../src/domain/jobs.js';
import { planMerge } from '../src/domain/merge.js';
import { plaidAmountToCents } from '../src/domain/money.js';
import { InvalidPayloadError, parseSyncPage } from '../src/domain/plaid-payload.js';

const tx = (id: string, date: string, amountCents: number) => ({ id, date, amountCents });

describe('money from Plaid', () => {
  it('flips the sign into integer cents (money into the account is positive)', () => {
    expect(plaidAmountToCents(12.34)).toBe(-1234);
    expect(plaidAmountToCents(-500)).toBe(50_000);
    expect(plaidAmountToCents(0.1 + 0.2)).toBe(-30);
    expect(plaidAmountToCents(0)).toBe(0);
  });
  it('refuses sub-cent digits, NaN and absurd sizes instead of rounding', () => {
    expect(() => plaidAmountToCents(1.005)).toThrow(/2 decimals/);
    expect(() => plaidAmountToCents(Number.NaN)).toThrow();
    expect(() => plaidAmountToCents('12.00')).toThrow();
    expect(() => plaidAmountToCents(1e12)).toThrow(/range/);
  });
});

describe('a /transactions/sync page', () => {
  const good = {
    transaction_id: 't1',
    account_id: 'a1',
    amount: 10.5,
    iso_currency_code: 'USD',
    date: '2026-01-02',
    pending: false,
    name: 'Coffee',
    personal_finance_category: { primary: 'FOOD_AND_DRINK' },
  };
  it('is parsed into cents with the provider category', () => {
    const page = parseSyncPage({ added: [good], modified: [], removed: [{ transaction_id: 'x', account_id: 'a1' }], next_cursor: 'c1', has_more: false });
    expect(page.added[0]).toMatchObject({ externalId: 't1', amountCents: -1050, providerCategory: 'FOOD_AND_DRINK', name: 'Coffee' });
    expect(page.removed).toEqual([{ externalId: 'x', vendorAccountId: 'a1' }]);
  });
  it('is refused whole for a bad amount, currency, date or a huge array', () => {
    const page = (added: unknown[]) => ({ added, modified: [], removed: [], next_cursor: 'c', has_more: false });
    expect(() => parseSyncPage(page([{ ...good, amount: 1.234 }]))).toThrow(InvalidPayloadError);
    expect(() => parseSyncPage(page([{ ...good, iso_currency_code: 'usd' }]))).toThrow(InvalidPayloadError);
    expect(() => parseSyncPage(page([{ ...good, iso_currency_code: null }]))).toThrow(InvalidPayloadError);
    expect(() => parseSyncPage(page([{ ...good, date: '02/01/2026' }]))).toThrow(InvalidPayloadError);
    expect(() => parseSyncPage(page(Array.from({ length: 1001 }, () => good)))).toThrow(InvalidPayloadError);
  });
});

describe('the duplicate check', () => {
  it('pairs same-date same-amount transactions one to one inside the overlap', () => {
    const source = [tx('s1', '2026-01-01', -500), tx('s2', '2026-01-01', -500), tx('s3', '2026-01-05', 100), tx('s4', '2026-03-01', 7)];
    const target = [tx('t1', '2026-01-01', -500), tx('t2', '2026-01-05', 100), tx('t3', '2026-02-01', 9)];
    const m = matchTransactions(source, target);
    expect(m.overlapping.map((t) => t.id)).toEqual(['s1', 's2', 's3']);
    expect(m.pairs.map((p) => [p.source.id, p.target.id])).toEqual([
      ['s1', 't1'],
      ['s3', 't2'],
    ]);
    expect(m.matchPercentage).toBe(66.67);
  });
  it('recognises the same real account by institution, mask and kind', () => {
    const a = { institutionId: 'ins_1', institutionName: 'Bank', mask: '0000', type: 'depository', subtype: 'checking', name: 'Checking' };
    expect(sameRealAccount(a, { ...a, name: 'Other name' })).toBe(true);
    expect(sameRealAccount(a, { ...a, mask: '1111' })).toBe(false);
    expect(sameRealAccount(a, { ...a, institutionId: 'ins_2' })).toBe(false);
    expect(sameRealAccount(a, { ...a, subtype: 'savings' })).toBe(false);
  });
});

describe('merge plans', () => {
  const source = [tx('s1', '2026-01-01', -500), tx('s2', '2026-01-10', -700), tx('s3', '2026-02-01', 100)];
  const target = [tx('t1', '2026-01-01', -500), tx('t2', '2026-01-10', -700), tx('t9', '2026-01-15', 42)];
  const base = { source, target, conflicts: [], keepTargetsNonMatchedTransactions: true };

  it('forward-only-merge moves only what is newer than the target history', () => {
    expect(planMerge({ ...base, strategy: 'forward-only-merge' })).toEqual({ move: ['s3'], drop: ['s1', 's2'], removeTarget: [] });
  });
  it('complete-merge keeps the target of matched pairs by default and moves the rest', () => {
    expect(planMerge({ ...base, strategy: 'complete-merge' })).toEqual({ move: ['s3'], drop: ['s1', 's2'], removeTarget: [] });
  });
  it('complete-merge applies keep_source and keep_both', () => {
    const plan = planMerge({
      ...base,
      strategy: 'complete-merge',
      conflicts: [
        { sourceTransactionId: 's1', targetTransactionId: 't1', resolution: 'keep_source' },
        { sourceTransactionId: 's2', targetTransactionId: 't2', resolution: 'keep_both' },
      ],
    });
    expect(plan).toEqual({ move: ['s1', 's2', 's3'], drop: [], removeTarget: ['t1'] });
  });
  it('complete-merge removes unmatched target transactions in the source range when asked', () => {
    expect(planMerge({ ...base, strategy: 'complete-merge', keepTargetsNonMatchedTransactions: false })).toEqual({
      move: ['s3'],
      drop: ['s1', 's2'],
      removeTarget: ['t9'],
    });
  });
});

describe('jobs', () => {
  it('maps spec queue statuses to stored ones', () => {
    expect(storedStatusesFor([])).toBeUndefined();
    expect(storedStatusesFor(['wait', 'active'])).toEqual(['waiting', 'active']);
    expect(storedStatusesFor(['paused'])).toEqual([]);
  });
  it('backs off exponentially up to five minutes', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 1000))).toEqual([1000, 2000, 4000]);
    expect(retryDelayMs(30, 1000)).toBe(300_000);
  });
});
