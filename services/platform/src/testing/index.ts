import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, dropDatabase, grantAppRole, provisionDatabase, systemUrlOf, withDatabase, withUser } from '../db/database.js';
import { pairSystemPool } from '../db/tenancy.js';
import { migrateLatest, type Migration } from '../db/migrations.js';
import { NatsEventBus } from '../events/nats-bus.js';
import { AppError } from '../errors.js';
import { createLogger } from '../logger.js';

/** The PostgreSQL server tests use (real, never mocked). */
export const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const TEST_APP_ROLE = 'ledgerline_test_app';

export interface TestDatabase {
  name: string;
  /** Owner connection: migrations, test assertions that must see every row. */
  adminDb: Knex;
  /** The service's runtime role: not owner, no BYPASSRLS. */
  appDb: Knex;
  /** The service's system role (`<app role>_system`): sees every tenant inside `withSystem` only; paired with appDb. */
  systemDb: Knex;
  adminUrl: string;
  appUrl: string;
  systemUrl: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a copy of a migrated template (`CREATE DATABASE … TEMPLATE`),
 * which takes a fraction of running every migration again. The template is named after a hash of the
 * migrations (names and bodies), built once per machine under an advisory lock (several test workers start at
 * once) and marked a template only when complete, so a crash while building leaves nothing that is used.
 * `TEST_DATABASE_TEMPLATES=0` migrates each database from scratch instead.
 */
export async function createTestDatabase(service: string, migrations: readonly Migration[]): Promise<TestDatabase> {
  const name = `test_${service}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const adminUrl = withDatabase(TEST_ADMIN_URL, name);
  if (process.env.TEST_DATABASE_TEMPLATES === '0') {
    await provisionDatabase({ adminUrl: TEST_ADMIN_URL, database: name, appRole: TEST_APP_ROLE });
    const migrator = createDb({ url: adminUrl, pool: { max: 1 } });
    try {
      await migrateLatest(migrator, migrations);
      await grantAppRole(migrator, TEST_APP_ROLE);
    } finally {
      await migrator.destroy();
    }
  } else {
    const template = await migratedTemplate(service, migrations);
    await withServerAdmin((admin) => admin.raw(`create database ${ident(name)} template ${ident(template)}`));
  }
  // A test database is thrown away after its file: its commits need not wait for the disk. (Durability is
  // PostgreSQL's own; what the product promises on a crash is tested by killing its processes, not the server.)
  await withServerAdmin((admin) => admin.raw(`alter database ${ident(name)} set synchronous_commit = off`));
  const appUrl = withUser(adminUrl, TEST_APP_ROLE);
  const adminDb = createDb({ url: adminUrl, pool: { max: 2 } });
  const appDb = createDb({ url: appUrl, pool: { max: 5 } });
  const systemUrl = systemUrlOf(appUrl);
  const systemDb = createDb({ url: systemUrl, pool: { max: 5 } });
  pairSystemPool(appDb, systemDb);
  return {
    name,
    adminDb,
    appDb,
    systemDb,
    adminUrl,
    appUrl,
    systemUrl,
    async drop() {
      await Promise.all([appDb.destroy(), systemDb.destroy(), adminDb.destroy()]);
      await dropDatabase(TEST_ADMIN_URL, name);
    },
  };
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function withServerAdmin<T>(fn: (admin: Knex) => Promise<T>): Promise<T> {
  const admin = createDb({ url: withDatabase(TEST_ADMIN_URL, 'postgres'), pool: { max: 1 } });
  try {
    return await fn(admin);
  } finally {
    await admin.destroy();
  }
}

const templates = new Map<string, Promise<string>>();

/** The name of a complete template database holding `migrations` for `service`, built if missing. */
function migratedTemplate(service: string, migrations: readonly Migration[]): Promise<string> {
  const hash = createHash('sha256')
    .update(JSON.stringify([TEST_APP_ROLE, ...[...migrations].sort((a, b) => a.name.localeCompare(b.name)).map((m) => [m.name, String(m.up)])]))
    .digest('hex')
    .slice(0, 16);
  const template = `tmpl_${service}_${hash}`;
  let pending = templates.get(template);
  if (!pending) {
    pending = buildTemplate(service, template, migrations);
    templates.set(template, pending);
    pending.catch(() => templates.delete(template));
  }
  return pending;
}

async function buildTemplate(service: string, template: string, migrations: readonly Migration[]): Promise<string> {
  return withServerAdmin(async (admin) => {
    // One connection (pool max 1), so the session-level lock and its release happen on the same session.
    await admin.raw('select pg_advisory_lock(hashtext(?))', [template]);
    try {
      const found = (await admin.raw('select datistemplate from pg_database where datname = ?', [template])).rows as { datistemplate: boolean }[];
      if (found[0]?.datistemplate) return template;
      // Left half-built by a crash: start again.
      if (found.length > 0) await admin.raw(`drop database ${ident(template)} with (force)`);
      await provisionDatabase({ adminUrl: TEST_ADMIN_URL, database: template, appRole: TEST_APP_ROLE });
      const migrator = createDb({ url: withDatabase(TEST_ADMIN_URL, template), pool: { max: 1 } });
      try {
        await migrateLatest(migrator, migrations);
        await grantAppRole(migrator, TEST_APP_ROLE);
      } finally {
        await migrator.destroy();
      }
      await admin.raw(`alter database ${ident(template)} with is_template true allow_connections false`);
      await admin.raw(`comment on database ${ident(template)} is '${new Date().toISOString()}'`);
      // Templates of this service's earlier migrations (another branch's, or before a new migration) are
      // dropped a day after they were built.
      const stale = (
        await admin.raw(
          `select d.datname from pg_database d left join pg_shdescription s on s.objoid = d.oid and s.classoid = 'pg_database'::regclass
          where d.datname like ? and d.datname <> ? and s.description < ?`,
          [`tmpl\\_${service}\\_%`, template, new Date(Date.now() - 86_400_000).toISOString()],
        )
      ).rows as { datname: string }[];
      for (const { datname } of stale) {
        await admin.raw(`alter database ${ident(datname)} with is_template false`).catch(() => undefined);
        await admin.raw(`drop database if exists ${ident(datname)} with (force)`).catch(() => undefined);
      }
      return template;
    } finally {
      await admin.raw('select pg_advisory_unlock(hashtext(?))', [template]);
    }
  });
}

/** A NATS bus in a namespace of its own (streams and subjects), deleted by `close`; on the shared server unless `url` names another. */
export async function createTestBus(name = 'test', url = TEST_NATS_URL): Promise<NatsEventBus & { namespace: string }> {
  const namespace = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const bus = await NatsEventBus.connect({ url, name, logger: createLogger(name, 'warn'), namespace });
  const close = bus.close.bind(bus);
  bus.close = async () => {
    await bus.deleteStreams();
    await close();
  };
  return Object.assign(bus, { namespace });
}

/**
 * Retries an assertion until it passes or the time runs out; for asynchronous effects (events,
 * relays). Never sleep in a test: wait for the observable result.
 */
export async function expectEventually<T>(assertion: () => T | Promise<T>, { timeoutMs = 10_000, intervalMs = 50 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return await assertion();
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw lastError;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The fields an AppError names when `f` throws one (validation: "a 400 naming the field"); [] when it does not throw. */
export function rejectedFields(f: () => unknown): string[] {
  try {
    f();
  } catch (err) {
    if (err instanceof AppError) return err.fields.map((x) => x.field);
    throw err;
  }
  return [];
}
