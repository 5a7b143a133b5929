// The transaction screens' rules as pure functions (unit-tested in test/transactions-rules.test.ts).
import type { AccrualCategory } from '@ledgerline/api';

/** Dollars to integer cents (money is compared in cents, never in floating dollars). */
export const toCents = (amount: number): number => Math.round(amount * 100);

/** Money out is prepaid (an asset used up over the months), money in is deferred revenue (earned over the months). */
export const accrualCategoryFor = (amount: number): AccrualCategory => (amount > 0 ? 'Deferred Revenue' : 'Prepaid Expenses');

/** Spec §9: the next page is fetched when the remaining scroll is within 2.2 × the viewport… */
export const SCROLL_THRESHOLD_VIEWPORTS = 2.2;
/** …checked at most every 200 ms. */
export const SCROLL_THROTTLE_MS = 200;

export interface ScrollPosition {
  /** Height of everything that scrolls. */
  scrollHeight: number;
  /** How far it is scrolled. */
  scrollTop: number;
  /** The visible height. */
  viewportHeight: number;
}

/** True when what is left below the viewport is within 2.2 viewports (a short list counts as near its end). */
export function shouldFetchNextPage(p: ScrollPosition): boolean {
  const remaining = p.scrollHeight - p.scrollTop - p.viewportHeight;
  return remaining <= SCROLL_THRESHOLD_VIEWPORTS * p.viewportHeight;
}

/**
 * Runs `fn` at once, then at most once per `waitMs`: calls in between are folded into one trailing call at the
 * end of the window, so the last scroll position is always checked.
 */
export function throttle(fn: () => void, waitMs: number, now: () => number = Date.now): { (): void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    last = now();
    fn();
  };
  const throttled = () => {
    const elapsed = now() - last;
    if (elapsed >= waitMs) {
      clearTimeout(timer);
      run();
    } else if (timer === undefined) {
      timer = setTimeout(run, waitMs - elapsed);
    }
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return throttled;
}

/** Spec §9: split parts must add up to the transaction within 0.01. */
export const AMOUNT_TOLERANCE = 0.01;
export const SPLIT_SUM_MESSAGE = 'Split amounts must add up to the transaction amount';

export interface SplitPartDraft {
  /** The existing part's id (update-split), or null for a new part. */
  id: string | null;
  /** The amount typed, positive dollars. */
  amount: string;
  categoryId: string | null;
}

/** What is left to assign: the transaction's size minus the parts typed so far, in dollars (negative when over). */
export function splitRemainder(transactionAmount: number, parts: readonly Pick<SplitPartDraft, 'amount'>[]): number {
  const typed = parts.reduce((sum, p) => sum + toCents(Number(p.amount) || 0), 0);
  return (Math.abs(toCents(transactionAmount)) - typed) / 100;
}

export interface SplitProblems {
  /** Per part: the message for its amount or category. */
  parts: { amount?: string; categoryId?: string }[];
  /** The sum rule. */
  sum?: string;
}

/** Every part needs an amount above zero and a category; there are at least two parts; they add up within 0.01. */
export function validateSplit(transactionAmount: number, parts: readonly SplitPartDraft[]): SplitProblems | null {
  const problems: SplitProblems = { parts: parts.map(() => ({})) };
  let any = false;
  parts.forEach((p, i) => {
    const entry = problems.parts[i] as { amount?: string; categoryId?: string };
    if (!(Number(p.amount) > 0)) {
      entry.amount = 'Amount must be greater than 0';
      any = true;
    }
    if (p.categoryId === null) {
      entry.categoryId = 'Category cannot be empty';
      any = true;
    }
  });
  if (parts.length < 2) {
    problems.sum = 'A split needs at least two parts';
    any = true;
  } else if (Math.abs(splitRemainder(transactionAmount, parts)) > AMOUNT_TOLERANCE + 1e-9) {
    problems.sum = SPLIT_SUM_MESSAGE;
    any = true;
  }
  return any ? problems : null;
}

/** Spec §9 date format MM/dd/yy for a business date (YYYY-MM-DD or an ISO timestamp), without time-zone drift. */
export function formatTxnDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  return `${m[2]}/${m[3]}/${(m[1] ?? '').slice(2)}`;
}

export interface AccrualDraft {
  /** YYYY-MM-DD (a date input's value). */
  startDate: string;
  endDate: string;
  accrualCategory: 'Prepaid Expenses' | 'Deferred Revenue';
  recogniseCategoryId: string | null;
}

export type AccrualProblems = Partial<Record<'startDate' | 'endDate' | 'recogniseCategoryId', string>>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Both dates, the end not before the start, and a category to recognise into. */
export function validateAccrual(d: AccrualDraft): AccrualProblems {
  const problems: AccrualProblems = {};
  if (!ISO_DATE.test(d.startDate)) problems.startDate = 'Start date is required';
  if (!ISO_DATE.test(d.endDate)) problems.endDate = 'End date is required';
  else if (problems.startDate === undefined && d.endDate < d.startDate) problems.endDate = 'End date cannot be less than Start date';
  if (d.recogniseCategoryId === null) problems.recogniseCategoryId = 'Category cannot be empty';
  return problems;
}

export const ACCRUAL_MONTHS_SUM_MESSAGE = 'Accrual amounts must add up to the transaction amount';

export interface AccrualMonthDraft {
  id: string;
  /** The month's recognition date (YYYY-MM-DD). */
  date: string;
  amount: string;
}

/** Each month above zero, and the months add up to the transaction within 0.01 (as the ledger requires). */
export function validateAccrualMonths(
  transactionAmount: number,
  months: readonly AccrualMonthDraft[],
): { months: (string | undefined)[]; sum?: string } | null {
  const perMonth = months.map((m) => (Number(m.amount) > 0 ? undefined : 'Amount must be greater than 0'));
  const off = Math.abs(splitRemainder(transactionAmount, months)) > AMOUNT_TOLERANCE + 1e-9;
  if (!off && perMonth.every((m) => m === undefined)) return null;
  return off ? { months: perMonth, sum: ACCRUAL_MONTHS_SUM_MESSAGE } : { months: perMonth };
}
