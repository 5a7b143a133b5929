import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import { replaceCreditApplications } from '../store/credit-applications.js';
import { deletePartyDocument, upsertPartyDocument, type PartyDocumentKind } from '../store/party-documents.js';

export const DOCUMENTS_CONSUMER = 'parties_documents';

const KINDS: readonly string[] = ['bill', 'invoice'] satisfies PartyDocumentKind[];

/**
 * Keeps the parties' read model of bills and invoices (party_documents) from the documents service's
 * documents.document_changed, exactly once through the inbox. The event carries the document's state after the change
 * (party, dates, total, paid, voided, version), so nothing is asked back of the documents service (which calls this
 * one: no call cycle); the version guard keeps a row from going back when an older event arrives late, and at the same
 * version a voided or deleted state is final. A deleted document stays as a voided row, which counts nowhere. The
 * credits a bill or invoice applies are replaced with the state (party_credit_applications: a credit's appliedAmount
 * and runningBalance). Manual journals, and documents without a party, are not a party's.
 */
export function startDocumentsConsumer(o: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Consumer> {
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
      const kind = m.kind as PartyDocumentKind;
      if (!isUuid(m.partyId)) {
        await deletePartyDocument(trx, m.documentId);
        await replaceCreditApplications(trx, event.workspaceId, kind, m.documentId, []);
        return;
      }
      // A deleted document stays as a voided row (it counts nowhere): a late event of the same version cannot bring it back.
      const taken = await upsertPartyDocument(trx, event.workspaceId, {
        id: m.documentId,
        kind: m.kind as PartyDocumentKind,
        partyId: m.partyId,
        date: m.date,
        dueDate: m.dueDate || null,
        totalCents: Number(m.totalCents),
        paidCents: Number(m.paidCents),
        voided: m.voided || m.change === 'deleted',
        version: Number(m.version),
      });
      // The credits it applies (vendor credits / credit memos) follow the same state: none once voided or deleted.
      if (taken) {
        const applications =
          m.voided || m.change === 'deleted' ? [] : m.creditApplications.map((a) => ({ creditId: a.creditId, amountCents: Number(a.amountCents) }));
        await replaceCreditApplications(trx, event.workspaceId, kind, m.documentId, applications);
      }
    },
  });
}
