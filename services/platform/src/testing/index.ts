import { randomBytes } from 'node:crypto';
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

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(service: string, migrations: readonly Migration[]): Promise<TestDatabase> {
  const name = `test_${service}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await provisionDatabase({ adminUrl: TEST_ADMIN_URL, database: name, appRole: TEST_APP_ROLE });
  const adminUrl = withDatabase(TEST_ADMIN_URL, name);
  const appUrl = withUser(adminUrl, TEST_APP_ROLE);
  const adminDb = createDb({ url: adminUrl, pool: { max: 2 } });
  await migrateLatest(adminDb, migrations);
  await grantAppRole(adminDb, TEST_APP_ROLE);
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
      await appDb.destroy();
      await systemDb.destroy();
      await adminDb.destroy();
      await dropDatabase(TEST_ADMIN_URL, name);
    },
  };
}

/** A NATS bus in a namespace of its own (streams and subjects), deleted by `close`. */
export async function createTestBus(name = 'test'): Promise<NatsEventBus & { namespace: string }> {
  const namespace = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const bus = await NatsEventBus.connect({ url: TEST_NATS_URL, name, logger: createLogger(name, 'warn'), namespace });
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
