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
 * Creates the service's database and its application role when missing. Idempotent; safe to run on
 * every start-up step (it is not run by every replica in a cluster: the migration Job does it).
 */
export async function provisionDatabase({ adminUrl, database, appRole, appPassword }: ProvisionOptions): Promise<void> {
  const admin = createDb({ url: withDatabase(adminUrl, 'postgres'), pool: { max: 1 } });
  try {
    const role = await admin.raw('select 1 from pg_roles where rolname = ?', [appRole]);
    if (role.rows.length === 0) {
      try {
        await admin.raw(`create role ${ident(appRole)} login nosuperuser nobypassrls nocreatedb nocreaterole`);
      } catch (err) {
        // Another process created it in between (roles are cluster-wide).
        if (!['42710', '23505'].includes((err as { code?: string }).code ?? '')) throw err;
      }
    }
    if (appPassword) await admin.raw(`alter role ${ident(appRole)} password '${appPassword.replaceAll("'", "''")}'`);
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

/** Grants the application role what it needs on every table, after migrations ran. */
export async function grantAppRole(adminDb: Knex, appRole: string): Promise<void> {
  const r = ident(appRole);
  await adminDb.raw(`grant usage on schema public to ${r}`);
  await adminDb.raw(`grant select, insert, update, delete on all tables in schema public to ${r}`);
  await adminDb.raw(`grant usage, select on all sequences in schema public to ${r}`);
  await adminDb.raw(`alter default privileges in schema public grant select, insert, update, delete on tables to ${r}`);
  await adminDb.raw(`alter default privileges in schema public grant usage, select on sequences to ${r}`);
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = createDb({ url: withDatabase(adminUrl, 'postgres'), pool: { max: 1 } });
  try {
    await admin.raw(`drop database if exists ${ident(database)} with (force)`);
  } finally {
    await admin.destroy();
  }
}
