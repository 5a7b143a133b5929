import type { Knex } from '@ledgerline/platform';

/**
 * What an id inside a request can name, and where the ledger keeps it. Every lookup runs in the
 * caller's row-level-security context (`withTenant`), so another workspace's row is simply not found.
 */
export type ReferenceKind = 'category' | 'ledgerAccount' | 'bankAccount' | 'biller' | 'vendor' | 'appliedRule' | 'transaction';

const WHERE: Record<ReferenceKind, { table: string; column: string; extra?: Record<string, unknown> } | null> = {
  category: { table: 'accounts', column: 'id' },
  ledgerAccount: { table: 'accounts', column: 'id' },
  // Bank accounts are banking's; the ledger knows the ones linked to this workspace by their ledger account.
  bankAccount: { table: 'accounts', column: 'bank_account_id' },
  biller: { table: 'billers', column: 'id' },
  // The parties service's vendors of this workspace, as it registered them (RegisterVendors).
  vendor: { table: 'ledger_vendors', column: 'id' },
  // The parties service's vendor rules of this workspace, as the ledger keeps them (ApplyVendorRule).
  appliedRule: { table: 'ledger_rules', column: 'id' },
  transaction: { table: 'workspace_transactions', column: 'id', extra: { is_removed: false } },
};

/** The ids among `ids` that name no row of `kind` in the caller's workspace. */
export async function missingReferences(trx: Knex.Transaction, kind: ReferenceKind, ids: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(ids)];
  const where = WHERE[kind];
  if (wanted.length === 0 || !where) return new Set(wanted);
  const q = trx(where.table).whereIn(where.column, wanted).distinct(`${where.column} as id`);
  if (where.extra) q.where(where.extra);
  const found = new Set(((await q) as { id: string }[]).map((r) => r.id));
  return new Set(wanted.filter((id) => !found.has(id)));
}
