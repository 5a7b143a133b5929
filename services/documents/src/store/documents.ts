import { newId, type Knex } from '@ledgerline/platform';
import type { CleanDocument, CleanLine, CleanPayment, DocumentKind } from '../domain/documents.js';

export interface DocumentRow {
  id: string;
  workspace_id: string;
  kind: DocumentKind;
  doc_date: string;
  due_date: string | null;
  party_id: string | null;
  party_name: string;
  reference: string;
  description: string;
  company_name: string;
  company_address: string;
  total_cents: number;
  source: string;
  version: number;
  journal_entry_id: string | null;
  voided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DocumentLineRow {
  id: string;
  document_id: string;
  position: number;
  service_name: string;
  category_id: string;
  amount_cents: number;
  quantity: string | null;
  rate_cents: number | null;
  direction: 'debit' | 'credit' | null;
}

const SELECT = `select d.id, d.workspace_id, d.kind, to_char(d.doc_date, 'YYYY-MM-DD') as doc_date, to_char(d.due_date, 'YYYY-MM-DD') as due_date, d.party_id, d.party_name,
    d.reference, d.description, d.company_name, d.company_address, d.total_cents::float8 as total_cents, d.source, d.version::float8 as version, d.journal_entry_id,
    d.voided_at, d.created_at, d.updated_at
  from documents d`;

/** A document of the kind, not deleted, in the caller's workspace (row-level security); `lock` takes it FOR UPDATE. */
export async function documentById(trx: Knex.Transaction, kind: DocumentKind, id: string, lock = false): Promise<DocumentRow | undefined> {
  return (await trx.raw(`${SELECT} where d.id = ? and d.kind = ? and d.deleted_at is null${lock ? ' for update' : ''}`, [id, kind])).rows[0] as
    DocumentRow | undefined;
}

export async function documentLines(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, DocumentLineRow[]>> {
  const out = new Map<string, DocumentLineRow[]>();
  if (ids.length === 0) return out;
  const rows = (
    await trx.raw(
      `select id, document_id, position, service_name, category_id, amount_cents::float8 as amount_cents, quantity::text as quantity, rate_cents::float8 as rate_cents, direction
       from document_lines where document_id = any(?::uuid[]) order by document_id, position`,
      [[...ids]],
    )
  ).rows as DocumentLineRow[];
  for (const r of rows) out.set(r.document_id, [...(out.get(r.document_id) ?? []), r]);
  return out;
}

export interface ListFilter {
  kind: DocumentKind;
  /** '', 'Posted' or 'Voided'. */
  status: string;
  partyId: string;
  startDate: string;
  endDate: string;
  /** Undefined: every matching row. */
  page?: { take: number; offset: number };
}

/** Documents of a kind, newest date first, with the filters; and how many match. */
export async function listDocuments(trx: Knex.Transaction, f: ListFilter): Promise<{ rows: DocumentRow[]; count: number }> {
  const where: string[] = ['d.kind = ?', 'd.deleted_at is null'];
  const args: (string | number)[] = [f.kind];
  if (f.status === 'Posted') where.push('d.voided_at is null');
  if (f.status === 'Voided') where.push('d.voided_at is not null');
  if (f.partyId) {
    where.push('d.party_id = ?');
    args.push(f.partyId);
  }
  if (f.startDate) {
    where.push('d.doc_date >= ?');
    args.push(f.startDate);
  }
  if (f.endDate) {
    where.push('d.doc_date <= ?');
    args.push(f.endDate);
  }
  const w = where.join(' and ');
  const limit = f.page ? ' limit ? offset ?' : '';
  const rows = (
    await trx.raw(`${SELECT} where ${w} order by d.doc_date desc, d.created_at desc, d.id${limit}`, f.page ? [...args, f.page.take, f.page.offset] : args)
  ).rows as DocumentRow[];
  const count = Number(((await trx.raw(`select count(*)::int as n from documents d where ${w}`, args)).rows[0] as { n: number }).n);
  return { rows, count };
}

export interface DocumentWrite {
  id: string;
  workspaceId: string;
  kind: DocumentKind;
  doc: CleanDocument;
  partyName: string;
  totalCents: number;
  createdBy: string | null;
}

export async function insertDocument(trx: Knex.Transaction, w: DocumentWrite): Promise<void> {
  await trx('documents').insert({
    id: w.id,
    workspace_id: w.workspaceId,
    kind: w.kind,
    doc_date: w.doc.date,
    due_date: w.doc.dueDate || null,
    party_id: w.doc.partyId || null,
    party_name: w.partyName,
    reference: w.doc.reference,
    description: w.doc.description,
    company_name: w.doc.companyName,
    company_address: w.doc.companyAddress,
    total_cents: w.totalCents,
    version: 1,
    created_by: w.createdBy,
  });
}

export async function updateDocument(
  trx: Knex.Transaction,
  id: string,
  doc: CleanDocument,
  partyName: string,
  totalCents: number,
  version: number,
): Promise<void> {
  await trx('documents')
    .where({ id })
    .update({
      doc_date: doc.date,
      due_date: doc.dueDate || null,
      party_id: doc.partyId || null,
      party_name: partyName,
      reference: doc.reference,
      description: doc.description,
      company_name: doc.companyName,
      company_address: doc.companyAddress,
      total_cents: totalCents,
      version,
      updated_at: trx.fn.now(),
    });
}

export async function replaceLines(trx: Knex.Transaction, workspaceId: string, documentId: string, lines: readonly CleanLine[]): Promise<void> {
  await trx('document_lines').where({ document_id: documentId }).delete();
  await trx('document_lines').insert(
    lines.map((l, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      document_id: documentId,
      position: i,
      service_name: l.serviceName,
      category_id: l.categoryId,
      amount_cents: l.amountCents,
      quantity: l.quantity === '' ? null : l.quantity,
      rate_cents: l.quantity === '' ? null : l.rateCents,
      direction: l.direction === '' ? null : l.direction,
    })),
  );
}

/** The entry the ledger booked for a version, kept only while the document is still at that version. */
export async function setJournalEntry(trx: Knex.Transaction, id: string, journalEntryId: string | null, version: number): Promise<void> {
  await trx('documents').where({ id, version }).update({ journal_entry_id: journalEntryId });
}

export async function markVoided(trx: Knex.Transaction, id: string, version: number): Promise<void> {
  await trx('documents').where({ id }).update({ voided_at: trx.fn.now(), version, journal_entry_id: null, updated_at: trx.fn.now() });
}

export async function markDeleted(trx: Knex.Transaction, id: string, version: number): Promise<void> {
  await trx('documents')
    .where({ id })
    .update({ deleted_at: trx.fn.now(), voided_at: trx.raw('coalesce(voided_at, now())'), version, journal_entry_id: null, updated_at: trx.fn.now() });
}

export interface PaymentRow {
  document_id: string;
  transaction_id: string;
  amount_cents: number;
}

export async function documentPayments(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, PaymentRow[]>> {
  const out = new Map<string, PaymentRow[]>();
  if (ids.length === 0) return out;
  const rows = (
    await trx.raw(
      'select document_id, transaction_id, amount_cents::float8 as amount_cents from document_payments where document_id = any(?::uuid[]) order by document_id, position',
      [[...ids]],
    )
  ).rows as PaymentRow[];
  for (const r of rows) out.set(r.document_id, [...(out.get(r.document_id) ?? []), r]);
  return out;
}

export async function replacePayments(trx: Knex.Transaction, workspaceId: string, documentId: string, payments: readonly CleanPayment[]): Promise<void> {
  await trx('document_payments').where({ document_id: documentId }).delete();
  if (payments.length === 0) return;
  await trx('document_payments').insert(
    payments.map((p, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      document_id: documentId,
      position: i,
      transaction_id: p.transactionId,
      amount_cents: p.amountCents,
    })),
  );
}
