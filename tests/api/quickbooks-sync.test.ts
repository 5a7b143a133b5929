// The QuickBooks sync through the gateway with the real ledger and parties (the entities' owners), integrations
// and the QuickBooks sandbox: the un-synced ids and counts per entity type, a bulk sync job (202, its progress and
// result lists, visible in GET /jobs) after which the counts are zero and the company holds our vendor, customer
// and categorised transaction; POST /transactions/qbo-sync un-syncs and syncs by id with the five lists. Bad
// input names the field; another workspace gets 404.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;
let token: string;
let workspace: string;
let otherToken: string;

const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

async function onboarded(): Promise<{ token: string; workspace: string }> {
  const a = await signedUpUser(system);
  const res = await system.api('POST', '/onboard-user', { token: a.token, body: onboardBody });
  expect(res.status).toBe(200);
  return { token: a.token, workspace: a.user.workspace.id };
}

beforeAll(async () => {
  system = await startSystem({ integrations: true, ledger: true, parties: true, banking: true });
  ({ token, workspace } = await onboarded());
  otherToken = (await onboarded()).token;
}, 180_000);
afterAll(async () => {
  await system?.stop();
});

describe('QuickBooks sync of the ledger and parties', () => {
  let categorised: string;
  let uncategorised: string;
  let vendorName: string;
  let jobId: string;

  it('lists what QuickBooks lacks per entity type, bulk-syncs it as a job and the counts go to zero', async () => {
    vendorName = `Paper Supply ${Date.now()}`;
    const vendor = await system.api('POST', '/vendors', { token, body: { name: vendorName } });
    expect(vendor.status).toBeLessThan(300);
    const customer = await system.api('POST', '/customers', { token, body: { name: 'Acme Client' } });
    expect(customer.status).toBeLessThan(300);
    const banking = bankingFor(system.bus, workspace);
    const accountId = await banking.link();
    await banking.add(accountId, { amountCents: -4_250, name: 'Paper order' });
    await banking.add(accountId, { amountCents: -1_999, name: 'Unknown charge' });
    const txns = await expectEventually(
      async () => {
        const r = await system.api('GET', '/transactions/v2?take=10', { token });
        expect(r.body.data).toHaveLength(2);
        return r.body.data as Array<{ id: string; amount: number }>;
      },
      { timeoutMs: 30_000 },
    );
    categorised = txns.find((t) => t.amount === -42.5)!.id;
    uncategorised = txns.find((t) => t.amount === -19.99)!.id;
    const categories = (await system.api('GET', '/categories', { token })).body;
    const list = (Array.isArray(categories) ? categories : (categories.categories ?? categories.data)) as Array<{
      id: string;
      name: string;
      type: string;
      level: number;
    }>;
    const office =
      list.find((c) => c.type === 'Expenses' && c.level >= 3 && /office/i.test(c.name)) ?? list.find((c) => c.type === 'Expenses' && c.level >= 3)!;
    expect((await system.api('PATCH', `/transactions/${categorised}`, { token, body: { categoryId: office.id } })).status).toBe(200);

    // Connect the sandbox's company.
    const link = await system.api('GET', '/quickbook/integration/oauth-link', { token });
    const back = new URL((await fetch(link.body.url, { redirect: 'manual' })).headers.get('location')!);
    const connected = await system.api('POST', '/quickbook/integration/connect', {
      token,
      body: { code: back.searchParams.get('code'), state: back.searchParams.get('state'), realmId: back.searchParams.get('realmId') },
    });
    expect(connected.status).toBe(200);

    // The reverse sync ('mapper and reverse sync') brings the company's chart, vendors and customers in first.
    const reverse = await expectEventually(
      async () => {
        const jobs = await system.api('GET', '/jobs', { token });
        const job = (jobs.body.jobs as Array<{ type: string; status: string; data: { totalTransactions: number } }>).find(
          (j) => j.type === 'mapper and reverse sync',
        );
        expect(job?.status).toBe('completed');
        return job!;
      },
      { timeoutMs: 60_000, intervalMs: 300 },
    );
    expect(reverse.data.totalTransactions).toBeGreaterThan(10);
    const realm = system.quickbooks!.entities(back.searchParams.get('realmId')!, 'Vendor') as Array<{ DisplayName: string }>;
    const ourVendors = (await system.api('GET', '/vendors?take=100', { token })).body.data as Array<{ name: string; qboSynced: boolean }>;
    for (const v of realm)
      expect(
        ourVendors.find((o) => o.name === v.DisplayName),
        v.DisplayName,
      ).toBeDefined();

    const ids = await system.api('GET', '/quickbook/un-synced-entities/', { token });
    expect(ids.status).toBe(200);
    expect(ids.body.transaction).toContain(categorised);
    expect(ids.body.transaction).not.toContain(uncategorised);
    // Our vendor, and those parties made from the bank merchants.
    expect(ids.body.vendor).toContain(vendor.body.vendor.id);
    expect(ids.body.customer).toEqual([(customer.body.customer ?? customer.body).id]);
    expect(ids.body.account.length).toBeGreaterThan(10);
    const count = await system.api('GET', '/quickbook/un-synced-entities/count', { token });
    expect(count.body).toEqual({
      account: ids.body.account.length,
      vendor: ids.body.vendor.length,
      customer: 1,
      transaction: 1,
      total: ids.body.account.length + ids.body.vendor.length + 2,
    });

    const started = await system.api('POST', '/quickbook/bulk-sync', { token });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ queue: 'accounting-package sync', kind: 'bulk' });
    jobId = started.body.id;
    const done = await expectEventually(
      async () => {
        const r = await system.api('GET', `/quickbook/bulk-sync/${jobId}`, { token });
        expect(r.body.job.status).toBe('completed');
        return r.body;
      },
      { timeoutMs: 60_000, intervalMs: 300 },
    );
    expect(done.syncFailed).toEqual([]);
    expect(done.job.done).toBe(done.job.total);
    expect(done.synced).toContainEqual({ id: categorised, source: 'transaction', message: '' });
    expect(done.ignored).toContainEqual(expect.objectContaining({ id: uncategorised, source: 'transaction' }));
    const after = await system.api('GET', '/quickbook/un-synced-entities/count', { token });
    expect(after.body).toEqual({ account: 0, vendor: 0, customer: 0, transaction: 0, total: 0 });

    const realmId = back.searchParams.get('realmId')!;
    const qb = system.quickbooks!;
    expect((qb.entities(realmId, 'Vendor') as Array<{ DisplayName: string }>).filter((v) => v.DisplayName === vendorName)).toHaveLength(1);
    const purchases = qb.entities(realmId, 'Purchase') as Array<{ TotalAmt: number; PrivateNote?: string }>;
    expect(purchases.filter((p) => p.PrivateNote === `Ledgerline ${categorised}`).map((p) => p.TotalAmt)).toEqual([42.5]);

    // The owners set their qboSynced flags; a synced transaction cannot be edited (spec §4).
    await expectEventually(async () => {
      const t = await system.api('GET', `/transactions/v2/${categorised}`, { token });
      expect(t.body.qboSynced ?? t.body.transaction?.qboSynced).toBe(true);
    });
    const edit = await system.api('PATCH', `/transactions/${categorised}`, { token, body: { categoryId: office.id } });
    expect(edit.status).toBeGreaterThanOrEqual(400);
    expect(edit.body.message).toBe('This transaction is synced to the accounting package. Un-sync it before editing');
    await expectEventually(async () => {
      const v = await system.api('GET', `/vendors/${vendor.body.vendor.id}`, { token });
      expect(v.body.qboSynced ?? v.body.vendor?.qboSynced).toBe(true);
    });

    const jobs = await system.api('GET', '/jobs', { token });
    expect(jobs.status).toBe(200);
    expect(jobs.body.jobs).toContainEqual(expect.objectContaining({ id: jobId, type: 'accounting-package sync', status: 'completed' }));
  }, 120_000);

  it('POST /transactions/qbo-sync un-syncs and syncs by id, answering the five lists', async () => {
    const un = await system.api('POST', '/transactions/qbo-sync', { token, body: { unsync: [categorised, uncategorised] } });
    expect(un.status).toBe(200);
    expect(un.body).toMatchObject({
      unsynced: [{ id: categorised, source: 'transaction', message: '' }],
      ignored: [expect.objectContaining({ id: uncategorised })],
      synced: [],
      syncFailed: [],
      unsyncFailed: [],
    });
    expect((await system.api('GET', '/quickbook/un-synced-entities/count', { token })).body.transaction).toBe(1);
    // Un-synced: editable again.
    await expectEventually(async () => {
      const t = await system.api('GET', `/transactions/v2/${categorised}`, { token });
      expect(t.body.qboSynced ?? t.body.transaction?.qboSynced).toBe(false);
    });
    const again = await system.api('POST', '/transactions/qbo-sync', { token, body: { sync: [categorised] } });
    expect(again.status).toBe(200);
    expect(again.body.synced).toEqual([{ id: categorised, source: 'transaction', message: '' }]);
    expect((await system.api('GET', '/quickbook/un-synced-entities/count', { token })).body.total).toBe(0);
  });

  it('bad input names the field; another workspace gets 404', async () => {
    for (const [body, named] of [
      [{ sync: ['not-an-id'] }, ['sync']],
      [{ unsync: 'x' }, ['unsync']],
      [{}, ['sync']],
    ] as const) {
      const res = await system.api('POST', '/transactions/qbo-sync', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(fields(res.body)).toEqual(named);
    }
    expect(jobId).toBeDefined();
    const badId = await system.api('GET', '/quickbook/bulk-sync/nope', { token });
    expect(badId.status).toBe(400);
    expect(fields(badId.body)).toEqual(['id']);
    for (const [method, path, body] of [
      ['GET', '/quickbook/un-synced-entities/', undefined],
      ['GET', '/quickbook/un-synced-entities/count', undefined],
      ['POST', '/quickbook/bulk-sync', undefined],
      ['GET', `/quickbook/bulk-sync/${jobId}`, undefined],
      ['POST', '/transactions/qbo-sync', { sync: [categorised] }],
    ] as const) {
      const res = await system.api(method, path, { token: otherToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
