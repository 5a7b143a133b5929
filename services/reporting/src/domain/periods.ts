import { addDays, addMonths, isIsoDate, monthEnd, monthLabel, monthStart, periodMonths, shortDate, weekday } from './dates.js';

export const PERIODICITIES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'totals_only'] as const;
export type Periodicity = (typeof PERIODICITIES)[number];
export const BREAKDOWNS = { month: 'monthly', week: 'weekly', year: 'yearly' } as const;
export type Breakdown = keyof typeof BREAKDOWNS;

export function isPeriodicity(v: string): v is Periodicity {
  return (PERIODICITIES as readonly string[]).includes(v);
}

export function isBreakdown(v: string): v is Breakdown {
  return Object.hasOwn(BREAKDOWNS, v);
}

/**
 * Spec §5 breakdown fallbacks, in order: yearly falls to monthly when the period is under 11 months;
 * quarterly falls to monthly when the period is over 0 and under 2 months; a period under 1 month gives
 * totals only (whatever was asked).
 */
export function effectivePeriodicity(requested: Periodicity, start: string, end: string): Periodicity {
  const months = periodMonths(start, end);
  let p = requested;
  if (p === 'yearly' && months < 11) p = 'monthly';
  if (p === 'quarterly' && months > 0 && months < 2) p = 'monthly';
  if (months < 1) p = 'totals_only';
  return p;
}

export interface Column {
  label: string;
  start: string;
  end: string;
}

const min = (a: string, b: string) => (a < b ? a : b);
const max = (a: string, b: string) => (a > b ? a : b);

/** Calendar-aligned columns over [start, end], the first and last clipped to the period. */
export function columnsFor(p: Periodicity, start: string, end: string): Column[] {
  if (p === 'totals_only') return [{ label: 'Total', start, end }];
  const out: Column[] = [];
  let cursor = start;
  while (cursor <= end) {
    let last: string;
    let label: string;
    switch (p) {
      case 'daily':
        last = cursor;
        label = shortDate(cursor);
        break;
      case 'weekly':
        last = addDays(cursor, 6 - weekday(cursor));
        label = `${shortDate(cursor)} - ${shortDate(min(last, end))}`;
        break;
      case 'monthly':
        last = monthEnd(cursor);
        label = monthLabel(cursor);
        break;
      case 'quarterly': {
        const q = Math.floor((Number(cursor.slice(5, 7)) - 1) / 3);
        last = monthEnd(`${cursor.slice(0, 4)}-${String(q * 3 + 3).padStart(2, '0')}-01`);
        label = `Q${q + 1}-${cursor.slice(2, 4)}`;
        break;
      }
      case 'yearly':
        last = `${cursor.slice(0, 4)}-12-31`;
        label = cursor.slice(0, 4);
        break;
    }
    out.push({ label, start: cursor, end: min(last, end) });
    cursor = addDays(last, 1);
  }
  return out;
}

/** Where a column's sums come from: whole months from the monthly table, the rest from the daily table. */
export interface Segment {
  column: number;
  table: 'monthly' | 'daily';
  from: string;
  to: string;
}

/** Splits [start, end] into at most one run of whole months and up to two runs of days (O(1) segments per column). */
export function segmentsFor(column: number, start: string, end: string): Segment[] {
  if (start > end) return [];
  const firstWhole = start === monthStart(start) ? start : addMonths(start, 1);
  const lastWholeStart = end === monthEnd(end) ? monthStart(end) : addMonths(end, -1);
  if (firstWhole > lastWholeStart) return [{ column, table: 'daily', from: start, to: end }];
  const out: Segment[] = [{ column, table: 'monthly', from: firstWhole, to: lastWholeStart }];
  if (start < firstWhole) out.push({ column, table: 'daily', from: start, to: addDays(firstWhole, -1) });
  const afterWhole = addMonths(lastWholeStart, 1);
  if (afterWhole <= end) out.push({ column, table: 'daily', from: max(afterWhole, start), to: end });
  return out;
}

export { isIsoDate };
