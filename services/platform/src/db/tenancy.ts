import type { Knex } from 'knex';
import type { Role } from '../roles.js';

/** Who is acting and for which workspace; carried on every RPC and every event. */
export interface TenantContext {
  workspaceId?: string;
  userId?: string;
  role?: Role;
}

/**
 * Runs `fn` in a transaction whose row-level-security settings name the tenant. The settings are
 * transaction-local (`set_config(..., true)`), so a pooled connection never carries them over.
 */
export async function withTenant<T>(db: Knex, ctx: TenantContext, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw("select set_config('app.workspace_id', ?, true), set_config('app.user_id', ?, true)", [ctx.workspaceId ?? '', ctx.userId ?? '']);
    return fn(trx);
  });
}

/** Each application pool's system pool (the `<app role>_system` role), paired by the chassis. */
const systemPools = new WeakMap<Knex, Knex>();

/** Pairs an application-role pool with the pool of its system role; `withSystem(appDb, ...)` then runs on the latter. */
export function pairSystemPool(appDb: Knex, systemDb: Knex): void {
  systemPools.set(appDb, systemDb);
}

/** The system pool paired with `db`, or `db` itself (already a system or owner pool). */
export function systemPoolOf(db: Knex): Knex {
  return systemPools.get(db) ?? db;
}

/**
 * Runs `fn` in a transaction that may see every tenant's rows: only for system work that is
 * cross-tenant by nature (the outbox relay, consumers of events without a tenant, sweepers). It runs on
 * the system role's pool paired with `db` (defineService and the test databases pair them): the policies
 * honour `app.system` only for that role and the database owner, never for the application role.
 */
export async function withSystem<T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return systemPoolOf(db).transaction(async (trx) => {
    await trx.raw("select set_config('app.system', 'on', true)");
    return fn(trx);
  });
}

/** SQL helpers the policies use; created by the platform's first migration. */
export const TENANCY_FUNCTIONS_SQL = `
create or replace function app_workspace_id() returns uuid language sql stable as
  $$ select nullif(current_setting('app.workspace_id', true), '')::uuid $$;
create or replace function app_user_id() returns uuid language sql stable as
  $$ select nullif(current_setting('app.user_id', true), '')::uuid $$;
create or replace function app_is_system() returns boolean language sql stable as
  $$ select coalesce(current_setting('app.system', true), '') = 'on' $$;
`;

/**
 * Turns on row-level security for a tenant table (ENABLE and FORCE) with one policy: a row is visible
 * and writable when its workspace is the transaction's tenant, or in system transactions.
 * `alsoVisibleWhen` widens it with another SQL condition (e.g. the user's own memberships).
 */
export async function enableTenantRls(knex: Knex, table: string, alsoVisibleWhen?: string): Promise<void> {
  const condition = `workspace_id = app_workspace_id() or app_is_system()${alsoVisibleWhen ? ` or (${alsoVisibleWhen})` : ''}`;
  await knex.raw(`alter table ?? enable row level security`, [table]);
  await knex.raw(`alter table ?? force row level security`, [table]);
  await knex.raw(`create policy tenant_isolation on ?? using (${condition}) with check (${condition})`, [table]);
}

export async function disableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw('drop policy if exists tenant_isolation on ??', [table]);
  await knex.raw('alter table ?? no force row level security', [table]);
  await knex.raw('alter table ?? disable row level security', [table]);
}

/** Tables that hold a `workspace_id` column but lack ENABLE + FORCE row-level security (should be none). */
export async function tablesMissingRls(db: Knex): Promise<string[]> {
  const result = await db.raw<{ rows: { table_name: string }[] }>(`
    select c.relname as table_name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
      and exists (select 1 from information_schema.columns col where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'workspace_id')
      and (not c.relrowsecurity or not c.relforcerowsecurity
           or not exists (select 1 from pg_policy p where p.polrelid = c.oid))
    order by 1`);
  return result.rows.map((r) => r.table_name);
}
