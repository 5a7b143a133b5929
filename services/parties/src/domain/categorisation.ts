/**
 * The categorisation model (issue #17 item 7, decision 0013-learned-categorisation): from a workspace's own
 * categorised history, a suggested category (and vendor) for a new transaction with a confidence in 0..1.
 * Pure: the store hands in the history, nothing here reads a clock or a database.
 *
 * Evidence, strongest first:
 * - the merchant: earlier transactions of the same merchant key (`merchantKey`: the processor prefixes, store
 *   numbers and punctuation of "SQ *BLUE BOTTLE 1234" stripped), each weighted by how close its amount is
 *   (a log-amount kernel: the same merchant in two categories by amount is told apart), by recency within its
 *   amount band (each later example of the same band divides its weight by `RECENCY_DECAY`, so the latest
 *   choice — a user's correction — outweighs everything before it in that band at once) and by the bank
 *   account (same account counts more);
 * - otherwise the description's tokens: per token, the categories of the examples that contain it, a token
 *   seen with one category only counting most (a merchant seen under another spelling).
 * Confidence is the winning category's share of the (recency) weight, discounted for thin evidence (one example
 * is not three), for a merchant that has had other categories at such amounts (the square root of the
 * category's share without recency: a correction changes the suggestion at once but is shown, not applied,
 * until the user confirms it) and for token-only evidence.
 */

/** A categorised transaction of the workspace's history (a user's own choice). */
export interface CategorisationExample {
  merchantName: string;
  description: string;
  /** Signed cents (an outflow negative). */
  amountCents: number;
  bankAccountId: string;
  categoryId: string;
  vendorId: string | null;
  /** Recency order: a larger number is a later choice (e.g. epoch milliseconds, or a sequence). */
  at: number;
}

/** A transaction to categorise. */
export interface CategorisationQuery {
  merchantName: string;
  description: string;
  amountCents: number;
  bankAccountId: string;
}

export interface CategorySuggestion {
  categoryId: string;
  vendorId: string | null;
  confidence: number;
  /** What the suggestion rests on. */
  basis: 'merchant' | 'tokens';
}

/** At or above this confidence a suggestion is applied (creation mode auto); below it is only shown. */
export const AUTO_APPLY_THRESHOLD = 0.6;
/** Each later example of the same merchant and amount band divides an example's weight by this. */
export const RECENCY_DECAY = 4;
/** Width of the amount kernel in natural-log units (0.35: ±42 % is still "about the same amount"). */
const AMOUNT_SIGMA = 0.35;
/** What an example of the merchant weighs however far its amount is from the query's. */
const AMOUNT_FLOOR = 0.03;
/** Two amounts whose kernel is at least this are the same band (for recency). */
const SAME_BAND = 0.5;
/** An example from the same bank account counts this much more. */
const SAME_ACCOUNT = 1.25;
/** Evidence (examples, amount- and account-weighted) at which thin evidence costs half: n / (n + this). */
const EVIDENCE_HALF = 0.35;
/** The latest examples of a merchant that count (older ones have decayed to nothing anyway). */
const MERCHANT_WINDOW = 200;
/** Token-only suggestions are worth this share of their vote. */
const TOKEN_DISCOUNT = 0.85;

const PREFIXES = /^(SQ|SQU|TST|PAYPAL|PP|POS|ACH|DEBIT|CREDIT|CHECKCARD|PURCHASE|RECURRING|SP|IN|WWW|DD|DNH|BT|CKE)\s*\*?\s+|^(SQ|TST|PP|SP|DD|IN)\s*\*\s*/;
const NOISE = new Set([
  'INC',
  'LLC',
  'CO',
  'CORP',
  'LTD',
  'THE',
  'COM',
  'WWW',
  'HTTPS',
  'HTTP',
  'STORE',
  'ONLINE',
  'PAYMENT',
  'PMT',
  'POS',
  'DEBIT',
  'CARD',
  'PURCHASE',
  'ACH',
  'SQ',
  'TST',
  'PAYPAL',
  'US',
  'USA',
]);
const STATES = new Set([
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
]);

/** The words of a description that name something: upper case, no digits, no punctuation, no filler, no state code. */
export function descriptionTokens(text: string): string[] {
  let s = text.toUpperCase().replace(/[’']/g, '');
  for (let i = 0; i < 2; i++) s = s.replace(PREFIXES, '');
  return s
    .split(/[^A-Z0-9]+/)
    .filter((w) => w.length >= 2 && !/\d/.test(w) && !NOISE.has(w))
    .filter((w, i, all) => !(STATES.has(w) && i === all.length - 1));
}

/** The key a merchant is recognised by: its first two naming words ("SQ *BLUE BOTTLE 1234" → "BLUE BOTTLE"). */
export function merchantKey(merchantName: string, description: string): string {
  const tokens = descriptionTokens(merchantName.trim() || description);
  return tokens.slice(0, 2).join(' ');
}

/** The keys a transaction's merchant is found under: its merchant name's and its description's. */
export function merchantKeys(t: { merchantName: string; description: string }): string[] {
  return [...new Set([merchantKey(t.merchantName, ''), merchantKey('', t.description)].filter((k) => k !== ''))];
}

const sign = (cents: number) => (cents > 0 ? 1 : cents < 0 ? -1 : 0);

/** How alike two amounts are, 0..1 (1: equal; 0: opposite directions). */
export function amountSimilarity(a: number, b: number): number {
  if (sign(a) !== sign(b)) return 0;
  const d = Math.log(Math.abs(a) + 100) - Math.log(Math.abs(b) + 100);
  return Math.exp(-(d * d) / (2 * AMOUNT_SIGMA * AMOUNT_SIGMA));
}

interface Vote {
  /** Recency-weighted: decides the category and its share. */
  weight: number;
  /** Not recency-weighted: how much evidence there is for the category. */
  evidence: number;
  /** Not recency-weighted, amount-weighted: how consistently the merchant has had this category at such amounts. */
  steady: number;
  vendorId: string | null;
  vendorAt: number;
}

function addVote(votes: Map<string, Vote>, categoryId: string, weight: number, vendorId: string | null, at: number, evidence = weight, steady = weight): void {
  const v = votes.get(categoryId) ?? { weight: 0, evidence: 0, steady: 0, vendorId: null, vendorAt: -Infinity };
  v.weight += weight;
  v.evidence += evidence;
  v.steady += steady;
  if (vendorId && at >= v.vendorAt) {
    v.vendorId = vendorId;
    v.vendorAt = at;
  }
  votes.set(categoryId, v);
}

function best(votes: Map<string, Vote>): { categoryId: string; vote: Vote; total: number } | null {
  let top: { categoryId: string; vote: Vote } | null = null;
  let total = 0;
  for (const [categoryId, vote] of votes) {
    total += vote.weight;
    if (!top || vote.weight > top.vote.weight || (vote.weight === top.vote.weight && categoryId < top.categoryId)) top = { categoryId, vote };
  }
  return top && total > 0 ? { ...top, total } : null;
}

/** The examples' index by merchant key and by token, built once per history (the store builds one per job). */
export interface CategorisationIndex {
  byMerchant: Map<string, CategorisationExample[]>;
  byToken: Map<string, CategorisationExample[]>;
}

export function indexExamples(examples: readonly CategorisationExample[]): CategorisationIndex {
  const byMerchant = new Map<string, CategorisationExample[]>();
  const byToken = new Map<string, CategorisationExample[]>();
  const sorted = [...examples].sort((a, b) => a.at - b.at);
  for (const e of sorted) {
    for (const key of merchantKeys(e)) (byMerchant.get(key) ?? byMerchant.set(key, []).get(key)!).push(e);
    for (const t of new Set(descriptionTokens(`${e.merchantName} ${e.description}`))) (byToken.get(t) ?? byToken.set(t, []).get(t)!).push(e);
  }
  return { byMerchant, byToken };
}

/** The merchant's evidence: amount-kernel × recency-within-band × account weights per category. */
function merchantVotes(all: readonly CategorisationExample[], q: CategorisationQuery): Map<string, Vote> {
  const examples = all.slice(-MERCHANT_WINDOW);
  const votes = new Map<string, Vote>();
  // Oldest first: count, for each example, the later examples of its own amount band.
  for (let i = 0; i < examples.length; i++) {
    const e = examples[i]!;
    // A floor, so a merchant of one category still votes for it at an amount it has not had before.
    const near = amountSimilarity(e.amountCents, q.amountCents);
    if (sign(e.amountCents) !== sign(q.amountCents)) continue;
    let later = 0;
    for (let j = i + 1; j < examples.length; j++) if (amountSimilarity(e.amountCents, examples[j]!.amountCents) >= SAME_BAND) later++;
    const account = e.bankAccountId === q.bankAccountId ? SAME_ACCOUNT : 1;
    addVote(
      votes,
      e.categoryId,
      (AMOUNT_FLOOR + near) * RECENCY_DECAY ** -later * account,
      e.vendorId,
      e.at,
      (0.5 + 0.5 * near) * account,
      (AMOUNT_FLOOR + near) * account,
    );
  }
  return votes;
}

/** Token evidence: each token votes with its examples' categories, a token of one category counting most. */
function tokenVotes(index: CategorisationIndex, q: CategorisationQuery): Map<string, Vote> {
  const votes = new Map<string, Vote>();
  for (const t of new Set(descriptionTokens(`${q.merchantName} ${q.description}`))) {
    const hits = index.byToken.get(t);
    if (!hits) continue;
    const per = new Map<string, Vote>();
    for (const e of hits) addVote(per, e.categoryId, amountSimilarity(e.amountCents, q.amountCents) > 0 ? 1 : 0, e.vendorId, e.at);
    const top = best(per);
    if (!top) continue;
    // A token shared by many categories ("COFFEE" at a café and at a supplier) says little.
    const purity = top.vote.weight / top.total;
    for (const [categoryId, vote] of per) addVote(votes, categoryId, (vote.weight / top.total) * purity, vote.vendorId, vote.vendorAt);
  }
  return votes;
}

/** The suggestion for one transaction, or null when the history says nothing about it. */
export function suggestCategory(index: CategorisationIndex, q: CategorisationQuery): CategorySuggestion | null {
  const examples = [...new Set(merchantKeys(q).flatMap((k) => index.byMerchant.get(k) ?? []))].sort((a, b) => a.at - b.at);
  if (examples.length > 0) {
    const votes = merchantVotes(examples, q);
    const top = best(votes);
    if (top) {
      const share = top.vote.weight / top.total;
      const strength = top.vote.evidence / (top.vote.evidence + EVIDENCE_HALF);
      // A merchant that has gone back and forth at such amounts (not one correction: a habit) is not applied blindly.
      let steadyTotal = 0;
      for (const v of votes.values()) steadyTotal += v.steady;
      const steady = Math.sqrt(top.vote.steady / steadyTotal);
      return { categoryId: top.categoryId, vendorId: top.vote.vendorId, confidence: round(share * strength * steady), basis: 'merchant' };
    }
  }
  const top = best(tokenVotes(index, q));
  if (!top) return null;
  const share = top.vote.weight / top.total;
  const strength = top.vote.evidence / (top.vote.evidence + EVIDENCE_HALF);
  return { categoryId: top.categoryId, vendorId: top.vote.vendorId, confidence: round(share * strength * TOKEN_DISCOUNT), basis: 'tokens' };
}

/** Whether a suggestion is applied without review. */
export const isAutoApplied = (s: CategorySuggestion | null, threshold = AUTO_APPLY_THRESHOLD): s is CategorySuggestion => !!s && s.confidence >= threshold;

const round = (x: number) => Math.round(x * 10_000) / 10_000;
