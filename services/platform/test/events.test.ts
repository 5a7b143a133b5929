import { fromBinary } from '@bufbuild/protobuf';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  consumerName,
  createLogger,
  deadLetterSubject,
  encodeEvent,
  eventMessage,
  eventSubject,
  EventType,
  newId,
  OutboxRelay,
  platformMigrations,
  startConsumer,
  withTenant,
  writeEvent,
  type EventBus,
  type Migration,
} from '../src/index.js';
import { isTransientError } from '../src/events/transient.js';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '../src/testing/index.js';

const logger = createLogger('platform-test', 'silent');

// A tenant table owned by this test, to show an effect committed together with the inbox row.
const testMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123100000_test_effects',
    async up(knex) {
      await knex.schema.createTable('effects', (t) => {
        t.uuid('event_id').primary();
        t.uuid('workspace_id').notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('effects');
    },
  },
];

let db: TestDatabase;
// Each test gets a bus namespace of its own, so no test sees another's messages.
let bus: Awaited<ReturnType<typeof createTestBus>>;

beforeAll(async () => {
  db = await createTestDatabase('platform_events', testMigrations);
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

function signedUp(workspaceId: string) {
  return { type: EventType.UserSignedUp, workspaceId, payload: { userId: newId(), email: 'a@example.com', workspaceId } } as const;
}

/** Collects the event ids a durable consumer receives (including duplicates, if any). */
async function collect(durable: string, into: string[]) {
  return bus.subscribe({ durable, subjects: [eventSubject(EventType.UserSignedUp)] }, async (msg) => {
    into.push(fromBinary(EventEnvelopeSchema, msg.data).id);
    await msg.ack();
  });
}

describe('outbox', () => {
  it('publishes committed events once, emits nothing for a rolled-back change, and survives a relay crash mid-batch', async () => {
    const ws = newId();
    const committed: string[] = [];
    for (let i = 0; i < 20; i++) {
      committed.push(await withTenant(db.appDb, { workspaceId: ws }, (trx) => writeEvent(trx, 'test', signedUp(ws))));
    }
    await withTenant(db.appDb, { workspaceId: ws }, async (trx) => {
      await writeEvent(trx, 'test', signedUp(ws));
      throw new Error('rolled back');
    }).catch(() => undefined);

    const received: string[] = [];
    const sub = await collect(`outbox-${newId()}`, received);

    // A relay whose process dies after publishing 7 messages of its first batch, before marking them.
    let sent = 0;
    const dyingBus: EventBus = {
      publish: async (subject, data, opts) => {
        if (sent === 7) throw new Error('killed');
        sent++;
        await bus.publish(subject, data, opts);
      },
      subscribe: bus.subscribe.bind(bus),
      tail: bus.tail.bind(bus),
      close: async () => undefined,
    };
    await expect(new OutboxRelay({ db: db.appDb, bus: dyingBus, logger }).publishBatch()).rejects.toThrow('killed');
    expect(await db.adminDb('outbox').whereNotNull('published_at').count({ n: '*' })).toEqual([{ n: 0 }]);

    const relay = new OutboxRelay({ db: db.appDb, bus, logger });
    await relay.start();
    await expectEventually(() => expect([...received].sort()).toEqual([...committed].sort()));
    await relay.stop();
    // Nothing arrives late: every committed event exactly once, the rolled-back one never.
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toHaveLength(20);
    expect(new Set(received).size).toBe(20);
    await sub.stop();
  });
});

describe('consumer with inbox', () => {
  it('applies each event once even when delivered twice, and sets the tenant from the event', async () => {
    const ws = newId();
    const name = `effects-${newId()}`;
    const seen: string[] = [];
    const sub = await startConsumer({
      name,
      types: [EventType.UserSignedUp],
      db: db.appDb,
      bus,
      logger,
      async handle(trx, event) {
        seen.push(event.id);
        // RLS: the insert is allowed only because the consumer set the event's workspace.
        await trx('effects').insert({ event_id: event.id, workspace_id: event.workspaceId });
      },
    });
    const id = newId();
    const envelope = encodeEvent('test', id, signedUp(ws));
    // Two copies under different message ids get past JetStream's de-duplication: the inbox must catch it.
    await bus.publish(eventSubject(EventType.UserSignedUp), envelope, { msgId: `${id}-a` });
    await bus.publish(eventSubject(EventType.UserSignedUp), envelope, { msgId: `${id}-b` });
    await expectEventually(async () => expect(await db.adminDb('inbox').where({ consumer: name }).count({ n: '*' })).toEqual([{ n: 1 }]));
    await expectEventually(async () => expect(await db.adminDb('effects').where({ event_id: id }).select('workspace_id')).toEqual([{ workspace_id: ws }]));
    await sub.stop();
    expect(seen).toEqual([id]);
  });

  it('sends a message that keeps failing to the dead-letter stream after bounded deliveries', async () => {
    const name = `poison-${newId()}`;
    let attempts = 0;
    const sub = await startConsumer({
      name,
      types: [EventType.UserSignedUp],
      db: db.appDb,
      bus,
      logger,
      maxDeliver: 3,
      async handle() {
        attempts++;
        throw new Error('cannot handle this');
      },
    });
    const dead: string[] = [];
    const deadSub = await bus.subscribe({ durable: `dead-${name}`, subjects: [deadLetterSubject(name)] }, async (msg) => {
      dead.push(msg.headers['ll-error'] ?? '');
      await msg.ack();
    });
    const id = newId();
    await bus.publish(eventSubject(EventType.UserSignedUp), encodeEvent('test', id, signedUp(newId())), { msgId: id });
    await expectEventually(() => expect(dead).toEqual(['cannot handle this']), { timeoutMs: 20_000 });
    expect(attempts).toBe(3);
    expect(await db.adminDb('inbox').where({ consumer: name }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await deadSub.stop();
    await sub.stop();
  });

  it("applies a batch across workspaces in one transaction under the generation's name, and dead-letters an invalid event at once", async () => {
    const base = `model-${newId()}`;
    const name = consumerName(base, 2);
    expect(name).toBe(`${base}_g2`);
    const transactions: number[] = [];
    const checked: string[] = [];
    const sub = await startConsumer({
      name: base,
      generation: 2,
      types: [EventType.UserSignedUp],
      db: db.appDb,
      bus,
      logger,
      maxDeliver: 3,
      check(event) {
        const p = eventMessage(event);
        if (!p.email.includes('@')) throw new Error(`invalid email in ${event.id}`);
        return p.email;
      },
      batch: {
        types: [EventType.UserSignedUp],
        size: 50,
        waitMs: 50,
        acrossTenants: true,
        async handle(trx, events) {
          transactions.push(events.length);
          for (const e of events) checked.push(e.checked);
          // One system transaction for every workspace of the batch: each row keyed by its event's workspace.
          await trx('effects').insert(events.map((e) => ({ event_id: e.id, workspace_id: e.workspaceId })));
        },
      },
    });
    const dead: string[] = [];
    const deadSub = await bus.subscribe({ durable: `dead-${newId()}`, subjects: [deadLetterSubject(name)] }, async (msg) => {
      dead.push(msg.headers['ll-error'] ?? '');
      await msg.ack();
    });
    const ids = Array.from({ length: 6 }, () => newId());
    const workspaces = ids.map(() => newId());
    for (const [i, id] of ids.entries())
      await bus.publish(eventSubject(EventType.UserSignedUp), encodeEvent('test', id, signedUp(workspaces[i] as string)), { msgId: id });
    await bus.publish(eventSubject(EventType.UserSignedUp), encodeEvent('test', ids[0] as string, signedUp(workspaces[0] as string)), {
      msgId: `${ids[0]}-again`,
    });
    const bad = newId();
    await bus.publish(
      eventSubject(EventType.UserSignedUp),
      encodeEvent('test', bad, { type: EventType.UserSignedUp, workspaceId: newId(), payload: { email: 'nobody' } }),
      { msgId: bad },
    );
    await expectEventually(async () =>
      expect(await db.adminDb('effects').whereIn('event_id', ids).select('workspace_id').orderBy('workspace_id')).toEqual(
        [...workspaces].sort().map((w) => ({ workspace_id: w })),
      ),
    );
    await expectEventually(() => expect(dead).toEqual([`invalid email in ${bad}`]), { timeoutMs: 20_000 });
    await sub.stop();
    expect(sub.handledCount).toBe(6);
    expect(checked).toHaveLength(6);
    expect(transactions.reduce((a, b) => a + b, 0)).toBe(6);
    expect(transactions.length).toBeLessThan(6);
    expect(await db.adminDb('inbox').where({ consumer: name }).count({ n: '*' })).toEqual([{ n: 6 }]);
    await deadSub.stop();
  });

  it('retries a failing batch event by event: the good ones commit, the bad one alone is retried and dead-lettered', async () => {
    const name = `split-${newId()}`;
    const poison = newId();
    const sub = await startConsumer({
      name,
      types: [EventType.UserSignedUp],
      db: db.appDb,
      bus,
      logger,
      maxDeliver: 2,
      batch: {
        types: [EventType.UserSignedUp],
        size: 10,
        waitMs: 50,
        acrossTenants: true,
        async handle(trx, events) {
          if (events.some((e) => e.id === poison)) throw new Error('poisoned batch');
          await trx('effects').insert(events.map((e) => ({ event_id: e.id, workspace_id: e.workspaceId })));
        },
      },
    });
    const dead: string[] = [];
    const deadSub = await bus.subscribe({ durable: `dead-${name}`, subjects: [deadLetterSubject(name)] }, async (msg) => {
      dead.push(msg.headers['ll-error'] ?? '');
      await msg.ack();
    });
    const good = [newId(), newId(), newId()];
    for (const id of [good[0], poison, good[1], good[2]] as string[])
      await bus.publish(eventSubject(EventType.UserSignedUp), encodeEvent('test', id, signedUp(newId())), { msgId: id });
    await expectEventually(async () => expect(await db.adminDb('effects').whereIn('event_id', good).count({ n: '*' })).toEqual([{ n: 3 }]));
    await expectEventually(() => expect(dead).toEqual(['poisoned batch']), { timeoutMs: 20_000 });
    expect(await db.adminDb('inbox').where({ consumer: name, event_id: poison }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await deadSub.stop();
    await sub.stop();
  });
  it('retries a transient failure (a deadlock, no connection in time) past maxDeliver and never dead-letters it', async () => {
    const name = `transient-${newId()}`;
    let failures = 0;
    const sub = await startConsumer({
      name,
      types: [EventType.UserSignedUp],
      db: db.appDb,
      bus,
      logger,
      maxDeliver: 2,
      batch: {
        types: [EventType.UserSignedUp],
        size: 10,
        waitMs: 50,
        acrossTenants: true,
        async handle(trx, events) {
          if (failures < 4) {
            failures++;
            throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          }
          await trx('effects').insert(events.map((e) => ({ event_id: e.id, workspace_id: e.workspaceId })));
        },
      },
    });
    const dead: string[] = [];
    const deadSub = await bus.subscribe({ durable: `dead-${name}`, subjects: [deadLetterSubject(name)] }, async (msg) => {
      dead.push(msg.headers['ll-error'] ?? '');
      await msg.ack();
    });
    const ids = [newId(), newId()];
    for (const id of ids) await bus.publish(eventSubject(EventType.UserSignedUp), encodeEvent('test', id, signedUp(newId())), { msgId: id });
    await expectEventually(async () => expect(await db.adminDb('effects').whereIn('event_id', ids).count({ n: '*' })).toEqual([{ n: 2 }]), {
      timeoutMs: 30_000,
    });
    expect(failures).toBe(4);
    expect(dead).toEqual([]);
    await deadSub.stop();
    await sub.stop();
  }, 40_000);
});

describe('transient failures', () => {
  it('are told apart from failures of the event', () => {
    expect(isTransientError(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('could not serialize access'), { code: '40001' }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }))).toBe(
      true,
    );
    expect(isTransientError(new Error('wrapped', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isTransientError(Object.assign(new Error('invalid input syntax for type uuid'), { code: '22P02' }))).toBe(false);
    expect(isTransientError(new Error('cannot handle this'))).toBe(false);
    expect(isTransientError('a string')).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
  });
});

describe('event catalog', () => {
  it('binds each type to its message: what is published is read back typed', () => {
    const id = newId();
    const ws = newId();
    const envelope = fromBinary(
      EventEnvelopeSchema,
      encodeEvent('test', id, { type: EventType.ChartChanged, workspaceId: ws, payload: { seq: 7n, change: 'account.created' } }),
    );
    expect(envelope).toMatchObject({ id, type: 'chart.changed', workspaceId: ws, source: 'test' });
    const event = { type: EventType.ChartChanged, payload: envelope.payload };
    expect(eventMessage(event).seq).toBe(7n);
    // @ts-expect-error: a payload that is not the type's message does not compile
    encodeEvent('test', id, { type: EventType.ChartChanged, workspaceId: ws, payload: { email: 'a@example.com' } });
  });
});
