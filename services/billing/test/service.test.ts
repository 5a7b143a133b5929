// The billing service on real PostgreSQL and NATS: CreateRecord stores the record in the caller's workspace
// and publishes billing.record_created through the outbox; a bad title or a Viewer is refused and nothing is
// stored or published; another workspace does not see the record.
import { fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  createLogger,
  createServiceClient,
  errorInfoOf,
  eventMessage,
  eventSubject,
  EventType,
  newId,
  tenantHeaders,
  withTenant,
  type Role,
} from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { BillingService as BillingRpc } from '@ledgerline/proto/billing/v1/billing_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingConfigSchema } from '../src/config.js';
import { createBillingService, type BillingService } from '../src/service.js';
import { billingMigrations } from '../src/store/migrations.js';

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: BillingService;
let client: ReturnType<typeof createServiceClient<typeof BillingRpc>>;
const published: Array<{ workspaceId: string; recordId: string; title: string }> = [];

beforeAll(async () => {
  [db, bus] = await Promise.all([createTestDatabase('billing', billingMigrations), createTestBus('billing-test')]);
  const config = billingConfigSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', BILLING_PORT: '0', BILLING_DATABASE_URL: db.appUrl });
  service = await createBillingService(config, { db: db.appDb, bus, logger: createLogger('billing-test', 'silent') });
  client = createServiceClient(BillingRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'billing-test', audience: 'billing' },
  });
  await bus.subscribe({ durable: 'billing_test_watch', subjects: [eventSubject(EventType.BillingRecordCreated)] }, async (msg) => {
    const envelope = fromBinary(EventEnvelopeSchema, msg.data);
    if (envelope.type === EventType.BillingRecordCreated) {
      const event = eventMessage({ type: envelope.type, payload: envelope.payload });
      published.push({ workspaceId: envelope.workspaceId, recordId: event.recordId, title: event.title });
    }
    await msg.ack();
  });
});
afterAll(async () => {
  await service?.stop();
  await bus?.close();
  await db?.drop();
});

const as = (workspaceId: string, role: Role = 'Owner') => ({ headers: tenantHeaders({ workspaceId, userId: newId(), role }) });

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field) };
  }
  throw new Error('expected a refusal');
}

const storedIn = (workspaceId: string) => withTenant(db.appDb, { workspaceId }, (trx) => trx('billing_records').select('id', 'title'));

describe('the billing service', () => {
  it("stores a record in the caller's workspace and publishes billing.record_created once", async () => {
    const workspaceId = newId();
    const { record } = await client.createRecord({ title: '  First record ' }, as(workspaceId));
    expect(record?.title).toBe('First record');
    expect(Number.isNaN(Date.parse(record?.createdAt ?? ''))).toBe(false);
    expect(await storedIn(workspaceId)).toEqual([{ id: record?.id, title: 'First record' }]);
    await expectEventually(() =>
      expect(published.filter((e) => e.workspaceId === workspaceId)).toEqual([{ workspaceId, recordId: record?.id, title: 'First record' }]),
    );
    // Row-level security: another workspace sees none of it.
    expect(await storedIn(newId())).toEqual([]);
  });

  it('refuses an empty or too long title naming the field, and a Viewer; nothing is stored or published', async () => {
    const workspaceId = newId();
    expect(await refusal(client.createRecord({ title: '   ' }, as(workspaceId)))).toEqual({ code: Code.InvalidArgument, fields: ['title'] });
    expect(await refusal(client.createRecord({ title: 'x'.repeat(201) }, as(workspaceId)))).toEqual({ code: Code.InvalidArgument, fields: ['title'] });
    expect((await refusal(client.createRecord({ title: 'Fine' }, as(workspaceId, 'Viewer')))).code).toBe(Code.PermissionDenied);
    expect(await storedIn(workspaceId)).toEqual([]);
    // A record of another workspace, created after the refusals, is published; none of the refused ones was.
    const other = newId();
    await client.createRecord({ title: 'Marker' }, as(other));
    await expectEventually(() => expect(published.some((e) => e.workspaceId === other)).toBe(true));
    expect(published.filter((e) => e.workspaceId === workspaceId)).toEqual([]);
  });
});
