/**
 * A vendor's bill figures and a customer's invoice figures (spec documents-parties-integrations §3), from the
 * documents this service keeps in its read model (party_documents). Pure: "today" is given, so "overdue" is
 * decided at every read from the stored due dates, never from a flag that goes stale overnight.
 *
 * - count / amount: the live documents (a voided one counts nowhere; a deleted one is not kept at all);
 * - due: the documents with money still owed (total − paid > 0; an overpaid one owes nothing);
 * - overdue: what is still owed on the due documents whose due date (the document's date when it has none, as a
 *   bill due on receipt) is before today.
 */

export interface DocumentFacts {
  partyId: string;
  /** YYYY-MM-DD. */
  date: string;
  /** YYYY-MM-DD, or null when the document has none. */
  dueDate: string | null;
  totalCents: number;
  paidCents: number;
  voided: boolean;
}

export interface PartyFigures {
  count: number;
  amountCents: number;
  dueCount: number;
  dueAmountCents: number;
  overdueAmountCents: number;
}

export const NO_FIGURES: PartyFigures = { count: 0, amountCents: 0, dueCount: 0, dueAmountCents: 0, overdueAmountCents: 0 };

/** What is still owed on a document (never below 0). */
export function openCents(d: Pick<DocumentFacts, 'totalCents' | 'paidCents'>): number {
  return Math.max(0, d.totalCents - d.paidCents);
}

/** Owed past its due date as of `today` (YYYY-MM-DD): the day after the due date, not on it. */
export function isOverdue(d: Pick<DocumentFacts, 'date' | 'dueDate' | 'totalCents' | 'paidCents' | 'voided'>, today: string): boolean {
  return !d.voided && openCents(d) > 0 && (d.dueDate ?? d.date) < today;
}

/** The figures per party of these documents as of `today`. */
export function partyFigures(docs: readonly DocumentFacts[], today: string): Map<string, PartyFigures> {
  const out = new Map<string, PartyFigures>();
  for (const d of docs) {
    if (d.voided) continue;
    const f = { ...(out.get(d.partyId) ?? NO_FIGURES) };
    const open = openCents(d);
    f.count += 1;
    f.amountCents += d.totalCents;
    if (open > 0) {
      f.dueCount += 1;
      f.dueAmountCents += open;
    }
    if (isOverdue(d, today)) f.overdueAmountCents += open;
    out.set(d.partyId, f);
  }
  return out;
}

/** Today's date in UTC (YYYY-MM-DD), the day overdue is reckoned against. */
export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);
