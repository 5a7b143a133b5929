// The integrations service on real PostgreSQL and NATS: CreateRecord stores the record in the caller's workspace
// and publishes integrations.record_created through the outbox; a bad title or a Viewer is refused and nothing is
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
import { IntegrationsService as IntegrationsRpc } from '@ledgerline/proto/integrations/v1/integrations_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationsConfigSchema } from '../src/config.js';
import { createIntegrationsService, type IntegrationsService } from '../src/service.js';
import { integrationsMigrations } from '../src/store/migrations.js';

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: IntegrationsService;
let client: ReturnType<typeof createServiceClient<typeof IntegrationsRpc>>;
const published: Array<{ workspaceId: string; recordId: string; title: string }> = [];

beforeAll(async () => {
  [db, bus] = await Promise.all([createTestDatabase('integrations', integrationsMigrations), createTestBus('integrations-test')]);
  const config = integrationsConfigSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', INTEGRATIONS_PORT: '0', INTEGRATIONS_DATABASE_URL: db.appUrl });
  service = await createIntegrationsService(config, { db: db.appDb, bus, logger: createLogger('integrations-test', 'silent') });
  client = createServiceClient(IntegrationsRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'integrations-test', audience: 'integrations' },
  });
  await bus.subscribe({ durable: 'integrations_test_watch', subjects: [eventSubject(EventType.IntegrationsRecordCreated)] }, async (msg) => {
    const envelope = fromBinary(EventEnvelopeSchema, msg.data);
    if (envelope.type === EventType.IntegrationsRecordCreated) {
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

const storedIn = (workspaceId: string) => withTenant(db.appDb, { workspaceId }, (trx) => trx('integrations_records').select('id', 'title'));

describe('the integrations service', () => {
  it("stores a record in the caller's workspace and publishes integrations.record_created once", async () => {
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
