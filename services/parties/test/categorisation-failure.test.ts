// A categorisation request the parties service cannot answer for good: after its deliveries it is dead-lettered
// and answered as failed (categorization.suggested with failedReason and no suggestions, through the outbox), so
// the ledger marks the job failed instead of leaving it waiting (services/ledger/test/categorisation-jobs.test.ts).
import { createLogger, EventType, newId, publishEvent, withSystem } from '@ledgerline/platform';
import { fromBinary } from '@bufbuild/protobuf';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { CategorizationSuggestedSchema } from '@ledgerline/proto/events/v1/parties_pb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCategorisationConsumer } from '../src/events/categorisation-consumer.js';
import { partiesMigrations } from '../src/store/migrations.js';
import { CategorisationUseCases } from '../src/usecases/categorisation.js';

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let consumer: Awaited<ReturnType<typeof startCategorisationConsumer>>;
let attempts = 0;

beforeAll(async () => {
  db = await createTestDatabase('parties', partiesMigrations);
  bus = await createTestBus('parties-categorisation-failure');
  const real = new CategorisationUseCases(db.appDb);
  const model = {
    learn: real.learn.bind(real),
    failed: real.failed.bind(real),
    async answer() {
      attempts++;
      throw new Error('the examples could not be read');
    },
  };
  consumer = await startCategorisationConsumer({ db: db.appDb, bus, logger: createLogger('parties-test', 'silent'), model, maxDeliver: 2 });
});
afterAll(async () => {
  await consumer?.stop();
  await bus?.close();
  await db?.drop();
});

it('a request that keeps failing is answered as failed, once, with the reason', async () => {
  const workspaceId = newId();
  const jobId = newId();
  await publishEvent(bus, 'ledger', {
    type: EventType.CategorizationRequested,
    workspaceId,
    payload: {
      jobId,
      candidates: [{ transactionId: newId(), merchantName: 'X', description: 'X', amountCents: -100n, bankAccountId: 'acc', date: '2026-10-05' }],
    },
  });
  const rows = await expectEventually(
    async () => {
      const found = (
        await withSystem(db.appDb, (trx) => trx.raw("select envelope from outbox where type = 'categorization.suggested' and workspace_id = ?", [workspaceId]))
      ).rows as { envelope: Uint8Array }[];
      expect(found).toHaveLength(1);
      return found;
    },
    { timeoutMs: 30_000 },
  );
  const answer = fromBinary(CategorizationSuggestedSchema, fromBinary(EventEnvelopeSchema, rows[0]!.envelope).payload);
  expect(answer).toMatchObject({ jobId, suggestions: [], failedReason: 'Suggesting categories failed: the examples could not be read' });
  expect(attempts).toBe(2);
});
