// The parties service on real PostgreSQL and NATS, with the ledger played by an in-memory stand-in that records
// what it was asked (the ledger's side is tested in services/ledger/test/vendors.test.ts and, together, in
// tests/api/parties.test.ts): vendors and customers stored per workspace (row-level security), vendor.changed
// published through the outbox, refusals change nothing, merge and delete ask the ledger, and the ledger's
// entry.posted turns each merchant into a vendor exactly once.
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
  publishEvent,
  tenantHeaders,
  withTenant,
  type Role,
} from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { PartiesService as PartiesRpc } from '@ledgerline/proto/parties/v1/parties_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../src/clients/ledger.js';
import { partiesConfigSchema } from '../src/config.js';
import { createPartiesService, type PartiesService } from '../src/service.js';
import { partiesMigrations } from '../src/store/migrations.js';

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: PartiesService;
let client: ReturnType<typeof createServiceClient<typeof PartiesRpc>>;
const published: Array<{ workspaceId: string; vendorId: string; change: string; mergedInto: string }> = [];

/** The ledger's vendor calls, answered from memory: registered vendors, billers' vendors, per-vendor activity. */
const fakeLedger = {
  registered: new Map<string, Set<string>>(),
  billerVendor: new Map<string, string>(),
  activity: new Map<string, { transactionCount: number; spendingCents: bigint; inflowCents: bigint }>(),
  calls: [] as string[],
};

const ledgerStandIn = {
  async registerVendors(req: { vendors: { vendorId: string; billerIds: string[] }[] }, opts: { headers: Record<string, string> }) {
    const w = opts.headers['x-ll-workspace-id'] ?? '';
    for (const v of req.vendors) {
      fakeLedger.registered.set(w, (fakeLedger.registered.get(w) ?? new Set()).add(v.vendorId));
      for (const b of v.billerIds) fakeLedger.billerVendor.set(b, v.vendorId);
      fakeLedger.calls.push(`register ${v.vendorId} ${v.billerIds.join(',')}`);
    }
    return {};
  },
  async mergeVendors(req: { parentVendorId: string; mergingVendorIds: string[] }) {
    fakeLedger.calls.push(`merge ${req.parentVendorId} ${req.mergingVendorIds.join(',')}`);
    let moved = 0;
    for (const id of req.mergingVendorIds) moved += fakeLedger.activity.get(id)?.transactionCount ?? 0;
    return { movedTransactions: moved };
  },
  async forgetVendor(req: { vendorId: string }) {
    fakeLedger.calls.push(`forget ${req.vendorId}`);
    return {};
  },
  async getVendorActivity(req: { vendorIds: string[] }) {
    const ids = req.vendorIds.length > 0 ? req.vendorIds : [...fakeLedger.activity.keys()];
    return { activity: ids.filter((id) => fakeLedger.activity.has(id)).map((vendorId) => ({ vendorId, ...fakeLedger.activity.get(vendorId)! })) };
  },
};

beforeAll(async () => {
  [db, bus] = await Promise.all([createTestDatabase('parties', partiesMigrations), createTestBus('parties-test')]);
  const config = partiesConfigSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PARTIES_PORT: '0', PARTIES_DATABASE_URL: db.appUrl });
  // The stand-in answers the four vendor calls the service makes (src/clients/ledger.ts); nothing else is called.
  service = await createPartiesService(config, {
    db: db.appDb,
    bus,
    logger: createLogger('parties-test', 'silent'),
    ledger: ledgerStandIn as unknown as LedgerClient,
  });
  client = createServiceClient(PartiesRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'parties-test', audience: 'parties' },
  });
  await bus.subscribe({ durable: 'parties_test_watch', subjects: [eventSubject(EventType.VendorChanged)] }, async (msg) => {
    const envelope = fromBinary(EventEnvelopeSchema, msg.data);
    if (envelope.type === EventType.VendorChanged) {
      const event = eventMessage({ type: EventType.VendorChanged, payload: envelope.payload });
      published.push({ workspaceId: envelope.workspaceId, vendorId: event.vendorId, change: event.change, mergedInto: event.mergedIntoVendorId });
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

const vendorsIn = (workspaceId: string) =>
  withTenant(db.appDb, { workspaceId }, (trx) => trx('vendors').orderBy('name').select('id', 'name', 'is_added', 'deleted_at', 'merged_into', 'status'));

describe('vendors', () => {
  it("stores a vendor in the caller's workspace, registers it with the ledger and publishes vendor.changed once", async () => {
    const workspaceId = newId();
    const { vendor } = await client.createVendor({ fields: { name: ' Acme ', email: 'AP@ACME.COM', ein: '123456789' } }, as(workspaceId));
    expect(vendor).toMatchObject({ name: 'Acme', email: 'ap@acme.com', ein: '12-3456789', status: 'active', isAdded: true, transactionCount: 0 });
    expect(fakeLedger.registered.get(workspaceId)?.has(vendor!.id)).toBe(true);
    expect((await vendorsIn(workspaceId)).map((v) => v.name)).toEqual(['Acme']);
    expect(await vendorsIn(newId())).toEqual([]);
    await expectEventually(() =>
      expect(published.filter((e) => e.workspaceId === workspaceId)).toEqual([{ workspaceId, vendorId: vendor!.id, change: 'created', mergedInto: '' }]),
    );
  });

  it('refuses bad fields, a taken name and a Viewer; nothing is stored or published', async () => {
    const workspaceId = newId();
    await client.createVendor({ fields: { name: 'Taken' } }, as(workspaceId));
    expect(await refusal(client.createVendor({ fields: { name: ' ', email: 'x' } }, as(workspaceId)))).toEqual({
      code: Code.InvalidArgument,
      fields: ['name', 'email'],
    });
    expect(await refusal(client.createVendor({ fields: { name: 'TAKEN' } }, as(workspaceId)))).toEqual({ code: Code.InvalidArgument, fields: ['name'] });
    expect((await refusal(client.createVendor({ fields: { name: 'Fine' } }, as(workspaceId, 'Viewer')))).code).toBe(Code.PermissionDenied);
    expect((await vendorsIn(workspaceId)).map((v) => v.name)).toEqual(['Taken']);
    await expectEventually(() => expect(published.filter((e) => e.workspaceId === workspaceId)).toHaveLength(1));
  });

  it('merge: the ledger moves the transactions; the merged vendors are deleted, pointing at the parent, with one vendor.changed (merged) each', async () => {
    const workspaceId = newId();
    const [parent, a, b] = await Promise.all(
      ['Parent', 'Child A', 'Child B'].map(async (name) => (await client.createVendor({ fields: { name } }, as(workspaceId))).vendor!),
    );
    fakeLedger.activity.set(a!.id, { transactionCount: 2, spendingCents: 300n, inflowCents: 0n });
    const other = newId();
    const foreign = (await client.createVendor({ fields: { name: 'Foreign' } }, as(other))).vendor!;
    expect(await refusal(client.mergeVendors({ parentVendorId: parent!.id, mergingVendorsId: [] }, as(workspaceId)))).toEqual({
      code: Code.InvalidArgument,
      fields: ['mergingVendorsId'],
    });
    expect(await refusal(client.mergeVendors({ parentVendorId: parent!.id, mergingVendorsId: [a!.id, foreign.id] }, as(workspaceId)))).toEqual({
      code: Code.NotFound,
      fields: ['mergingVendorsId'],
    });
    expect(fakeLedger.calls.filter((c) => c.startsWith('merge'))).toEqual([]);

    const r = await client.mergeVendors({ parentVendorId: parent!.id, mergingVendorsId: [a!.id, b!.id, a!.id] }, as(workspaceId));
    expect(r.movedTransactions).toBe(2);
    expect(fakeLedger.calls).toContain(`merge ${parent!.id} ${a!.id},${b!.id}`);
    const rows = await vendorsIn(workspaceId);
    expect(rows.filter((v) => v.deleted_at === null).map((v) => v.name)).toEqual(['Parent']);
    expect(rows.filter((v) => v.deleted_at !== null).map((v) => v.merged_into)).toEqual([parent!.id, parent!.id]);
    await expectEventually(() =>
      expect(
        published
          .filter((e) => e.workspaceId === workspaceId && e.change === 'merged')
          .map((e) => [e.vendorId, e.mergedInto])
          .sort(),
      ).toEqual(
        [
          [a!.id, parent!.id],
          [b!.id, parent!.id],
        ].sort(),
      ),
    );
    expect((await refusal(client.getVendor({ id: a!.id }, as(workspaceId)))).code).toBe(Code.NotFound);
  });

  it('delete: a vendor with transactions becomes inactive; one without is deleted and the ledger forgets it', async () => {
    const workspaceId = newId();
    const busy = (await client.createVendor({ fields: { name: 'Busy' } }, as(workspaceId))).vendor!;
    const idle = (await client.createVendor({ fields: { name: 'Idle' } }, as(workspaceId))).vendor!;
    fakeLedger.activity.set(busy.id, { transactionCount: 1, spendingCents: 100n, inflowCents: 0n });
    expect(await client.deleteVendor({ id: busy.id }, as(workspaceId))).toMatchObject({ deleted: false, vendor: { status: 'inactive' } });
    expect(await client.deleteVendor({ id: idle.id }, as(workspaceId))).toMatchObject({ deleted: true });
    expect(fakeLedger.calls).toContain(`forget ${idle.id}`);
    expect(fakeLedger.calls).not.toContain(`forget ${busy.id}`);
    expect((await vendorsIn(workspaceId)).map((v) => [v.name, v.status, v.deleted_at === null])).toEqual([
      ['Busy', 'inactive', true],
      ['Idle', 'active', false],
    ]);
  });
});

describe("the ledger's merchants", () => {
  const entryPosted = (workspaceId: string, billerId: string, billerName: string, id = newId()) =>
    publishEvent(bus, 'test', {
      type: EventType.EntryPosted,
      workspaceId,
      id,
      payload: {
        entryId: newId(),
        seq: 1n,
        date: '2026-10-01',
        sourceType: 'WorkspaceTransaction',
        sourceId: newId(),
        description: billerName,
        billerId,
        billerName,
      },
    });

  it('each merchant becomes a vendor (not added), matched by normalised name to an existing one, once however often it is seen', async () => {
    const workspaceId = newId();
    const manual = (await client.createVendor({ fields: { name: 'Blue Bottle Coffee' } }, as(workspaceId))).vendor!;
    const [bb, gh1, gh2] = [newId(), newId(), newId()];
    const repeated = newId();
    await entryPosted(workspaceId, bb, 'BLUE BOTTLE COFFEE INC #12');
    await entryPosted(workspaceId, gh1, 'GitHub, Inc.', repeated);
    await entryPosted(workspaceId, gh1, 'GitHub, Inc.', repeated); // a redelivery: the same event id
    await entryPosted(workspaceId, gh1, 'GitHub, Inc.'); // another entry of the same merchant
    await entryPosted(workspaceId, gh2, 'GITHUB');
    await entryPosted(workspaceId, newId(), '   '); // no name: no vendor
    await expectEventually(async () => {
      const rows = (await vendorsIn(workspaceId)).filter((v) => v.deleted_at === null);
      expect(rows.map((v) => [v.name, v.is_added])).toEqual([
        ['Blue Bottle Coffee', true],
        ['GitHub, Inc.', false],
      ]);
      expect(fakeLedger.billerVendor.get(gh2)).toBe(rows[1]!.id);
    });
    expect(fakeLedger.billerVendor.get(bb)).toBe(manual.id);
    expect(fakeLedger.billerVendor.get(gh1)).toBe(fakeLedger.billerVendor.get(gh2));
    const listed = await client.listVendors({ filter: 'not-added' }, as(workspaceId));
    expect(listed.data.map((v) => [v.name, v.merchantNames])).toEqual([['GitHub, Inc.', ['GITHUB', 'GitHub, Inc.']]]);
    expect(fakeLedger.calls.filter((c) => c.includes(gh1))).toHaveLength(1);
  });
});

describe('customers', () => {
  it('stored per workspace; a taken name, a bad email and a Viewer are refused; delete hides it', async () => {
    const workspaceId = newId();
    const { customer } = await client.createCustomer({ fields: { name: 'Globex', companyName: 'Globex Corp', email: 'AR@GLOBEX.COM' } }, as(workspaceId));
    expect(customer).toMatchObject({ name: 'Globex', companyName: 'Globex Corp', email: 'ar@globex.com', status: 'active', invoiceCount: 0 });
    expect(await refusal(client.createCustomer({ fields: { name: 'globex' } }, as(workspaceId)))).toEqual({ code: Code.InvalidArgument, fields: ['name'] });
    expect(await refusal(client.createCustomer({ fields: { name: 'X', email: 'no' } }, as(workspaceId)))).toEqual({
      code: Code.InvalidArgument,
      fields: ['email'],
    });
    expect((await refusal(client.updateCustomer({ id: customer!.id, fields: { name: 'Y' } }, as(workspaceId, 'Viewer')))).code).toBe(Code.PermissionDenied);
    expect((await refusal(client.getCustomer({ id: customer!.id }, as(newId())))).code).toBe(Code.NotFound);
    await client.deleteCustomer({ id: customer!.id }, as(workspaceId));
    expect((await client.listCustomers({}, as(workspaceId))).data).toEqual([]);
  });
});
