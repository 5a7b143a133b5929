import type { Knex } from '@ledgerline/platform';
import type { CleanParty, ListQuery } from '../domain/parties.js';

export interface CustomerRow {
  id: string;
  workspace_id: string;
  name: string;
  company_name: string;
  email: string;
  description: string;
  address: string;
  bank_details: string;
  status: 'active' | 'inactive';
  meta_data: Record<string, string | number>;
  qbo_synced: boolean;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = (v: CleanParty) => ({
  ...(v.name !== undefined ? { name: v.name } : {}),
  ...(v.companyName !== undefined ? { company_name: v.companyName } : {}),
  ...(v.email !== undefined ? { email: v.email } : {}),
  ...(v.description !== undefined ? { description: v.description } : {}),
  ...(v.address !== undefined ? { address: v.address } : {}),
  ...(v.bankDetails !== undefined ? { bank_details: v.bankDetails } : {}),
  ...(v.status !== undefined ? { status: v.status } : {}),
  ...(v.metaData !== undefined ? { meta_data: JSON.stringify(v.metaData) } : {}),
});

export async function customerById(trx: Knex.Transaction, id: string, lock = false): Promise<CustomerRow | undefined> {
  const q = trx<CustomerRow>('customers').where({ id }).whereNull('deleted_at').first();
  return (await (lock ? q.forUpdate() : q)) as CustomerRow | undefined;
}

/** Whether another live customer of the workspace has this name (case-insensitive). */
export async function customerNameTaken(trx: Knex.Transaction, name: string, exceptId?: string): Promise<boolean> {
  const q = trx('customers').whereNull('deleted_at').whereRaw('lower(name) = lower(?)', [name]);
  if (exceptId) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

export async function insertCustomer(trx: Knex.Transaction, c: CleanParty & { id: string; workspaceId: string; name: string }): Promise<CustomerRow> {
  const [row] = (await trx('customers')
    .insert({ id: c.id, workspace_id: c.workspaceId, ...columns(c) })
    .returning('*')) as CustomerRow[];
  if (!row) throw new Error('insert into customers answered no row');
  return row;
}

export async function updateCustomer(trx: Knex.Transaction, id: string, c: CleanParty): Promise<CustomerRow> {
  const [row] = (await trx('customers')
    .where({ id })
    .update({ ...columns(c), updated_at: trx.fn.now() })
    .returning('*')) as CustomerRow[];
  if (!row) throw new Error(`customer ${id} vanished under its lock`);
  return row;
}

export async function markCustomerDeleted(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('customers').where({ id }).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() });
}

function listed(trx: Knex.Transaction, q: ListQuery) {
  const b = trx<CustomerRow>('customers').whereNull('deleted_at');
  if (q.search) b.whereRaw("(name ilike '%' || ? || '%' or company_name ilike '%' || ? || '%')", [escape(q.search), escape(q.search)]);
  if (q.status) b.where({ status: q.status });
  return b;
}
const escape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listCustomers(trx: Knex.Transaction, q: ListQuery): Promise<{ rows: CustomerRow[]; count: number }> {
  const [{ count }] = (await listed(trx, q).count<{ count: string }[]>('* as count')) as [{ count: string }];
  const page = listed(trx, q).select('*').orderByRaw('lower(name), id');
  if (!q.all) page.limit(q.take).offset((q.page - 1) * q.take);
  return { rows: (await page) as CustomerRow[], count: Number(count) };
}

/** A customer with credit memos is made inactive instead of deleted (they would lose their customer). */
export async function setCustomerStatus(trx: Knex.Transaction, id: string, status: 'active' | 'inactive'): Promise<CustomerRow> {
  const [row] = (await trx('customers').where({ id }).update({ status, updated_at: trx.fn.now() }).returning('*')) as CustomerRow[];
  if (!row) throw new Error(`customer ${id} vanished under its lock`);
  return row;
}
