/**
 * Transfers between two linked accounts of a workspace (issue #12): which transactions can be the two
 * sides of one transfer, how sure we are, and which pairs are made. Pure: the use cases read the rows,
 * these rules decide.
 */

/** Two sides are at most this many days apart (either may be booked first). */
export const TRANSFER_WINDOW_DAYS = 5;

/**
 * Pair automatically at or above this score. An exact opposite amount between two linked accounts scores
 * `BASE_SCORE` (40); a transfer-like description adds 35, a card-payment shape adds 35; each day apart
 * takes 3. So an opposite amount with a keyword or a card-payment shape pairs even 5 days apart
 * (40 + 35 − 15 = 60), and a bare amount coincidence (≤ 40) never does: it is only offered as a candidate.
 */
export const AUTO_PAIR_THRESHOLD = 60;
export const BASE_SCORE = 40;
export const KEYWORD_SCORE = 35;
export const BOTH_KEYWORDS_BONUS = 10;
export const CARD_PAYMENT_SCORE = 35;
export const DAY_PENALTY = 3;

/** Descriptions banks give transfers and card payments (case-insensitive, whole words). */
const KEYWORDS = [
  /\btransfers?\b/i,
  /\bxfe?r\b/i,
  /\btrnsfr\b/i,
  /\bpayment\s*[-,]?\s*thank\s*you\b/i,
  /\bthank\s*you\b.*\bpayment\b/i,
  /\bauto\s*-?pay\b/i,
  /\bonline\s+(?:banking\s+)?(?:transfer|payment)\b/i,
  /\bcredit\s*card\s+(?:payment|pymt|pmt)\b/i,
  /\bcard\s+payment\b/i,
  /\be-?pay(?:ment)?\b/i,
  /\bpayment\s+received\b/i,
  /\bach\s+(?:transfer|pmt|payment)\b/i,
  /\bfunds\s+transfer\b/i,
  /\bto\s+(?:savings|checking)\b/i,
  /\bfrom\s+(?:savings|checking)\b/i,
];

/** What the rules look at of one side. */
export interface TransferSide {
  id: string;
  /** Signed: > 0 money into the side's account. */
  amountCents: number;
  /** YYYY-MM-DD. */
  date: string;
  /** Banking's id of the bank account. */
  bankAccountId: string;
  /** The side's account is a credit card (a liability). */
  isCreditCard: boolean;
  name: string;
  isoCurrencyCode?: string;
}

export type CounterpartProblem = 'same' | 'amount' | 'account' | 'days' | 'currency';

export function hasTransferKeyword(description: string): boolean {
  return KEYWORDS.some((k) => k.test(description));
}

function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

export function daysApart(a: string, b: string): number {
  return Math.abs(dayNumber(a) - dayNumber(b));
}

/** Why `b` cannot be the other side of `a` (null: it can). */
export function counterpartProblem(a: TransferSide, b: TransferSide): CounterpartProblem | null {
  if (a.id === b.id) return 'same';
  if (a.amountCents === 0 || a.amountCents !== -b.amountCents) return 'amount';
  if ((a.isoCurrencyCode ?? 'USD') !== (b.isoCurrencyCode ?? 'USD')) return 'currency';
  if (a.bankAccountId === b.bankAccountId) return 'account';
  if (daysApart(a.date, b.date) > TRANSFER_WINDOW_DAYS) return 'days';
  return null;
}

/** Money out of a depository account and into a credit-card account. */
export function isCardPaymentShape(a: TransferSide, b: TransferSide): boolean {
  const [out, into] = a.amountCents < 0 ? [a, b] : [b, a];
  return !out.isCreditCard && into.isCreditCard && out.amountCents < 0 && into.amountCents > 0;
}

/** A card payment (either side a credit card) goes to Credit Card Payments, the rest to Internal Transfers. */
export function transferKind(a: Pick<TransferSide, 'isCreditCard'>, b: Pick<TransferSide, 'isCreditCard'>): 'card_payment' | 'internal' {
  return a.isCreditCard || b.isCreditCard ? 'card_payment' : 'internal';
}

/** 0–100; 0 when `b` cannot be the other side of `a`. Symmetric. */
export function transferScore(a: TransferSide, b: TransferSide): number {
  if (counterpartProblem(a, b)) return 0;
  const ka = hasTransferKeyword(a.name);
  const kb = hasTransferKeyword(b.name);
  let score = BASE_SCORE;
  if (ka || kb) score += KEYWORD_SCORE;
  if (ka && kb) score += BOTH_KEYWORDS_BONUS;
  if (isCardPaymentShape(a, b)) score += CARD_PAYMENT_SCORE;
  score -= DAY_PENALTY * daysApart(a.date, b.date);
  return Math.max(0, Math.min(100, score));
}

export interface ScoredCandidate<T extends TransferSide> {
  candidate: T;
  score: number;
  days: number;
}

/** `subject`'s possible counterparts, best first: score, then closest date, then earliest, then id. */
export function rankCounterparts<T extends TransferSide>(
  subject: TransferSide,
  pool: readonly T[],
  isDismissed: (a: string, b: string) => boolean = () => false,
): ScoredCandidate<T>[] {
  return pool
    .filter((c) => !counterpartProblem(subject, c) && !isDismissed(subject.id, c.id))
    .map((c) => ({ candidate: c, score: transferScore(subject, c), days: daysApart(subject.date, c.date) }))
    .sort(
      (x, y) =>
        y.score - x.score ||
        x.days - y.days ||
        (x.candidate.date < y.candidate.date ? -1 : x.candidate.date > y.candidate.date ? 1 : 0) ||
        (x.candidate.id < y.candidate.id ? -1 : x.candidate.id > y.candidate.id ? 1 : 0),
    );
}

export interface PlannedPair<T extends TransferSide> {
  a: T;
  b: T;
  score: number;
}

/**
 * The pairs detection makes: each subject in order takes its best counterpart from the pool that scores at
 * least the threshold and is not taken yet; a transaction is in at most one pair. Deterministic for a
 * given order of subjects and pool.
 */
export function planPairs<T extends TransferSide>(
  subjects: readonly T[],
  pool: readonly T[],
  isDismissed: (a: string, b: string) => boolean = () => false,
  threshold = AUTO_PAIR_THRESHOLD,
): PlannedPair<T>[] {
  const taken = new Set<string>();
  const pairs: PlannedPair<T>[] = [];
  for (const s of subjects) {
    if (taken.has(s.id)) continue;
    const best = rankCounterparts(
      s,
      pool.filter((c) => !taken.has(c.id)),
      isDismissed,
    )[0];
    if (!best || best.score < threshold) continue;
    taken.add(s.id);
    taken.add(best.candidate.id);
    pairs.push({ a: s, b: best.candidate, score: best.score });
  }
  return pairs;
}

/** A pair is remembered as dismissed under its two ids in order (the table's check). */
export function dismissalKey(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

/**
 * Descriptions that say "this is money moving between your own accounts" on their own, without a counterpart
 * in the books: a payment received by a credit card, or a transfer to or from another account. Narrower than
 * the pairing keywords (no bare "transfer", which also names a wire fee): a one-sided transfer is booked to a
 * Transfer account on this alone, so it must not catch ordinary spending.
 */
const CARD_PAYMENT_RECEIVED = [
  /\bpayment\s*[-,]?\s*thank\s*you\b/i,
  /\bauto\s*-?pay(?:ment)?\b/i,
  /\bonline\s+payment\b/i,
  /\bpayment\s+received\b/i,
  /\be-?payment\b/i,
  /\bcredit\s*card\s+(?:payment|pymt|pmt)\b/i,
];
const ACCOUNT_TRANSFER = [
  /\b(?:online\s+|funds\s+|internal\s+|ach\s+)?(?:transfer|xfe?r|trnsfr)\s+(?:to|from)\b/i,
  /\bcredit\s*card\s+(?:payment|pymt|pmt|autopay)\b/i,
  /\bpayment\s+to\s+card\b/i,
];

/**
 * A transaction that is a transfer even though its other side is not in the books (the other account is not
 * linked, or its side has not arrived yet): it goes to "Transfers to review" (booked to a Transfer account,
 * out of income and expense) and is paired when its counterpart arrives. Money into a credit card with a
 * payment description; a depository transaction describing a transfer to or from another account.
 */
export function isOneSidedTransfer(s: Pick<TransferSide, 'amountCents' | 'isCreditCard' | 'name'>): boolean {
  if (s.amountCents === 0) return false;
  if (s.isCreditCard) return s.amountCents > 0 && CARD_PAYMENT_RECEIVED.some((k) => k.test(s.name));
  return ACCOUNT_TRANSFER.some((k) => k.test(s.name));
}

/** 'paired', 'review' (in a Transfer account without a pair: a one-sided transfer) or null. */
export function transferStatusOf(t: { transfer_pair_id: string | null; category_class: string | null }): 'paired' | 'review' | null {
  if (t.transfer_pair_id) return 'paired';
  return t.category_class === 'Transfer' ? 'review' : null;
}
