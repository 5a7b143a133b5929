import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  createLogger,
  EventType,
  metricsRegistry,
  NatsEventBus,
  newId,
  OutboxRelay,
  platformMigrations,
  startConsumer,
  withSystem,
  withTenant,
  writeEvents,
  type Migration,
} from '../src/index.js';
import { eventRetentionRules, RetentionSweeper } from '../src/events/retention.js';
import { createTestBus, createTestDatabase, expectEventually, TEST_NATS_URL, type TestDatabase } from '../src/testing/index.js';

const logger = createLogger('platform-test', 'silent');

// A table of the kind a service declares a rule for (expired rows of its own).
const testMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128100000_test_sessions',
    async up(knex) {
      await knex.schema.createTable('test_sessions', (t) => {
        t.uuid('id').primary();
        t.timestamp('expires_at', { useTz: true }).notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('test_sessions');
    },
  },
];

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;

beforeAll(async () => {
  db = await createTestDatabase('platform_retention', testMigrations);
});
beforeEach(async () => {
  bus = await createTestBus();
});
afterEach(async () => {
  await bus?.close();
});
afterAll(async () => {
  await db?.drop();
});

const signedUp = (workspaceId: string) =>
  ({ type: EventType.UserSignedUp, workspaceId, payload: { userId: newId(), email: 'a@example.com', workspaceId } }) as const;

/** Ages rows by moving their timestamps back (the sweeper compares with now()). */
async function age(table: string, column: string, ids: string[], hours: number, key = 'id'): Promise<void> {
  await withSystem(db.systemDb, (trx) =>
    trx.raw(`update ${table} set ${column} = now() - make_interval(hours => ?) where ${key} = any(?::uuid[])`, [hours, ids]),
  );
}

const count = (table: string, where = 'true') =>
  withSystem(db.systemDb, async (trx) => Number((await trx.raw(`select count(*) as n from ${table} where ${where}`)).rows[0].n));

describe('retention', () => {
  it('removes relayed outbox rows and inbox ids once older than kept, and nothing else', async () => {
    const ws = newId();
    const ids = await withTenant(db.appDb, { workspaceId: ws }, (trx) =>
      writeEvents(
        trx,
        'test',
        Array.from({ length: 12 }, () => signedUp(ws)),
      ),
    );
    const relay = new OutboxRelay({ db: db.systemDb, bus, logger, service: 'test' });
    await relay.publishBatch();
    // Four more stay unpublished (written after the relay ran): never removed, however old.
    const unpublished = await withTenant(db.appDb, { workspaceId: ws }, (trx) =>
      writeEvents(
        trx,
        'test',
        Array.from({ length: 4 }, () => signedUp(ws)),
      ),
    );
    await age('outbox', 'created_at', unpublished, 1000);
    // Eight of the published rows are old, four recent.
    await age('outbox', 'published_at', ids.slice(0, 8), 30);
    await age('outbox', 'published_at', ids.slice(8), 1);
    // Inbox: ids handled by a consumer, some older than kept.
    const handled: string[] = [];
    const consumer = await startConsumer({
      name: 'retention_probe',
      types: [EventType.UserSignedUp],
      db: db.appDb,
      bus,
      logger,
      handle: async (_trx, e) => void handled.push(e.id),
    });
    await expectEventually(() => expect(handled.length).toBe(12));
    await consumer.stop();
    await age('inbox', 'handled_at', ids.slice(0, 5), 15 * 24, 'event_id');

    const sweeper = new RetentionSweeper({
      db: db.systemDb,
      logger,
      service: 'test',
      intervalMs: 60_000,
      slice: 3,
      rules: eventRetentionRules({ outboxKeepHours: 24, inboxKeepDays: 14 }),
    });
    const deleted = await sweeper.sweep();
    // Slices of 3 rows: 8 outbox rows take three statements, 5 inbox ids two.
    expect(deleted).toEqual({ outbox: 8, inbox: 5 });
    expect(await count('outbox')).toBe(8);
    expect(await count('outbox', 'published_at is null')).toBe(4);
    expect(await count('inbox')).toBe(7);
    // A second pass finds nothing more.
    expect(await sweeper.sweep()).toEqual({ outbox: 0, inbox: 0 });
    const metrics = await metricsRegistry.getSingleMetricAsString('ledgerline_retention_deleted_total');
    expect(metrics).toContain('ledgerline_retention_deleted_total{service="test",rule="outbox"} 8');
  });

  it("runs a service's own rules beside the chassis' ones", async () => {
    const expired = [newId(), newId()];
    const live = [newId()];
    await withSystem(db.systemDb, (trx) =>
      trx('test_sessions').insert([
        ...expired.map((id) => ({ id, expires_at: new Date(Date.now() - 40 * 86_400_000) })),
        ...live.map((id) => ({ id, expires_at: new Date(Date.now() + 86_400_000) })),
      ]),
    );
    const sweeper = new RetentionSweeper({
      db: db.systemDb,
      logger,
      service: 'test',
      intervalMs: 60_000,
      rules: [
        ...eventRetentionRules({ outboxKeepHours: 24, inboxKeepDays: 14 }),
        { name: 'test_sessions', table: 'test_sessions', where: "expires_at < now() - interval '30 days'" },
      ],
    });
    const deleted = await sweeper.sweep();
    expect(deleted.test_sessions).toBe(2);
    const left = await withSystem(db.systemDb, (trx) => trx('test_sessions').pluck('id'));
    expect(left).toEqual(live);
  });

  it('refuses a negative period', () => {
    expect(() => eventRetentionRules({ outboxKeepHours: -1, inboxKeepDays: 14 })).toThrow(/non-negative/);
  });
});

describe('event metrics', () => {
  it("show the outbox backlog, its oldest row's age and a consumer's lag on /metrics", async () => {
    const ws = newId();
    // Earlier tests' rows are out of the way; rows written while no relay runs are the backlog.
    await withSystem(db.systemDb, (trx) => trx('outbox').whereNull('published_at').update({ published_at: trx.fn.now() }));
    const relay = new OutboxRelay({ db: db.systemDb, bus, logger, service: 'metrics_probe' });
    await relay.start();
    expect(await metricsRegistry.getSingleMetricAsString('ledgerline_outbox_backlog')).toContain('ledgerline_outbox_backlog{service="metrics_probe"} 0');
    await relay.stop(); // a stopped relay's series disappear
    expect(await metricsRegistry.getSingleMetricAsString('ledgerline_outbox_backlog')).not.toContain('metrics_probe');

    const written = await withTenant(db.appDb, { workspaceId: ws }, (trx) =>
      writeEvents(
        trx,
        'test',
        Array.from({ length: 3 }, () => signedUp(ws)),
      ),
    );
    await age('outbox', 'created_at', written.slice(0, 1), 1);
    const probe = new OutboxRelay({ db: db.systemDb, bus, logger, service: 'metrics_probe' });
    expect(await probe.backlog()).toEqual({ rows: 3, oldestSeconds: expect.any(Number) });
    expect((await probe.backlog()).oldestSeconds).toBeGreaterThan(3500);

    // A consumer that takes its time: the two events behind the one it holds are its lag.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const consumer = await startConsumer({ name: 'lag_probe', types: [EventType.UserSignedUp], db: db.appDb, bus, logger, handle: async () => gate });
    try {
      await probe.publishBatch();
      await expectEventually(async () => {
        const text = await metricsRegistry.getSingleMetricAsString('ledgerline_consumer_pending');
        const unacked = await metricsRegistry.getSingleMetricAsString('ledgerline_consumer_unacknowledged');
        expect(text).toMatch(/ledgerline_consumer_pending\{consumer="lag_probe"\} [0-9]+/);
        const pending = Number(/consumer="lag_probe"\} ([0-9]+)/.exec(text)?.[1]);
        const inFlight = Number(/consumer="lag_probe"\} ([0-9]+)/.exec(unacked)?.[1]);
        // Three messages: each one either not yet delivered or delivered and not acknowledged.
        expect(pending + inFlight).toBe(3);
        expect(inFlight).toBeGreaterThanOrEqual(1);
      });
    } finally {
      release();
    }
    await expectEventually(async () => {
      const text = await metricsRegistry.getSingleMetricAsString('ledgerline_events_handled_total');
      expect(text).toContain('ledgerline_events_handled_total{consumer="lag_probe"} 3');
    });
    await consumer.stop();
    expect(await metricsRegistry.getSingleMetricAsString('ledgerline_consumer_pending')).not.toContain('lag_probe');
  });
});

describe('the streams', () => {
  it('keep every event, keep a dead letter for DEAD_LETTER_KEEP_DAYS, and are brought to new settings by the next process', async () => {
    const namespace = `t${Date.now().toString(36)}streams`;
    const first = await NatsEventBus.connect({ url: TEST_NATS_URL, name: 'streams', logger, namespace, streams: { replicas: 1, deadLetterKeepDays: 30 } });
    try {
      const jsm = await jetstreamManager(first.connection);
      const events = await jsm.streams.info(`${namespace.toUpperCase()}_LEDGERLINE_EVENTS`);
      const dead = await jsm.streams.info(`${namespace.toUpperCase()}_LEDGERLINE_DEAD_LETTERS`);
      expect(events.config).toMatchObject({ num_replicas: 1, max_age: 0 });
      expect(dead.config).toMatchObject({ num_replicas: 1, max_age: 30 * 86_400 * 1e9 });
      // A process with another setting brings the stream to it.
      const second = await NatsEventBus.connect({ url: TEST_NATS_URL, name: 'streams', logger, namespace, streams: { replicas: 1, deadLetterKeepDays: 7 } });
      await second.close();
      expect((await jsm.streams.info(`${namespace.toUpperCase()}_LEDGERLINE_DEAD_LETTERS`)).config.max_age).toBe(7 * 86_400 * 1e9);
    } finally {
      await first.deleteStreams();
      await first.close();
    }
  });
});
