// bank_account.synced (issue #12, the bank's side of the tie-out): a completed sync writes one event per
// live account of the item, in the transaction that marks the job completed, with the balances the bank
// reported and banking's own totals of the account's live transactions; versions grow; a failed sync
// writes none. Real PostgreSQL, the Plaid sandbox over HTTP through the official SDK, the sync worker run
// in-process (no queue: the worker is called with the job's message).
import { fromBinary } from '@bufbuild/protobuf';
import { createLogger, newId, type Knex } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { startPlaidSandbox, type PlaidSandbox } from '@ledgerline/plaid-sandbox';
import { BankAccountSyncedSchema, type BankAccountSynced } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingConfigSchema } from '../src/config.js';
import { createPlaidClient } from '../src/plaid/client.js';
import { bankingMigrations } from '../src/store/migrations.js';
import { TokenCipher } from '../src/store/token-cipher.js';
import { AccountUseCases } from '../src/usecases/accounts.js';
import type { BankingDeps } from '../src/usecases/context.js';
import { JobScheduler } from '../src/usecases/jobs.js';
import { SyncWorker } from '../src/usecases/sync.js';

let db: TestDatabase;
let sandbox: PlaidSandbox;
let accounts: AccountUseCases;
let worker: SyncWorker;

beforeAll(async () => {
  db = await createTestDatabase('banking_synced', bankingMigrations);
  sandbox = await startPlaidSandbox({ port: 0 });
  const config = bankingConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    BANKING_PORT: '0',
    BANKING_DATABASE_URL: db.appUrl,
    PLAID_BASE_URL: sandbox.url,
    PLAID_CLIENT_ID: sandbox.clientId,
    PLAID_SECRET: sandbox.secret,
    SYNC_RETRY_BASE_MS: '10',
    SYNC_MAX_ATTEMPTS: '1',
  });
  const plaid = createPlaidClient({ baseUrl: sandbox.url, clientId: sandbox.clientId, secret: sandbox.secret, timeoutMs: 10_000 });
  const deps: BankingDeps = {
    db: db.appDb,
    config,
    plaid,
    tokens: new TokenCipher(config.PLAID_TOKEN_KEYS),
    logger: createLogger('banking-test', 'silent'),
    queue: () => undefined,
  };
  const scheduler = new JobScheduler(deps);
  accounts = new AccountUseCases(deps, scheduler);
  worker = new SyncWorker(deps);
});
afterAll(async () => {
  await sandbox?.close();
  await db?.drop();
});

async function rows<T>(sql: string, bindings: readonly unknown[] = []): Promise<T[]> {
  return (await db.adminDb.raw(sql, bindings as Knex.RawBinding[])).rows as T[];
}

/** The bank_account.synced events in the workspace's outbox, in the order they were written. */
async function syncedEvents(workspaceId: string): Promise<BankAccountSynced[]> {
  const outbox = await rows<{ envelope: Buffer }>("select envelope from outbox where workspace_id = ? and type = 'bank_account.synced' order by seq", [
    workspaceId,
  ]);
  return outbox.map((r) => {
    const envelope = fromBinary(EventEnvelopeSchema, r.envelope);
    expect(envelope).toMatchObject({ type: 'bank_account.synced', workspaceId, source: 'banking' });
    return fromBinary(BankAccountSyncedSchema, envelope.payload);
  });
}

/** What banking's table says for the account right now (the oracle: a plain sum, not the store's query). */
async function tableTotals(accountId: string) {
  const live = await rows<{ amount_cents: string; pending: boolean; date: string }>(
    'select amount_cents, pending, date::text as date from bank_transactions where account_id = ? and removed_at is null',
    [accountId],
  );
  const posted = live.filter((t) => !t.pending);
  const pending = live.filter((t) => t.pending);
  return {
    postedTotalCents: BigInt(posted.reduce((s, t) => s + Number(t.amount_cents), 0)),
    postedCount: BigInt(posted.length),
    pendingTotalCents: BigInt(pending.reduce((s, t) => s + Number(t.amount_cents), 0)),
    pendingCount: BigInt(pending.length),
    earliestDate: live.map((t) => t.date).sort()[0] ?? '',
  };
}

async function link(workspaceId: string, seed: number) {
  const publicToken = sandbox.createPublicToken({
    institution_id: 'ins_109508',
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: 80, seed, pending_days: 3, initial_webhook: false } },
  });
  const item = sandbox.listItems().at(-1)!;
  const r = await accounts.link(
    { workspaceId },
    {
      publicToken,
      accounts: item.accounts.map((a) => ({
        id: a.account_id,
        name: a.name,
        mask: a.mask,
        type: a.subtype === 'credit card' ? 'credit' : 'depository',
        subtype: a.subtype,
      })),
      institution: { name: 'First Platypus Bank', institutionId: 'ins_109508' },
      ignoreDuplicateAccounts: true,
    },
  );
  return { item, linked: r.accounts, job: r.jobs[0]! };
}

async function expectSnapshotsMatchBank(workspaceId: string, itemId: string, events: BankAccountSynced[], version: bigint) {
  const bank = await rows<{
    id: string;
    vendor_account_id: string;
    type: string;
    current_balance_cents: string;
    available_balance_cents: string | null;
    last_synced_at: Date;
    synced_version: string;
  }>(
    'select id, vendor_account_id, type, current_balance_cents, available_balance_cents, last_synced_at, synced_version from bank_accounts where workspace_id = ? and active order by created_at, id',
    [workspaceId],
  );
  expect(events.map((e) => e.accountId).sort()).toEqual(bank.map((a) => a.id).sort());
  const balances = new Map((await sandboxBalances(itemId)).map((b) => [b.account_id, b]));
  for (const e of events) {
    const a = bank.find((x) => x.id === e.accountId)!;
    const reported = balances.get(a.vendor_account_id)!;
    expect(e, a.id).toMatchObject({
      type: a.type,
      isoCurrencyCode: 'USD',
      version,
      currentBalanceCents: BigInt(Math.round(reported.balances.current! * 100)),
      hasCurrentBalance: true,
      availableBalanceCents: BigInt(Math.round((reported.balances.available ?? 0) * 100)),
      hasAvailableBalance: reported.balances.available !== null,
      ...(await tableTotals(a.id)),
    });
    // The account row carries what the event says: GET /accounts shows the same balances and time.
    expect(BigInt(a.current_balance_cents)).toBe(e.currentBalanceCents);
    expect(a.last_synced_at.toISOString()).toBe(e.syncedAt);
    expect(BigInt(a.synced_version)).toBe(version);
  }
}

async function sandboxBalances(itemId: string) {
  const token = sandbox.getItem(itemId).access_token;
  const res = await fetch(`${sandbox.url}/accounts/balance/get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: sandbox.clientId, secret: sandbox.secret, access_token: token }),
  });
  return ((await res.json()) as { accounts: { account_id: string; balances: { current: number | null; available: number | null } }[] }).accounts;
}

describe('bank_account.synced', () => {
  it("a completed sync writes one per live account with the bank's balances and banking's totals; later syncs count up the version", async () => {
    const workspaceId = newId();
    const { item, linked, job } = await link(workspaceId, 12);
    expect(linked.length).toBe(3);
    // Linking is not a sync: nothing yet.
    expect(await syncedEvents(workspaceId)).toEqual([]);
    expect(await worker.run({ jobId: job.id, workspaceId })).toEqual({ kind: 'done' });
    const first = await syncedEvents(workspaceId);
    expect(first.length).toBe(3);
    await expectSnapshotsMatchBank(workspaceId, item.item_id, first, 1n);
    expect(first.some((e) => e.postedCount > 0n && e.postedTotalCents !== 0n)).toBe(true);
    // The job's completion and the events are one commit: the job is completed.
    expect((await rows<{ status: string }>('select status from sync_jobs where id = ?', [job.id]))[0]?.status).toBe('completed');

    // The bank changes: a sign flip, a removal, new (older) history and a pending one that posts.
    const [checking, , card] = item.accounts;
    const someTxn = (accountVendorId: string) =>
      rows<{ external_id: string; amount_cents: string }>(
        'select t.external_id, t.amount_cents from bank_transactions t join bank_accounts a on a.id = t.account_id where a.vendor_account_id = ? and t.removed_at is null and not t.pending order by t.date, t.external_id limit 2',
        [accountVendorId],
      );
    const [flip, drop] = await someTxn(checking!.account_id);
    await sandbox.modifyTransactions(item.item_id, {
      transactions: [{ transaction_id: flip!.external_id, amount: Number(flip!.amount_cents) / 100 }],
      webhook: false,
    });
    await sandbox.removeTransactions(item.item_id, { transaction_ids: [drop!.external_id], webhook: false });
    await sandbox.addTransactions(item.item_id, {
      transactions: [
        { account_id: card!.account_id, amount: 12.34, date: '2020-01-15', name: 'Old history' },
        { account_id: checking!.account_id, amount: -250, name: 'Deposit' },
      ],
      webhook: false,
    });
    await sandbox.postPendingTransactions(item.item_id, { webhook: false });

    const second = await accounts.syncNow({ workspaceId }, linked[0]!.id);
    expect(await worker.run({ jobId: second.id, workspaceId })).toEqual({ kind: 'done' });
    const all = await syncedEvents(workspaceId);
    expect(all.length).toBe(6);
    const latest = all.slice(3);
    await expectSnapshotsMatchBank(workspaceId, item.item_id, latest, 2n);
    const cardAccount = linked.find((a) => a.vendor_account_id === card!.account_id)!;
    expect(latest.find((e) => e.accountId === cardAccount.id)).toMatchObject({ earliestDate: '2020-01-15', type: 'credit' });
    // Every pending transaction posted.
    expect(latest.every((e) => e.pendingCount === 0n)).toBe(true);
  });

  it('a failed sync writes none, and neither do its retries until one completes', async () => {
    const workspaceId = newId();
    const { item, linked, job } = await link(workspaceId, 13);
    sandbox.failNext({ endpoint: '/transactions/sync', item: item.item_id, error: 'INTERNAL_SERVER_ERROR' });
    expect(await worker.run({ jobId: job.id, workspaceId })).toEqual({ kind: 'done' });
    expect((await rows<{ status: string }>('select status from sync_jobs where id = ?', [job.id]))[0]?.status).toBe('failed');
    expect(await syncedEvents(workspaceId)).toEqual([]);
    expect(Number((await rows<{ v: string }>('select max(synced_version) as v from bank_accounts where workspace_id = ?', [workspaceId]))[0]?.v)).toBe(0);

    sandbox.failNext({ endpoint: '/transactions/sync', item: item.item_id, error: 'ITEM_LOGIN_REQUIRED' });
    const relogin = await accounts.syncNow({ workspaceId }, linked[0]!.id);
    await worker.run({ jobId: relogin.id, workspaceId });
    expect(await syncedEvents(workspaceId)).toEqual([]);

    const ok = await accounts.syncNow({ workspaceId }, linked[0]!.id);
    await worker.run({ jobId: ok.id, workspaceId });
    const events = await syncedEvents(workspaceId);
    await expectSnapshotsMatchBank(workspaceId, item.item_id, events, 1n);
  });

  it('a removed (unlinked) account gets none; the others still do', async () => {
    const workspaceId = newId();
    const { item, linked, job } = await link(workspaceId, 14);
    await accounts.remove({ workspaceId }, linked[1]!.id);
    await worker.run({ jobId: job.id, workspaceId });
    const events = await syncedEvents(workspaceId);
    expect(events.map((e) => e.accountId).sort()).toEqual([linked[0]!.id, linked[2]!.id].sort());
    await expectSnapshotsMatchBank(workspaceId, item.item_id, events, 1n);
  });
});
