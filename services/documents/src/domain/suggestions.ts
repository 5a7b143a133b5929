import { TOLERANCE_CENTS } from './documents.js';

/** A bank transaction as the suggestion sees it: signed amount (> 0 money in), date, its vendor and merchant name. */
export interface TransactionFacts {
  amountCents: number;
  date: string;
  vendorId: string;
  merchantName: string;
}
/** An open bill or invoice: what is left to pay, its dates and party. */
export interface OpenDocument {
  id: string;
  remainingCents: number;
  date: string;
  dueDate: string | null;
  partyId: string | null;
  partyName: string;
}

const DAY_MS = 86_400_000;
const daysBetween = (a: string, b: string) => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;
const nameKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * How likely the transaction pays the document (issue #18 item 4: "suggest the matching bill or invoice for a new bank
 * transaction — amount, vendor/customer, date"), 0–100 with the reasons: the amount is worth most (an exact match of
 * what is left to pay, within 0.01: 60; within 5%: 25), then the party (the transaction's vendor is the bill's, or the
 * merchant's name is the vendor's / customer's: 25), then the date (the due date, else the document's date, within 7
 * days: 15; within 30: 5). Pure.
 */
export function suggestionScore(t: TransactionFacts, d: OpenDocument): { score: number; reasons: string[] } {
  const reasons: string[] = [];
  let score = 0;
  const amount = Math.abs(t.amountCents);
  const diff = Math.abs(d.remainingCents - amount);
  if (diff <= TOLERANCE_CENTS) {
    score += 60;
    reasons.push('amount');
  } else if (diff * 20 <= d.remainingCents) {
    score += 25;
    reasons.push('amount within 5%');
  }
  const sameVendor = t.vendorId !== '' && d.partyId !== null && t.vendorId === d.partyId;
  const sameName = t.merchantName.trim() !== '' && nameKey(t.merchantName) === nameKey(d.partyName);
  if (sameVendor || sameName) {
    score += 25;
    reasons.push('party');
  }
  const days = daysBetween(t.date, d.dueDate ?? d.date);
  if (days <= 7) {
    score += 15;
    reasons.push('date');
  } else if (days <= 30) {
    score += 5;
    reasons.push('date within 30 days');
  }
  return { score, reasons };
}

/** The documents worth suggesting (amount or party matched, not the date alone), best first, at most `limit`. */
export function rankSuggestions<T extends OpenDocument>(t: TransactionFacts, docs: readonly T[], limit = 5): { doc: T; score: number; reasons: string[] }[] {
  return docs
    .filter((d) => d.remainingCents > 0)
    .map((d) => ({ doc: d, ...suggestionScore(t, d) }))
    .filter((s) => s.reasons.some((r) => !r.startsWith('date')))
    .sort((a, b) => b.score - a.score || (a.doc.dueDate ?? a.doc.date).localeCompare(b.doc.dueDate ?? b.doc.date) || a.doc.id.localeCompare(b.doc.id))
    .slice(0, limit);
}
