import { newId, type Knex } from '@ledgerline/platform';
import type { Connection, PayerKind } from '../domain/connections.js';
import type { DocumentKind } from '../domain/documents.js';

/** A bill's or invoice's payment by a manual journal, vendor credit or credit memo (document_applications). */
export interface ApplicationRow {
  document_id: string;
  /** The paid document's kind (bill or invoice). */
  document_kind: DocumentKind;
  payer_kind: PayerKind;
  payer_id: string;
  amount_cents: number;
}

const SELECT = `select a.document_id, d.kind as document_kind, a.payer_kind, a.payer_id, a.amount_cents::float8 as amount_cents
  from document_applications a join documents d on d.id = a.document_id`;

/** The payments of each paid document, in the order they were listed. */
export async function applicationsOf(trx: Knex.Transaction, documentIds: readonly string[]): Promise<Map<string, ApplicationRow[]>> {
  const out = new Map<string, ApplicationRow[]>();
  if (documentIds.length === 0) return out;
  const rows = (await trx.raw(`${SELECT} where a.document_id = any(?::uuid[]) order by a.document_id, a.position`, [[...documentIds]]))
    .rows as ApplicationRow[];
  for (const r of rows) out.set(r.document_id, [...(out.get(r.document_id) ?? []), r]);
  return out;
}

/** What each payer (a manual journal, a credit) pays, across documents, in the order listed. */
export async function applicationsByPayer(trx: Knex.Transaction, payerIds: readonly string[]): Promise<Map<string, ApplicationRow[]>> {
  const out = new Map<string, ApplicationRow[]>();
  if (payerIds.length === 0) return out;
  const rows = (await trx.raw(`${SELECT} where a.payer_id = any(?::uuid[]) order by a.payer_id, d.kind, a.position, a.document_id`, [[...payerIds]]))
    .rows as ApplicationRow[];
  for (const r of rows) out.set(r.payer_id, [...(out.get(r.payer_id) ?? []), r]);
  return out;
}

/** The bill's or invoice's payments by `kinds` become `rows` (a PUT of the paid document). */
export async function replaceDocumentApplications(
  trx: Knex.Transaction,
  workspaceId: string,
  documentId: string,
  rows: readonly (Connection & { payerKind: PayerKind })[],
  kinds: readonly PayerKind[],
): Promise<void> {
  await trx('document_applications')
    .where({ document_id: documentId })
    .whereIn('payer_kind', [...kinds])
    .delete();
  if (rows.length === 0) return;
  await trx('document_applications').insert(
    rows.map((r, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      document_id: documentId,
      payer_kind: r.payerKind,
      payer_id: r.id,
      amount_cents: r.amountCents,
      position: i,
    })),
  );
}

/** What a manual journal pays of documents of `targetKind` becomes `rows` (a PUT of the journal). */
export async function replacePayerApplications(
  trx: Knex.Transaction,
  workspaceId: string,
  payerId: string,
  targetKind: DocumentKind,
  rows: readonly Connection[],
): Promise<void> {
  await trx.raw('delete from document_applications a using documents d where d.id = a.document_id and a.payer_id = ? and d.kind = ?', [payerId, targetKind]);
  if (rows.length === 0) return;
  await trx('document_applications').insert(
    rows.map((r, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      document_id: r.id,
      payer_kind: 'manual_entry',
      payer_id: payerId,
      amount_cents: r.amountCents,
      position: i,
    })),
  );
}

/** A voided or deleted document neither is paid nor pays: its rows on both sides go. */
export async function releaseApplications(trx: Knex.Transaction, documentId: string): Promise<void> {
  await trx('document_applications').where({ document_id: documentId }).orWhere({ payer_id: documentId }).delete();
}

/**
 * Connections of one workspace change one at a time (a bill's PUT and a manual journal's PUT write the same rows,
 * and a credit's remaining balance is the sum of its rows): a transaction-scoped advisory lock, taken first.
 */
export async function lockConnections(trx: Knex.Transaction, workspaceId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended('documents.connections:' || ?, 0))", [workspaceId]);
}

/** Live (not deleted) documents of the kind among `ids`, with whether voided, their party and total. */
export async function documentsOfKind(
  trx: Knex.Transaction,
  kind: DocumentKind,
  ids: readonly string[],
): Promise<Map<string, { id: string; voided: boolean; party_id: string | null; party_name: string; reference: string; total_cents: number }>> {
  if (ids.length === 0) return new Map();
  const rows = (
    await trx.raw(
      'select id, voided_at is not null as voided, party_id, party_name, reference, total_cents::float8 as total_cents from documents where kind = ? and deleted_at is null and id = any(?::uuid[])',
      [kind, [...ids]],
    )
  ).rows as { id: string; voided: boolean; party_id: string | null; party_name: string; reference: string; total_cents: number }[];
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * The workspace's posted (not voided, not deleted) bills or invoices with something left to pay: total less what bank
 * transactions, journals and credits pay. The newest 1000 by date (a suggestion looks at recent documents).
 */
export async function openDocuments(
  trx: Knex.Transaction,
  kind: 'bill' | 'invoice',
): Promise<{ id: string; remainingCents: number; date: string; dueDate: string | null; partyId: string | null; partyName: string }[]> {
  const rows = (
    await trx.raw(
      `select d.id, to_char(d.doc_date, 'YYYY-MM-DD') as date, to_char(d.due_date, 'YYYY-MM-DD') as due_date, d.party_id, d.party_name,
        (d.total_cents - coalesce((select sum(p.amount_cents) from document_payments p where p.document_id = d.id), 0)
          - coalesce((select sum(a.amount_cents) from document_applications a where a.document_id = d.id), 0))::float8 as remaining
       from documents d
      where d.kind = ? and d.voided_at is null and d.deleted_at is null
      order by d.doc_date desc, d.id limit 1000`,
      [kind],
    )
  ).rows as { id: string; date: string; due_date: string | null; party_id: string | null; party_name: string; remaining: number }[];
  return rows.map((r) => ({ id: r.id, remainingCents: r.remaining, date: r.date, dueDate: r.due_date, partyId: r.party_id, partyName: r.party_name }));
}
