import type { Knex } from '@ledgerline/platform';
import type { CleanParty, ListQuery } from '../domain/parties.js';

export interface VendorRow {
  id: string;
  workspace_id: string;
  name: string;
  name_key: string;
  description: string;
  address: string;
  bank_details: string;
  email: string;
  is_1099_eligible: boolean;
  ein: string;
  status: 'active' | 'inactive';
  meta_data: Record<string, string | number>;
  is_added: boolean;
  qbo_synced: boolean;
  merged_into: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = (v: CleanParty & { nameKey?: string }) => ({
  ...(v.name !== undefined ? { name: v.name } : {}),
  ...(v.nameKey !== undefined ? { name_key: v.nameKey } : {}),
  ...(v.description !== undefined ? { description: v.description } : {}),
  ...(v.address !== undefined ? { address: v.address } : {}),
  ...(v.bankDetails !== undefined ? { bank_details: v.bankDetails } : {}),
  ...(v.email !== undefined ? { email: v.email } : {}),
  ...(v.is1099Eligible !== undefined ? { is_1099_eligible: v.is1099Eligible } : {}),
  ...(v.ein !== undefined ? { ein: v.ein } : {}),
  ...(v.status !== undefined ? { status: v.status } : {}),
  ...(v.metaData !== undefined ? { meta_data: JSON.stringify(v.metaData) } : {}),
});

/** A live vendor of the caller's workspace (row-level security), or undefined; `lock` takes it FOR UPDATE. */
export async function vendorById(trx: Knex.Transaction, id: string, lock = false): Promise<VendorRow | undefined> {
  const q = trx<VendorRow>('vendors').where({ id }).whereNull('deleted_at').first();
  return (await (lock ? q.forUpdate() : q)) as VendorRow | undefined;
}

/** The live vendors among `ids`. */
export async function vendorsByIds(trx: Knex.Transaction, ids: readonly string[], lock = false): Promise<VendorRow[]> {
  if (ids.length === 0) return [];
  const q = trx<VendorRow>('vendors')
    .whereIn('id', [...ids])
    .whereNull('deleted_at')
    .orderBy('id');
  return (await (lock ? q.forUpdate() : q)) as VendorRow[];
}

/** The live vendor a merchant of this name goes to: the one of the same name (case-insensitive), else the oldest with its key. */
export async function vendorForMerchant(trx: Knex.Transaction, name: string, nameKey: string): Promise<VendorRow | undefined> {
  return (await trx<VendorRow>('vendors')
    .whereNull('deleted_at')
    .where((q) => q.whereRaw('lower(name) = lower(?)', [name]).orWhere({ name_key: nameKey }))
    .orderByRaw('(lower(name) = lower(?)) desc, created_at, id', [name])
    .first()) as VendorRow | undefined;
}

/** Whether another live vendor of the workspace has this name (case-insensitive). */
export async function vendorNameTaken(trx: Knex.Transaction, name: string, exceptId?: string): Promise<boolean> {
  const q = trx('vendors').whereNull('deleted_at').whereRaw('lower(name) = lower(?)', [name]);
  if (exceptId) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

/** Inserts a vendor; undefined when a live vendor of the workspace already has its name. */
export async function insertVendor(
  trx: Knex.Transaction,
  v: CleanParty & { id: string; workspaceId: string; name: string; nameKey: string; isAdded: boolean },
): Promise<VendorRow | undefined> {
  const rows = (await trx('vendors')
    .insert({ id: v.id, workspace_id: v.workspaceId, is_added: v.isAdded, ...columns(v) })
    .onConflict(trx.raw('(workspace_id, lower(name)) where deleted_at is null'))
    .ignore()
    .returning('*')) as VendorRow[];
  return rows[0];
}

/** Changes a vendor's fields (and marks it added: a user has edited it); answers the row. */
export async function updateVendor(trx: Knex.Transaction, id: string, v: CleanParty & { nameKey?: string }): Promise<VendorRow> {
  const [row] = (await trx('vendors')
    .where({ id })
    .update({ ...columns(v), is_added: true, updated_at: trx.fn.now() })
    .returning('*')) as VendorRow[];
  if (!row) throw new Error(`vendor ${id} vanished under its lock`);
  return row;
}

export async function setVendorStatus(trx: Knex.Transaction, id: string, status: 'active' | 'inactive'): Promise<VendorRow> {
  const [row] = (await trx('vendors').where({ id }).update({ status, updated_at: trx.fn.now() }).returning('*')) as VendorRow[];
  if (!row) throw new Error(`vendor ${id} vanished under its lock`);
  return row;
}

/** Deleted vendors stay as rows (merges and later documents may name them) but are never listed or found. */
export async function markVendorsDeleted(trx: Knex.Transaction, ids: readonly string[], mergedInto: string | null): Promise<void> {
  await trx('vendors')
    .whereIn('id', [...ids])
    .update({ deleted_at: trx.fn.now(), merged_into: mergedInto, updated_at: trx.fn.now() });
}

function listed(trx: Knex.Transaction, q: ListQuery) {
  const b = trx<VendorRow>('vendors').whereNull('deleted_at');
  if (q.search) b.whereRaw("name ilike '%' || ? || '%'", [q.search.replace(/[\\%_]/g, (c) => `\\${c}`)]);
  if (q.status) b.where({ status: q.status });
  if (q.filter === 'added') b.where({ is_added: true });
  if (q.filter === 'not-added') b.where({ is_added: false });
  return b;
}

/** A page of the workspace's live vendors by name (all of them when `q.all`), with the count of matches. */
export async function listVendors(trx: Knex.Transaction, q: ListQuery): Promise<{ rows: VendorRow[]; count: number }> {
  const [{ count }] = (await listed(trx, q).count<{ count: string }[]>('* as count')) as [{ count: string }];
  const page = listed(trx, q).select('*').orderByRaw('lower(name), id');
  if (!q.all) page.limit(q.take).offset((q.page - 1) * q.take);
  return { rows: (await page) as VendorRow[], count: Number(count) };
}

/** The merchant names each vendor stands for. */
export async function merchantNames(trx: Knex.Transaction, vendorIds: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (vendorIds.length === 0) return names;
  const rows = (await trx('vendor_merchants')
    .whereIn('vendor_id', [...vendorIds])
    .orderBy('merchant_name')
    .select('vendor_id', 'merchant_name')) as { vendor_id: string; merchant_name: string }[];
  for (const r of rows) names.set(r.vendor_id, [...(names.get(r.vendor_id) ?? []), r.merchant_name]);
  return names;
}

/** Whether the ledger's merchant (biller) is already some vendor's. */
export async function merchantKnown(trx: Knex.Transaction, billerId: string): Promise<boolean> {
  return (await trx('vendor_merchants').where({ biller_id: billerId }).first('biller_id')) !== undefined;
}

export async function insertMerchant(
  trx: Knex.Transaction,
  m: { billerId: string; workspaceId: string; vendorId: string; merchantName: string },
): Promise<void> {
  await trx('vendor_merchants')
    .insert({ biller_id: m.billerId, workspace_id: m.workspaceId, vendor_id: m.vendorId, merchant_name: m.merchantName })
    .onConflict('biller_id')
    .ignore();
}

/** The merging vendors' merchants become the parent's. */
export async function moveMerchants(trx: Knex.Transaction, fromIds: readonly string[], toId: string): Promise<void> {
  await trx('vendor_merchants')
    .whereIn('vendor_id', [...fromIds])
    .update({ vendor_id: toId });
}
