import { EventType, writeEvent, type Knex } from '@ledgerline/platform';
import type { DocumentKind } from '../domain/documents.js';

export type DocumentChange = 'created' | 'updated' | 'voided' | 'deleted';

/** Writes documents.document_changed to the outbox in the caller's transaction: published if and only if it commits. */
export function documentChanged(trx: Knex.Transaction, workspaceId: string, e: { documentId: string; kind: DocumentKind; change: DocumentChange; version: number; journalEntryId: string }): Promise<string> {
  return writeEvent(trx, 'documents', { type: EventType.DocumentsDocumentChanged, workspaceId, payload: { documentId: e.documentId, kind: e.kind, change: e.change, version: BigInt(e.version), journalEntryId: e.journalEntryId } });
}
