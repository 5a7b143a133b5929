// The generator alone: speed and memory at benchmark size, determinism, id round trips.
import { describe, expect, it } from 'vitest';
import { findInstitution } from '../src/domain/catalog.js';
import { History } from '../src/domain/history.js';
import { SandboxItem } from '../src/domain/item.js';

const institution = findInstitution('ins_109508') ?? fail('missing institution');

function fail(message: string): never {
  throw new Error(message);
}
const accounts = institution.accounts.map((template, i) => ({ accountId: `acct-${i}`, template }));

function history(seed: number, count: number, itemId = 'item-1'): History {
  return new History({ itemId, seed, contentKey: 'ins_109508:user_good', count, startDate: '2024-07-01', endDate: '2026-06-30', pendingDays: 2, accounts });
}

describe('generated history', () => {
  it('produces 100,000 transactions in well under 2 s, with unique ids that decode back', () => {
    const started = performance.now();
    const h = history(7, 100_000);
    const ids: string[] = new Array<string>(h.count);
    let previousDate = '';
    let outOfOrder = 0;
    for (let i = 0; i < h.count; i++) {
      const t = h.transactionAt(i);
      ids[i] = t.transaction_id;
      if (t.date < previousDate) outOfOrder++;
      previousDate = t.date;
    }
    const elapsed = performance.now() - started;
    expect(outOfOrder).toBe(0);
    expect(new Set(ids).size).toBe(100_000);
    expect(elapsed).toBeLessThan(2000);
    expect(h.indexOf(h.idOf(98_765))).toBe(98_765);
    expect(h.indexOf(history(7, 100_000, 'item-2').idOf(98_765))).toBeUndefined();
  });

  it('is a pure function of the seed', () => {
    const a = history(3, 1000);
    const b = history(3, 1000);
    const c = history(4, 1000);
    expect(a.transactionAt(500)).toEqual(b.transactionAt(500));
    expect({ ...a.transactionAt(500), transaction_id: '' }).not.toEqual({ ...c.transactionAt(500), transaction_id: '' });
  });

  it('uses every account and both signs, with money in whole cents', () => {
    const h = history(11, 5000);
    const byAccount = new Map<string, number>();
    let inflows = 0;
    let fractionalCents = 0;
    for (let i = 0; i < h.count; i++) {
      const t = h.transactionAt(i);
      byAccount.set(t.account_id, (byAccount.get(t.account_id) ?? 0) + 1);
      if (t.amount < 0) inflows++;
      if (Math.round(t.amount * 100) / 100 !== t.amount) fractionalCents++;
    }
    expect(fractionalCents).toBe(0);
    expect(byAccount.size).toBe(3);
    expect(inflows).toBeGreaterThan(50);
  });

  it('creates a 100,000-transaction item instantly and pages deep into it without generating the rest', () => {
    const started = performance.now();
    const item = new SandboxItem('item-x', 'access-sandbox-x', institution, accounts, { seed: 1, contentKey: 'k', count: 100_000, startDate: '2024-07-01', endDate: '2026-06-30', pendingDays: 2 }, { webhook: null, products: ['transactions'], username: 'user_good', now: new Date() });
    const outcome = item.sync({ position: 99_800, end: 100_000 }, 500);
    expect(performance.now() - started).toBeLessThan(200);
    expect(outcome.ok && outcome.page.added.length).toBe(200);
    expect(outcome.ok && outcome.page.hasMore).toBe(false);
  });
});
