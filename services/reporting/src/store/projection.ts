import type { Knex, TenantContext } from '@ledgerline/platform';

/**
 * One consistent snapshot of a tenant's read model (REPEATABLE READ, read only, the tenant set for
 * row-level security): the sums, the sequence and the version a report reads all come from the same moment.
 */
export function withTenantSnapshot<T>(db: Knex, tenant: TenantContext, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('set transaction isolation level repeatable read, read only');
    await trx.raw("select set_config('app.workspace_id', ?, true), set_config('app.user_id', ?, true)", [tenant.workspaceId ?? '', tenant.userId ?? '']);
    return fn(trx);
  });
}

/** The read model's tables a rebuild empties. */
const READ_MODEL_TABLES = [
  'balances_daily',
  'balances_monthly',
  'merchant_balances_daily',
  'merchant_balances_monthly',
  'merchants',
  'projected_entries',
  'origins_unclassified',
];

/**
 * Empties the read model and its consumers' inbox and moves to the next generation (in a system
 * transaction); answers the new generation. Versions go on counting (never back to a number a cached
 * report was built at).
 */
export async function resetReadModel(trx: Knex.Transaction): Promise<number> {
  const state = (await trx('projection_state').where({ id: 1 }).forUpdate().first()) as { generation: number };
  // DELETE, not TRUNCATE: the application role holds no TRUNCATE privilege.
  for (const table of READ_MODEL_TABLES) await trx(table).delete();
  await trx('inbox').where('consumer', 'like', 'reporting%').delete();
  await trx.raw('update workspace_versions set version = version + 1, updated_at = now()');
  const generation = state.generation + 1;
  await trx('projection_state').where({ id: 1 }).update({ generation, rebuilt_at: trx.fn.now() });
  return generation;
}

/** The read model's generation (0 before any rebuild). */
export async function projectionGeneration(trx: Knex.Transaction): Promise<number> {
  return ((await trx('projection_state').where({ id: 1 }).first()) as { generation: number } | undefined)?.generation ?? 0;
}
