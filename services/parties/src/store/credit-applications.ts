import { newId, type Knex } from '@ledgerline/platform';
import type { PartyDocumentKind } from './party-documents.js';

/**
 * What bills and invoices apply of the vendor credits and credit memos (party_credit_applications, migration
 * 20261128130000_parties_credits): a mirror of the documents service's applications, carried by
 * documents.document_changed (decision 0027-document-api-completion). Each event holds a document's whole set,
 * so it replaces that document's rows. A credit of another workspace, or one this service does not know, is skipped.
 */
export async function replaceCreditApplications(
  trx: Knex.Transaction,
  workspaceId: string,
  kind: PartyDocumentKind,
  documentId: string,
  applications: readonly { creditId: string; amountCents: number }[],
): Promise<void> {
  await trx('party_credit_applications').where({ workspace_id: workspaceId, document_type: kind, document_id: documentId }).delete();
  const creditKind = kind === 'bill' ? 'vendor_credit' : 'credit_memo';
  for (const a of applications) {
    if (a.amountCents <= 0) continue;
    await trx.raw(
      `insert into party_credit_applications (id, workspace_id, credit_id, document_type, document_id, amount_cents)
       select ?, c.workspace_id, c.id, ?, ?, ? from party_credits c where c.id = ? and c.workspace_id = ? and c.kind = ?
       on conflict (credit_id, document_type, document_id) do update set amount_cents = excluded.amount_cents`,
      [newId(), kind, documentId, a.amountCents, a.creditId, workspaceId, creditKind],
    );
  }
}
