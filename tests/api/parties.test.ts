// The parties service's REST routes through the real gateway (issue #17): vendors and customers, their
// validation messages, totals computed from the ledger's transactions linked to a vendor, merge, delete,
// CSV files, merchants becoming vendors; another workspace's ids answer 404 on every route and inside bodies
// (also a vendorId in PATCH /transactions), a Viewer's writes 403. A fake identity (fixed sessions and roles),
// the real ledger and parties services on fresh databases, real NATS; banking's events published on the bus.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildGateway } from '@ledgerline/gateway';
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { partiesConfigSchema, partiesMigrations, createPartiesService, type PartiesService } from '@ledgerline/parties';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_ID, startFakeIdentity, testConfig, type FakeIdentity } from '../../services/gateway/test/support/fake-identity.js';
import { bankingFor, startLedger, type LedgerHarness } from '../../services/ledger/test/support.js';

interface Answer {
  status: number;
  headers: Headers;
  // Tests read the documented JSON shapes field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}
interface Tenant {
  token: string;
  viewerToken: string;
  workspaceId: string;
  banking: ReturnType<typeof bankingFor>;
}

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
let partiesDb: TestDatabase;
let parties: PartiesService;
let identity: FakeIdentity;
let gateway: FastifyInstance;
let gatewayUrl: string;
let t: Tenant;
let other: Tenant;

async function api(method: string, path: string, o: { tenant?: Tenant; token?: string; body?: unknown } = {}): Promise<Answer> {
  const token = o.token ?? o.tenant?.token;
  const res = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: {
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(o.tenant ? { 'x-workspace-id': o.tenant.workspaceId } : {}),
    },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (a CSV): keep the text
  }
  return { status: res.status, headers: res.headers, body };
}
const asViewer = (tenant: Tenant) => ({ tenant, token: tenant.viewerToken });

function tenant(): Tenant {
  const workspaceId = newId();
  const token = `tok-${randomUUID()}`;
  const viewerToken = `tok-${randomUUID()}`;
  const ws = (role: string) => ({ id: workspaceId, name: 'Books', organizationId: ORG_ID, organizationName: 'Acme', role, isDefault: true });
  identity.sessions.set(token, { userId: newId(), workspaces: [ws('Owner')], defaultWorkspaceId: workspaceId });
  identity.sessions.set(viewerToken, { userId: newId(), workspaces: [ws('Viewer')], defaultWorkspaceId: workspaceId });
  return { token, viewerToken, workspaceId, banking: bankingFor(bus, workspaceId) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documented JSON, read field by field
async function transactions(tn: Tenant, count: number): Promise<any[]> {
  return expectEventually(
    async () => {
      const r = await api('GET', '/transactions/v2?take=100', { tenant: tn });
      if (r.status !== 200 || r.body.meta.itemCount !== count)
        throw new Error(`GET /transactions/v2 answered ${r.status} ${JSON.stringify(r.body.meta ?? r.body)}`);
      return r.body.data;
    },
    { timeoutMs: 20_000 },
  );
}

const createVendor = async (tn: Tenant, body: Record<string, unknown>) => {
  const r = await api('POST', '/vendors', { tenant: tn, body });
  expect(r.status).toBe(201);
  return r.body.vendor;
};
const vendorNamed = async (tn: Tenant, name: string) =>
  (await api('GET', `/vendors?search=${encodeURIComponent(name)}&take=100`, { tenant: tn })).body.data.find((v: { name: string }) => v.name === name);

beforeAll(async () => {
  bus = await createTestBus('parties-api');
  ledger = await startLedger(bus);
  partiesDb = await createTestDatabase('parties', partiesMigrations);
  const config = partiesConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PARTIES_PORT: '0',
    PARTIES_DATABASE_URL: partiesDb.appUrl,
    LEDGER_URL: ledger.url,
  });
  parties = await createPartiesService(config, { db: partiesDb.appDb, bus, logger: createLogger('parties-api', 'silent') });
  const partiesUrl = await parties.listen();
  identity = await startFakeIdentity();
  gateway = await buildGateway({
    config: testConfig(identity.url, { LEDGER_URL: ledger.url, PARTIES_URL: partiesUrl, SERVICE_TIMEOUT_MS: '20000' }),
    redis: null,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  t = tenant();
  other = tenant();
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await parties?.stop();
  await partiesDb?.drop();
  await ledger?.close();
  await identity?.close();
  await bus?.close();
});

describe('vendors', () => {
  it('POST /vendors stores every spec §3 field (email lower-cased, EIN as XX-XXXXXXX); GET /vendors/{id} answers it with zero totals', async () => {
    const created = await api('POST', '/vendors', {
      tenant: t,
      body: {
        name: '  Acme Supplies ',
        description: 'Paper and toner',
        address: '1 Main St, Springfield',
        bankDetails: 'ACH 021000021 / 1234',
        email: { email: 'Billing@Acme.COM' },
        is1099Eligible: true,
        ein: '123456789',
        metaData: { terms: 'net 30', rank: 2 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      message: 'Vendor created',
      vendor: {
        name: 'Acme Supplies',
        description: 'Paper and toner',
        address: '1 Main St, Springfield',
        bankDetails: 'ACH 021000021 / 1234',
        email: { email: 'billing@acme.com' },
        is1099Eligible: true,
        ein: '12-3456789',
        status: 'active',
        metaData: { terms: 'net 30', rank: 2 },
        isAdded: true,
        transactionCount: 0,
        spending: 0,
        inflow: 0,
        billCount: 0,
        dueBillCount: 0,
        overdueAmount: 0,
        vendorCreditCount: 0,
        vendorCreditTotal: 0,
        vendorCreditRemainingBalance: 0,
        hasRule: false,
        qboSynced: false,
        merchantNames: [],
      },
    });
    const got = await api('GET', `/vendors/${created.body.vendor.id}`, { tenant: t });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body.vendor);
    // is1099Eligible defaults to false, status to active.
    const plain = await createVendor(t, { name: 'Plain Vendor' });
    expect(plain).toMatchObject({ is1099Eligible: false, status: 'active', email: { email: '' }, ein: '' });
  });

  it('refuses bad input with a 400 naming the field, and a name another vendor already has (case-insensitive)', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'name', 'Name is required'],
      [{ name: '   ' }, 'name', 'Name is required'],
      [{ name: 'X', email: { email: 'not-an-email' } }, 'email', 'Please enter a valid email.'],
      [{ name: 'X', ein: '12-34' }, 'ein', 'EIN must be 9 digits (XX-XXXXXXX)'],
      [{ name: 'X', status: 'archived' }, 'status', 'status must be active or inactive'],
      [{ name: 'ACME SUPPLIES' }, 'name', 'A vendor with this name already exists'],
    ];
    for (const [body, field, message] of cases) {
      const r = await api('POST', '/vendors', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ statusCode: 400, errors: [{ field, message }] });
    }
    const wrongType = await api('POST', '/vendors', { tenant: t, body: { name: 'X', is1099Eligible: 'yes' } });
    expect(wrongType).toMatchObject({ status: 400, body: { errors: [{ field: 'is1099Eligible' }] } });
    const badMeta = await api('POST', '/vendors', { tenant: t, body: { name: 'X', metaData: { nested: { a: 1 } } } });
    expect(badMeta.status).toBe(400);
    expect(badMeta.body.errors[0].field).toMatch(/^metaData/);
  });

  it('GET /vendors pages 20 at a time (max 100), searches by name, filters by status and Added / Not added', async () => {
    const tn = tenant();
    for (let i = 0; i < 23; i++) await createVendor(tn, { name: `Vendor ${String(i).padStart(2, '0')}`, ...(i % 5 === 0 ? { status: 'inactive' } : {}) });
    const first = await api('GET', '/vendors', { tenant: tn });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta).toEqual({ page: 1, take: 20, itemCount: 23, pageCount: 2, hasPreviousPage: false, hasNextPage: true });
    expect(first.body.data[0].name).toBe('Vendor 00');
    const second = await api('GET', '/vendors?page=2', { tenant: tn });
    expect(second.body.data.map((v: { name: string }) => v.name)).toEqual(['Vendor 20', 'Vendor 21', 'Vendor 22']);
    expect((await api('GET', '/vendors?search=vendor 1', { tenant: tn })).body.meta.itemCount).toBe(10);
    expect((await api('GET', '/vendors?status=inactive', { tenant: tn })).body.data.map((v: { name: string }) => v.name)).toEqual([
      'Vendor 00',
      'Vendor 05',
      'Vendor 10',
      'Vendor 15',
      'Vendor 20',
    ]);
    expect((await api('GET', '/vendors?filter=added', { tenant: tn })).body.meta.itemCount).toBe(23);
    expect((await api('GET', '/vendors?filter=not-added', { tenant: tn })).body.meta.itemCount).toBe(0);
    for (const [q, field] of [
      ['take=101', 'take'],
      ['take=0', 'take'],
      ['page=0', 'page'],
      ['status=gone', 'status'],
      ['filter=maybe', 'filter'],
    ] as const) {
      const r = await api('GET', `/vendors?${q}`, { tenant: tn });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].field).toBe(field);
    }
    // Another workspace sees none of them.
    expect((await api('GET', '/vendors', { tenant: other })).body.data.some((v: { name: string }) => v.name.startsWith('Vendor '))).toBe(false);
  });

  it('PATCH /vendors/{id} changes only the fields sent; bad fields are a 400 and change nothing', async () => {
    const v = await createVendor(t, { name: 'Patchable', description: 'before', is1099Eligible: true });
    const r = await api('PATCH', `/vendors/${v.id}`, { tenant: t, body: { description: 'after', status: 'inactive', email: { email: 'AP@Patch.io' } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Vendor updated',
      vendor: { name: 'Patchable', description: 'after', status: 'inactive', email: { email: 'ap@patch.io' }, is1099Eligible: true },
    });
    const bad = await api('PATCH', `/vendors/${v.id}`, { tenant: t, body: { name: '', ein: '1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['name', 'ein']);
    expect((await api('GET', `/vendors/${v.id}`, { tenant: t })).body).toMatchObject({ name: 'Patchable', description: 'after' });
    const taken = await api('PATCH', `/vendors/${v.id}`, { tenant: t, body: { name: 'plain vendor' } });
    expect(taken).toMatchObject({ status: 400, body: { errors: [{ field: 'name', message: 'A vendor with this name already exists' }] } });
  });

  it("a vendor's transactions, spending and inflow come from the transactions categorised to it (PATCH /transactions vendorId); another workspace's vendor id inside the body is a 404", async () => {
    const tn = tenant();
    const account = await tn.banking.link();
    await tn.banking.add(account, { amountCents: -12_500, date: '2026-10-01', name: 'Office paper', merchantName: '' });
    await tn.banking.add(account, { amountCents: -4_000, date: '2026-10-02', name: 'Toner', merchantName: '' });
    await tn.banking.add(account, { amountCents: 2_500, date: '2026-10-03', name: 'Refund paper', merchantName: '' });
    await tn.banking.add(account, { amountCents: -999, date: '2026-10-04', name: 'Something else', merchantName: '' });
    const txns = await transactions(tn, 4);
    const idOf = (name: string) => txns.find((x: { biller: { name: string } | null }) => x.biller?.name === name)?.id as string;
    const vendor = await createVendor(tn, { name: 'Paper Co' });
    const foreign = await createVendor(other, { name: 'Their Vendor' });
    const ids = ['Office paper', 'Toner', 'Refund paper'].map(idOf);
    expect(ids.every(Boolean)).toBe(true);

    const refused = await api('PATCH', '/transactions', { tenant: tn, body: { transactions: [{ id: ids[0], vendorId: foreign.id }] } });
    expect(refused).toMatchObject({ status: 404, body: { statusCode: 404, errors: [{ field: 'transactions.0.vendorId' }] } });
    expect((await api('GET', `/vendors/${vendor.id}`, { tenant: tn })).body).toMatchObject({ transactionCount: 0, spending: 0, inflow: 0 });

    const ok = await api('PATCH', '/transactions', { tenant: tn, body: { transactions: ids.map((id) => ({ id, vendorId: vendor.id })) } });
    expect(ok.status).toBe(200);
    expect((await api('GET', `/vendors/${vendor.id}`, { tenant: tn })).body).toMatchObject({ transactionCount: 3, spending: 165, inflow: 25 });
    const listed = (await api('GET', '/vendors', { tenant: tn })).body.data.find((v: { id: string }) => v.id === vendor.id);
    expect(listed).toMatchObject({ transactionCount: 3, spending: 165, inflow: 25 });
    // A Viewer reads the totals but cannot link a transaction.
    expect((await api('GET', `/vendors/${vendor.id}`, asViewer(tn))).status).toBe(200);
    expect(
      await api('PATCH', '/transactions', { ...asViewer(tn), body: { transactions: [{ id: idOf('Something else'), vendorId: vendor.id }] } }),
    ).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });

    // DELETE: a vendor with transactions is made inactive instead, as QuickBooks Online does.
    const del = await api('DELETE', `/vendors/${vendor.id}`, { tenant: tn });
    expect(del).toMatchObject({
      status: 200,
      body: {
        deleted: false,
        message: 'This vendor has 3 transactions, so it was made inactive instead of deleted',
        vendor: { id: vendor.id, status: 'inactive', transactionCount: 3 },
      },
    });
    expect((await api('GET', `/vendors/${vendor.id}`, { tenant: tn })).body.status).toBe('inactive');
    // Asked again, it stays inactive, and the answer does not claim a change.
    expect((await api('DELETE', `/vendors/${vendor.id}`, { tenant: tn })).body).toMatchObject({
      deleted: false,
      message: 'This vendor has 3 transactions, so it stays inactive instead of being deleted',
    });
  });

  it('DELETE /vendors/{id} deletes a vendor without transactions: it is gone (404) and no transaction may name it', async () => {
    const tn = tenant();
    const account = await tn.banking.link();
    await tn.banking.add(account, { amountCents: -100, name: 'Gum' });
    const [txn] = await transactions(tn, 1);
    const v = await createVendor(tn, { name: 'Short Lived' });
    const del = await api('DELETE', `/vendors/${v.id}`, { tenant: tn });
    expect(del).toMatchObject({ status: 200, body: { deleted: true, message: 'Vendor deleted' } });
    expect((await api('GET', `/vendors/${v.id}`, { tenant: tn })).status).toBe(404);
    expect((await api('DELETE', `/vendors/${v.id}`, { tenant: tn })).status).toBe(404);
    expect((await api('PATCH', '/transactions', { tenant: tn, body: { transactions: [{ id: txn.id, vendorId: v.id }] } })).status).toBe(404);
    // The name is free again.
    expect((await api('POST', '/vendors', { tenant: tn, body: { name: 'Short Lived' } })).status).toBe(201);
  });

  it("POST /vendors/merge moves the merged vendors' transactions to the parent; the merged vendors are gone", async () => {
    const tn = tenant();
    const account = await tn.banking.link();
    await tn.banking.add(account, { amountCents: -1_000, date: '2026-10-01', name: 'Cloud invoice 1' });
    await tn.banking.add(account, { amountCents: -2_000, date: '2026-10-02', name: 'Cloud invoice 2' });
    await tn.banking.add(account, { amountCents: -3_000, date: '2026-10-03', name: 'Cloud invoice 3' });
    const txns = await transactions(tn, 3);
    const [parent, a, b] = [
      await createVendor(tn, { name: 'AWS' }),
      await createVendor(tn, { name: 'Amazon Web Services' }),
      await createVendor(tn, { name: 'A.W.S. Billing' }),
    ];
    const link = (name: string, vendorId: string) => ({ id: txns.find((x: { biller: { name: string } | null }) => x.biller?.name === name).id, vendorId });
    expect(
      (
        await api('PATCH', '/transactions', {
          tenant: tn,
          body: { transactions: [link('Cloud invoice 1', parent.id), link('Cloud invoice 2', a.id), link('Cloud invoice 3', b.id)] },
        })
      ).status,
    ).toBe(200);

    const empty = await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: parent.id, mergingVendorsId: [] } });
    expect(empty).toMatchObject({
      status: 400,
      body: {
        message: 'Vendor merge needs a non-empty list of vendor ids',
        errors: [{ field: 'mergingVendorsId', message: 'Vendor merge needs a non-empty list of vendor ids' }],
      },
    });
    expect((await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: parent.id } })).body.errors[0]).toMatchObject({
      field: 'mergingVendorsId',
    });
    expect((await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: 'nope', mergingVendorsId: [a.id] } })).body.errors[0]).toMatchObject({
      field: 'parentVendorId',
    });
    expect(
      (await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: parent.id, mergingVendorsId: [parent.id] } })).body.errors[0],
    ).toMatchObject({ field: 'mergingVendorsId' });
    const foreign = await createVendor(other, { name: 'Foreign Merge' });
    expect(await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: parent.id, mergingVendorsId: [a.id, foreign.id] } })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'mergingVendorsId' }] },
    });
    expect(await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: foreign.id, mergingVendorsId: [a.id] } })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'parentVendorId' }] },
    });
    expect(await api('POST', '/vendors/merge', { ...asViewer(tn), body: { parentVendorId: parent.id, mergingVendorsId: [a.id] } })).toMatchObject({
      status: 403,
      body: { message: VIEWER_MESSAGE },
    });
    expect((await api('GET', `/vendors/${a.id}`, { tenant: tn })).body.transactionCount).toBe(1);

    const merged = await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: parent.id, mergingVendorsId: [a.id, b.id] } });
    expect(merged).toMatchObject({
      status: 200,
      body: { message: 'Vendors merged', movedTransactions: 2, vendor: { id: parent.id, transactionCount: 3, spending: 60 } },
    });
    for (const gone of [a, b]) expect((await api('GET', `/vendors/${gone.id}`, { tenant: tn })).status).toBe(404);
    const after = await api('GET', '/transactions/v2?take=100', { tenant: tn });
    expect(after.body.data.map((x: { vendorId: string }) => x.vendorId)).toEqual([parent.id, parent.id, parent.id]);
    const names = (await api('GET', '/vendors?take=100', { tenant: tn })).body.data.map((v: { name: string }) => v.name);
    expect(names).toContain('AWS');
    expect(names).not.toContain('Amazon Web Services');
    expect(names).not.toContain('A.W.S. Billing');
  });

  it("a bank merchant becomes a vendor matched by normalised name; the merchant's transactions count for it", async () => {
    const tn = tenant();
    const account = await tn.banking.link();
    const manual = await createVendor(tn, { name: 'Blue Bottle Coffee' });
    await tn.banking.add(account, { amountCents: -450, date: '2026-10-01', name: 'BLUE BOTTLE COFFEE #12', merchantName: 'Blue Bottle Coffee Inc.' });
    await tn.banking.add(account, { amountCents: -1_299, date: '2026-10-02', name: 'Github', merchantName: 'GitHub, Inc' });
    await tn.banking.add(account, { amountCents: -700, date: '2026-10-03', name: 'GITHUB.COM', merchantName: 'GITHUB' });
    await transactions(tn, 3);
    // Both spellings of GitHub are one vendor, named after the first seen.
    const github = await expectEventually(
      async () => {
        const found = (await api('GET', '/vendors?search=github', { tenant: tn })).body.data;
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({ transactionCount: 2, merchantNames: ['GITHUB', 'GitHub, Inc'] });
        return found[0];
      },
      { timeoutMs: 20_000 },
    );
    expect(github).toMatchObject({ isAdded: false, spending: 19.99, merchantNames: ['GITHUB', 'GitHub, Inc'] });
    await expectEventually(
      async () =>
        expect((await api('GET', `/vendors/${manual.id}`, { tenant: tn })).body).toMatchObject({
          transactionCount: 1,
          spending: 4.5,
          merchantNames: ['Blue Bottle Coffee Inc.'],
        }),
      { timeoutMs: 20_000 },
    );
    expect((await api('GET', '/vendors?filter=not-added', { tenant: tn })).body.data.map((v: { id: string }) => v.id)).toEqual([github.id]);
    // Editing it marks it added.
    await api('PATCH', `/vendors/${github.id}`, { tenant: tn, body: { name: 'GitHub' } });
    expect((await api('GET', '/vendors?filter=not-added', { tenant: tn })).body.meta.itemCount).toBe(0);
  });

  it('GET /vendors/csv answers every vendor as CSV with a file name in content-disposition', async () => {
    const tn = tenant();
    await createVendor(tn, { name: 'Zeta, "Quoted" Ltd', email: { email: 'z@zeta.io' }, is1099Eligible: true, ein: '98-7654321' });
    await createVendor(tn, { name: 'Alpha' });
    const r = await api('GET', '/vendors/csv', { tenant: tn });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="vendors_\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (r.body as string)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Name,Status,Email,Description,Address,Bank details,1099 eligible,EIN,Transactions,Spending,Inflow,Bills,Due bills,Overdue amount,Vendor credits,Vendor credit balance',
    );
    expect(lines.slice(1)).toEqual([
      'Alpha,active,,,,,No,,0,0.00,0.00,0,0,0.00,0,0.00',
      '"Zeta, ""Quoted"" Ltd",active,z@zeta.io,,,,Yes,98-7654321,0,0.00,0.00,0,0,0.00,0,0.00',
    ]);
    expect((await api('GET', '/vendors/csv', asViewer(tn))).status).toBe(200);
  });

  it("another workspace's vendor id answers 404 on every route; a Viewer's writes 403", async () => {
    const foreign = await createVendor(other, { name: 'Not Yours' });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await api(method, `/vendors/${foreign.id}`, { tenant: t, body });
      expect(r, method).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Vendor not found' } });
    }
    expect((await api('GET', `/vendors/${foreign.id}`, { tenant: other })).body.name).toBe('Not Yours');
    expect((await api('GET', '/vendors/not-a-uuid', { tenant: t })).status).toBe(400);
    const mine = await vendorNamed(t, 'Plain Vendor');
    for (const [method, path, body] of [
      ['POST', '/vendors', { name: 'V' }],
      ['PATCH', `/vendors/${mine.id}`, { name: 'V' }],
      ['DELETE', `/vendors/${mine.id}`, undefined],
    ] as const) {
      expect(await api(method, path, { ...asViewer(t), body }), `${method} ${path}`).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    }
    expect((await api('GET', '/vendors', asViewer(t))).status).toBe(200);
    expect((await api('GET', '/vendors')).status).toBe(401);
  });
});

describe('customers', () => {
  it('POST, GET, PATCH, DELETE /customers: spec §3 fields, zero invoice totals, validation, 404 for another workspace, Viewer 403', async () => {
    const created = await api('POST', '/customers', {
      tenant: t,
      body: {
        name: 'Globex',
        companyName: 'Globex Corporation',
        email: { email: 'AR@Globex.com' },
        description: 'Key account',
        address: '2 Elm St',
        bankDetails: 'IBAN X',
        metaData: { region: 'west' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      message: 'Customer created',
      customer: {
        name: 'Globex',
        companyName: 'Globex Corporation',
        email: { email: 'ar@globex.com' },
        description: 'Key account',
        address: '2 Elm St',
        bankDetails: 'IBAN X',
        status: 'active',
        metaData: { region: 'west' },
        invoiceCount: 0,
        invoiceAmount: 0,
        dueInvoiceCount: 0,
        dueInvoiceAmount: 0,
        creditMemoCount: 0,
        creditMemoAmount: 0,
        overduePaymentAmount: 0,
        qboSynced: false,
      },
    });
    const id = created.body.customer.id as string;
    expect((await api('GET', `/customers/${id}`, { tenant: t })).body).toEqual(created.body.customer);
    for (const [body, field, message] of [
      [{}, 'name', 'Name is required'],
      [{ name: 'X', email: { email: 'bad' } }, 'email', 'Please enter a valid email.'],
      [{ name: 'X', companyName: 'c'.repeat(101) }, 'companyName', undefined],
      [{ name: 'globex' }, 'name', 'A customer with this name already exists'],
    ] as const) {
      const r = await api('POST', '/customers', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0].field).toBe(field);
      if (message) expect(r.body.errors[0].message).toBe(message);
    }
    const patched = await api('PATCH', `/customers/${id}`, { tenant: t, body: { status: 'inactive', description: 'Former key account' } });
    expect(patched.body).toMatchObject({ message: 'Customer updated', customer: { name: 'Globex', status: 'inactive', description: 'Former key account' } });
    const list = await api('GET', '/customers?search=globex', { tenant: t });
    expect(list.body).toMatchObject({ data: [{ id }], meta: { page: 1, take: 20, itemCount: 1 } });
    expect((await api('GET', '/customers?take=101', { tenant: t })).body.errors[0].field).toBe('take');

    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine' }],
      ['DELETE', undefined],
    ] as const) {
      expect(await api(method, `/customers/${id}`, { tenant: other, body }), method).toMatchObject({ status: 404, body: { message: 'Customer not found' } });
    }
    expect((await api('GET', '/customers', { tenant: other })).body.data.some((c: { id: string }) => c.id === id)).toBe(false);
    for (const [method, path, body] of [
      ['POST', '/customers', { name: 'V' }],
      ['PATCH', `/customers/${id}`, { name: 'V' }],
      ['DELETE', `/customers/${id}`, undefined],
    ] as const) {
      expect(await api(method, path, { ...asViewer(t), body }), `${method} ${path}`).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    }
    expect(await api('DELETE', `/customers/${id}`, { tenant: t })).toMatchObject({ status: 200, body: { deleted: true, message: 'Customer deleted' } });
    expect((await api('GET', `/customers/${id}`, { tenant: t })).status).toBe(404);
  });

  it('GET /customers pages 20 at a time; GET /customers/csv answers them as CSV with a file name', async () => {
    const tn = tenant();
    for (let i = 0; i < 21; i++)
      await api('POST', '/customers', { tenant: tn, body: { name: `Customer ${String(i).padStart(2, '0')}`, companyName: i === 0 ? 'First, Co' : '' } });
    const page = await api('GET', '/customers', { tenant: tn });
    expect(page.body.meta).toEqual({ page: 1, take: 20, itemCount: 21, pageCount: 2, hasPreviousPage: false, hasNextPage: true });
    const csv = await api('GET', '/customers/csv', { tenant: tn });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="customers_\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (csv.body as string)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(22);
    expect(lines[0]).toBe(
      'Name,Company,Status,Email,Description,Address,Bank details,Invoices,Invoice amount,Due invoices,Due invoice amount,Credit memos,Credit memo amount,Overdue payment amount',
    );
    expect(lines[1]).toBe('Customer 00,"First, Co",active,,,,,0,0.00,0,0.00,0,0.00,0.00');
  });
});
