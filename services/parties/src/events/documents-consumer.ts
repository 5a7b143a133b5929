import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import type { DocumentReader } from '../clients/documents.js';
import { deletePartyDocument, upsertPartyDocument, type PartyDocumentKind } from '../store/party-documents.js';

export const DOCUMENTS_CONSUMER = 'parties_documents';

const KINDS: readonly string[] = ['bill', 'invoice'] satisfies PartyDocumentKind[];

/**
 * Keeps the parties' read model of bills and invoices (party_documents) from the documents service's
 * documents.document_changed, exactly once through the inbox. The event says which document changed; its state
 * (party, dates, total, paid, voided, version) is read back with GetDocument in the workspace's tenancy, so an
 * event that arrives late or twice stores the current state, and the version guard keeps a row from going back.
 * A document no longer found (deleted) leaves the model. Manual journals are not a party's. While the documents
 * service does not answer, the event is retried and then dead-lettered (the next change of the document heals it).
 */
export function startDocumentsConsumer(o: { db: Knex; bus: EventBus; logger: Logger; documents: DocumentReader; maxDeliver?: number }): Promise<Consumer> {
  return startConsumer({
    name: DOCUMENTS_CONSUMER,
    types: [EventType.DocumentsDocumentChanged],
    db: o.db,
    bus: o.bus,
    logger: o.logger,
    maxDeliver: o.maxDeliver ?? 8,
    check(event) {
      const m = eventMessage(event);
      if (!isUuid(m.documentId)) throw new Error(`invalid ${event.type} ${event.id}: documentId`);
      return m;
    },
    async handle(trx, event) {
      const m = event.checked;
      if (!KINDS.includes(m.kind)) return;
      const doc = m.change === 'deleted' ? undefined : await o.documents.read(event.workspaceId, m.kind as PartyDocumentKind, m.documentId);
      if (doc) await upsertPartyDocument(trx, event.workspaceId, doc);
      else await deletePartyDocument(trx, m.documentId);
    },
  });
}
