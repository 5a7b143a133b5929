// The generator alone: speed and memory at benchmark size, determinism, id round trips.
import { describe, expect, it } from 'vitest';
import { findInstitution } from '../src/domain/catalog.js';
import { History, MAX_TRANSFER_LAG_DAYS, toDay } from '../src/domain/history.js';
import { SandboxItem } from '../src/domain/item.js';

const institution = findInstitution('ins_109508') ?? fail('missing institution');

function fail(message: string): never {
  throw new Error(message);
}
const accounts = institution.accounts.map((template, i) => ({ accountId: `acct-${i}`, template }));

function history(seed: number, count: number, itemId = 'item-1', transfers = true): History {
  return new History({
    itemId,
    seed,
    contentKey: 'ins_109508:user_good',
    count,
    startDate: '2024-07-01',
    endDate: '2026-06-30',
    pendingDays: 2,
    accounts,
    transfers,
  });
}

describe('generated history', () => {
  it('produces 100,000 transactions with unique ids that decode back (its speed is measured by npm run bench, not here)', () => {
    const h = history(7, 100_000);
    const ids: string[] = new Array<string>(h.count);
    let latestDay = 0;
    let outOfOrder = 0;
    for (let i = 0; i < h.count; i++) {
      const t = h.transactionAt(i);
      ids[i] = t.transaction_id;
      // Ascending, except that a transfer's second leg may come up to 3 days after the next slot's date.
      const day = toDay(t.date);
      if (day < latestDay - MAX_TRANSFER_LAG_DAYS) outOfOrder++;
      latestDay = Math.max(latestDay, day);
    }
    expect(outOfOrder).toBe(0);
    expect(new Set(ids).size).toBe(100_000);
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

  it('creates a 100,000-transaction item and pages deep into it', () => {
    const item = new SandboxItem(
      'item-x',
      'access-sandbox-x',
      institution,
      accounts,
      { seed: 1, contentKey: 'k', count: 100_000, startDate: '2024-07-01', endDate: '2026-06-30', pendingDays: 2 },
      { webhook: null, products: ['transactions'], username: 'user_good', now: new Date() },
    );
    const outcome = item.sync({ position: 99_800, end: 100_000 }, 500);
    expect(outcome.ok && outcome.page.added.length).toBe(200);
    expect(outcome.ok && outcome.page.hasMore).toBe(false);
  });

  it('sums 100,000 transactions per account exactly as the transactions add up', () => {
    const h = history(5, 100_000);
    const summaries = h.accountSummaries();
    const posted = [0, 0, 0];
    const pending = [0, 0, 0];
    for (let i = 0; i < h.count; i++) {
      const t = h.transactionAt(i);
      const a = accounts.findIndex((x) => x.accountId === t.account_id);
      const cents = Math.round(t.amount * 100);
      if (t.pending) pending[a] = (pending[a] ?? 0) + cents;
      else posted[a] = (posted[a] ?? 0) + cents;
    }
    expect(summaries.map((s) => s.postedCents)).toEqual(posted);
    expect(summaries.map((s) => s.pendingCents)).toEqual(pending);
    expect(h.accountSummaries()).toBe(summaries);
  });

  it('the light per-index summary agrees with the full transaction, for every institution', () => {
    for (const institutionId of ['ins_109508', 'ins_109509', 'ins_109510', 'ins_109511', 'ins_109512']) {
      const inst = findInstitution(institutionId) ?? fail('institution');
      const accts = inst.accounts.map((template, i) => ({ accountId: `a-${i}`, template }));
      const h = new History({
        itemId: 'i',
        seed: 3,
        contentKey: `${institutionId}:user_good`,
        count: 3000,
        startDate: '2025-01-01',
        endDate: '2026-06-30',
        pendingDays: 3,
        accounts: accts,
      });
      for (let i = 0; i < h.count; i++) {
        const t = h.transactionAt(i);
        const s = h.summaryAt(i);
        expect([accts[s.accountIndex]?.accountId, s.cents, s.pending, s.day]).toEqual([t.account_id, Math.round(t.amount * 100), t.pending, toDay(t.date)]);
      }
    }
  });

  it('pairs transfers and monthly card payments on consecutive indices; transfers: false has none', () => {
    const h = history(21, 6000);
    const transferCategories = new Set(['TRANSFER_IN', 'TRANSFER_OUT', 'LOAN_PAYMENTS']);
    const months = new Set<string>();
    let transfers = 0;
    for (let i = 0; i < h.count; i++) {
      const t = h.transactionAt(i);
      if (t.personal_finance_category?.detailed === 'TRANSFER_OUT_WITHDRAWAL') continue; // cash at an ATM: one-sided
      if (!transferCategories.has(t.personal_finance_category?.primary ?? '')) continue;
      // The sending leg is the even index, the receiving one right after it.
      expect(i % 2).toBe(0);
      const other = h.transactionAt(i + 1);
      expect(other.amount).toBe(-t.amount);
      expect(t.amount).toBeGreaterThan(0);
      expect(other.account_id).not.toBe(t.account_id);
      expect(toDay(other.date) - toDay(t.date)).toBeGreaterThanOrEqual(0);
      expect(toDay(other.date) - toDay(t.date)).toBeLessThanOrEqual(MAX_TRANSFER_LAG_DAYS);
      if (t.personal_finance_category?.primary === 'LOAN_PAYMENTS') {
        expect(other.account_id).toBe('acct-2');
        expect(other.personal_finance_category?.detailed).toBe('LOAN_PAYMENTS_CREDIT_CARD_PAYMENT');
        expect(other.name).toMatch(/^(AUTOPAY PAYMENT - THANK YOU|Payment Thank You)$/);
        expect(t.name).toMatch(/(AUTOPAY PMT|Payment to Card) \.\.\.3333$/);
        months.add(t.date.slice(0, 7));
      } else {
        expect(t.name).toMatch(/^Online Transfer to (Savings \.\.\.1111|Checking \.\.\.0000)$/);
        transfers++;
      }
      i++;
    }
    expect(months.size).toBeGreaterThanOrEqual(22);
    expect(transfers).toBeGreaterThanOrEqual(20);
    const plain = history(21, 6000, 'item-1', false);
    for (let i = 0; i < plain.count; i++) expect(plain.pairPlan(i >> 1)).toBeUndefined();
  });

  it('opens each account so that money held never goes below zero and a card stays within its limit', () => {
    for (const seed of [1, 2, 3, 4]) {
      const h = history(seed, 4000);
      const summaries = h.accountSummaries();
      const byDay = accounts.map(() => new Map<number, number>());
      for (let i = 0; i < h.count; i++) {
        const s = h.summaryAt(i);
        if (!s.pending) byDay[s.accountIndex]?.set(s.day, (byDay[s.accountIndex]?.get(s.day) ?? 0) + s.cents);
      }
      summaries.forEach((summary, a) => {
        const credit = accounts[a]?.template.kind === 'credit';
        expect(summary.openingCents).toBeGreaterThan(0);
        let balance = summary.openingCents;
        for (const day of [...(byDay[a]?.keys() ?? [])].sort((x, y) => x - y)) {
          balance += (credit ? 1 : -1) * (byDay[a]?.get(day) ?? 0);
          expect(balance).toBeGreaterThanOrEqual(0);
          if (credit) expect(balance).toBeLessThanOrEqual(summary.limitCents ?? 0);
        }
      });
      // A card owes roughly its unpaid spending: no more than a few months of it.
      const card = summaries[2] ?? fail('card');
      expect(card.openingCents + card.postedCents).toBeLessThan(card.limitCents ?? 0);
    }
  });
});
