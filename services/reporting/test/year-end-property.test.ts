// Property (issue #12): random books over more than three years — income, cost of goods sold, other income,
// operating and other expenses, Transfer-class lines and direct postings to Retained Earnings — and a fiscal
// year starting in January or July: every P&L account cell equals the lines of its account in the column
// (columns are months, each inside one fiscal year); Gross Profit, Net Operating Income and Net Income equal
// their formulas; the balance sheet balances at every month end; Retained Earnings at every month end (so at
// every year end) = what is booked to it + the net income of every earlier fiscal year; Net Income = the
// fiscal year to date. The oracle sums the generated lines themselves.
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus } from '@ledgerline/platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fiscalYearStart } from '../src/domain/dates.js';
import type { ReportRow } from '../src/domain/report.js';
import { AccountDirectory } from '../src/usecases/accounts.js';
import { ReportUseCases, type Conditional } from '../src/usecases/reports.js';
import { publishEntry, startReporting, type ReportingHarness } from './support.js';

const bus = await createTestBus('reporting-year-end');
const ids = () => newId();
const A = {
  assets: ids(),
  cash: ids(),
  checking: ids(),
  liability: ids(),
  card: ids(),
  equity: ids(),
  re: ids(),
  owner: ids(),
  income: ids(),
  opInc: ids(),
  sales: ids(),
  othInc: ids(),
  interest: ids(),
  expenses: ids(),
  cogsG: ids(),
  cogs: ids(),
  opex: ids(),
  rent: ids(),
  othExp: ids(),
  fx: ids(),
  transfer: ids(),
  xfer: ids(),
};
const chart = [
  [A.assets, 'Assets', 10000, 'Assets', 1, ''],
  [A.cash, 'Cash and Cash Equivalents', 11100, 'Assets', 2, A.assets, 'cash'],
  [A.checking, 'Checking', 11101, 'Assets', 3, A.cash],
  [A.liability, 'Liability', 20000, 'Liability', 1, ''],
  [A.card, 'Visa', 21201, 'Liability', 2, A.liability],
  [A.equity, 'Equity', 30000, 'Equity', 1, ''],
  [A.re, 'Retained Earnings', 32000, 'Equity', 2, A.equity, 'retained_earnings'],
  [A.owner, 'Owner Investment', 31000, 'Equity', 2, A.equity],
  [A.income, 'Income', 40000, 'Income', 1, ''],
  [A.opInc, 'Operating Income', 41000, 'Income', 2, A.income],
  [A.sales, 'Sales', 41100, 'Income', 3, A.opInc],
  [A.othInc, 'Other Income', 42000, 'Income', 2, A.income],
  [A.interest, 'Interest Income', 42100, 'Income', 3, A.othInc],
  [A.expenses, 'Expenses', 50000, 'Expenses', 1, ''],
  [A.cogsG, 'Cost of Goods Sold', 51000, 'Expenses', 2, A.expenses],
  [A.cogs, 'Hosting', 51200, 'Expenses', 3, A.cogsG],
  [A.opex, 'Operating Expenses', 60000, 'Expenses', 2, A.expenses],
  [A.rent, 'Rent', 60900, 'Expenses', 3, A.opex],
  [A.othExp, 'Other Expenses', 70000, 'Expenses', 2, A.expenses],
  [A.fx, 'FX Loss', 70100, 'Expenses', 3, A.othExp],
  [A.transfer, 'Transfer', 90000, 'Transfer', 1, ''],
  [A.xfer, 'Internal Transfers', 91000, 'Transfer', 2, A.transfer],
] as const;
const TYPE = new Map<string, string>(chart.map((c) => [c[0], c[3]]));
const POSTABLE = [A.checking, A.card, A.re, A.owner, A.sales, A.interest, A.cogs, A.rent, A.fx, A.xfer];
const state = { fiscalYearStartMonth: 1 };
const ledger = {
  async getChartOfAccounts() {
    const { create } = await import('@bufbuild/protobuf');
    const { CategorySchema, GetChartOfAccountsResponseSchema } = await import('@ledgerline/proto/ledger/v1/ledger_pb');
    return create(GetChartOfAccountsResponseSchema, {
      fiscalYearStartMonth: state.fiscalYearStartMonth,
      chartOfAccounts: chart.map((c) =>
        create(CategorySchema, { id: c[0], name: c[1], coaId: c[2], type: c[3], level: c[4], parentId: c[5], systemKey: c[6] ?? '' }),
      ),
    });
  },
} as never;

let r: ReportingHarness;
let reports: ReportUseCases;
beforeAll(async () => {
  r = await startReporting(bus, { batchSize: 200, ledger });
  // The chart is read afresh for every workspace (a new one each run); no report cache, to test the reads themselves.
  reports = new ReportUseCases({
    db: r.db.appDb,
    logger: createLogger('prop', 'silent'),
    accounts: new AccountDirectory(ledger, 0, r.db.appDb),
    catchUpTimeoutMs: 10_000,
    cacheEntries: 0,
  });
}, 60_000);
afterAll(async () => {
  await r?.close();
  await bus.close();
});

const FIRST = Date.UTC(2023, 0, 1);
const DAYS = 3 * 365 + 200;
const dateOf = (day: number) => new Date(FIRST + day * 86_400_000).toISOString().slice(0, 10);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const body = <T>(x: Conditional<T>): T => {
  if ('notModified' in x && x.notModified) throw new Error('not modified');
  return x as T;
};
const flat = (rows: readonly ReportRow[]): ReportRow[] => rows.flatMap((x) => [x, ...flat(x.children)]);
const raw = (startDate: string, endDate: string, seq: number) => ({
  startDate,
  endDate,
  breakdown: 'month',
  periodicity: '',
  groups: '',
  tags: '',
  excludeZeroes: '',
  seq: String(seq),
});

interface Line {
  day: number;
  debit: string;
  credit: string;
  cents: number;
}
const entryArb = fc
  .record({
    day: fc.integer({ min: 0, max: DAYS }),
    debit: fc.constantFrom(...POSTABLE),
    credit: fc.constantFrom(...POSTABLE),
    cents: fc.integer({ min: 1, max: 500_000 }),
  })
  .filter((e) => e.debit !== e.credit);

/** Normal-direction sum of the lines of `account` dated in [from, to]. */
const oracle = (lines: readonly Line[], account: string, from: string, to: string) =>
  lines.reduce((s, l) => {
    const d = dateOf(l.day);
    if (d < from || d > to) return s;
    const debitNormal = ['Assets', 'Expenses', 'Transfer'].includes(TYPE.get(account) ?? '');
    const signed = (l.debit === account ? l.cents : 0) - (l.credit === account ? l.cents : 0);
    return s + (debitNormal ? signed : -signed);
  }, 0);
const netIncome = (lines: readonly Line[], from: string, to: string) =>
  [A.sales, A.interest].reduce((s, a) => s + oracle(lines, a, from, to), 0) - [A.cogs, A.rent, A.fx].reduce((s, a) => s + oracle(lines, a, from, to), 0);

let seq = 0;
it('P&L cells and formulas, the balance sheet balancing, retained earnings closing every fiscal year (January or July)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(entryArb, { minLength: 5, maxLength: 40 }),
      fc.constantFrom(1, 7),
      fc.integer({ min: 0, max: 3 }),
      async (lines, fiscalMonth, year) => {
        state.fiscalYearStartMonth = fiscalMonth;
        const w = newId();
        const tenant = { workspaceId: w, userId: newId(), role: 'Owner' as const };
        for (const l of lines)
          await publishEntry(bus, w, {
            seq: ++seq,
            date: dateOf(l.day),
            lines: [
              { accountId: l.debit, direction: 'debit', amountCents: l.cents },
              { accountId: l.credit, direction: 'credit', amountCents: l.cents },
            ],
          });
        // Wait for every entry: each read names one seq; the last published is applied last (one ordered stream).
        for (let tries = 0; ; tries++) {
          const n = Number(((await r.db.adminDb.raw('select count(*) as n from projected_entries where workspace_id = ?', [w])).rows as { n: string }[])[0]?.n);
          if (n === lines.length) break;
          if (tries > 200) throw new Error('entries not applied');
          await new Promise((res) => setTimeout(res, 50));
        }

        // P&L of one fiscal year by month.
        const fyStart = fiscalYearStart(`${2023 + year}-08-15`, fiscalMonth);
        const fyEnd = addDays(fiscalYearStart(addDays(fyStart, 400), fiscalMonth), -1);
        const pl = body(await reports.profitLoss(tenant, raw(fyStart, fyEnd, seq)));
        expect(pl.columns).toHaveLength(12);
        const row = (name: string) => pl.rows.find((x) => x.name === name) as ReportRow;
        for (const [i, c] of pl.columns.entries()) {
          for (const account of [A.sales, A.interest, A.cogs, A.rent, A.fx])
            expect(flat(pl.rows).find((x) => x.id === account)?.amounts[i], `${account} ${c.start}`).toBe(oracle(lines, account, c.start, c.end));
          const v = (name: string) => row(name).amounts[i] ?? NaN;
          expect(v('Income')).toBe(oracle(lines, A.sales, c.start, c.end));
          expect(v('Other Income')).toBe(oracle(lines, A.interest, c.start, c.end));
          expect(v('Cost of Goods Sold')).toBe(oracle(lines, A.cogs, c.start, c.end));
          expect(v('Expenses')).toBe(oracle(lines, A.rent, c.start, c.end));
          expect(v('Other Expenses')).toBe(oracle(lines, A.fx, c.start, c.end));
          expect(v('Gross Profit')).toBe(v('Income') - v('Cost of Goods Sold'));
          expect(v('Net Operating Income')).toBe(v('Gross Profit') - v('Expenses'));
          expect(v('Net Income')).toBe(v('Net Operating Income') + v('Other Income') - v('Other Expenses'));
          expect(v('Net Income')).toBe(netIncome(lines, c.start, c.end));
        }

        // The balance sheet at every month end of the whole span.
        const bs = body(await reports.balanceSheet(tenant, raw(dateOf(0), dateOf(DAYS), seq)));
        const get = (name: string) => bs.rows.find((x) => x.name === name) as ReportRow;
        for (const [i, c] of bs.columns.entries()) {
          const f = fiscalYearStart(c.end, fiscalMonth);
          expect(get('Total Assets').amounts[i], `balances ${c.end}`).toBe(get('Total Liabilities and Equity').amounts[i]);
          const re = flat(bs.rows).find((x) => x.id === A.re);
          expect(re?.amounts[i] ?? 0, `retained earnings ${c.end}`).toBe(
            oracle(lines, A.re, '0001-01-01', c.end) + netIncome(lines, '0001-01-01', addDays(f, -1)),
          );
          expect(get('Net Income').amounts[i], `net income ${c.end}`).toBe(netIncome(lines, f, c.end));
          expect(get('Net Income').drill).toMatchObject({ report: 'pnl' });
          expect(get('Net Income').drill?.startDates[i]).toBe(f);
          for (const account of [A.checking, A.card, A.owner, A.xfer])
            expect(flat(bs.rows).find((x) => x.id === account)?.amounts[i] ?? 0).toBe(oracle(lines, account, '0001-01-01', c.end));
        }
      },
    ),
    { numRuns: Number(process.env.REPORTING_PROPERTY_RUNS ?? 8), endOnFailure: true },
  );
}, 300_000);
