import { addMonths, monthEnd, monthStart } from './dates.js';
import type { PostingLine } from './posting.js';

/**
 * Accruals (spec §3 "Accrual", §4 lifecycle create, edit, stop, delete). Pure rules: which months a
 * period spans, how an amount is spread over them, the recognition entry of one month, and what a stop
 * keeps. The bank transaction itself is booked to Prepaid Expenses (money out) or Deferred Revenue
 * (money in); each month then moves its share from there into the category the user chose.
 */
export const ACCRUAL_CATEGORIES = ['Prepaid Expenses', 'Deferred Revenue'] as const;
export type AccrualCategory = (typeof ACCRUAL_CATEGORIES)[number];

/** The longest schedule we spread (ten years of months). */
export const MAX_ACCRUAL_MONTHS = 120;

/** Amount tolerance of spec §9: month amounts may differ from the transaction by at most one cent. */
export const ACCRUAL_TOLERANCE_CENTS = 1;

export const ACCRUAL_MSG = {
  category: 'accrualCategory must be one of: Prepaid Expenses, Deferred Revenue',
  endBeforeStart: 'accrualEndDate cannot be less than accrualStartDate',
  tooLong: `An accrual can span at most ${MAX_ACCRUAL_MONTHS} months`,
  prepaidNeedsOutflow: 'Prepaid Expenses applies to money out: this transaction is money in (use Deferred Revenue)',
  deferredNeedsInflow: 'Deferred Revenue applies to money in: this transaction is money out (use Prepaid Expenses)',
  zeroAmount: 'A transaction of 0.00 cannot be accrued',
  tooSmall: (months: number) => `The amount is too small to spread over ${months} months (at least 0.01 a month)`,
  recogniseIsBank: 'recogniseCategoryId cannot be a bank or card account',
  recogniseIsSystem:
    'recogniseCategoryId cannot be an account the ledger keeps itself (Prepaid Expenses, Deferred Revenue, Uncategorised, Retained Earnings...)',
  recogniseNotPostable: 'recogniseCategoryId must be a category or sub-category, not a category type or group',
  notAccrued: 'This transaction is not accrued',
  stopped: 'This accrual is stopped. Delete it to accrue the transaction again',
  alreadyStopped: 'This accrual is already stopped',
  monthNotFound: (field: string) => `${field} is not a month of this accrual`,
  monthAmount: (field: string) => `${field} must be greater than 0`,
  monthsSum: 'Accrual amounts must add up to the transaction amount',
  monthsWithNewDates: 'updatedAccrualChildren cannot be combined with new accrual dates: save the dates first, then the amounts',
  notPosted: 'This transaction is not booked yet (its bank account is not linked)',
} as const;

export const ACCRUAL_CODES = {
  notAccrued: 'TRANSACTION_NOT_ACCRUED',
  stopped: 'ACCRUAL_STOPPED',
} as const;

export const isAccrualCategory = (v: string | undefined): v is AccrualCategory => (ACCRUAL_CATEGORIES as readonly string[]).includes(v ?? '');

/**
 * The recognition date of each month the period touches, oldest first: the month's last day, and the
 * accrual's end date for its last month (so a report as of the end date includes every month).
 */
export function accrualDates(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  for (let m = monthStart(startDate); m <= endDate; m = addMonths(m, 1)) {
    const end = monthEnd(m);
    out.push(end < endDate ? end : endDate);
  }
  return out;
}

/** Months between two dates, both counted (without building the list: bounds checks come first). */
export function monthCount(startDate: string, endDate: string): number {
  const y = (d: string) => Number(d.slice(0, 4));
  const m = (d: string) => Number(d.slice(5, 7));
  return (y(endDate) - y(startDate)) * 12 + (m(endDate) - m(startDate)) + 1;
}

/** `totalCents` spread evenly over `n` months in whole cents; the remainder cents go to the last month. */
export function spreadEvenly(totalCents: number, n: number): number[] {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0 || n < 1) throw new RangeError(`cannot spread ${totalCents} over ${n}`);
  const base = Math.floor(totalCents / n);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? totalCents - base * (n - 1) : base));
}

/**
 * The entry of one month: Prepaid Expenses (an asset) is credited and the expense category debited;
 * Deferred Revenue (a liability) is debited and the income category credited.
 */
export function recognitionLines(category: AccrualCategory, accrualAccountId: string, recogniseCategoryId: string, cents: number): PostingLine[] {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`a month recognises a positive amount, not ${cents}`);
  const prepaid = category === 'Prepaid Expenses';
  return [
    { accountId: recogniseCategoryId, direction: prepaid ? 'debit' : 'credit', amountCents: cents },
    { accountId: accrualAccountId, direction: prepaid ? 'credit' : 'debit', amountCents: cents },
  ];
}

/**
 * New month amounts (absolute cents) after the user's changes, adding up to `totalCents`: within the
 * tolerance the last month absorbs the difference; null when they do not add up.
 */
export function adjustedAmounts(totalCents: number, amounts: readonly number[]): number[] | null {
  if (amounts.length === 0) return null;
  const diff = totalCents - amounts.reduce((s, a) => s + a, 0);
  if (Math.abs(diff) > ACCRUAL_TOLERANCE_CENTS) return null;
  const out = amounts.map((a, i) => (i === amounts.length - 1 ? a + diff : a));
  return out.some((a) => a <= 0) ? null : out;
}

export interface ScheduleMonth {
  date: string;
  cents: number;
}

/**
 * Stopping on `stopDate`: months recognised by then stay; later months are dropped and what they would
 * have recognised is recognised at once on the stop date, so the prepaid (deferred) balance of the
 * transaction returns to zero and the whole amount ends in the recognise category — a stopped schedule
 * leaves nothing behind on the balance sheet that no schedule tracks any more.
 */
export function stopPlan<T extends ScheduleMonth>(months: readonly T[], stopDate: string): { kept: T[]; dropped: T[]; remainderCents: number } {
  const kept = months.filter((m) => m.date <= stopDate);
  const dropped = months.filter((m) => m.date > stopDate);
  return { kept, dropped, remainderCents: dropped.reduce((s, m) => s + m.cents, 0) };
}

/** What is still in Prepaid Expenses / Deferred Revenue after each month (absolute cents). */
export function runningBalances(totalCents: number, months: readonly ScheduleMonth[]): number[] {
  let left = totalCents;
  return months.map((m) => (left -= m.cents));
}
