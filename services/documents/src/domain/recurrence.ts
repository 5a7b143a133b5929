import { DATE_ORDER_MESSAGE, dateMessage, isBusinessDate } from '@ledgerline/platform';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import type { FieldProblem } from './documents.js';

dayjs.extend(utc);

/**
 * Recurrence of bills, invoices and manual journals (spec documents-parties-integrations §3, §5, §9; issue #18 item 6;
 * decision docs/decisions/0019-recurrence-schedule.md), pure. A schedule is its start date, its interval and its end
 * (never, on a date, or after a positive count of occurrences). The n-th date (n from 0) is always computed from the
 * start date, never from the previous date, so month-end clamping does not drift: Jan 31 monthly is Feb 28 (29 in a
 * leap year), Mar 31, Apr 30, ...; Feb 29 yearly is Feb 28 in common years and Feb 29 again in leap years.
 */
export const INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Interval = (typeof INTERVALS)[number];
export const DEFAULT_INTERVAL: Interval = 'monthly';
export const isInterval = (s: string): s is Interval => (INTERVALS as readonly string[]).includes(s);

export const END_TYPES = ['never', 'date', 'count'] as const;
export type EndType = (typeof END_TYPES)[number];

/** Active: occurrences are created; Paused: dates passing while paused are skipped; Stopped: none any more. */
export type Activity = 'Active' | 'Paused' | 'Stopped';

export const RECUR_MSG = {
  fillAll: 'Please fill all recurring details',
  count: 'Recurrence occurrence count must be a positive integer',
  interval: `interval must be one of: ${INTERVALS.join(', ')}`,
  endType: `recurringEndType must be one of: ${END_TYPES.join(', ')}`,
  /** The product's message for an upside-down range (the gateway gives it for every *StartDate / *EndDate pair). */
  endBeforeStart: DATE_ORDER_MESSAGE,
  endDateAndCount: 'Give either recurringEndDate or recurringCount, not both',
  activity: 'activity must be one of: Active, Paused',
  entityType: 'entityType must be one of: Bill, Invoice, ManualEntry',
  entityTypeRequired: 'entityType is required',
  notRecurring: (what: string) => `This ${what.toLowerCase()} is not recurring`,
  voided: (what: string) => `A voided ${what.toLowerCase()} cannot recur`,
  occurrence: (what: string) => `This ${what.toLowerCase()} was created by a recurrence; make its template recur instead`,
} as const;

export interface Schedule {
  startDate: string;
  interval: Interval;
  /** Inclusive; '' when the schedule does not end on a date. */
  endDate: string;
  /** How many occurrences in all; 0 when it does not end after a count. */
  count: number;
}

/** The body of POST /accounting/{bill|invoice|manual-entry}/recur/{id}. Absent fields are undefined. */
export interface RecurInput {
  recurringStartDate?: string;
  recurringEndDate?: string;
  interval?: string;
  recurringEndType?: string;
  recurringCount?: number;
  activity?: string;
}

export interface CleanRecur {
  schedule: Schedule;
  endType: EndType;
  activity: 'Active' | 'Paused';
}

const blank = (s: string | undefined): boolean => s === undefined || s.trim() === '';

/**
 * Whether a create / PUT body asks for recurrence: any recurrence field given (blank text counts as absent, so an
 * editor sending empty fields does not make a document recur).
 */
export function recurrenceRequested(input: RecurInput | undefined): input is RecurInput {
  if (!input) return false;
  return (
    !blank(input.recurringStartDate) ||
    !blank(input.recurringEndDate) ||
    !blank(input.interval) ||
    !blank(input.recurringEndType) ||
    input.recurringCount !== undefined ||
    !blank(input.activity)
  );
}

/**
 * The recurrence's rules, every problem at once, each naming its REST field. The end type defaults from what is given:
 * an end date → date, a count → count, neither → never. A start date is always required and so is what the chosen end
 * needs ('Please fill all recurring details', spec §5); the interval defaults to monthly (spec §9).
 */
export function cleanRecur(input: RecurInput): { value?: CleanRecur; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const start = (input.recurringStartDate ?? '').trim();
  const end = (input.recurringEndDate ?? '').trim();
  const intervalText = (input.interval ?? '').trim().toLowerCase();
  const interval: string = intervalText === '' ? DEFAULT_INTERVAL : intervalText;
  const countGiven = input.recurringCount !== undefined;
  const endTypeText = (input.recurringEndType ?? '').trim().toLowerCase();
  const endType: string = endTypeText !== '' ? endTypeText : !blank(input.recurringEndDate) ? 'date' : countGiven ? 'count' : 'never';
  const activity = blank(input.activity) ? 'Active' : (input.activity ?? '').trim();

  if (start === '') problems.push({ field: 'recurringStartDate', message: RECUR_MSG.fillAll });
  else if (!isBusinessDate(start)) problems.push({ field: 'recurringStartDate', message: dateMessage('recurringStartDate') });
  if (!isInterval(interval)) problems.push({ field: 'interval', message: RECUR_MSG.interval });
  if (!(END_TYPES as readonly string[]).includes(endType)) problems.push({ field: 'recurringEndType', message: RECUR_MSG.endType });
  if (endType === 'date') {
    if (end === '') problems.push({ field: 'recurringEndDate', message: RECUR_MSG.fillAll });
    else if (!isBusinessDate(end)) problems.push({ field: 'recurringEndDate', message: dateMessage('recurringEndDate') });
    else if (isBusinessDate(start) && end < start) problems.push({ field: 'recurringStartDate', message: RECUR_MSG.endBeforeStart });
    if (countGiven) problems.push({ field: 'recurringCount', message: RECUR_MSG.endDateAndCount });
  }
  if (endType === 'count') {
    if (!countGiven) problems.push({ field: 'recurringCount', message: RECUR_MSG.fillAll });
    else if (!Number.isInteger(input.recurringCount) || (input.recurringCount ?? 0) < 1 || (input.recurringCount ?? 0) > 100_000)
      problems.push({ field: 'recurringCount', message: RECUR_MSG.count });
    if (!blank(input.recurringEndDate)) problems.push({ field: 'recurringEndDate', message: RECUR_MSG.endDateAndCount });
  }
  if (endType === 'never' && (countGiven || !blank(input.recurringEndDate)))
    problems.push({ field: countGiven ? 'recurringCount' : 'recurringEndDate', message: RECUR_MSG.endDateAndCount });
  if (activity !== 'Active' && activity !== 'Paused') problems.push({ field: 'activity', message: RECUR_MSG.activity });
  if (problems.length > 0) return { problems };
  return {
    problems,
    value: {
      schedule: {
        startDate: start,
        interval: interval as Interval,
        endDate: endType === 'date' ? end : '',
        count: endType === 'count' ? (input.recurringCount ?? 0) : 0,
      },
      endType: endType as EndType,
      activity: activity as 'Active' | 'Paused',
    },
  };
}

const MONTHS: Record<Interval, number> = { daily: 0, weekly: 0, monthly: 1, quarterly: 3, yearly: 12 };
const DAYS: Record<Interval, number> = { daily: 1, weekly: 7, monthly: 0, quarterly: 0, yearly: 0 };

/** Adds whole months to a YYYY-MM-DD date, the day clamped to the target month's last day (Jan 31 + 1 → Feb 28/29). */
export function addMonthsClamped(date: string, months: number): string {
  const d = dayjs.utc(date);
  const first = d.date(1).add(months, 'month');
  return first.date(Math.min(d.date(), first.daysInMonth())).format('YYYY-MM-DD');
}

export function addDays(date: string, days: number): string {
  return dayjs.utc(date).add(days, 'day').format('YYYY-MM-DD');
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayjs.utc(to).diff(dayjs.utc(from), 'day');
}

/** The n-th date of the schedule (n from 0), whether or not the schedule still runs then. */
export function nthDate(s: Pick<Schedule, 'startDate' | 'interval'>, n: number): string {
  return MONTHS[s.interval] > 0 ? addMonthsClamped(s.startDate, n * MONTHS[s.interval]) : addDays(s.startDate, n * DAYS[s.interval]);
}

/** The n-th date if the schedule has one (within its count and its end date), else undefined. */
export function occurrenceDate(s: Schedule, n: number): string | undefined {
  if (n < 0 || (s.count > 0 && n >= s.count)) return undefined;
  const date = nthDate(s, n);
  if (s.endDate !== '' && date > s.endDate) return undefined;
  return date;
}

/** Every date of the schedule from index `from` up to `until` inclusive, at most `limit` of them. */
export function occurrencesUntil(s: Schedule, until: string, from = 0, limit = 10_000): { index: number; date: string }[] {
  const out: { index: number; date: string }[] = [];
  for (let n = from; out.length < limit; n += 1) {
    const date = occurrenceDate(s, n);
    if (date === undefined || date > until) break;
    out.push({ index: n, date });
  }
  return out;
}

/** The first `limit` dates of the schedule from index `from` (a schedule that never ends is cut at `limit`). */
export function nextOccurrences(s: Schedule, from: number, limit: number): { index: number; date: string }[] {
  const out: { index: number; date: string }[] = [];
  for (let n = from; out.length < limit; n += 1) {
    const date = occurrenceDate(s, n);
    if (date === undefined) break;
    out.push({ index: n, date });
  }
  return out;
}

/** Bill, Invoice or ManualEntry (also the kind's own names, any case) → the kind; undefined when unknown. */
export function kindOfEntityType(entityType: string): 'bill' | 'invoice' | 'manual_entry' | undefined {
  const t = entityType.trim().toLowerCase().replace(/[-_ ]/g, '');
  if (t === 'bill') return 'bill';
  if (t === 'invoice') return 'invoice';
  if (t === 'manualentry' || t === 'manualjournal') return 'manual_entry';
  return undefined;
}
