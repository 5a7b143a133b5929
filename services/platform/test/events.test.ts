import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { UserSignedUpSchema } from '@ledgerline/proto/events/v1/identity_pb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, newId, OutboxRelay, platformMigrations, startConsumer, withTenant, writeEvent, type EventBus, type Migration } from '../src/index.js';
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
  return { type: 'user.signed_up', workspaceId, schema: UserSignedUpSchema, payload: create(UserSignedUpSchema, { userId: newId(), email: 'a@example.com', workspaceId }) };
}

/** Collects the event ids a durable consumer receives (including duplicates, if any). */
async function collect(durable: string, into: string[]) {
  return bus.subscribe({ durable, subjects: ['events.user.signed_up'] }, async (msg) => {
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
      name, types: ['user.signed_up'], db: db.appDb, bus, logger,
      async handle(trx, event) {
        seen.push(event.id);
        // RLS: the insert is allowed only because the consumer set the event's workspace.
        await trx('effects').insert({ event_id: event.id, workspace_id: event.workspaceId });
      },
    });
    const id = newId();
    const envelope = toBinary(EventEnvelopeSchema, create(EventEnvelopeSchema, { id, type: 'user.signed_up', workspaceId: ws, source: 'test' }));
    // Two copies under different message ids get past JetStream's de-duplication: the inbox must catch it.
    await bus.publish('events.user.signed_up', envelope, { msgId: `${id}-a` });
    await bus.publish('events.user.signed_up', envelope, { msgId: `${id}-b` });
    await expectEventually(async () => expect(await db.adminDb('inbox').where({ consumer: name }).count({ n: '*' })).toEqual([{ n: 1 }]));
    await expectEventually(async () => expect(await db.adminDb('effects').where({ event_id: id }).select('workspace_id')).toEqual([{ workspace_id: ws }]));
    await sub.stop();
    expect(seen).toEqual([id]);
  });

  it('sends a message that keeps failing to the dead-letter stream after bounded deliveries', async () => {
    const name = `poison-${newId()}`;
    let attempts = 0;
    const sub = await startConsumer({
      name, types: ['user.signed_up'], db: db.appDb, bus, logger, maxDeliver: 3,
      async handle() {
        attempts++;
        throw new Error('cannot handle this');
      },
    });
    const dead: string[] = [];
    const deadSub = await bus.subscribe({ durable: `dead-${name}`, subjects: [`dead.${name}`] }, async (msg) => {
      dead.push(msg.headers['ll-error'] ?? '');
      await msg.ack();
    });
    const id = newId();
    await bus.publish('events.user.signed_up', toBinary(EventEnvelopeSchema, create(EventEnvelopeSchema, { id, type: 'user.signed_up', workspaceId: newId(), source: 'test' })), { msgId: id });
    await expectEventually(() => expect(dead).toEqual(['cannot handle this']), { timeoutMs: 20_000 });
    expect(attempts).toBe(3);
    expect(await db.adminDb('inbox').where({ consumer: name }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await deadSub.stop();
    await sub.stop();
  });
});
