// Vendor credits and credit memos through the real gateway (issue #17 item 5): every route and validation
// message, the one balanced ledger entry each version posts (source VendorCredit / CreditMemo, visible in the
// general ledger), edit and delete as reversals that leave posted lines untouched, the vendor's credit totals,
// another workspace's ids answering 404 (also inside bodies), Viewer 403, and the P&L and balance sheet cells
// equal to the ledger's lines (report-oracle.ts). A fake identity; the real ledger, parties and reporting services
// on fresh databases; real NATS.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildGateway } from '@ledgerline/gateway';
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { partiesConfigSchema, partiesMigrations, createPartiesService, type PartiesService } from '@ledgerline/parties';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_ID, startFakeIdentity, testConfig, type FakeIdentity } from '../../services/gateway/test/support/fake-identity.js';
import { startLedger, type LedgerHarness } from '../../services/ledger/test/support.js';
import { startReporting, type ReportingHarness } from '../../services/reporting/test/support.js';
import { accountRows, cents, expected, lineSums, type Row } from './report-oracle.js';

interface Answer {
  status: number;
  // Tests read the documented JSON shapes field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}
interface Tenant {
  token: string;
  viewerToken: string;
  workspaceId: string;
}

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
let reporting: ReportingHarness;
let partiesDb: TestDatabase;
let parties: PartiesService;
let identity: FakeIdentity;
let gateway: FastifyInstance;
let gatewayUrl: string;
let t: Tenant;
let other: Tenant;
/** While true, parties' call that books a committed version fails, as a crash right after its commit would leave it. */
let bookingFails = false;

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
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const asViewer = (tenant: Tenant) => ({ tenant, token: tenant.viewerToken });

function tenant(): Tenant {
  const workspaceId = newId();
  const token = `tok-${randomUUID()}`;
  const viewerToken = `tok-${randomUUID()}`;
  const ws = (role: string) => ({ id: workspaceId, name: 'Books', organizationId: ORG_ID, organizationName: 'Acme', role, isDefault: true });
  identity.sessions.set(token, { userId: newId(), workspaces: [ws('Owner')], defaultWorkspaceId: workspaceId });
  identity.sessions.set(viewerToken, { userId: newId(), workspaces: [ws('Viewer')], defaultWorkspaceId: workspaceId });
  return { token, viewerToken, workspaceId };
}

async function categoryIds(tn: Tenant): Promise<Record<string, string>> {
  const r = await api('GET', '/categories', { tenant: tn });
  expect(r.status).toBe(200);
  return Object.fromEntries((r.body.categories as { id: string; name: string }[]).map((c) => [c.name, c.id]));
}
async function newVendor(tn: Tenant, name = `Vendor ${randomUUID().slice(0, 8)}`): Promise<{ id: string; name: string }> {
  const r = await api('POST', '/vendors', { tenant: tn, body: { name } });
  expect(r.status).toBe(201);
  return r.body.vendor;
}
async function newCustomer(tn: Tenant, name = `Customer ${randomUUID().slice(0, 8)}`): Promise<{ id: string; name: string }> {
  const r = await api('POST', '/customers', { tenant: tn, body: { name } });
  expect(r.status).toBe(201);
  return r.body.customer;
}

interface EntryRow {
  id: string;
  source_type: string;
  source_id: string | null;
  entry_date: string;
  description: string;
  reverses_entry_id: string | null;
}
interface LineRow {
  id: string;
  entry_id: string;
  account_id: string;
  direction: string;
  amount_cents: number;
}
const adminDb = () => ledger.db.adminDb;
async function entriesOf(sourceId: string): Promise<EntryRow[]> {
  return (
    await adminDb().raw(
      "select id::text, source_type, source_id::text, to_char(entry_date, 'YYYY-MM-DD') as entry_date, description, reverses_entry_id::text from journal_entries where source_id = ? order by seq",
      [sourceId],
    )
  ).rows as EntryRow[];
}
async function linesOf(entryIds: string[]): Promise<LineRow[]> {
  return (
    await adminDb().raw(
      'select id::text, entry_id::text, account_id::text, direction, amount_cents::int from journal_lines where entry_id = any(?::uuid[]) order by entry_id, id',
      [entryIds],
    )
  ).rows as LineRow[];
}
const balanced = (lines: LineRow[]) => lines.reduce((s, l) => s + (l.direction === 'debit' ? l.amount_cents : -l.amount_cents), 0) === 0;
async function accountOfKey(tn: Tenant, key: string): Promise<string> {
  const r = (await adminDb().raw('select id::text from accounts where workspace_id = ? and system_key = ?', [tn.workspaceId, key])).rows as { id: string }[];
  expect(r).toHaveLength(1);
  return r[0]!.id;
}

beforeAll(async () => {
  bus = await createTestBus('credits-api');
  ledger = await startLedger(bus);
  reporting = await startReporting(bus, { ledgerUrl: ledger.url });
  partiesDb = await createTestDatabase('parties', partiesMigrations);
  const config = partiesConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PARTIES_PORT: '0',
    PARTIES_DATABASE_URL: partiesDb.appUrl,
    LEDGER_URL: ledger.url,
  });
  parties = await createPartiesService(config, {
    db: partiesDb.appDb,
    bus,
    logger: createLogger('credits-api', 'silent'),
    creditLedger: (real) => ({
      check: (tn, p) => real.check(tn, p),
      post: (tn, p) => (bookingFails ? Promise.reject(new Error('the ledger went away after the commit')) : real.post(tn, p)),
    }),
  });
  const partiesUrl = await parties.listen();
  identity = await startFakeIdentity();
  const reportingUrl = `http://127.0.0.1:${(reporting.service.server.server.address() as AddressInfo).port}`;
  gateway = await buildGateway({
    config: testConfig(identity.url, { LEDGER_URL: ledger.url, PARTIES_URL: partiesUrl, REPORTING_URL: reportingUrl, SERVICE_TIMEOUT_MS: '20000' }),
    redis: null,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  t = tenant();
  other = tenant();
}, 90_000);
afterAll(async () => {
  await gateway?.close();
  await parties?.stop();
  await partiesDb?.drop();
  await reporting?.close();
  await ledger?.close();
  await identity?.close();
  await bus?.close();
});

describe('vendor credits', () => {
  it('POST /vendors/vendor-credit records the credit and posts ONE balanced entry: debit Accounts Payable, credit each category (source VendorCredit)', async () => {
    const c = await categoryIds(t);
    const vendor = await newVendor(t, 'Paper Mill');
    const r = await api('POST', '/vendors/vendor-credit', {
      tenant: t,
      body: {
        paymentDate: '2026-03-10',
        vendorId: vendor.id,
        description: 'Returned toner',
        lineItems: [
          { description: 'Toner', categoryId: c['Office Supplies'], amount: 40 },
          { categoryId: c['Software and Subscriptions'], amount: 10.5 },
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Vendor credit created',
      vendorCredit: {
        paymentDate: '2026-03-10',
        description: 'Returned toner',
        vendor: { id: vendor.id, name: 'Paper Mill' },
        totalAmount: 50.5,
        appliedAmount: 0,
        runningBalance: 50.5,
        version: 1,
        lineItems: [
          { description: 'Toner', categoryId: c['Office Supplies'], amount: 40 },
          { description: '', categoryId: c['Software and Subscriptions'], amount: 10.5 },
        ],
      },
    });
    expect(r.body.seq).toBeGreaterThan(0);
    const credit = r.body.vendorCredit;
    expect((await api('GET', `/vendors/vendor-credit/${credit.id}`, { tenant: t })).body).toEqual(credit);

    const entries = await entriesOf(credit.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: credit.journalEntryId,
      source_type: 'VendorCredit',
      entry_date: '2026-03-10',
      reverses_entry_id: null,
      description: 'Vendor credit: Paper Mill — Returned toner',
    });
    const ap = await accountOfKey(t, 'accounts_payable');
    expect(ap).toBe(c['Accounts Payable']);
    const lines = await linesOf([credit.journalEntryId]);
    expect(balanced(lines)).toBe(true);
    expect(lines.map((l) => [l.account_id, l.direction, l.amount_cents]).sort()).toEqual(
      [
        [ap, 'debit', 5050],
        [c['Office Supplies'], 'credit', 4000],
        [c['Software and Subscriptions'], 'credit', 1050],
      ].sort(),
    );

    // The general ledger shows it on Accounts Payable with its source type.
    const gl = await api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${ap}&startDate=2026-03-01&endDate=2026-03-31`, { tenant: t });
    expect(gl.status).toBe(200);
    expect(gl.body.data.filter((x: { sourceType: string }) => x.sourceType === 'VendorCredit')).toEqual([
      expect.objectContaining({ journalEntryId: credit.journalEntryId, debit: 50.5 }),
    ]);

    // The vendor's credit totals are real.
    expect((await api('GET', `/vendors/${vendor.id}`, { tenant: t })).body).toMatchObject({
      vendorCreditCount: 1,
      vendorCreditTotal: 50.5,
      vendorCreditRemainingBalance: 50.5,
    });
    const listed = (await api('GET', '/vendors?search=Paper Mill', { tenant: t })).body.data[0];
    expect(listed).toMatchObject({ vendorCreditCount: 1, vendorCreditTotal: 50.5, vendorCreditRemainingBalance: 50.5 });
  });

  it('refuses bad input with a 400 naming the field (spec §5 wording where it gives one); nothing is posted', async () => {
    const c = await categoryIds(t);
    const vendor = await newVendor(t);
    const line = { categoryId: c['Office Supplies'], amount: 5 };
    const good = { paymentDate: '2026-03-01', vendorId: vendor.id, lineItems: [line] };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good, paymentDate: undefined }, 'paymentDate', 'paymentDate is required'],
      [{ ...good, paymentDate: '2026-02-30' }, 'paymentDate', 'Invalid paymentDate format'],
      [{ ...good, paymentDate: '03/01/2026' }, 'paymentDate', 'Invalid paymentDate format'],
      [{ ...good, vendorId: undefined }, 'vendorId', 'Vendor is required'],
      [{ ...good, vendorId: 'not-a-uuid' }, 'vendorId', 'vendorId must be a UUID'],
      [{ ...good, lineItems: [] }, 'lineItems', 'At least one line item is required'],
      [{ ...good, lineItems: undefined }, 'lineItems', 'At least one line item is required'],
      [{ ...good, lineItems: [{ amount: 5 }] }, 'lineItems.0.categoryId', 'Line Item 1: category is required'],
      [{ ...good, lineItems: [line, { categoryId: 'abc', amount: 5 }] }, 'lineItems.1.categoryId', 'Line Item 2: categoryId must be a UUID'],
      [{ ...good, lineItems: [{ ...line, amount: 0 }] }, 'lineItems.0.amount', 'Line Item 1: amount must be greater than 0'],
      [{ ...good, lineItems: [{ ...line, amount: -3 }] }, 'lineItems.0.amount', 'Line Item 1: amount must be greater than 0'],
      [{ ...good, lineItems: [{ categoryId: c['Office Supplies'] }] }, 'lineItems.0.amount', 'Line Item 1: amount must be greater than 0'],
      [{ ...good, description: 'x'.repeat(1001) }, 'description', 'description must NOT have more than 1000 characters'],
    ];
    const before = Number((await adminDb().raw('select count(*)::int as n from journal_entries where workspace_id = ?', [t.workspaceId])).rows[0].n);
    for (const [body, field, message] of cases) {
      const r = await api('POST', '/vendors/vendor-credit', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.statusCode).toBe(400);
      expect(
        r.body.errors.find((e: { field: string }) => e.field === field),
        `${JSON.stringify(body)} → ${JSON.stringify(r.body.errors)}`,
      ).toMatchObject({ field, message });
    }
    const decimals = await api('POST', '/vendors/vendor-credit', { tenant: t, body: { ...good, lineItems: [{ ...line, amount: 1.234 }] } });
    expect(decimals.status).toBe(400);
    expect(decimals.body.errors[0].field).toBe('lineItems.0.amount');
    // A category type or group is not a category.
    const group = (await adminDb().raw("select id::text from accounts where workspace_id = ? and name = 'Operating Expenses'", [t.workspaceId])).rows[0]
      .id as string;
    const notPostable = await api('POST', '/vendors/vendor-credit', { tenant: t, body: { ...good, lineItems: [{ categoryId: group, amount: 5 }] } });
    expect(notPostable).toMatchObject({ status: 400, body: { errors: [{ field: 'lineItems.0.categoryId' }] } });
    // An unknown vendor or category: 404 naming the field.
    expect(await api('POST', '/vendors/vendor-credit', { tenant: t, body: { ...good, vendorId: newId() } })).toMatchObject({
      status: 404,
      body: { message: 'Vendor not found', errors: [{ field: 'vendorId' }] },
    });
    expect(await api('POST', '/vendors/vendor-credit', { tenant: t, body: { ...good, lineItems: [line, { categoryId: newId(), amount: 1 }] } })).toMatchObject({
      status: 404,
      body: { message: 'Category not found', errors: [{ field: 'lineItems.1.categoryId' }] },
    });
    expect(Number((await adminDb().raw('select count(*)::int as n from journal_entries where workspace_id = ?', [t.workspaceId])).rows[0].n)).toBe(before);
    expect((await api('GET', `/vendors/vendor-credits?vendorId=${vendor.id}`, { tenant: t })).body.meta.itemCount).toBe(0);
  });

  it('PATCH is a reversal plus a new entry (posted lines never change); the same body again posts nothing; DELETE is a reversal (voided)', async () => {
    const c = await categoryIds(t);
    const vendor = await newVendor(t);
    const created = (
      await api('POST', '/vendors/vendor-credit', {
        tenant: t,
        body: { paymentDate: '2026-04-02', vendorId: vendor.id, lineItems: [{ categoryId: c['Travel'], amount: 100 }] },
      })
    ).body.vendorCredit;
    const firstLines = await linesOf([created.journalEntryId]);

    const patched = await api('PATCH', `/vendors/vendor-credit/${created.id}`, {
      tenant: t,
      body: {
        paymentDate: '2026-04-03',
        lineItems: [
          { categoryId: c['Travel'], amount: 60 },
          { categoryId: c['Meals and Entertainment'], amount: 15.25 },
        ],
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      message: 'Vendor credit updated',
      vendorCredit: { id: created.id, paymentDate: '2026-04-03', totalAmount: 75.25, runningBalance: 75.25, version: 2, vendor: { id: vendor.id } },
    });
    expect(patched.body.seq).toBeGreaterThan(0);
    const entries = await entriesOf(created.id);
    expect(entries.map((e) => e.source_type)).toEqual(['VendorCredit', 'VendorCredit', 'VendorCredit']);
    expect(entries[0]!.id).toBe(created.journalEntryId);
    expect(entries[1]).toMatchObject({ reverses_entry_id: created.journalEntryId, entry_date: '2026-04-02' });
    expect(entries[2]).toMatchObject({ id: patched.body.vendorCredit.journalEntryId, entry_date: '2026-04-03', reverses_entry_id: null });
    expect(await linesOf([created.journalEntryId])).toEqual(firstLines);
    for (const e of entries) expect(balanced(await linesOf([e.id]))).toBe(true);
    const reversal = await linesOf([entries[1]!.id]);
    expect(reversal.map((l) => [l.account_id, l.direction, l.amount_cents]).sort()).toEqual(
      firstLines.map((l) => [l.account_id, l.direction === 'debit' ? 'credit' : 'debit', l.amount_cents]).sort(),
    );

    // Sending what is already there changes nothing.
    const same = await api('PATCH', `/vendors/vendor-credit/${created.id}`, { tenant: t, body: { paymentDate: '2026-04-03' } });
    expect(same.body).toMatchObject({ seq: 0, vendorCredit: { version: 2 } });
    expect(await entriesOf(created.id)).toHaveLength(3);
    // Bad fields: 400, nothing changes.
    const bad = await api('PATCH', `/vendors/vendor-credit/${created.id}`, { tenant: t, body: { lineItems: [] } });
    expect(bad).toMatchObject({ status: 400, body: { errors: [{ field: 'lineItems', message: 'At least one line item is required' }] } });
    expect(await entriesOf(created.id)).toHaveLength(3);

    const removed = await api('DELETE', `/vendors/vendor-credit/${created.id}`, { tenant: t });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ message: 'Vendor credit deleted' });
    expect(removed.body.seq).toBeGreaterThan(patched.body.seq);
    const after = await entriesOf(created.id);
    expect(after).toHaveLength(4);
    expect(after[3]).toMatchObject({ reverses_entry_id: patched.body.vendorCredit.journalEntryId });
    expect(after[3]!.description).toMatch(/^Void: /);
    // Every posted line is still there; the credit's lines net to zero in every account.
    const all = await linesOf(after.map((e) => e.id));
    expect(all.filter((l) => l.entry_id === created.journalEntryId)).toEqual(firstLines);
    const net = new Map<string, number>();
    for (const l of all) net.set(l.account_id, (net.get(l.account_id) ?? 0) + (l.direction === 'debit' ? l.amount_cents : -l.amount_cents));
    expect([...net.values()].every((v) => v === 0)).toBe(true);
    // Voided: not found, not listed, not counted.
    expect(await api('GET', `/vendors/vendor-credit/${created.id}`, { tenant: t })).toMatchObject({ status: 404, body: { errors: [{ field: 'id' }] } });
    expect(await api('PATCH', `/vendors/vendor-credit/${created.id}`, { tenant: t, body: { description: 'x' } })).toMatchObject({ status: 404 });
    expect(await api('DELETE', `/vendors/vendor-credit/${created.id}`, { tenant: t })).toMatchObject({ status: 404 });
    expect((await api('GET', `/vendors/vendor-credits?vendorId=${vendor.id}`, { tenant: t })).body.meta.itemCount).toBe(0);
    expect((await api('GET', `/vendors/${vendor.id}`, { tenant: t })).body).toMatchObject({
      vendorCreditCount: 0,
      vendorCreditTotal: 0,
      vendorCreditRemainingBalance: 0,
    });
  });

  it('PATCH can move a credit to another vendor; GET /vendors/vendor-credits pages 20 (max 100), newest first, and filters by vendor', async () => {
    const tn = tenant();
    const c = await categoryIds(tn);
    const [a, b] = [await newVendor(tn, 'Alpha'), await newVendor(tn, 'Beta')];
    for (let i = 0; i < 22; i++) {
      const r = await api('POST', '/vendors/vendor-credit', {
        tenant: tn,
        body: {
          paymentDate: `2026-01-${String(i + 1).padStart(2, '0')}`,
          vendorId: i < 20 ? a.id : b.id,
          lineItems: [{ categoryId: c['Rent'], amount: i + 1 }],
        },
      });
      expect(r.status).toBe(201);
    }
    const first = await api('GET', '/vendors/vendor-credits', { tenant: tn });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta).toEqual({ page: 1, take: 20, itemCount: 22, pageCount: 2, hasPreviousPage: false, hasNextPage: true });
    expect(first.body.data[0]).toMatchObject({ paymentDate: '2026-01-22', vendor: { name: 'Beta' } });
    expect((await api('GET', '/vendors/vendor-credits?page=2', { tenant: tn })).body.data.map((x: { paymentDate: string }) => x.paymentDate)).toEqual([
      '2026-01-02',
      '2026-01-01',
    ]);
    expect((await api('GET', '/vendors/vendor-credits?take=100', { tenant: tn })).body.data).toHaveLength(22);
    expect((await api('GET', `/vendors/vendor-credits?vendorId=${b.id}`, { tenant: tn })).body.meta.itemCount).toBe(2);
    for (const [q, field] of [
      ['take=101', 'take'],
      ['take=0', 'take'],
      ['page=0', 'page'],
      ['vendorId=nope', 'vendorId'],
    ] as const) {
      const r = await api('GET', `/vendors/vendor-credits?${q}`, { tenant: tn });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].field).toBe(field);
    }
    const moved = await api('PATCH', `/vendors/vendor-credit/${first.body.data[5].id}`, { tenant: tn, body: { vendorId: b.id } });
    expect(moved.body.vendorCredit.vendor).toEqual({ id: b.id, name: 'Beta' });
    expect((await api('GET', `/vendors/${b.id}`, { tenant: tn })).body).toMatchObject({ vendorCreditCount: 3, vendorCreditTotal: 21 + 22 + 17 });
    // A merge moves the merged vendor's credits to the parent; a vendor with credits is made inactive, not deleted.
    const merged = await api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: a.id, mergingVendorsId: [b.id] } });
    expect(merged.status).toBe(200);
    expect((await api('GET', `/vendors/${a.id}`, { tenant: tn })).body).toMatchObject({ vendorCreditCount: 22 });
    expect(
      (await api('GET', `/vendors/vendor-credits?vendorId=${a.id}&take=100`, { tenant: tn })).body.data.every(
        (x: { vendor: { id: string } }) => x.vendor.id === a.id,
      ),
    ).toBe(true);
    const del = await api('DELETE', `/vendors/${a.id}`, { tenant: tn });
    expect(del.body).toMatchObject({
      deleted: false,
      message: 'This vendor has 22 vendor credits, so it was made inactive instead of deleted',
      vendor: { status: 'inactive' },
    });
  });
});

describe('concurrent edits', () => {
  it('five PATCHes of one credit at once apply one at a time: five versions, each a reversal and a new entry, the books hold only the last', async () => {
    const c = await categoryIds(t);
    const vendor = await newVendor(t);
    const created = (
      await api('POST', '/vendors/vendor-credit', {
        tenant: t,
        body: { paymentDate: '2026-07-01', vendorId: vendor.id, lineItems: [{ categoryId: c['Utilities'], amount: 10 }] },
      })
    ).body.vendorCredit;
    const answers = await Promise.all(
      [11, 12, 13, 14, 15].map((amount) =>
        api('PATCH', `/vendors/vendor-credit/${created.id}`, { tenant: t, body: { lineItems: [{ categoryId: c['Utilities'], amount }] } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.body.vendorCredit.version).sort()).toEqual([2, 3, 4, 5, 6]);
    const final = (await api('GET', `/vendors/vendor-credit/${created.id}`, { tenant: t })).body;
    expect(final.version).toBe(6);
    const last = answers.find((a) => a.body.vendorCredit.version === 6)!.body.vendorCredit;
    expect(final).toMatchObject({ totalAmount: last.totalAmount, journalEntryId: last.journalEntryId });
    const entries = await entriesOf(created.id);
    expect(entries).toHaveLength(11);
    const lines = await linesOf(entries.map((e) => e.id));
    const net = new Map<string, number>();
    for (const l of lines.filter((x) => x.entry_id !== final.journalEntryId))
      net.set(l.account_id, (net.get(l.account_id) ?? 0) + (l.direction === 'debit' ? l.amount_cents : -l.amount_cents));
    expect([...net.values()].every((v) => v === 0)).toBe(true);
    expect((await linesOf([final.journalEntryId])).find((l) => l.direction === 'debit')?.amount_cents).toBe(cents(final.totalAmount));
  });
});

describe('a crash between the commit and the booking (decision 0012)', () => {
  it('a version committed without reaching the ledger is booked from its posting.requested event, exactly once; the next version follows', async () => {
    const c = await categoryIds(t);
    const vendor = await newVendor(t);
    bookingFails = true;
    let id: string;
    try {
      const created = await api('POST', '/vendors/vendor-credit', {
        tenant: t,
        body: { paymentDate: '2026-04-01', vendorId: vendor.id, lineItems: [{ categoryId: c['Office Supplies'], amount: 25 }] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      id = created.body.vendorCredit.id as string;
      // Booked by the ledger's consumer of the event: one balanced entry.
      const first = await expectEventually(
        async () => {
          const entries = await entriesOf(id);
          expect(entries).toHaveLength(1);
          return entries;
        },
        { timeoutMs: 30_000 },
      );
      expect(balanced(await linesOf(first.map((e) => e.id)))).toBe(true);
      // A refusal is still checked before anything commits: another workspace's category is a 404, nothing changes.
      const foreign = (await categoryIds(other))['Office Supplies'];
      const refused = await api('PATCH', `/vendors/vendor-credit/${id}`, { tenant: t, body: { lineItems: [{ categoryId: foreign, amount: 30 }] } });
      expect(refused.status).toBe(404);
      expect(refused.body.errors[0].field).toBe('lineItems.0.categoryId');
      // The next version while the ledger is still away: a reversal and a new entry, from the event.
      const edited = await api('PATCH', `/vendors/vendor-credit/${id}`, { tenant: t, body: { lineItems: [{ categoryId: c['Office Supplies'], amount: 30 }] } });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.vendorCredit.version).toBe(2);
      await expectEventually(async () => expect(await entriesOf(id)).toHaveLength(3), { timeoutMs: 30_000 });
    } finally {
      bookingFails = false;
    }
    // With the ledger back, the answer books at once; the event that follows changes nothing.
    const again = await api('PATCH', `/vendors/vendor-credit/${id}`, { tenant: t, body: { lineItems: [{ categoryId: c['Office Supplies'], amount: 35 }] } });
    expect(again.status).toBe(200);
    expect(again.body.vendorCredit.version).toBe(3);
    expect(await entriesOf(id)).toHaveLength(5);
    const removed = await api('DELETE', `/vendors/vendor-credit/${id}`, { tenant: t });
    expect(removed.status).toBe(200);
    // Once the ledger has handled every posting.requested parties committed, still exactly the four versions' entries.
    await expectEventually(
      async () => {
        const sent = ((await partiesDb.adminDb.raw("select id::text from outbox where type = 'posting.requested'")).rows as { id: string }[]).map((r) => r.id);
        const handled = (
          await ledger.db.adminDb.raw("select count(*)::int as n from inbox where consumer = 'ledger_postings' and event_id = any(?::uuid[])", [sent])
        ).rows[0].n as number;
        expect(handled).toBe(sent.length);
      },
      { timeoutMs: 30_000 },
    );
    const entries = await entriesOf(id);
    expect(entries).toHaveLength(6);
    // The credit is void: its lines net to zero on every account.
    const byAccount = new Map<string, number>();
    for (const l of await linesOf(entries.map((e) => e.id)))
      byAccount.set(l.account_id, (byAccount.get(l.account_id) ?? 0) + (l.direction === 'debit' ? l.amount_cents : -l.amount_cents));
    expect([...byAccount.values()].every((v) => v === 0)).toBe(true);
  });
});

describe('credit memos', () => {
  it('POST /customers/credit-memo posts ONE balanced entry: debit each category, credit Accounts Receivable (source CreditMemo); every route works', async () => {
    const c = await categoryIds(t);
    const customer = await newCustomer(t, 'Globex');
    const r = await api('POST', '/customers/credit-memo', {
      tenant: t,
      body: {
        paymentDate: '2026-03-15',
        customerId: customer.id,
        refNo: 'CM-1001',
        description: 'Late delivery',
        lineItems: [{ description: 'Discount', categoryId: c['Sales'], amount: 120 }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Credit memo created',
      creditMemo: {
        paymentDate: '2026-03-15',
        refNo: 'CM-1001',
        description: 'Late delivery',
        customer: { id: customer.id, name: 'Globex' },
        totalAmount: 120,
        appliedAmount: 0,
        runningBalance: 120,
        lineItems: [{ description: 'Discount', categoryId: c['Sales'], amount: 120 }],
      },
    });
    const memo = r.body.creditMemo;
    const ar = await accountOfKey(t, 'accounts_receivable');
    expect(ar).toBe(c['Accounts Receivable']);
    const [entry] = await entriesOf(memo.id);
    expect(entry).toMatchObject({ source_type: 'CreditMemo', entry_date: '2026-03-15', description: 'Credit memo CM-1001: Globex — Late delivery' });
    const lines = await linesOf([memo.journalEntryId]);
    expect(balanced(lines)).toBe(true);
    expect(lines.map((l) => [l.account_id, l.direction, l.amount_cents]).sort()).toEqual(
      [
        [c['Sales'], 'debit', 12000],
        [ar, 'credit', 12000],
      ].sort(),
    );
    const gl = await api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${ar}&startDate=2026-03-01&endDate=2026-03-31`, { tenant: t });
    expect(gl.body.data.filter((x: { sourceType: string }) => x.sourceType === 'CreditMemo')).toEqual([
      expect.objectContaining({ journalEntryId: memo.journalEntryId, credit: 120 }),
    ]);

    expect((await api('GET', `/customers/credit-memo/${memo.id}`, { tenant: t })).body).toEqual(memo);
    expect((await api('GET', `/customers/${customer.id}`, { tenant: t })).body).toMatchObject({ creditMemoCount: 1, creditMemoAmount: 120 });
    // A customer with credit memos is made inactive, not deleted.
    const del = await api('DELETE', `/customers/${customer.id}`, { tenant: t });
    expect(del).toMatchObject({
      status: 200,
      body: { deleted: false, message: 'This customer has 1 credit memo, so it was made inactive instead of deleted' },
    });
    expect((await api('GET', `/customers/${customer.id}`, { tenant: t })).body).toMatchObject({ status: 'inactive', creditMemoCount: 1 });
    const listed = await api('GET', `/customers/credit-memos?customerId=${customer.id}`, { tenant: t });
    expect(listed.body).toMatchObject({ data: [memo], meta: { itemCount: 1, page: 1, take: 20 } });
    const patched = await api('PATCH', `/customers/credit-memo/${memo.id}`, {
      tenant: t,
      body: { refNo: 'CM-1001A', lineItems: [{ categoryId: c['Service Revenue'], amount: 80 }] },
    });
    expect(patched.body).toMatchObject({ message: 'Credit memo updated', creditMemo: { refNo: 'CM-1001A', totalAmount: 80, version: 2 } });
    const entries = await entriesOf(memo.id);
    expect(entries).toHaveLength(3);
    expect(await linesOf([memo.journalEntryId])).toEqual(lines);
    const removed = await api('DELETE', `/customers/credit-memo/${memo.id}`, { tenant: t });
    expect(removed.body).toMatchObject({ message: 'Credit memo deleted' });
    expect(await entriesOf(memo.id)).toHaveLength(4);
    expect((await api('GET', `/customers/credit-memo/${memo.id}`, { tenant: t })).status).toBe(404);
    expect((await api('GET', '/customers?search=Globex', { tenant: t })).body.data[0]).toMatchObject({ creditMemoCount: 0, creditMemoAmount: 0 });
    // Without credit memos it can be deleted.
    expect(await api('DELETE', `/customers/${customer.id}`, { tenant: t })).toMatchObject({
      status: 200,
      body: { deleted: true, message: 'Customer deleted' },
    });
  });

  it('refuses bad input naming the field: customer, refNo (100), dates, line items', async () => {
    const c = await categoryIds(t);
    const customer = await newCustomer(t);
    const good = { paymentDate: '2026-03-01', customerId: customer.id, lineItems: [{ categoryId: c['Sales'], amount: 5 }] };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good, customerId: undefined }, 'customerId', 'Customer is required'],
      [{ ...good, customerId: 'x' }, 'customerId', 'customerId must be a UUID'],
      [{ ...good, refNo: 'r'.repeat(101) }, 'refNo', 'refNo must NOT have more than 100 characters'],
      [{ ...good, paymentDate: '2026-13-01' }, 'paymentDate', 'Invalid paymentDate format'],
      [{ ...good, lineItems: [] }, 'lineItems', 'At least one line item is required'],
      [{ ...good, lineItems: [{ categoryId: c['Sales'], amount: 0 }] }, 'lineItems.0.amount', 'Line Item 1: amount must be greater than 0'],
    ];
    for (const [body, field, message] of cases) {
      const r = await api('POST', '/customers/credit-memo', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(
        r.body.errors.find((e: { field: string }) => e.field === field),
        JSON.stringify(r.body.errors),
      ).toMatchObject({ field, message });
    }
    expect(await api('POST', '/customers/credit-memo', { tenant: t, body: { ...good, customerId: newId() } })).toMatchObject({
      status: 404,
      body: { message: 'Customer not found', errors: [{ field: 'customerId' }] },
    });
  });
});

describe('tenancy and roles', () => {
  it("another workspace's credit, vendor, customer or category id is a 404 naming the field, in the path, the query and the body; nothing is posted", async () => {
    const mine = await categoryIds(t);
    const theirs = await categoryIds(other);
    const myVendor = await newVendor(t);
    const myCustomer = await newCustomer(t);
    const theirVendor = await newVendor(other);
    const theirCustomer = await newCustomer(other);
    const theirCredit = (
      await api('POST', '/vendors/vendor-credit', {
        tenant: other,
        body: { paymentDate: '2026-02-01', vendorId: theirVendor.id, lineItems: [{ categoryId: theirs['Rent'], amount: 9 }] },
      })
    ).body.vendorCredit;
    const theirMemo = (
      await api('POST', '/customers/credit-memo', {
        tenant: other,
        body: { paymentDate: '2026-02-01', customerId: theirCustomer.id, lineItems: [{ categoryId: theirs['Sales'], amount: 9 }] },
      })
    ).body.creditMemo;
    const myCredit = (
      await api('POST', '/vendors/vendor-credit', {
        tenant: t,
        body: { paymentDate: '2026-02-01', vendorId: myVendor.id, lineItems: [{ categoryId: mine['Rent'], amount: 9 }] },
      })
    ).body.vendorCredit;
    const entriesBefore = (await adminDb().raw('select count(*)::int as n from journal_entries')).rows[0].n;

    const expect404 = async (method: string, path: string, field: string, body?: unknown) => {
      const r = await api(method, path, { tenant: t, body });
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(404);
      expect(r.body, `${method} ${path}`).toMatchObject({ statusCode: 404, errors: [{ field }] });
    };
    for (const method of ['GET', 'DELETE']) {
      await expect404(method, `/vendors/vendor-credit/${theirCredit.id}`, 'id');
      await expect404(method, `/customers/credit-memo/${theirMemo.id}`, 'id');
    }
    await expect404('PATCH', `/vendors/vendor-credit/${theirCredit.id}`, 'id', { description: 'mine now' });
    await expect404('PATCH', `/customers/credit-memo/${theirMemo.id}`, 'id', { refNo: 'mine now' });
    // A memo id on the vendor-credit routes is not a vendor credit (and the other way round).
    await expect404('GET', `/customers/credit-memo/${myCredit.id}`, 'id');
    await expect404('GET', `/vendors/vendor-credits?vendorId=${theirVendor.id}`, 'vendorId');
    await expect404('GET', `/customers/credit-memos?customerId=${theirCustomer.id}`, 'customerId');
    await expect404('POST', '/vendors/vendor-credit', 'vendorId', {
      paymentDate: '2026-02-01',
      vendorId: theirVendor.id,
      lineItems: [{ categoryId: mine['Rent'], amount: 1 }],
    });
    await expect404('POST', '/vendors/vendor-credit', 'lineItems.0.categoryId', {
      paymentDate: '2026-02-01',
      vendorId: myVendor.id,
      lineItems: [{ categoryId: theirs['Rent'], amount: 1 }],
    });
    await expect404('POST', '/customers/credit-memo', 'customerId', {
      paymentDate: '2026-02-01',
      customerId: theirCustomer.id,
      lineItems: [{ categoryId: mine['Sales'], amount: 1 }],
    });
    await expect404('POST', '/customers/credit-memo', 'lineItems.0.categoryId', {
      paymentDate: '2026-02-01',
      customerId: myCustomer.id,
      lineItems: [{ categoryId: theirs['Sales'], amount: 1 }],
    });
    await expect404('PATCH', `/vendors/vendor-credit/${myCredit.id}`, 'vendorId', { vendorId: theirVendor.id });
    await expect404('PATCH', `/vendors/vendor-credit/${myCredit.id}`, 'lineItems.0.categoryId', { lineItems: [{ categoryId: theirs['Rent'], amount: 1 }] });
    expect((await adminDb().raw('select count(*)::int as n from journal_entries')).rows[0].n).toBe(entriesBefore);
    expect((await api('GET', `/vendors/vendor-credit/${myCredit.id}`, { tenant: t })).body).toMatchObject({ version: 1, vendor: { id: myVendor.id } });
    // Their lists do not show mine.
    expect((await api('GET', '/vendors/vendor-credits?take=100', { tenant: other })).body.data.map((x: { id: string }) => x.id)).toEqual([theirCredit.id]);
  });

  it("a Viewer reads but every write is a 403 with the spec's message", async () => {
    const c = await categoryIds(t);
    const vendor = await newVendor(t);
    const customer = await newCustomer(t);
    const credit = (
      await api('POST', '/vendors/vendor-credit', {
        tenant: t,
        body: { paymentDate: '2026-02-02', vendorId: vendor.id, lineItems: [{ categoryId: c['Rent'], amount: 3 }] },
      })
    ).body.vendorCredit;
    const memo = (
      await api('POST', '/customers/credit-memo', {
        tenant: t,
        body: { paymentDate: '2026-02-02', customerId: customer.id, lineItems: [{ categoryId: c['Sales'], amount: 3 }] },
      })
    ).body.creditMemo;
    const writes: [string, string, unknown][] = [
      ['POST', '/vendors/vendor-credit', { paymentDate: '2026-02-02', vendorId: vendor.id, lineItems: [{ categoryId: c['Rent'], amount: 3 }] }],
      ['PATCH', `/vendors/vendor-credit/${credit.id}`, { description: 'x' }],
      ['DELETE', `/vendors/vendor-credit/${credit.id}`, undefined],
      ['POST', '/customers/credit-memo', { paymentDate: '2026-02-02', customerId: customer.id, lineItems: [{ categoryId: c['Sales'], amount: 3 }] }],
      ['PATCH', `/customers/credit-memo/${memo.id}`, { description: 'x' }],
      ['DELETE', `/customers/credit-memo/${memo.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const r = await api(method, path, { ...asViewer(t), body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.message).toBe(VIEWER_MESSAGE);
    }
    for (const path of [`/vendors/vendor-credit/${credit.id}`, `/customers/credit-memo/${memo.id}`, '/vendors/vendor-credits', '/customers/credit-memos'])
      expect((await api('GET', path, asViewer(t))).status, path).toBe(200);
    // The service refuses a Viewer too, whoever calls it (the gateway is not the only guard).
    await expect(
      parties.credits.create({ workspaceId: t.workspaceId, userId: newId(), role: 'Viewer' }, 'vendor_credit', {
        paymentDate: '2026-02-02',
        partyId: vendor.id,
        lineItems: [{ categoryId: c['Rent'], amountCents: 300 }],
      }),
    ).rejects.toThrow(VIEWER_MESSAGE);
    expect(await entriesOf(credit.id)).toHaveLength(1);
  });
});

describe('reports', () => {
  it('the P&L and balance sheet cells equal the ledger lines once credits, edits and deletes are posted', async () => {
    const tn = tenant();
    const c = await categoryIds(tn);
    const vendor = await newVendor(tn);
    const customer = await newCustomer(tn);
    const post = async (path: string, body: unknown) => {
      const r = await api('POST', path, { tenant: tn, body });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    const vc = await post('/vendors/vendor-credit', {
      paymentDate: '2026-05-04',
      vendorId: vendor.id,
      lineItems: [
        { categoryId: c['Office Supplies'], amount: 250 },
        { categoryId: c['Travel'], amount: 49.99 },
      ],
    });
    await post('/vendors/vendor-credit', { paymentDate: '2026-06-11', vendorId: vendor.id, lineItems: [{ categoryId: c['Rent'], amount: 1000 }] });
    const cm = await post('/customers/credit-memo', {
      paymentDate: '2026-05-20',
      customerId: customer.id,
      lineItems: [{ categoryId: c['Sales'], amount: 300 }],
    });
    await api('PATCH', `/vendors/vendor-credit/${vc.vendorCredit.id}`, {
      tenant: tn,
      body: { lineItems: [{ categoryId: c['Office Supplies'], amount: 200 }] },
    });
    const last = await api('DELETE', `/customers/credit-memo/${cm.creditMemo.id}`, { tenant: tn });
    await post('/customers/credit-memo', {
      paymentDate: '2026-06-01',
      customerId: customer.id,
      lineItems: [{ categoryId: c['Service Revenue'], amount: 75.5 }],
    });

    await expectEventually(
      async () => {
        const [r] = await reporting.service.check([tn.workspaceId]);
        if (!r?.ok) throw new Error(`read model differs: ${JSON.stringify(r?.differences.slice(0, 3))}`);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    const pl = await api('GET', `/financial-data/profit-loss/v3?startDate=2026-05-01&endDate=2026-06-30&breakdown=month&seq=${last.body.seq}`, { tenant: tn });
    expect(pl.status, JSON.stringify(pl.body).slice(0, 300)).toBe(200);
    const columns = pl.body.report.columns as { startDate: string; endDate: string }[];
    let checked = 0;
    for (const [i, col] of columns.entries()) {
      const sums = await lineSums(adminDb(), tn.workspaceId, col.startDate, col.endDate);
      for (const r of accountRows(pl.body.report.data as Row[])) {
        expect(cents(r.amounts[i] ?? NaN), `${r.name} ${col.startDate}`).toBe(expected(sums, r));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // The edit left Office Supplies at -200 in May and took Travel out; income: -75.5 in June (the deleted memo nets to 0).
    const find = (rows: Row[], name: string): Row | undefined => accountRows(rows).find((r) => r.name === name);
    expect(find(pl.body.report.data, 'Office Supplies')?.amounts).toEqual([-200, 0]);
    expect(find(pl.body.report.data, 'Travel')?.amounts).toEqual([0, 0]);
    expect(find(pl.body.report.data, 'Rent')?.amounts).toEqual([0, -1000]);
    expect(find(pl.body.report.data, 'Sales')?.amounts).toEqual([0, 0]);
    expect(find(pl.body.report.data, 'Service Revenue')?.amounts).toEqual([0, -75.5]);

    const bs = await api('GET', '/financial-data/balance-sheet/v2?startDate=2026-05-01&endDate=2026-06-30&breakdown=month', { tenant: tn });
    expect(bs.status).toBe(200);
    const bcols = bs.body.columns as { startDate: string; endDate: string }[];
    for (const [i, col] of bcols.entries()) {
      const sums = await lineSums(adminDb(), tn.workspaceId, '0001-01-01', col.endDate);
      for (const r of accountRows(bs.body.data as Row[]).filter((x) => x.type !== 'Equity'))
        expect(cents(r.amounts[i] ?? NaN), `${r.name} as of ${col.endDate}`).toBe(expected(sums, r));
    }
    // Accounts Payable holds the vendor credits as a debit (what vendors owe back): -(200 + 1000) at the end of June.
    expect(find(bs.body.data, 'Accounts Payable')?.amounts).toEqual([-200, -1200]);
    expect(find(bs.body.data, 'Accounts Receivable')?.amounts.at(-1)).toBe(-75.5);
  });
});
