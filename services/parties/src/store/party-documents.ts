import type { Knex } from '@ledgerline/platform';
import type { DocumentFacts } from '../domain/document-figures.js';

/** The read model of bills and invoices (migration 20261128150000_parties_party_documents); rows of the caller's workspace. */

export type PartyDocumentKind = 'bill' | 'invoice';

export interface PartyDocumentRow extends DocumentFacts {
  id: string;
  kind: PartyDocumentKind;
  version: number;
}

/**
 * Stores a document's state unless the row already holds a later version, or the same version voided or deleted
 * (final for that version): events may arrive out of order. Answers whether it stored this state.
 */
export async function upsertPartyDocument(trx: Knex.Transaction, workspaceId: string, d: PartyDocumentRow): Promise<boolean> {
  const r = await trx.raw(
    `insert into party_documents (workspace_id, id, kind, party_id, doc_date, due_date, total_cents, paid_cents, voided, version)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (workspace_id, id) do update set kind = excluded.kind, party_id = excluded.party_id, doc_date = excluded.doc_date, due_date = excluded.due_date,
       total_cents = excluded.total_cents, paid_cents = excluded.paid_cents, voided = excluded.voided, version = excluded.version, updated_at = now()
     where party_documents.version < excluded.version or (party_documents.version = excluded.version and not party_documents.voided)`,
    [workspaceId, d.id, d.kind, d.partyId, d.date, d.dueDate, d.totalCents, d.paidCents, d.voided, d.version],
  );
  // Whether this state was taken (false: the row holds a later one).
  return (r.rowCount ?? 0) > 0;
}

/** A document that is not a party's (no vendor or customer) leaves the read model. */
export async function deletePartyDocument(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('party_documents').where({ id }).delete();
}

/** The documents of a kind of these parties (every party's of the workspace when `partyIds` is undefined). */
export async function partyDocuments(trx: Knex.Transaction, kind: PartyDocumentKind, partyIds?: readonly string[]): Promise<DocumentFacts[]> {
  if (partyIds && partyIds.length === 0) return [];
  const rows = (
    await trx.raw(
      `select party_id, to_char(doc_date, 'YYYY-MM-DD') as doc_date, to_char(due_date, 'YYYY-MM-DD') as due_date, total_cents::float8 as total_cents, paid_cents::float8 as paid_cents, voided
       from party_documents where kind = ?${partyIds ? ' and party_id = any(?::uuid[])' : ''}`,
      partyIds ? [kind, [...partyIds]] : [kind],
    )
  ).rows as { party_id: string; doc_date: string; due_date: string | null; total_cents: number; paid_cents: number; voided: boolean }[];
  return rows.map((r) => ({
    partyId: r.party_id,
    date: r.doc_date,
    dueDate: r.due_date,
    totalCents: r.total_cents,
    paidCents: r.paid_cents,
    voided: r.voided,
  }));
}

/** A merge moves the merged vendors' bills to the parent here at once (the documents service follows vendor.changed). */
export async function movePartyDocuments(trx: Knex.Transaction, fromPartyIds: readonly string[], toPartyId: string): Promise<number> {
  if (fromPartyIds.length === 0) return 0;
  return trx('party_documents')
    .where({ kind: 'bill' })
    .whereIn('party_id', [...fromPartyIds])
    .update({ party_id: toPartyId, updated_at: trx.fn.now() });
}
