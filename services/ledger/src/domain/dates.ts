const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in the product format YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The first and last business dates the product takes (the services' RPC input rules refuse any other). */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2100-12-31';

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function addMonths(month: string, n: number): string {
  const d = new Date(`${monthStart(month)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}

export function monthEnd(date: string): string {
  return addDays(addMonths(date, 1), -1);
}
