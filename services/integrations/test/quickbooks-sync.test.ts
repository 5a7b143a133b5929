// The QuickBooks push on real PostgreSQL, NATS JetStream and the QuickBooks sandbox (node-quickbooks' batch and
// query): a bulk sync job on the 'accounting-package sync' queue pushes a workspace's accounts, vendors, customers
// and categorised transactions, adopting names the company has already; un-synced counts go to zero; a changed
// vendor is un-synced again and updated, not duplicated; a throttled (429) QuickBooks is retried; transactions are
// synced and un-synced by id. The kill test: a worker dies with a batch landed in QuickBooks but not committed
// here; a new process resumes the job and the company ends equal to an uninterrupted sync, nothing duplicated.
// The entities come from an in-memory QuickBooksSource (the API test reads them from the real ledger and
// parties). Size: QBO_SYNC_TEST_ENTITIES (default 3,000).
import { createLogger, createServiceClient, newId, tenantHeaders } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { QuickBooksService, QuickBooksSyncService } from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import { startQuickBooksSandbox, type QuickBooksSandbox } from '@ledgerline/quickbooks-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationsConfigSchema } from '../src/config.js';
import type { AccountRecord, NameRecord, QbEntityType, SourceRecord, TransactionRecord } from '../src/quickbooks/entities.js';
import type { QuickBooksImporter } from '../src/quickbooks/reverse.js';
import type { QuickBooksSource } from '../src/quickbooks/source.js';
import { createIntegrationsService, type IntegrationsOverrides, type IntegrationsService } from '../src/service.js';
import { integrationsMigrations } from '../src/store/migrations.js';

const ENTITIES = Number(process.env.QBO_SYNC_TEST_ENTITIES ?? 3_000);
const REDIRECT = 'http://127.0.0.1:1/qb-sync';

/** A deterministic workspace: a bank, a card, income and expense accounts, vendors, customers, transactions. */
function workspaceData(size: number): Map<QbEntityType, SourceRecord[]> {
  const id = (kind: number, i: number) => `00000000-0000-4000-8${String(kind).padStart(3, '0')}-${String(i).padStart(12, '0')}`;
  const accounts: AccountRecord[] = [
    { type: 'account', id: id(1, 0), name: 'Operating Bank', coaId: 10100, classGroup: 'Assets', level: 4, bankAccountId: newId() },
    { type: 'account', id: id(1, 1), name: 'Company Card', coaId: 20100, classGroup: 'Liability', level: 4, bankAccountId: newId() },
    { type: 'account', id: id(1, 2), name: 'Assets', coaId: 10000, classGroup: 'Assets', level: 1, bankAccountId: '' },
    // Headings the reverse sync files QuickBooks' accounts under.
    ...(['Assets', 'Liability', 'Equity', 'Income', 'Expenses'] as const).map((classGroup, k): AccountRecord => ({
      type: 'account',
      id: id(1, 5 + k),
      name: `${classGroup} heading`,
      coaId: 11000 + k * 20000,
      classGroup,
      level: 2,
      bankAccountId: '',
    })),
    { type: 'account', id: id(1, 3), name: 'Internal Transfers', coaId: 90000, classGroup: 'Transfer', level: 3, bankAccountId: '' },
    // QuickBooks' sample chart has this one: mapped by the reverse sync, not duplicated.
    { type: 'account', id: id(1, 4), name: 'Travel', coaId: 60100, classGroup: 'Expenses', level: 3, bankAccountId: '' },
    ...Array.from({ length: 20 }, (_, i): AccountRecord => ({
      type: 'account',
      id: id(1, 10 + i),
      name: i < 15 ? `Expense: line ${i}` : `Sales "channel" ${i}`,
      coaId: (i < 15 ? 61000 : 40000) + i,
      classGroup: i < 15 ? 'Expenses' : 'Income',
      level: 3,
      bankAccountId: '',
    })),
  ];
  const rest = Math.max(0, size - accounts.length);
  const vendors = Math.floor(rest * 0.3);
  const customers = Math.floor(rest * 0.15);
  const transactions = rest - vendors - customers;
  const name = (kind: 'vendor' | 'customer', i: number): NameRecord => ({
    type: kind,
    id: id(kind === 'vendor' ? 2 : 3, i),
    name: `${kind === 'vendor' ? 'Supplier' : 'Client'} ${i} O'Neil`,
    email: `${kind}${i}@example.com`,
    description: i % 7 === 0 ? 'Net 30' : '',
    companyName: kind === 'customer' ? `Client ${i} LLC` : '',
    is1099: kind === 'vendor' && i % 5 === 0,
    active: i % 11 !== 0,
  });
  const txns = Array.from({ length: transactions }, (_, i): TransactionRecord => {
    const inflow = i % 4 === 0;
    const card = i % 3 === 0;
    return {
      type: 'transaction',
      id: id(4, i),
      date: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}`,
      amountCents: (inflow ? 1 : -1) * (100 + ((i * 7919) % 250_000)),
      memo: `Txn ${i}`,
      currency: 'USD',
      categoryId: inflow ? id(1, 25 + (i % 5)) : id(1, 10 + (i % 15)),
      bankLedgerAccountId: card ? id(1, 1) : id(1, 0),
      card,
      vendorId: !inflow && i % 2 === 0 ? id(2, i % Math.max(1, vendors)) : '',
      ignoreReason: i % 17 === 0 ? 'Not categorised' : '',
    };
  });
  return new Map<QbEntityType, SourceRecord[]>([
    ['account', accounts],
    ['vendor', Array.from({ length: vendors }, (_, i) => name('vendor', i))],
    ['customer', Array.from({ length: customers }, (_, i) => name('customer', i))],
    ['transaction', txns],
  ]);
}

/** The in-memory owners: per workspace, records the test can change, and what the reverse sync creates. */
class MemorySource implements QuickBooksSource, QuickBooksImporter {
  readonly data = new Map<string, Map<QbEntityType, SourceRecord[]>>();
  async list(tenant: { workspaceId: string }, type: QbEntityType): Promise<SourceRecord[]> {
    return structuredClone(this.data.get(tenant.workspaceId)?.get(type) ?? []);
  }
  async createAccount(tenant: { workspaceId: string }, input: { name: string; coaId: number; parentId: string }): Promise<string> {
    const accounts = this.data.get(tenant.workspaceId)!.get('account') as AccountRecord[];
    const parent = accounts.find((a) => a.id === input.parentId)!;
    const id = newId();
    accounts.push({ type: 'account', id, name: input.name, coaId: input.coaId, classGroup: parent.classGroup, level: parent.level + 1, bankAccountId: '' });
    return id;
  }
  async createName(tenant: { workspaceId: string }, type: 'vendor' | 'customer', input: { name: string; email: string; companyName: string }): Promise<string> {
    const id = newId();
    this.data
      .get(tenant.workspaceId)!
      .get(type)!
      .push({ type, id, name: input.name, email: input.email, description: '', companyName: input.companyName, is1099: false, active: true });
    return id;
  }
}

interface Instance {
  service: IntegrationsService;
  connect: ReturnType<typeof createServiceClient<typeof QuickBooksService>>;
  sync: ReturnType<typeof createServiceClient<typeof QuickBooksSyncService>>;
}

let sandbox: QuickBooksSandbox;
let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
const source = new MemorySource();
const running: IntegrationsService[] = [];
let config: ReturnType<typeof integrationsConfigSchema.parse>;

const as = (workspaceId: string) => ({ headers: tenantHeaders({ workspaceId, userId: newId(), role: 'Owner' }) });

async function start(overrides: IntegrationsOverrides = {}): Promise<Instance> {
  const service = await createIntegrationsService(config, {
    db: db.appDb,
    bus,
    logger: createLogger('integrations-test', 'silent'),
    qbSource: source,
    qbImporter: source,
    ...overrides,
  });
  running.push(service);
  const baseUrl = await service.listen();
  const trust = { key: config.SERVICE_TOKEN_KEY, issuer: 'integrations-test', audience: 'integrations' };
  return {
    service,
    connect: createServiceClient(QuickBooksService, { baseUrl, timeoutMs: 60_000, trust }),
    sync: createServiceClient(QuickBooksSyncService, { baseUrl, timeoutMs: 60_000, trust }),
  };
}

/** A workspace with the generated data, connected to a fresh company (with QuickBooks' sample chart, and one vendor of ours). */
async function connectedWorkspace(i: Instance, seed: number): Promise<{ workspaceId: string; realmId: string }> {
  const workspaceId = newId();
  source.data.set(workspaceId, workspaceData(ENTITIES));
  const realmId = sandbox.createCompany({ seed, history: false }).realmId;
  sandbox.queueConsent({ realmId });
  const link = await i.connect.getQuickBooksOAuthLink({}, as(workspaceId));
  const back = new URL((await fetch(link.url, { redirect: 'manual' })).headers.get('location')!);
  await i.connect.connectQuickBooks(
    { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, realmId: back.searchParams.get('realmId')! },
    as(workspaceId),
  );
  // The reverse sync ('mapper and reverse sync') imports the company's chart first.
  await expectEventually(
    async () => {
      const [job] = await db.adminDb('quickbooks_sync_jobs').where({ workspace_id: workspaceId, kind: 'reverse' }).select('status', 'queue', 'error');
      expect(job).toMatchObject({ status: 'completed', queue: 'mapper and reverse sync', error: null });
    },
    { timeoutMs: 30_000 },
  );
  // The company knows one of our vendors already (by name): the sync adopts it.
  const token = (await i.service.useCases.quickbooks.grant({ workspaceId })).accessToken;
  const res = await fetch(`${sandbox.endpoints.v3EndpointBaseUrl}${realmId}/vendor`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ DisplayName: "Supplier 3 O'Neil" }),
  });
  expect(res.status).toBe(200);
  return { workspaceId, realmId };
}

async function completed(i: Instance, workspaceId: string, jobId: string, timeoutMs = 240_000) {
  return expectEventually(
    async () => {
      const r = await i.sync.getQuickBooksSyncJob({ id: jobId }, as(workspaceId));
      expect(r.job?.status).toBe('completed');
      return r;
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/** The company's entities as comparable values: names, types, amounts, references by name (never by Id). */
function companyState(realmId: string) {
  const byId = new Map<string, string>();
  for (const type of ['Account', 'Vendor', 'Customer'] as const) {
    for (const e of sandbox.entities(realmId, type) as Array<Record<string, string>>) byId.set(`${type}:${e.Id}`, e.Name ?? e.DisplayName ?? '');
  }
  const ref = (type: string, r?: { value: string }) => (r ? byId.get(`${type}:${r.value}`) : undefined);
  // QBO entities are read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const all = (type: string) => sandbox.entities(realmId, type as 'Vendor') as any[];
  const txns = (type: 'Purchase' | 'Deposit') =>
    all(type).map((t) => ({
      type,
      doc: t.DocNumber,
      date: t.TxnDate,
      total: t.TotalAmt,
      credit: t.Credit ?? false,
      account: ref('Account', t.AccountRef ?? t.DepositToAccountRef),
      entity: ref('Vendor', t.EntityRef),
      lines: t.Line.map((l: Record<string, { AccountRef: { value: string } }>) =>
        ref('Account', (l.AccountBasedExpenseLineDetail ?? l.DepositLineDetail)!.AccountRef),
      ),
    }));
  const names = (type: 'Account' | 'Vendor' | 'Customer') =>
    all(type)
      .map((e) => ({ name: e.Name ?? e.DisplayName, type: e.AccountType, active: e.Active, email: e.PrimaryEmailAddr?.Address }))
      .sort((a, b) => a.name.localeCompare(b.name));
  return {
    accounts: names('Account'),
    vendors: names('Vendor'),
    customers: names('Customer'),
    transactions: [...txns('Purchase'), ...txns('Deposit')].sort((a, b) => a.doc.localeCompare(b.doc)),
  };
}

const total = (entities: Array<{ entityType: string; ids: string[] }>) => entities.reduce((s, e) => s + e.ids.length, 0);

beforeAll(async () => {
  sandbox = await startQuickBooksSandbox({ port: 0, requestsPerMinute: 100_000 });
  [db, bus] = await Promise.all([createTestDatabase('integrations', integrationsMigrations), createTestBus('integrations-qbo-sync')]);
  config = integrationsConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    INTEGRATIONS_PORT: '0',
    INTEGRATIONS_DATABASE_URL: db.appUrl,
    QUICKBOOKS_CLIENT_ID: sandbox.clientId,
    QUICKBOOKS_CLIENT_SECRET: sandbox.clientSecret,
    QUICKBOOKS_REDIRECT_URI: REDIRECT,
    QUICKBOOKS_AUTHORIZE_URL: sandbox.endpoints.authorizeEndpoint,
    QUICKBOOKS_TOKEN_URL: sandbox.endpoints.tokenEndpoint,
    QUICKBOOKS_REVOKE_URL: sandbox.endpoints.revokeEndpoint,
    QUICKBOOKS_USERINFO_URL: sandbox.endpoints.userInfoEndpoint,
    QUICKBOOKS_API_BASE_URL: sandbox.endpoints.v3EndpointBaseUrl,
    QUICKBOOKS_SYNC_ACK_WAIT_MS: '1500',
    QUICKBOOKS_SYNC_RETRY_BASE_MS: '100',
    QUICKBOOKS_RETRY_MAX_WAIT_MS: '300',
  });
}, 60_000);
afterAll(async () => {
  for (const s of running) await s.stop().catch(() => undefined);
  await bus?.close().catch(() => undefined);
  await db?.drop().catch(() => undefined);
  await sandbox?.close();
});

let reference: { workspaceId: string; realmId: string };
let referenceState: ReturnType<typeof companyState>;

describe('QuickBooks bulk sync', () => {
  it('pushes every entity type in order, adopts names the company has, and the un-synced counts go to zero', async () => {
    const i = await start();
    reference = await connectedWorkspace(i, 1);
    const { workspaceId, realmId } = reference;
    const before = await i.sync.listUnsyncedQuickBooksEntities({}, as(workspaceId));
    const data = source.data.get(workspaceId)!;
    const mappedRows = await db.adminDb('quickbooks_entities').where({ workspace_id: workspaceId, status: 'synced' }).select('entity_id');
    const imported = new Set(mappedRows.map((r: { entity_id: string }) => r.entity_id));
    expect(imported.size).toBeGreaterThan(10); // QuickBooks' sample chart came in
    const pushable = (type: QbEntityType) => data.get(type)!.filter((r) => !(r.type === 'transaction' && r.ignoreReason)).length;
    // Headings and transfer accounts have no QuickBooks counterpart; uncategorised transactions are ignored.
    expect(Object.fromEntries(before.entities.map((e) => [e.entityType, e.ids.length]))).toEqual({
      // Headings and transfer accounts have no counterpart; Travel (QuickBooks has it) and the imported chart are mapped already.
      account: data.get('account')!.filter((a) => a.type === 'account' && a.level >= 3 && a.classGroup !== 'Transfer' && !imported.has(a.id)).length,
      vendor: pushable('vendor'),
      customer: pushable('customer'),
      transaction: pushable('transaction'),
    });

    // A throttled QuickBooks (429) is waited out and retried.
    sandbox.failNext({ status: 429, times: 2, realmId });
    const { job } = await i.sync.startQuickBooksBulkSync({}, as(workspaceId));
    expect(job).toMatchObject({ queue: 'accounting-package sync', kind: 'bulk' });
    const done = await completed(i, workspaceId, job!.id);
    expect(done.job).toMatchObject({ error: '' });
    expect(done.job!.done).toBe(done.job!.total);
    expect(done.job!.total).toBeGreaterThan(ENTITIES);
    expect(done.result!.syncFailed).toEqual([]);
    expect(done.result!.synced.length).toBe(total(before.entities));
    const unmapped = data.get('account')!.filter((a) => a.type === 'account' && (a.level < 3 || a.classGroup === 'Transfer')).length;
    expect(done.result!.ignored.map((x) => x.source).sort()).toEqual([
      ...Array(unmapped).fill('account'),
      ...Array(data.get('transaction')!.length - pushable('transaction')).fill('transaction'),
    ]);
    expect(total((await i.sync.listUnsyncedQuickBooksEntities({}, as(workspaceId))).entities)).toBe(0);

    referenceState = companyState(realmId);
    // Mapped or adopted, not duplicated: QuickBooks' own Travel account and the vendor it knew.
    expect(referenceState.accounts.filter((a) => a.name === 'Travel')).toHaveLength(1);
    expect(imported.has(data.get('account')!.find((a) => a.type === 'account' && a.name === 'Travel')!.id)).toBe(true);
    expect(referenceState.vendors).toHaveLength(pushable('vendor'));
    expect(referenceState.customers).toHaveLength(pushable('customer'));
    expect(referenceState.accounts.find((a) => a.name === 'Sales -channel- 19')).toMatchObject({ type: 'Income' });
    expect(referenceState.accounts.find((a) => a.name === 'Company Card')).toMatchObject({ type: 'Credit Card' });
    // Every pushed transaction once, with its amount, accounts and vendor.
    expect(referenceState.transactions).toHaveLength(pushable('transaction'));
    const t0 = data.get('transaction')![1] as TransactionRecord;
    const pushed = referenceState.transactions.find((t) => t.date === t0.date && t.total === Math.abs(t0.amountCents) / 100);
    expect(pushed).toMatchObject({ type: 'Purchase', account: 'Operating Bank', lines: ['Expense- line 1'] });
  }, 300_000);

  it('a changed vendor is un-synced again and updated in place; a second bulk sync pushes only it', async () => {
    const i = await start();
    const { workspaceId, realmId } = reference;
    const vendor = source.data.get(workspaceId)!.get('vendor')![1] as NameRecord;
    vendor.email = 'changed@example.com';
    const unsynced = await i.sync.listUnsyncedQuickBooksEntities({}, as(workspaceId));
    expect(unsynced.entities.filter((e) => e.ids.length > 0)).toEqual([expect.objectContaining({ entityType: 'vendor', ids: [vendor.id] })]);
    const { job } = await i.sync.startQuickBooksBulkSync({}, as(workspaceId));
    const done = await completed(i, workspaceId, job!.id);
    expect(done.result!.synced).toEqual([expect.objectContaining({ id: vendor.id, source: 'vendor' })]);
    const inQbo = (sandbox.entities(realmId, 'Vendor') as Array<{ DisplayName: string; PrimaryEmailAddr?: { Address: string } }>).filter(
      (v) => v.DisplayName === vendor.name,
    );
    expect(inQbo.map((v) => v.PrimaryEmailAddr?.Address)).toEqual(['changed@example.com']);
    vendor.email = 'vendor1@example.com';
    await completed(i, workspaceId, (await i.sync.startQuickBooksBulkSync({}, as(workspaceId))).job!.id);
  }, 120_000);

  it('syncs and un-syncs transactions by id, answering the lists', async () => {
    const i = await start();
    const { workspaceId, realmId } = reference;
    const txns = source.data.get(workspaceId)!.get('transaction')! as TransactionRecord[];
    const [a, b] = txns.filter((t) => !t.ignoreReason);
    const ignored = txns.find((t) => t.ignoreReason)!;
    const unknown = newId();
    const purchasesBefore = sandbox.entities(realmId, 'Purchase').length + sandbox.entities(realmId, 'Deposit').length;
    const un = await i.sync.syncQuickBooksTransactions({ unsync: [a!.id, ignored.id] }, as(workspaceId));
    expect(un.result!.unsynced.map((x) => x.id)).toEqual([a!.id]);
    expect(un.result!.ignored.map((x) => x.id)).toEqual([ignored.id]);
    expect(sandbox.entities(realmId, 'Purchase').length + sandbox.entities(realmId, 'Deposit').length).toBe(purchasesBefore - 1);
    const again = await i.sync.syncQuickBooksTransactions({ sync: [a!.id, b!.id, ignored.id, unknown] }, as(workspaceId));
    expect(again.result!.synced.map((x) => x.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(again.result!.ignored.map((x) => x.id).sort()).toEqual([ignored.id, unknown].sort());
    expect(sandbox.entities(realmId, 'Purchase').length + sandbox.entities(realmId, 'Deposit').length).toBe(purchasesBefore);
    expect(companyState(realmId)).toEqual(referenceState);
  }, 120_000);

  it('a worker killed with a batch landed in QuickBooks but not committed: a new process resumes, nothing is duplicated, the company equals an uninterrupted sync', async () => {
    // Only the crashing worker runs (the queue hands a job to any worker of the service).
    for (const s of running.splice(0)) await s.stop();
    const crashing = await start({ qbCrashAfterBatches: 7 });
    const { workspaceId, realmId } = await connectedWorkspace(crashing, 1);
    const { job } = await crashing.sync.startQuickBooksBulkSync({}, as(workspaceId));
    await expectEventually(async () => {
      const [pending] = await db.adminDb('quickbooks_entities').where({ job_id: job!.id, status: 'pending' }).select('entity_id');
      expect(pending).toBeDefined();
    });
    await crashing.service.stop();
    const partial = sandbox.entities(realmId, 'Vendor').length + sandbox.entities(realmId, 'Account').length;
    expect(partial).toBeGreaterThan(0);

    const resumed = await start();
    const done = await completed(resumed, workspaceId, job!.id);
    expect(done.job!.attempts).toBeGreaterThanOrEqual(2);
    expect(done.result!.syncFailed).toEqual([]);
    expect(companyState(realmId)).toEqual(referenceState);
    expect(total((await resumed.sync.listUnsyncedQuickBooksEntities({}, as(workspaceId))).entities)).toBe(0);
  }, 300_000);
});
