import { newId, type Knex } from '@ledgerline/platform';
import type { CleanLine, CreditKind } from '../domain/credits.js';

export interface CreditRow {
  id: string;
  workspace_id: string;
  kind: CreditKind;
  vendor_id: string | null;
  customer_id: string | null;
  payment_date: string;
  description: string;
  ref_no: string;
  total_cents: number;
  version: number;
  journal_entry_id: string | null;
  voided_at: Date | null;
  created_at: Date;
  updated_at: Date;
  party_name: string;
  applied_cents: number;
}

export interface CreditLineRow {
  id: string;
  credit_id: string;
  position: number;
  description: string;
  category_id: string;
  amount_cents: number;
}

/** A credit with its party's name and what documents applied of it (issue #18; 0 until then). */
const SELECT = `select c.id, c.workspace_id, c.kind, c.vendor_id, c.customer_id, to_char(c.payment_date, 'YYYY-MM-DD') as payment_date, c.description, c.ref_no,
    c.total_cents::float8 as total_cents, c.version::float8 as version, c.journal_entry_id, c.voided_at, c.created_at, c.updated_at,
    coalesce(v.name, cu.name, '') as party_name,
    coalesce((select sum(a.amount_cents) from party_credit_applications a where a.credit_id = c.id), 0)::float8 as applied_cents
  from party_credits c left join vendors v on v.id = c.vendor_id left join customers cu on cu.id = c.customer_id`;

/** A live (not voided) credit of the kind in the caller's workspace (row-level security); `lock` takes it FOR UPDATE first. */
export async function creditById(trx: Knex.Transaction, kind: CreditKind, id: string, lock = false): Promise<CreditRow | undefined> {
  if (lock) {
    const locked = (await trx.raw('select id from party_credits where id = ? and kind = ? and voided_at is null for update', [id, kind])).rows as unknown[];
    if (locked.length === 0) return undefined;
  }
  return (await trx.raw(`${SELECT} where c.id = ? and c.kind = ? and c.voided_at is null`, [id, kind])).rows[0] as CreditRow | undefined;
}

export async function creditLines(trx: Knex.Transaction, creditIds: readonly string[]): Promise<Map<string, CreditLineRow[]>> {
  const out = new Map<string, CreditLineRow[]>();
  if (creditIds.length === 0) return out;
  const rows = (
    await trx.raw(
      'select id, credit_id, position, description, category_id, amount_cents::float8 as amount_cents from party_credit_lines where credit_id = any(?::uuid[]) order by credit_id, position',
      [[...creditIds]],
    )
  ).rows as CreditLineRow[];
  for (const r of rows) out.set(r.credit_id, [...(out.get(r.credit_id) ?? []), r]);
  return out;
}

/** A page of live credits of a kind, newest payment date first; optionally one party's. */
export async function listCredits(
  trx: Knex.Transaction,
  kind: CreditKind,
  q: { page: number; take: number; partyId: string },
): Promise<{ rows: CreditRow[]; count: number }> {
  const partyColumn = kind === 'vendor_credit' ? 'vendor_id' : 'customer_id';
  const where = `c.kind = ? and c.voided_at is null${q.partyId ? ` and c.${partyColumn} = ?` : ''}`;
  const args: string[] = q.partyId ? [kind, q.partyId] : [kind];
  const rows = (
    await trx.raw(`${SELECT} where ${where} order by c.payment_date desc, c.created_at desc, c.id limit ? offset ?`, [...args, q.take, (q.page - 1) * q.take])
  ).rows as CreditRow[];
  const count = Number(((await trx.raw(`select count(*)::int as n from party_credits c where ${where}`, args)).rows[0] as { n: number }).n);
  return { rows, count };
}

export async function insertCredit(
  trx: Knex.Transaction,
  row: {
    id: string;
    workspaceId: string;
    kind: CreditKind;
    partyId: string;
    paymentDate: string;
    description: string;
    refNo: string;
    totalCents: number;
    createdBy: string | null;
  },
): Promise<void> {
  await trx('party_credits').insert({
    id: row.id,
    workspace_id: row.workspaceId,
    kind: row.kind,
    vendor_id: row.kind === 'vendor_credit' ? row.partyId : null,
    customer_id: row.kind === 'credit_memo' ? row.partyId : null,
    payment_date: row.paymentDate,
    description: row.description,
    ref_no: row.refNo,
    total_cents: row.totalCents,
    version: 1,
    created_by: row.createdBy,
  });
}

export async function replaceLines(trx: Knex.Transaction, workspaceId: string, creditId: string, lines: readonly CleanLine[]): Promise<void> {
  await trx('party_credit_lines').where({ credit_id: creditId }).delete();
  await trx('party_credit_lines').insert(
    lines.map((l, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      credit_id: creditId,
      position: i,
      description: l.description,
      category_id: l.categoryId,
      amount_cents: l.amountCents,
    })),
  );
}

export async function updateCredit(
  trx: Knex.Transaction,
  id: string,
  patch: {
    kind: CreditKind;
    partyId: string;
    paymentDate: string;
    description: string;
    refNo: string;
    totalCents: number;
    version: number;
    journalEntryId: string | null;
  },
): Promise<void> {
  await trx('party_credits')
    .where({ id })
    .update({
      vendor_id: patch.kind === 'vendor_credit' ? patch.partyId : null,
      customer_id: patch.kind === 'credit_memo' ? patch.partyId : null,
      payment_date: patch.paymentDate,
      description: patch.description,
      ref_no: patch.refNo,
      total_cents: patch.totalCents,
      version: patch.version,
      journal_entry_id: patch.journalEntryId,
      updated_at: trx.fn.now(),
    });
}

/** The entry the ledger booked for a version, kept only while the credit is still at that version. */
export async function setJournalEntry(trx: Knex.Transaction, id: string, journalEntryId: string | null, version: number): Promise<void> {
  await trx('party_credits').where({ id, version }).whereNull('voided_at').update({ journal_entry_id: journalEntryId });
}

export async function voidCredit(trx: Knex.Transaction, id: string, version: number): Promise<void> {
  await trx('party_credits').where({ id }).update({ voided_at: trx.fn.now(), version, journal_entry_id: null, updated_at: trx.fn.now() });
}

export interface PartyCreditTotals {
  count: number;
  totalCents: number;
  remainingCents: number;
}

/** Per vendor (vendor credits) or customer (credit memos): live credits, their total and what remains unapplied. */
export async function creditTotals(trx: Knex.Transaction, kind: CreditKind, partyIds: readonly string[]): Promise<Map<string, PartyCreditTotals>> {
  const out = new Map<string, PartyCreditTotals>();
  if (partyIds.length === 0) return out;
  const column = kind === 'vendor_credit' ? 'vendor_id' : 'customer_id';
  const rows = (
    await trx.raw(
      `select c.${column} as party_id, count(*)::int as n, sum(c.total_cents)::float8 as total,
        sum(c.total_cents - coalesce((select sum(a.amount_cents) from party_credit_applications a where a.credit_id = c.id), 0))::float8 as remaining
       from party_credits c where c.kind = ? and c.voided_at is null and c.${column} = any(?::uuid[]) group by c.${column}`,
      [kind, [...partyIds]],
    )
  ).rows as { party_id: string; n: number; total: number; remaining: number }[];
  for (const r of rows) out.set(r.party_id, { count: r.n, totalCents: r.total, remainingCents: r.remaining });
  return out;
}

/** A merge moves the merged vendors' credits to the parent (the ledger's entries stay as posted). */
export async function moveVendorCredits(trx: Knex.Transaction, fromVendorIds: readonly string[], toVendorId: string): Promise<number> {
  if (fromVendorIds.length === 0) return 0;
  return trx('party_credits')
    .whereIn('vendor_id', [...fromVendorIds])
    .update({ vendor_id: toVendorId, updated_at: trx.fn.now() });
}
