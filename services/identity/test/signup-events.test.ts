import { createLogger, eventMessage, EventType, OutboxRelay, platformMigrations, startConsumer, type EventBus, type Migration } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBody, startIdentity, uniqueEmail, type IdentityHarness } from './support.js';

const logger = createLogger('signup-events-test', 'silent');

// The consumer side: another service's database with an inbox and a table of welcomed users.
const consumerMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123110000_test_welcomed',
    async up(knex) {
      await knex.schema.createTable('welcomed', (t) => {
        t.text('email').notNullable();
        t.uuid('workspace_id').notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('welcomed');
    },
  },
];

let h: IdentityHarness;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let consumerDb: TestDatabase;

beforeAll(async () => {
  bus = await createTestBus('signup-events');
  h = await startIdentity(bus);
  consumerDb = await createTestDatabase('welcome_consumer', consumerMigrations);
});
afterAll(async () => {
  await h?.close();
  await consumerDb?.drop();
  await bus?.close();
});

describe('user.signed_up', () => {
  it('reaches a consumer exactly once per sign-up when the relay dies mid-publish and restarts', async () => {
    await h.service.relay.stop();
    const emails = Array.from({ length: 12 }, () => uniqueEmail('relay'));
    for (const email of emails) await h.client.signUp(signUpBody(email));

    const sub = await startConsumer({
      name: 'welcome',
      types: [EventType.UserSignedUp],
      db: consumerDb.appDb,
      bus,
      logger,
      async handle(trx, event) {
        const e = eventMessage(event);
        await trx('welcomed').insert({ email: e.email, workspace_id: event.workspaceId });
      },
    });

    // The relay process "dies" after publishing 5 events of its batch, before it marks any as published.
    let published = 0;
    const dying: EventBus = {
      publish: async (subject, data, opts) => {
        if (published === 5) throw new Error('relay killed');
        published++;
        await bus.publish(subject, data, opts);
      },
      subscribe: bus.subscribe.bind(bus),
      tail: bus.tail.bind(bus),
      close: async () => undefined,
    };
    await expect(new OutboxRelay({ db: h.service.db, bus: dying, logger }).publishBatch()).rejects.toThrow('relay killed');

    const restarted = new OutboxRelay({ db: h.service.db, bus, logger });
    await restarted.start();
    await expectEventually(async () => {
      const rows = await consumerDb.adminDb('welcomed').whereIn('email', emails).select('email');
      expect(rows.map((r: { email: string }) => r.email).sort()).toEqual([...emails].sort());
    });
    await restarted.stop();
    // The workspace travels with the event and is the one identity created for the user.
    const [row] = await consumerDb.adminDb('welcomed').where({ email: emails[0] }).select('workspace_id');
    const [membership] = await h.db.adminDb('memberships as m').join('users as u', 'u.id', 'm.user_id').where('u.email', emails[0]).select('m.workspace_id');
    expect(row.workspace_id).toBe(membership.workspace_id);
    await sub.stop();
    expect(await consumerDb.adminDb('welcomed').whereIn('email', emails).count({ n: '*' })).toEqual([{ n: emails.length }]);
  });
});
