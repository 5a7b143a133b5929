import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type { Knex } from 'knex';

// int8 (BIGINT) columns hold cents and sequence numbers: parse them as JS numbers when they are safe,
// and fail loudly otherwise, instead of handing strings around.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} exceeds the safe integer range`);
  return n;
});
// Business dates are plain YYYY-MM-DD strings (no time zone shifts).
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export interface DbOptions {
  url: string;
  pool?: { min?: number; max?: number };
  applicationName?: string;
}

export function createDb({ url, pool, applicationName }: DbOptions): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: applicationName },
    pool: { min: pool?.min ?? 0, max: pool?.max ?? 10 },
    acquireConnectionTimeout: 5_000,
  });
}

/** Replaces the database name (path) of a postgres URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Replaces the user (and optionally password) of a postgres URL. */
export function withUser(url: string, user: string, password?: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password ?? '';
  return u.toString();
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`Unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

export interface ProvisionOptions {
  /** A superuser (or CREATEDB + CREATEROLE) URL; its database part is ignored. */
  adminUrl: string;
  database: string;
  /** The role the service runs as: not the owner, not a superuser, no BYPASSRLS (RELIABILITY 9). */
  appRole: string;
  appPassword?: string;
}

/**
 * The role of the service's system path (outbox relay, consumers of events without a tenant, sweepers):
 * the application role's name with `_system`, same password. Neither superuser nor BYPASSRLS: the
 * policies name it (grantAppRole), so only a connection as this role may see every tenant.
 */
export function systemRoleOf(appRole: string): string {
  return `${appRole}_system`;
}

/** The connection URL of the system role, from the application role's URL. */
export function systemUrlOf(appUrl: string): string {
  const u = new URL(appUrl);
  return withUser(appUrl, systemRoleOf(decodeURIComponent(u.username)), u.password ? decodeURIComponent(u.password) : undefined);
}

/**
 * Creates the service's database and its application role when missing. Idempotent; safe to run on
 * every start-up step (it is not run by every replica in a cluster: the migration Job does it).
 */
export async function provisionDatabase({ adminUrl, database, appRole, appPassword }: ProvisionOptions): Promise<void> {
  const admin = createDb({ url: withDatabase(adminUrl, 'postgres'), pool: { max: 1 } });
  try {
    for (const name of [appRole, systemRoleOf(appRole)]) {
      const role = await admin.raw('select 1 from pg_roles where rolname = ?', [name]);
      if (role.rows.length === 0) {
        try {
          await admin.raw(`create role ${ident(name)} login nosuperuser nobypassrls nocreatedb nocreaterole`);
        } catch (err) {
          // Another process created it in between (roles are cluster-wide).
          if (!['42710', '23505'].includes((err as { code?: string }).code ?? '')) throw err;
        }
      }
      if (appPassword) await admin.raw(`alter role ${ident(name)} password '${appPassword.replaceAll("'", "''")}'`);
    }
    const db = await admin.raw('select 1 from pg_database where datname = ?', [database]);
    if (db.rows.length === 0) {
      try {
        await admin.raw(`create database ${ident(database)}`);
      } catch (err) {
        // Two start-up steps racing: the other one created it.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await admin.destroy();
  }
}

/**
 * Grants the application role and its system role what they need on every table, after migrations ran,
 * and names the system role in `app_is_system()`: the row-level-security policies then let a transaction
 * see every tenant only when it runs as the system role (or the database owner, for migrations) AND says
 * `app.system = on`. The application role setting `app.system` gains nothing.
 */
export async function grantAppRole(adminDb: Knex, appRole: string): Promise<void> {
  for (const name of [appRole, systemRoleOf(appRole)]) {
    const r = ident(name);
    await adminDb.raw(`grant usage on schema public to ${r}`);
    await adminDb.raw(`grant select, insert, update, delete on all tables in schema public to ${r}`);
    await adminDb.raw(`grant usage, select on all sequences in schema public to ${r}`);
    await adminDb.raw(`alter default privileges in schema public grant select, insert, update, delete on tables to ${r}`);
    await adminDb.raw(`alter default privileges in schema public grant usage, select on sequences to ${r}`);
  }
  await adminDb.raw(systemFunctionSql(systemRoleOf(appRole)));
}

/** `app_is_system()` trusting `app.system` from the database owner (migrations) and the named system role only. */
export function systemFunctionSql(systemRole: string | null): string {
  const who = systemRole ? `current_user = '${ident(systemRole).slice(1, -1)}' or ` : '';
  return `create or replace function app_is_system() returns boolean language sql stable as
  $$ select coalesce(current_setting('app.system', true), '') = 'on' and (${who}pg_has_role('pg_database_owner', 'MEMBER')) $$;`;
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = createDb({ url: withDatabase(adminUrl, 'postgres'), pool: { max: 1 } });
  try {
    await admin.raw(`drop database if exists ${ident(database)} with (force)`);
  } finally {
    await admin.destroy();
  }
}
