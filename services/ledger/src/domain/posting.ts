/** A journal line as the ledger posts it: a positive amount in cents and a direction. */
export interface PostingLine {
  accountId: string;
  direction: 'debit' | 'credit';
  amountCents: number;
}

/**
 * The entry of a bank transaction: the bank's ledger account against the category. Money into the
 * bank account (amount > 0) debits the bank account; money out credits it. A zero amount books nothing.
 */
export function bankTransactionLines(bankLedgerAccountId: string, categoryId: string, amountCents: number): PostingLine[] {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError(`amount ${amountCents} is not integer cents`);
  if (amountCents === 0) return [];
  const abs = Math.abs(amountCents);
  const inflow = amountCents > 0;
  return [
    { accountId: bankLedgerAccountId, direction: inflow ? 'debit' : 'credit', amountCents: abs },
    { accountId: categoryId, direction: inflow ? 'credit' : 'debit', amountCents: abs },
  ];
}

/** The reversal of an entry: the same lines with directions swapped. */
export function reversalLines(lines: readonly PostingLine[]): PostingLine[] {
  return lines.map((l) => ({ ...l, direction: l.direction === 'debit' ? 'credit' : 'debit' }));
}

export function isBalanced(lines: readonly PostingLine[]): boolean {
  let sum = 0;
  for (const l of lines) {
    if (!(l.amountCents > 0) || !Number.isSafeInteger(l.amountCents)) return false;
    sum += l.direction === 'debit' ? l.amountCents : -l.amountCents;
  }
  return lines.length >= 2 && sum === 0;
}

/**
 * The entry of a split bank transaction: the bank line for the whole amount, one category line per
 * part. Parts are signed like the amount and must add up to it exactly.
 */
export function splitTransactionLines(
  bankLedgerAccountId: string,
  amountCents: number,
  parts: readonly { categoryId: string; amountCents: number }[],
): PostingLine[] {
  const sum = parts.reduce((s, p) => s + p.amountCents, 0);
  if (sum !== amountCents || parts.some((p) => Math.sign(p.amountCents) !== Math.sign(amountCents)))
    throw new RangeError(`split parts ${sum} do not add up to ${amountCents}`);
  if (amountCents === 0) return [];
  const inflow = amountCents > 0;
  return [
    { accountId: bankLedgerAccountId, direction: inflow ? 'debit' : 'credit', amountCents: Math.abs(amountCents) },
    ...parts.map((p): PostingLine => ({ accountId: p.categoryId, direction: inflow ? 'credit' : 'debit', amountCents: Math.abs(p.amountCents) })),
  ];
}

/** Amount tolerance of spec §9: split parts may differ from the amount by at most one cent. */
export const SPLIT_TOLERANCE_CENTS = 1;

/**
 * Parts (absolute cents as the user typed them, the parent's part first) signed like the amount, the
 * parent's part absorbing a difference within the tolerance; null when they do not add up.
 */
export function signedParts(amountCents: number, absParts: readonly number[]): number[] | null {
  const total = absParts.reduce((s, p) => s + p, 0);
  const diff = Math.abs(amountCents) - total;
  if (Math.abs(diff) > SPLIT_TOLERANCE_CENTS || absParts.length === 0) return null;
  const sign = amountCents < 0 ? -1 : 1;
  const adjusted = absParts.map((p, i) => (i === 0 ? p + diff : p));
  if (adjusted.some((p) => p <= 0)) return null;
  return adjusted.map((p) => p * sign);
}
