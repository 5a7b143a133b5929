import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { tenantHeaders } from '@ledgerline/platform';
import type { DocumentsService } from '@ledgerline/proto/documents/v1/documents_pb';
import type { PartyDocumentKind, PartyDocumentRow } from '../store/party-documents.js';

export type DocumentsClient = Client<typeof DocumentsService>;

/**
 * What the parties service asks of the documents service, which owns bills and invoices: a document's current
 * state, in the workspace's tenancy (the documents consumer asks after each documents.document_changed).
 * Undefined: the document is not found (deleted, or not of this workspace).
 */
export interface DocumentReader {
  read(workspaceId: string, kind: PartyDocumentKind, id: string): Promise<PartyDocumentRow | undefined>;
}

export function documentReader(client: DocumentsClient): DocumentReader {
  return {
    async read(workspaceId, kind, id) {
      try {
        const d = (await client.getDocument({ kind, id }, { headers: tenantHeaders({ workspaceId }) })).document;
        if (!d?.party?.id) return undefined;
        return {
          id: d.id, kind, partyId: d.party.id, date: d.date, dueDate: d.dueDate || null, totalCents: Number(d.totalCents), paidCents: Number(d.paidCents), voided: d.voided, version: Number(d.version),
        };
      } catch (err) {
        if (ConnectError.from(err).code === Code.NotFound) return undefined;
        throw err;
      }
    },
  };
}
