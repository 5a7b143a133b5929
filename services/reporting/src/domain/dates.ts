// Business dates are YYYY-MM-DD strings (no time zone); arithmetic in UTC.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in the product format YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The first and last business dates the product takes (the services' RPC input rules refuse any other). */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2100-12-31';

const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The first day of the month `n` months after `date`'s month. */
export function addMonths(date: string, n: number): string {
  const d = utc(monthStart(date));
  d.setUTCMonth(d.getUTCMonth() + n);
  return iso(d);
}

export function monthEnd(date: string): string {
  return addDays(addMonths(date, 1), -1);
}

export function daysInMonth(date: string): number {
  return Number(monthEnd(date).slice(8, 10));
}

/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((utc(b).getTime() - utc(a).getTime()) / 86_400_000);
}

/** 0 = Monday ... 6 = Sunday. */
export function weekday(date: string): number {
  return (utc(date).getUTCDay() + 6) % 7;
}

export function todayUtc(now = new Date()): string {
  return iso(now);
}

/**
 * Length of the inclusive period [start, end] in months, with a fraction for the days left over:
 * 2026-01-01..2026-01-31 is 1, 2026-01-15..2026-02-14 is 1, 2026-01-01..2026-01-15 is 15/31.
 */
export function periodMonths(start: string, end: string): number {
  const after = addDays(end, 1);
  let whole = (Number(after.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + (Number(after.slice(5, 7)) - Number(start.slice(5, 7)));
  const anchorOf = (n: number) => {
    const first = addMonths(start, n);
    const day = Math.min(Number(start.slice(8, 10)), daysInMonth(first));
    return `${first.slice(0, 8)}${String(day).padStart(2, '0')}`;
  };
  while (whole > 0 && anchorOf(whole) > after) whole--;
  const anchor = anchorOf(whole);
  return whole + daysBetween(anchor, after) / daysInMonth(anchor);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** MMM-yy (spec §9 date formats). */
export function monthLabel(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]}-${date.slice(2, 4)}`;
}

/** MM/dd/yy (spec §9, the default date format). */
export function shortDate(date: string): string {
  return `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(2, 4)}`;
}

/**
 * The first day of the fiscal year holding `date`, for a fiscal year starting on the first of
 * `startMonth` (1 = January; 0 or out of range = January, the default).
 */
export function fiscalYearStart(date: string, startMonth: number): string {
  const m = Number.isInteger(startMonth) && startMonth >= 1 && startMonth <= 12 ? startMonth : 1;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const y = month >= m ? year : year - 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
}
