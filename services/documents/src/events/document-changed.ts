import { EventType, writeEvent, type Knex } from '@ledgerline/platform';
import type { DocumentKind } from '../domain/documents.js';

export type DocumentChange = 'created' | 'updated' | 'voided' | 'deleted';

/** The document's state an event carries (see proto DocumentsDocumentChanged). */
export interface DocumentState {
  partyId: string | null;
  date: string;
  dueDate: string | null;
  totalCents: number;
  paidCents: number;
  voided: boolean;
  /** Bills: the vendor credits applied to it; invoices: the credit memos (the whole set; none once voided or deleted). */
  creditApplications?: readonly { id: string; amountCents: number }[];
}

/**
 * Writes documents.document_changed to the outbox in the caller's transaction: published if and only if it commits.
 * It carries the document's state, so its readers need not call back.
 */
export function documentChanged(
  trx: Knex.Transaction,
  workspaceId: string,
  e: { documentId: string; kind: DocumentKind; change: DocumentChange; version: number; journalEntryId: string; state: DocumentState },
): Promise<string> {
  return writeEvent(trx, 'documents', {
    type: EventType.DocumentsDocumentChanged,
    workspaceId,
    payload: {
      documentId: e.documentId,
      kind: e.kind,
      change: e.change,
      version: BigInt(e.version),
      journalEntryId: e.journalEntryId,
      partyId: e.state.partyId ?? '',
      date: e.state.date,
      dueDate: e.state.dueDate ?? '',
      totalCents: BigInt(e.state.totalCents),
      paidCents: BigInt(e.state.paidCents),
      voided: e.state.voided,
      creditApplications: (e.state.creditApplications ?? []).map((a) => ({ creditId: a.id, amountCents: BigInt(a.amountCents) })),
    },
  });
}
