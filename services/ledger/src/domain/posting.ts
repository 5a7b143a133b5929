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
