/**
 * Receipt matching (issue #19 item 4; spec "Workspace upload with matching"): which bank transaction a receipt is
 * for. Pure: the receipt's facts (total, date, merchant) against candidate transactions, each scored with a
 * confidence in 0..1. The amount must agree within one cent (a receipt is for the whole payment); the date within
 * DATE_WINDOW_DAYS (card payments settle a few days after the purchase); the merchant's name counts by similarity
 * (bank descriptors are noisy: "SQ *BLUE BOTTLE COFFEE #12" is Blue Bottle Coffee).
 *
 * confidence = 0.5 (the amount agrees) + 0.25 × date score + 0.25 × merchant score, where a date score falls from 1
 * (same day) to 1/6 (five days off) and an unknown date or merchant counts as MISSING_SCORE. A receipt is matched
 * automatically when its best candidate reaches AUTO_MATCH_CONFIDENCE and no other candidate is within
 * AMBIGUITY_MARGIN of it (two 12.50 coffees on one day are left for review); otherwise candidates at or above
 * REVIEW_CONFIDENCE are shown for review.
 */
import { distance } from 'fastest-levenshtein';

export const AMOUNT_TOLERANCE_CENTS = 1;
export const DATE_WINDOW_DAYS = 5;
export const AUTO_MATCH_CONFIDENCE = 0.85;
export const REVIEW_CONFIDENCE = 0.5;
export const AMBIGUITY_MARGIN = 0.1;
export const MISSING_SCORE = 0.3;
/** Suggestions kept on an upload for review. */
export const MAX_SUGGESTIONS = 3;

export interface ReceiptFacts {
  /** The receipt's total, positive cents. */
  amountCents?: number | null;
  /** YYYY-MM-DD. */
  date?: string | null;
  merchantName?: string | null;
}

export interface CandidateTransaction {
  id: string;
  /** YYYY-MM-DD. */
  date: string;
  /** Signed (the ledger's sign: < 0 money out). A receipt matches by size. */
  amountCents: number;
  merchantName: string;
  memo?: string;
}

export type MatchReason = 'amount' | 'date' | 'merchant';

export interface ScoredCandidate {
  transactionId: string;
  confidence: number;
  reasons: MatchReason[];
}

export type MatchDecision =
  | { kind: 'auto'; best: ScoredCandidate; suggestions: ScoredCandidate[] }
  | { kind: 'review'; suggestions: ScoredCandidate[] }
  | { kind: 'none'; suggestions: [] };

const DAY_MS = 86_400_000;

export function daysApart(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;
}

/** Words of a merchant or bank descriptor: lower case, no card-processor prefixes, store numbers or company suffixes. */
export function merchantTokens(name: string): string[] {
  const cleaned = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    // Payment processors' prefixes on card statements: "SQ *", "TST*", "PAYPAL *", "SP *".
    .replace(/^(sq|tst|sp|pp|paypal|pos|dd|ach|debit|purchase)\s*\*\s*/g, '')
    .replace(/[#*]\s*\d+/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ');
  const stop = new Set([
    'the',
    'inc',
    'llc',
    'ltd',
    'co',
    'corp',
    'company',
    'limited',
    'plc',
    'gmbh',
    'store',
    'pos',
    'purchase',
    'card',
    'debit',
    'and',
    'of',
  ]);
  return cleaned.split(' ').filter((t) => t.length > 0 && !stop.has(t) && !/^\d+$/.test(t));
}

/**
 * How alike two merchant names are, 0..1: the share of the shorter name's words found in the other (a word counts
 * when it is within one edit in five of a word there, so a misread letter still counts), or the similarity of the
 * names run together, whichever is higher ("BLUEBOTTLE" is "Blue Bottle").
 */
export function merchantSimilarity(a: string, b: string): number {
  const ta = merchantTokens(a);
  const tb = merchantTokens(b);
  if (ta.length === 0 || tb.length === 0) return 0;
  const [short, long] = ta.length <= tb.length ? [ta, tb] : [tb, ta];
  const close = (x: string, y: string) => x === y || (Math.min(x.length, y.length) >= 4 && distance(x, y) <= Math.floor(Math.max(x.length, y.length) / 5));
  const found = short.filter((w) => long.some((v) => close(w, v) || (w.length >= 4 && v.startsWith(w)) || (v.length >= 4 && w.startsWith(v)))).length;
  const byWords = found / short.length;
  const ja = ta.join('');
  const jb = tb.join('');
  const joined = 1 - distance(ja, jb) / Math.max(ja.length, jb.length);
  const contained = ja.length >= 4 && jb.length >= 4 && (ja.includes(jb) || jb.includes(ja)) ? 1 : 0;
  return Math.max(byWords, joined, contained);
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** One candidate's score, or null when it cannot be the receipt's (amount off, date outside the window). */
export function scoreCandidate(receipt: ReceiptFacts, txn: CandidateTransaction): ScoredCandidate | null {
  if (receipt.amountCents == null || receipt.amountCents <= 0) return null;
  if (Math.abs(Math.abs(txn.amountCents) - receipt.amountCents) > AMOUNT_TOLERANCE_CENTS) return null;
  const reasons: MatchReason[] = ['amount'];
  let dateScore = MISSING_SCORE;
  if (receipt.date) {
    const days = daysApart(receipt.date, txn.date);
    if (!(days <= DATE_WINDOW_DAYS)) return null;
    dateScore = 1 - days / (DATE_WINDOW_DAYS + 1);
    reasons.push('date');
  }
  let merchantScore = MISSING_SCORE;
  if (receipt.merchantName && receipt.merchantName.trim() !== '') {
    merchantScore = Math.max(merchantSimilarity(receipt.merchantName, txn.merchantName), txn.memo ? merchantSimilarity(receipt.merchantName, txn.memo) : 0);
    if (merchantScore >= 0.6) reasons.push('merchant');
  }
  return { transactionId: txn.id, confidence: round(0.5 + 0.25 * dateScore + 0.25 * merchantScore), reasons };
}

/**
 * The decision for one receipt: matched automatically to the best candidate, candidates for review, or none.
 * `taken` are transactions already matched to another receipt: shown for review, never matched automatically.
 */
export function decideMatch(receipt: ReceiptFacts, candidates: readonly CandidateTransaction[], taken: ReadonlySet<string> = new Set()): MatchDecision {
  const scored = candidates
    .map((c) => scoreCandidate(receipt, c))
    .filter((s): s is ScoredCandidate => s !== null && s.confidence >= REVIEW_CONFIDENCE)
    .sort((a, b) => b.confidence - a.confidence || a.transactionId.localeCompare(b.transactionId));
  if (scored.length === 0) return { kind: 'none', suggestions: [] };
  const suggestions = scored.slice(0, MAX_SUGGESTIONS);
  const best = scored[0]!;
  const runnerUp = scored[1];
  const clear = runnerUp === undefined || best.confidence - runnerUp.confidence >= AMBIGUITY_MARGIN;
  if (best.confidence >= AUTO_MATCH_CONFIDENCE && clear && !taken.has(best.transactionId)) return { kind: 'auto', best, suggestions };
  return { kind: 'review', suggestions };
}

/** The window of bank dates worth asking the ledger for (the receipt's date ± DATE_WINDOW_DAYS). */
export function candidateWindow(date: string): { startDate: string; endDate: string } {
  const at = Date.parse(`${date}T00:00:00Z`);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { startDate: iso(at - DATE_WINDOW_DAYS * DAY_MS), endDate: iso(at + DATE_WINDOW_DAYS * DAY_MS) };
}
