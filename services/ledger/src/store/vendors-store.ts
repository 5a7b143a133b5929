import type { Knex } from '@ledgerline/platform';

/** One vendor's activity in the books: its live transactions (own vendor, else its biller's), money out and in. */
export interface VendorActivityRow {
  vendor_id: string;
  transaction_count: number;
  spending_cents: number;
  inflow_cents: number;
}

/** Registers vendor ids of the workspace (idempotent) and points the named billers of the workspace at them. */
export async function registerVendors(
  trx: Knex.Transaction,
  workspaceId: string,
  vendors: readonly { vendorId: string; billerIds: readonly string[] }[],
): Promise<void> {
  if (vendors.length === 0) return;
  await trx.raw('insert into ledger_vendors (id, workspace_id) select unnest(?::uuid[]), ? on conflict (id) do nothing', [
    vendors.map((v) => v.vendorId),
    workspaceId,
  ]);
  const pairs = vendors.flatMap((v) => v.billerIds.map((b) => [b, v.vendorId] as const));
  if (pairs.length === 0) return;
  await trx.raw('update billers b set vendor_id = p.vendor_id from unnest(?::uuid[], ?::uuid[]) as p(biller_id, vendor_id) where b.id = p.biller_id', [
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
  ]);
}

/** The ids among `ids` registered as vendors of the caller's workspace. */
export async function registeredVendors(trx: Knex.Transaction, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    (
      (await trx('ledger_vendors')
        .whereIn('id', [...ids])
        .select('id')) as { id: string }[]
    ).map((r) => r.id),
  );
}

/** Moves the merging vendors' transactions and billers to the parent and forgets the merging ids; answers the transactions moved. */
export async function mergeVendors(trx: Knex.Transaction, parentId: string, mergingIds: readonly string[]): Promise<number> {
  const moved = await trx('workspace_transactions')
    .whereIn('vendor_id', [...mergingIds])
    .update({ vendor_id: parentId });
  const viaBillers = (
    await trx.raw(
      `select count(*)::int as n from workspace_transactions w join billers b on b.id = w.biller_id
     where w.vendor_id is null and not w.is_removed and b.vendor_id = any(?::uuid[])`,
      [[...mergingIds]],
    )
  ).rows[0] as { n: number };
  await trx('billers')
    .whereIn('vendor_id', [...mergingIds])
    .update({ vendor_id: parentId });
  await trx('ledger_rules')
    .whereIn('vendor_id', [...mergingIds])
    .update({ vendor_id: parentId });
  await trx('ledger_vendors')
    .whereIn('id', [...mergingIds])
    .delete();
  return moved + viaBillers.n;
}

/** A deleted vendor: its id names nothing any more, its billers and transactions keep no vendor. */
export async function forgetVendor(trx: Knex.Transaction, vendorId: string): Promise<void> {
  await trx('workspace_transactions').where({ vendor_id: vendorId }).update({ vendor_id: null });
  await trx('billers').where({ vendor_id: vendorId }).update({ vendor_id: null });
  await trx('ledger_rules').where({ vendor_id: vendorId }).update({ vendor_id: null });
  await trx('ledger_vendors').where({ id: vendorId }).delete();
}

/**
 * Per vendor (all of the workspace's when `vendorIds` is empty): live transactions whose vendor is it — the
 * transaction's own vendor, else its biller's — with money out (spending) and money in (inflow), in cents.
 */
export async function vendorActivity(trx: Knex.Transaction, vendorIds: readonly string[]): Promise<VendorActivityRow[]> {
  const filter = vendorIds.length > 0 ? 'and coalesce(w.vendor_id, b.vendor_id) = any(?::uuid[])' : '';
  const rows = (
    await trx.raw(
      `select coalesce(w.vendor_id, b.vendor_id) as vendor_id, count(*)::int as transaction_count,
            coalesce(sum(-w.amount_cents) filter (where w.amount_cents < 0), 0)::bigint as spending_cents,
            coalesce(sum(w.amount_cents) filter (where w.amount_cents > 0), 0)::bigint as inflow_cents
     from workspace_transactions w left join billers b on b.id = w.biller_id
     where not w.is_removed and coalesce(w.vendor_id, b.vendor_id) is not null ${filter}
     group by 1`,
      vendorIds.length > 0 ? [[...vendorIds]] : [],
    )
  ).rows as { vendor_id: string; transaction_count: number; spending_cents: string; inflow_cents: string }[];
  return rows.map((r) => ({
    vendor_id: r.vendor_id,
    transaction_count: r.transaction_count,
    spending_cents: Number(r.spending_cents),
    inflow_cents: Number(r.inflow_cents),
  }));
}
