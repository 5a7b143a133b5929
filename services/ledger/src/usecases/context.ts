import { LruMap, withTenant, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { ensureChart } from '../store/chart-store.js';
import { ownSeq } from '../store/seq.js';

export interface LedgerDeps {
  db: Knex;
  logger: Logger;
}

export type Tenant = TenantContext & { workspaceId: string };

/** The edit check of spec §6 (the chassis' one, for every service). */
export { assertCanEdit } from '@ledgerline/platform';

// Workspaces whose chart was found already committed, per database: a chart is never removed, so the
// check (one statement on every call) is skipped for them. One created in this call is not remembered
// until a later call finds it, in case this call's transaction rolls back.
const charted = new WeakMap<Knex, LruMap<string, true>>();

/** A read or write in the caller's workspace; the default chart exists before `fn` runs. */
export function inWorkspace<T>(db: Knex, tenant: Tenant, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  let known = charted.get(db);
  if (!known) charted.set(db, (known = new LruMap(10_000)));
  const seen = known;
  return withTenant(db, tenant, async (trx) => {
    if (!seen.has(tenant.workspaceId) && !(await ensureChart(trx, tenant.workspaceId))) seen.set(tenant.workspaceId, true);
    return fn(trx);
  });
}

/**
 * A change in the caller's workspace whose answer carries `seq`: the sequence of its own last entry (or,
 * when it posted nothing, the workspace's current one), so the client can always pass it to reporting and
 * see its change (reads after writes, ARCHITECTURE §3). Never the workspace's highest at the end of the
 * change: another writer's entry committed meanwhile can be numbered higher and be applied before ours.
 */
export function changeInWorkspace<T extends object>(db: Knex, tenant: Tenant, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T & { seq: number }> {
  return inWorkspace(db, tenant, async (trx) => {
    const result = await fn(trx);
    return { ...result, seq: await ownSeq(trx, tenant.workspaceId) };
  });
}

/** Services check the role again (ARCHITECTURE §4): a Viewer never writes. */
