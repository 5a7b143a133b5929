// The date breakdown of a Stripe revenue time series (platform-core §3 "Breakdown periods: month, week, year";
// "Periodicity: daily, weekly, monthly, quarterly, yearly, totals_only"; the spec's fallbacks): calendar-aligned
// columns over [startDate, endDate], the first and last clipped to the period. Pure, no I/O.

export const STRIPE_BREAKDOWNS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'totals_only'] as const;
export type StripeBreakdown = (typeof STRIPE_BREAKDOWNS)[number];

/** The spec's short names (month, week, year, as the reports take them) and the periodicities, to one name. */
const ALIASES: Record<string, StripeBreakdown> = {
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  quarter: 'quarterly',
  year: 'yearly',
  ...Object.fromEntries(STRIPE_BREAKDOWNS.map((b) => [b, b])),
};

/** The breakdown named by `value` (case-insensitive: the dashboard's "Monthly" too), or undefined. */
export function breakdownOf(value: string): StripeBreakdown | undefined {
  return Object.hasOwn(ALIASES, value.toLowerCase()) ? ALIASES[value.toLowerCase()] : undefined;
}

const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

function addMonths(date: string, n: number): string {
  const d = utc(`${date.slice(0, 7)}-01`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return iso(d);
}

const monthEnd = (date: string) => addDays(addMonths(date, 1), -1);
const daysInMonth = (date: string) => Number(monthEnd(date).slice(8, 10));
const daysBetween = (a: string, b: string) => Math.round((utc(b).getTime() - utc(a).getTime()) / 86_400_000);

/** The inclusive period's length in months, with a fraction for the days left over (as the reports count it). */
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

/**
 * The spec's fallbacks, in order: yearly falls to monthly under 11 months; quarterly falls to monthly over 0 and
 * under 2 months; a period under 1 month gives totals only (whatever was asked).
 */
export function effectiveBreakdown(requested: StripeBreakdown, start: string, end: string): StripeBreakdown {
  const months = periodMonths(start, end);
  let b = requested;
  if (b === 'yearly' && months < 11) b = 'monthly';
  if (b === 'quarterly' && months > 0 && months < 2) b = 'monthly';
  if (months < 1) b = 'totals_only';
  return b;
}

export interface BreakdownColumn {
  label: string;
  startDate: string;
  endDate: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const shortDate = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(2, 4)}`;
/** 0 = Monday ... 6 = Sunday. */
const weekday = (date: string) => (utc(date).getUTCDay() + 6) % 7;

/** Calendar-aligned columns over [start, end] (weeks from Monday), labelled as the reports label them. */
export function breakdownColumns(b: StripeBreakdown, start: string, end: string): BreakdownColumn[] {
  if (b === 'totals_only') return [{ label: 'Total', startDate: start, endDate: end }];
  const out: BreakdownColumn[] = [];
  let cursor = start;
  while (cursor <= end) {
    let last: string;
    let label: string;
    switch (b) {
      case 'daily':
        last = cursor;
        label = shortDate(cursor);
        break;
      case 'weekly':
        last = addDays(cursor, 6 - weekday(cursor));
        label = `${shortDate(cursor)} - ${shortDate(last < end ? last : end)}`;
        break;
      case 'monthly':
        last = monthEnd(cursor);
        label = `${MONTHS[Number(cursor.slice(5, 7)) - 1]}-${cursor.slice(2, 4)}`;
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
    out.push({ label, startDate: cursor, endDate: last < end ? last : end });
    cursor = addDays(last, 1);
  }
  return out;
}
