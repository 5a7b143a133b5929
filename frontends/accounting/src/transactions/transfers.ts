// Transfers as the transactions screens show them (issue #12): the badge, the list's transfer filter and the
// ranking of candidates. Moved from @ledgerline/api (issue #14 item 8, decision 0034).
import type { TransferCandidate, TransferTransaction } from '@ledgerline/api';

/** A transaction is a transfer when the server says so or when its category is of class group Transfer. */
export function isTransfer(t: TransferTransaction): boolean {
  return t.transferStatus === 'paired' || t.transferStatus === 'review' || t.category?.type === 'Transfer';
}

/** The row's badge: 'Transfer' when paired, 'Transfer to review' when one-sided. */
export function transferBadge(t: TransferTransaction): string | null {
  if (t.transferStatus === 'paired' || (t.transferPair ?? null) !== null) return 'Transfer';
  if (t.transferStatus === 'review') return 'Transfer to review';
  if (t.category?.type === 'Transfer') return 'Transfer';
  return null;
}

/** The transfer filter of the transactions list (spec §2 `filter` query value for it). */
export const TRANSFER_FILTERS = [
  { value: '', label: 'All transactions' },
  { value: 'review', label: 'Transfers to review' },
  { value: 'paired', label: 'Paired transfers' },
] as const;
export type TransferFilter = (typeof TRANSFER_FILTERS)[number]['value'];

/** The best candidates first (score, then the closest date to the transaction's). */
export function rankCandidates(candidates: readonly TransferCandidate[], dateTime: string): TransferCandidate[] {
  const at = Date.parse(dateTime);
  const distance = (c: TransferCandidate) => Math.abs(Date.parse(c.dateTime) - at);
  return [...candidates].sort((a, b) => b.score - a.score || distance(a) - distance(b) || a.id.localeCompare(b.id));
}
