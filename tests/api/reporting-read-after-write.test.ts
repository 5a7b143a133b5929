// Reads after writes (ARCHITECTURE §3) through the real gateway: every change to the books answers the
// ledger's commit sequence; a report asked with it right away waits until it reflects the change. A change
// that posts nothing answers the workspace's current sequence, so a client can always pass it on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

let h: ReportingApiHarness;
let t: Tenant;
let coffee: { id: string; biller: { id: string } };
let payout: { id: string };
const category: Record<string, string> = {};

interface Row {
  name: string;
  total: number;
  children: Row[];
}
const find = (rows: Row[], name: string): Row | undefined => {
  for (const r of rows) {
    if (r.name === name) return r;
    const hit = find(r.children, name);
    if (hit) return hit;
  }
  return undefined;
};
const PERIOD = 'startDate=2026-01-01&endDate=2026-01-31&periodicity=totals_only';
const pl = (seq: number) => h.api('GET', `/financial-data/profit-loss/v3?${PERIOD}&seq=${seq}`, { tenant: t });
const bs = (seq: number) => h.api('GET', `/financial-data/balance-sheet/v2?${PERIOD}&seq=${seq}`, { tenant: t });
/** The P&L total of an account, asked with `seq` and nothing else waited for. */
const plTotal = async (seq: number, name: string) => {
  const r = await pl(seq);
  expect(r.status).toBe(200);
  expect(r.body.header.caughtUp).toBe(true);
  expect(r.body.header.seq).toBeGreaterThanOrEqual(seq);
  const row = find(r.body.report.data as Row[], name);
  if (!row) throw new Error(`no row ${name} in the P&L`);
  return row.total;
};

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  const checking = await t.banking.link();
  await t.banking.add(checking, { amountCents: -4_550, date: '2026-01-20', name: 'Blue Bottle Coffee' });
  await t.banking.add(checking, { amountCents: 250_000, date: '2026-01-15', name: 'Stripe payout' });
  const txns = (await h.transactions(t, 2)).data as { id: string; amount: number; biller: { id: string } }[];
  coffee = txns.find((x) => x.amount === -45.5) as typeof coffee;
  payout = txns.find((x) => x.amount === 2500) as typeof payout;
  for (const c of (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[]) category[c.name] = c.id;
  await h.caughtUp(t);
}, 120_000);
afterAll(async () => h?.close());

describe('mutations answer seq; reports asked with it show the change at once', () => {
  it('categorising answers a higher seq, and the P&L asked with it right away has the new category', async () => {
    const before = (await h.api('GET', `/financial-data/profit-loss/v3?${PERIOD}`, { tenant: t })).body.header.seq as number;
    let last = before;
    // Back and forth: each answer is a new reversal + entry, and each report right after it shows the move.
    for (const [to, from] of [
      ['Software and Subscriptions', 'Uncategorised Expense'],
      ['Rent', 'Software and Subscriptions'],
      ['Software and Subscriptions', 'Rent'],
    ] as const) {
      const r = await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: category[to] } });
      expect(r.status).toBe(200);
      expect(Number.isInteger(r.body.seq)).toBe(true);
      expect(r.body.seq).toBeGreaterThan(last);
      last = r.body.seq;
      expect(await plTotal(last, to)).toBe(45.5);
      expect(await plTotal(last, from)).toBe(0);
    }
  });

  it('a change that posts nothing answers the current seq, which a report has already reached', async () => {
    const categorised = await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: category['Software and Subscriptions'] } });
    const current = categorised.body.seq as number;
    expect(current).toBeGreaterThan(0);
    const finalized = await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [coffee.id], isTxnFinalized: true } });
    expect(finalized.status).toBe(200);
    expect(finalized.body.seq).toBe(current);
    const unfinalized = await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [coffee.id], isTxnFinalized: false } });
    expect(unfinalized.body.seq).toBe(current);
    expect(await plTotal(current, 'Software and Subscriptions')).toBe(45.5);
  });

  it('bulk updates, billers, opening balances and accruals answer seq too', async () => {
    let last = (await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: category['Software and Subscriptions'] } })).body
      .seq as number;
    const posts = async (r: { status: number; body: { seq: number } }) => {
      expect(r.status).toBe(200);
      expect(r.body.seq).toBeGreaterThan(last);
      last = r.body.seq;
    };

    await posts(await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: payout.id, categoryId: category.Sales }] } }));
    expect(await plTotal(last, 'Sales')).toBe(2500);

    await posts(await h.api('PATCH', `/billers/${coffee.biller.id}`, { tenant: t, body: { categoryId: category.Rent } }));
    expect(await plTotal(last, 'Rent')).toBe(45.5);

    const bank = category['Checking ••1234'] as string;
    const opening = { openingBalance: 1_000, openingBalanceDate: '2026-01-01' };
    await posts(await h.api('PUT', `/categories/${bank}/opening-balance`, { tenant: t, body: opening }));
    const equity = async (seq: number) => {
      const r = await bs(seq);
      expect(r.body.header).toMatchObject({ caughtUp: true });
      const row = find(r.body.data as Row[], 'Opening Balance Equity');
      if (!row) throw new Error('no Opening Balance Equity row in the balance sheet');
      return row.total;
    };
    expect(await equity(last)).toBe(1_000);
    // Saving the same balance again posts nothing and answers the seq it had.
    const again = await h.api('PUT', `/categories/${bank}/opening-balance`, { tenant: t, body: opening });
    expect(again.body.seq).toBe(last);
    await posts(await h.api('DELETE', `/categories/${bank}/opening-balance`, { tenant: t }));
    expect(await equity(last)).toBe(0);

    await posts(
      await h.api('POST', '/transactions/create-accrual', {
        tenant: t,
        body: {
          transactionId: coffee.id,
          accrualStartDate: '2026-01-01',
          accrualEndDate: '2026-03-31',
          accrualCategory: 'Prepaid Expenses',
          recogniseCategoryId: category['Software and Subscriptions'],
        },
      }),
    );
    // January recognises a third of it; the rest waits in Prepaid Expenses.
    expect(await plTotal(last, 'Software and Subscriptions')).toBe(15.16);
    await posts(await h.api('DELETE', `/transactions/accrual-schedule?transactionId=${coffee.id}`, { tenant: t }));
    expect(await plTotal(last, 'Software and Subscriptions')).toBe(0);
    expect(await plTotal(last, 'Rent')).toBe(45.5);
  });
});
