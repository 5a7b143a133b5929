import { addDays, addMonths } from './dates.js';

/**
 * The fiscal year (issue #12): it starts on the first day of a month chosen per workspace (1 = January,
 * the default) and lasts twelve months. Income and expense accounts show only the current fiscal year;
 * the net income of every earlier year belongs to Retained Earnings (a virtual close: nothing is posted).
 */
export const DEFAULT_FISCAL_YEAR_START_MONTH = 1;

export function isFiscalYearStartMonth(month: unknown): month is number {
  return typeof month === 'number' && Number.isInteger(month) && month >= 1 && month <= 12;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The first day of the fiscal year holding `date` (YYYY-MM-DD), for a year starting in `startMonth`. */
export function fiscalYearStart(date: string, startMonth: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return `${String(month >= startMonth ? year : year - 1).padStart(4, '0')}-${pad(startMonth)}-01`;
}

/** The last day of the fiscal year holding `date`. */
export function fiscalYearEnd(date: string, startMonth: number): string {
  return addDays(addMonths(fiscalYearStart(date, startMonth), 12), -1);
}

/** A fiscal year is named by the calendar year it ends in (July 2025 – June 2026 is fiscal year 2026). */
export function fiscalYearName(date: string, startMonth: number): string {
  return fiscalYearEnd(date, startMonth).slice(0, 4);
}

export interface FiscalYear {
  start: string;
  end: string;
  name: string;
}

export function fiscalYearOf(date: string, startMonth: number): FiscalYear {
  return { start: fiscalYearStart(date, startMonth), end: fiscalYearEnd(date, startMonth), name: fiscalYearName(date, startMonth) };
}

/**
 * The fiscal years closed as of `asOf` that hold at least one of `months` (first days of months, any
 * order): every year that ended before the fiscal year of `asOf` began. Oldest first.
 */
export function closedFiscalYears(months: readonly string[], asOf: string, startMonth: number): FiscalYear[] {
  const current = fiscalYearStart(asOf, startMonth);
  const starts = new Set(months.filter((m) => m < current).map((m) => fiscalYearStart(m, startMonth)));
  return [...starts].sort().map((s) => fiscalYearOf(s, startMonth));
}

/** Income and expense accounts are closed into Retained Earnings at each fiscal year end. */
export function isProfitAndLoss(classGroup: string): boolean {
  return classGroup === 'Income' || classGroup === 'Expenses';
}

/** What the virtual closing line of a year says in the Retained Earnings ledger. */
export function closingDescription(fy: FiscalYear): string {
  return `Net income of fiscal year ${fy.name} closed to Retained Earnings`;
}
