import type { Knex } from '@ledgerline/platform';
import { MIN_DATE } from '../domain/dates.js';
import { fiscalYearOf, fiscalYearStart, type FiscalYear } from '../domain/fiscal-year.js';
import { netIncomeByMonth } from '../store/balances.js';
import { fiscalYearStartMonth } from '../store/chart-store.js';

export interface YearEndClose {
  fiscalYear: FiscalYear;
  /** The year's net income (income − expenses), credited to Retained Earnings when > 0. */
  netCents: number;
}

const maxDate = (a: string, b: string) => (a > b ? a : b);

/** Today in UTC: the date a chart or ledger without an end date is "as of". */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

export interface FiscalContext {
  startMonth: number;
  /** The date whose fiscal year is the current one: the end date, or today without one. */
  asOf: string;
  /** The first day of that fiscal year: income and expense accounts count from it. */
  currentStart: string;
  /** One virtual closing line per closed fiscal year with a net income, oldest first. */
  closes: YearEndClose[];
}

/**
 * The year-end close as of a date, computed, never posted: every fiscal year that ended before the
 * current one (the fiscal year of `endDate`, or of today when there is none) is closed into Retained
 * Earnings by its net income. One query over the monthly balances (a row per month with P&L lines).
 */
export async function fiscalContext(trx: Knex.Transaction, endDate: string): Promise<FiscalContext> {
  const startMonth = await fiscalYearStartMonth(trx);
  const asOf = endDate || todayUtc();
  // The first business date (MIN_DATE, which reporting asks the chart as of) opens a fiscal year that
  // would start the year before for any start month but January: no business date exists before it, so it starts there.
  const currentStart = maxDate(fiscalYearStart(asOf, startMonth), MIN_DATE);
  const byYear = new Map<string, YearEndClose>();
  for (const m of await netIncomeByMonth(trx, currentStart)) {
    const fy = fiscalYearOf(m.month, startMonth);
    const c = byYear.get(fy.start) ?? { fiscalYear: fy, netCents: 0 };
    c.netCents += m.net;
    byYear.set(fy.start, c);
  }
  const closes = [...byYear.values()].filter((c) => c.netCents !== 0).sort((a, b) => (a.fiscalYear.start < b.fiscalYear.start ? -1 : 1));
  return { startMonth, asOf, currentStart, closes };
}
