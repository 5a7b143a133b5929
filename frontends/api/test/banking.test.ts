import { describe, expect, it } from 'vitest';
import {
  IN_PROGRESS_JOB_STATUSES,
  createApiClient,
  importState,
  isCreditCard,
  isJobInProgress,
  type BankAccount,
  type Job,
  type JobStatus,
} from '../src/index';

const account = (over: Partial<BankAccount>): BankAccount => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Plaid Checking',
  institution: { id: 'ins_109508', name: 'First Platypus Bank', logo: null },
  workspace: '00000000-0000-4000-8000-0000000000aa',
  mask: '0000',
  vendorAccountId: 'acc-1',
  type: 'depository',
  subtype: 'checking',
  active: true,
  reconnectRequired: false,
  availableBalance: 100,
  currentBalance: 110,
  isoCurrencyCode: 'USD',
  lastSyncedAt: null,
  dateStartAt: null,
  dateEndAt: null,
  createdOn: '2026-01-01T00:00:00.000Z',
  source: 'plaid',
  ...over,
});

const job = (id: string, status: JobStatus, pushed = 0, total = 0): Job => ({
  id,
  status,
  type: 'transaction-sync',
  order: 1,
  data: { requestId: 'r', accountId: '00000000-0000-4000-8000-000000000001', transactionPushed: pushed, totalTransactions: total, uploadType: null },
  failedReason: status === 'failed' ? 'ITEM_LOGIN_REQUIRED' : null,
  attempts: 1,
  createdOn: '2026-01-01T00:00:00.000Z',
  finishedOn: null,
});

describe('jobs in progress (spec §4)', () => {
  it('counts waiting and active, and delayed as waiting; not completed or failed', () => {
    expect(IN_PROGRESS_JOB_STATUSES).toEqual(['waiting', 'delayed', 'active']);
    expect(['waiting', 'delayed', 'active', 'completed', 'failed'].map((status) => isJobInProgress({ status: status as JobStatus }))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('importState: the import notice of the accounts just linked', () => {
  it('is importing while any job of the accounts is in progress, the link job or a follow-up', () => {
    expect(importState([job('link', 'waiting')], ['link'])).toBe('importing');
    expect(importState([job('link', 'active', 10, 500)], ['link'])).toBe('importing');
    expect(importState([job('follow-up', 'delayed'), job('link', 'completed')], ['link'])).toBe('importing');
  });

  it('is complete once none is, including when the list no longer holds the link job', () => {
    expect(importState([job('link', 'completed')], ['link'])).toBe('complete');
    expect(importState([], ['link'])).toBe('complete');
  });

  it('is failed when a job the link started failed, and only that', () => {
    expect(importState([job('link', 'failed')], ['link'])).toBe('failed');
    expect(importState([job('older', 'failed'), job('link', 'completed')], ['link'])).toBe('complete');
  });
});

describe('credit cards', () => {
  it('are accounts of type credit or subtype credit card (spec §3)', () => {
    expect(isCreditCard(account({ type: 'credit', subtype: 'credit card' }))).toBe(true);
    expect(isCreditCard({ type: 'depository', subtype: 'credit card' })).toBe(true);
    expect(isCreditCard(account({}))).toBe(false);
  });
});

describe('banking calls', () => {
  function recorder(answer: unknown = {}) {
    const calls: { method: string; url: string; body: unknown }[] = [];
    const client = createApiClient({
      baseUrl: 'http://api.test',
      getToken: () => 'tok',
      getWorkspaceId: () => 'ws-1',
      onUnauthorized: () => undefined,
      fetch: (input, init) => {
        calls.push({
          method: init?.method ?? 'GET',
          url: String(input),
          body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        });
        return Promise.resolve(new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }));
      },
    });
    return { calls, client };
  }

  it('use the spec §7 paths, methods and bodies', async () => {
    const { calls, client } = recorder();
    const id = '00000000-0000-4000-8000-000000000001';
    await client.createLinkToken();
    await client.createUpdateToken(id);
    await client.linkAccounts({
      publicToken: 'public-sandbox-1',
      accounts: [{ id: 'a', name: 'Plaid Checking', mask: '0000', type: 'depository', subtype: 'checking' }],
      institution: null,
      ignoreDuplicateAccounts: false,
    });
    await client.listAccounts();
    await client.removeAccount(id);
    await client.checkAnomaly();
    await client.syncTransactions(id);
    await client.listJobs({ status: IN_PROGRESS_JOB_STATUSES });
    await client.listJobs({ accountId: id });
    await client.listJobs();
    expect(calls.map((c) => `${c.method} ${c.url.replace('http://api.test', '')}`)).toEqual([
      'POST /plaid/link-token',
      'POST /plaid/update-token',
      'POST /accounts',
      'GET /accounts',
      `DELETE /accounts/${id}`,
      'GET /accounts/check-anomaly',
      'POST /transactions/sync',
      'GET /jobs?status=waiting%2Cdelayed%2Cactive',
      `GET /jobs?accountId=${id}`,
      'GET /jobs',
    ]);
    expect(calls[1]?.body).toEqual({ accountId: id });
    expect(calls[2]?.body).toMatchObject({ publicToken: 'public-sandbox-1', institution: null, ignoreDuplicateAccounts: false });
    expect(calls[6]?.body).toEqual({ accountId: id });
  });
});
