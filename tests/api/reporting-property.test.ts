// Property (issue #5 "Must show"): for random ledgers posted through the real ledger (bank transactions
// booked on arrival, then re-categorised — each a reversal plus a new entry — into income, expense,
// asset, liability and equity accounts), and random report queries:
//   - every profit-and-loss cell equals the sum of the ledger's lines behind it (the account and the
//     accounts under it, in the column's dates), read straight from the ledger's journal_lines;
//   - every balance-sheet account cell equals the lines up to the column's date, and the balance sheet
//     balances (Total Assets = Total Liabilities and Equity) at every column;
//   - the cash-flow statement's net change in cash equals the change of the cash accounts' lines;
//   - the P&L net income of [start, end] equals the change in retained earnings + current earnings
//     between the balance sheets as of start − 1 day and as of end.
// REPORTING_PROPERTY_RUNS sets the number of random ledgers (default 6).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountRows, cents, expected, lineSums, subtreeIds, type Column, type Row } from './report-oracle.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

let h: ReportingApiHarness;
beforeAll(async () => {
  h = await startReportingHarness();
}, 60_000);
afterAll(async () => h?.close());

const CATEGORIES = [
  'Sales',
  'Service Revenue',
  'Interest Income',
  'Rent',
  'Software and Subscriptions',
  'Cost of Sales',
  'Travel',
  'Loans Payable',
  'Security Deposits',
  'Uncategorised Income',
  'Uncategorised Expense',
];
const PERIODICITIES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'totals_only'];
const FIRST = Date.UTC(2025, 9, 1);
const dateOf = (day: number) => new Date(FIRST + day * 86_400_000).toISOString().slice(0, 10);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const ledgerArb = fc.record({
  adds: fc.array(
    fc.record({ card: fc.boolean(), cents: fc.integer({ min: -300_000, max: 300_000 }).filter((c) => c !== 0), day: fc.integer({ min: 0, max: 240 }) }),
    { minLength: 1, maxLength: 14 },
  ),
  recategorise: fc.array(fc.record({ txn: fc.nat(), category: fc.nat() }), { maxLength: 10 }),
  queries: fc.array(
    fc.record({ from: fc.integer({ min: 0, max: 260 }), length: fc.integer({ min: 0, max: 260 }), periodicity: fc.constantFrom(...PERIODICITIES) }),
    { minLength: 1, maxLength: 3 },
  ),
});

type LedgerInput = typeof ledgerArb extends fc.Arbitrary<infer T> ? T : never;

async function post(t: Tenant, input: LedgerInput): Promise<void> {
  const checking = await t.banking.link();
  const card = await t.banking.link({ name: 'Visa', type: 'credit', subtype: 'credit card', mask: '4242' });
  for (const a of input.adds) await t.banking.add(a.card ? card : checking, { amountCents: a.cents, date: dateOf(a.day), name: `T${a.cents}` });
  const txns = (await h.transactions(t, input.adds.length)).data as { id: string }[];
  const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[];
  for (const r of input.recategorise) {
    const txn = txns[r.txn % txns.length] as { id: string };
    const category = cats.find((c) => c.name === CATEGORIES[r.category % CATEGORIES.length]) as { id: string };
    const res = await h.api('PATCH', `/transactions/${txn.id}`, { tenant: t, body: { categoryId: category.id } });
    // The same category again is refused or a no-op; either way nothing half-done.
    expect([200, 400]).toContain(res.status);
  }
  await h.caughtUp(t);
}

/** Income − expenses of the lines, in cents. */
const netIncomeOf = (sums: Awaited<ReturnType<typeof lineSums>>, types: ReadonlyMap<string, string>) =>
  [...sums].reduce((s, [id, x]) => s + (types.get(id) === 'Income' ? x.c - x.d : types.get(id) === 'Expenses' ? x.c - x.d : 0), 0);

it('every report cell equals the lines behind it; the balance sheet balances; net income = change in earnings', async () => {
  await fc.assert(
    fc.asyncProperty(ledgerArb, async (input) => {
      const t = h.tenant();
      await post(t, input);
      const types = new Map(((await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; type: string }[]).map((c) => [c.id, c.type]));
      for (const q of input.queries) {
        const start = dateOf(q.from);
        const end = dateOf(q.from + q.length);
        const query = `startDate=${start}&endDate=${end}&periodicity=${q.periodicity}`;
        const pl = await h.api('GET', `/financial-data/profit-loss/v3?${query}`, { tenant: t });
        if (pl.status === 400) {
          // Only a daily or weekly breakdown over a long period is refused (too many columns).
          expect(pl.body.errors[0].field).toBe('periodicity');
          continue;
        }
        expect(pl.status).toBe(200);
        const columns = pl.body.report.columns as Column[];
        for (const [i, col] of columns.entries()) {
          const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, col.startDate, col.endDate);
          for (const r of accountRows(pl.body.report.data))
            expect(cents(r.amounts[i] ?? NaN), `${r.name} ${col.startDate}..${col.endDate}`).toBe(expected(sums, r));
        }
        const bs = await h.api('GET', `/financial-data/balance-sheet/v2?${query}`, { tenant: t });
        expect(bs.status).toBe(200);
        const data = bs.body.data as Row[];
        const row = (name: string) => data.find((r) => r.name === name) as Row;
        for (const [i, col] of (bs.body.columns as Column[]).entries()) {
          expect(cents(row('Total Assets').amounts[i] ?? NaN)).toBe(cents(row('Total Liabilities and Equity').amounts[i] ?? NaN));
          const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, '0001-01-01', col.endDate);
          // Equity holds Retained Earnings, which closes the earlier fiscal years (January) into itself: checked below.
          for (const r of accountRows(data).filter((x) => x.type !== 'Equity'))
            expect(cents(r.amounts[i] ?? NaN), `${r.name} as of ${col.endDate}`).toBe(expected(sums, r));
          const fiscalYear = `${col.endDate.slice(0, 4)}-01-01`;
          const before = await lineSums(h.ledger.db.adminDb, t.workspaceId, '0001-01-01', addDays(fiscalYear, -1));
          const retained = accountRows(data).find((r) => r.name === 'Retained Earnings') as Row;
          expect(cents(retained.amounts[i] ?? NaN), `retained earnings as of ${col.endDate}`).toBe(expected(sums, retained) + netIncomeOf(before, types));
          expect(cents(row('Net Income').amounts[i] ?? NaN), `net income as of ${col.endDate}`).toBe(
            netIncomeOf(await lineSums(h.ledger.db.adminDb, t.workspaceId, fiscalYear, col.endDate), types),
          );
        }
        const cashIds = subtreeIds(accountRows(data).find((r) => r.name === 'Cash and Cash Equivalents') as Row);
        const flow = await h.api('GET', `/financial-data/cash-flow-statement?${query}`, { tenant: t });
        const netChange = (flow.body.data as Row[]).find((r) => r.name === 'Net Change in Cash') as Row;
        for (const [i, col] of (flow.body.columns as Column[]).entries()) {
          const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, col.startDate, col.endDate);
          const cashDelta = cashIds.reduce((sum, id) => sum + (sums.get(id)?.d ?? 0) - (sums.get(id)?.c ?? 0), 0);
          expect(cents(netChange.amounts[i] ?? NaN), `net change in cash ${col.startDate}..${col.endDate}`).toBe(cashDelta);
        }
        const dashboard = await h.api('GET', `/financial-data/cash-flow?${query}`, { tenant: t });
        const cashRow = accountRows(data).find((r) => r.name === 'Cash and Cash Equivalents') as Row;
        expect((dashboard.body.data as { name: string; data: number[] }[]).find((x) => x.name === 'Closing Balance')?.data).toEqual(cashRow.amounts);
        const earnings = async (asOf: string) => {
          const sheet = (
            await h.api('GET', `/financial-data/balance-sheet/v2?startDate=${addDays(asOf, -30)}&endDate=${asOf}&periodicity=totals_only`, { tenant: t })
          ).body.data as Row[];
          return cents(
            (accountRows(sheet).find((r) => r.name === 'Retained Earnings')?.total ?? NaN) + (sheet.find((r) => r.name === 'Net Income')?.total ?? NaN),
          );
        };
        const totals = await h.api('GET', `/financial-data/profit-loss/v3?startDate=${start}&endDate=${end}&periodicity=totals_only`, { tenant: t });
        const netIncome = cents((totals.body.report.data as Row[]).at(-1)?.total ?? NaN);
        expect(netIncome).toBe((await earnings(end)) - (await earnings(addDays(start, -1))));
      }
    }),
    { numRuns: Number(process.env.REPORTING_PROPERTY_RUNS ?? 6), endOnFailure: true },
  );
}, 600_000);
