import { fromBinary } from '@bufbuild/protobuf';
import { expectEventually } from '@ledgerline/platform/testing';
import { BankConnectionReconnectRequiredSchema, BankTransactionsPageSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankingHarness, type BankingHarness, type Tenant } from './banking.harness.js';

let h: BankingHarness;
beforeAll(async () => {
  h = await startBankingHarness();
});
afterAll(async () => {
  await h?.close();
});

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card
const GINGHAM = 'ins_109509'; // checking and savings

async function count(sql: string, bindings: unknown[] = []): Promise<number> {
  const r = await h.db.adminDb.raw(sql, bindings as never[]);
  return Number(r.rows[0].n);
}

/** The adds a workspace's sync published: one bank_transactions.page per page (issue #22), each carrying its changes. */
/** The bank_connection.reconnect_required events a workspace's banking wrote (decision 0040: the notifications service tells its members). */
async function reconnectEvents(workspaceId: string) {
  const r = await h.db.adminDb.raw("select envelope from outbox where workspace_id = ? and type = 'bank_connection.reconnect_required'", [workspaceId]);
  return (r.rows as { envelope: Buffer }[]).map((row) =>
    fromBinary(BankConnectionReconnectRequiredSchema, fromBinary(EventEnvelopeSchema, row.envelope).payload),
  );
}

async function addsPublished(workspaceId: string): Promise<{ events: number; adds: number; modified: number; removed: number }> {
  const r = await h.db.adminDb.raw("select envelope from outbox where workspace_id = ? and type = 'bank_transactions.page'", [workspaceId]);
  const pages = (r.rows as { envelope: Buffer }[]).map((row) => fromBinary(BankTransactionsPageSchema, fromBinary(EventEnvelopeSchema, row.envelope).payload));
  const changes = (kind: string) => pages.reduce((n, p) => n + p.changes.filter((c) => c.change.case === kind).length, 0);
  return { events: pages.length, adds: changes('added'), modified: changes('modified'), removed: changes('removed') };
}

async function accountsOf(t: Tenant) {
  const r = await h.api('GET', '/accounts', { tenant: t });
  expect(r.status).toBe(200);
  return r.body.accounts as { id: string; name: string; mask: string; reconnectRequired: boolean; lastSyncedAt: string | null; dateStartAt: string | null }[];
}

describe('linking and the first sync', () => {
  let t: Tenant;
  let itemId: string;

  it('links an institution with 3 accounts and stores exactly its 5,000 transactions, each published once', async () => {
    t = h.tenant();
    const eventsBefore = (await h.streamCounts())['bank_transactions.page'] ?? 0;
    const linked = await h.link(t, { institutionId: PLATYPUS, transactions: 5_000, initialWebhook: true });
    itemId = linked.itemId;
    expect(linked.answer.status).toBe(200);
    expect(linked.answer.body.resultCode).toBeNull();
    expect(linked.answer.body.accounts).toHaveLength(3);
    expect(linked.answer.body.accounts.map((a: { type: string }) => a.type).sort()).toEqual(['credit', 'depository', 'depository']);
    expect(linked.answer.body.jobs[0]).toMatchObject({ type: 'transaction-sync', status: expect.stringMatching(/waiting|active/) });

    const jobs = await h.settle(t, 90_000);
    expect(jobs.every((j: { status: string }) => j.status === 'completed')).toBe(true);
    const first = jobs.at(-1);
    expect(first.data).toMatchObject({ transactionPushed: 5_000, totalTransactions: 5_000 });

    const ws = t.workspaceId;
    expect(await count('select count(*) as n from bank_transactions where workspace_id = ?', [ws])).toBe(5_000);
    expect(await count('select count(distinct (account_id, external_id)) as n from bank_transactions where workspace_id = ?', [ws])).toBe(5_000);
    expect(await count("select count(*) as n from plaid_items where workspace_id = ? and cursor <> ''", [ws])).toBe(1);
    // Every add once, in one event per page of 500 (issue #22), none as a single event.
    const published = await addsPublished(ws);
    expect(published.adds).toBe(5_000);
    expect(published.events).toBeLessThanOrEqual(Math.ceil(5_000 / 500) + 1);
    expect(await count("select count(*) as n from outbox where workspace_id = ? and type = 'bank_transaction.added'", [ws])).toBe(0);
    expect(await count("select count(*) as n from outbox where workspace_id = ? and type = 'bank_account.linked'", [ws])).toBe(3);
    await expectEventually(
      async () => {
        expect(await count('select count(*) as n from outbox where workspace_id = ? and published_at is null', [ws])).toBe(0);
        expect((await h.streamCounts())['bank_transactions.page']).toBe(eventsBefore + published.events);
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );

    const accounts = await accountsOf(t);
    expect(accounts.every((a) => a.lastSyncedAt !== null && a.reconnectRequired === false)).toBe(true);
    const page = await h.api('GET', `/bank-transactions?accountId=${accounts[0]!.id}&take=5`, { tenant: t });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(5);
    expect(page.body.meta.total).toBeGreaterThan(0);
    expect(typeof page.body.data[0].amount).toBe('number');
  }, 120_000);

  it('applies modified and removed transactions of a later sync, announced by a webhook', async () => {
    const modified = await h.sandbox.modifyTransactions(itemId, { count: 3 });
    const removed = await h.sandbox.removeTransactions(itemId, { count: 2 });
    expect(modified.webhook?.status).toBe(200);
    await expectEventually(
      async () => {
        for (const m of modified.modified) {
          const r = await h.db.adminDb('bank_transactions').where({ workspace_id: t.workspaceId, external_id: m.transaction_id }).first();
          expect(Number(r.amount_cents)).toBe(-Math.round(m.amount * 100));
          expect(Number(r.version)).toBe(2);
        }
        for (const x of removed.removed) {
          const r = await h.db.adminDb('bank_transactions').where({ workspace_id: t.workspaceId, external_id: x.transaction_id }).first();
          expect(r.removed_at).not.toBeNull();
        }
      },
      { timeoutMs: 15_000 },
    );
    await h.settle(t);
    // Published in the sync's page events (issue #22), once each.
    expect(await addsPublished(t.workspaceId)).toMatchObject({ modified: 3, removed: 2 });
    expect(await count('select count(*) as n from bank_transactions where workspace_id = ? and removed_at is null', [t.workspaceId])).toBe(4_998);
  });

  it('changes nothing when a webhook is replayed', async () => {
    // A sync that completes publishes the accounts' bank_account.synced (the bank's balances) even when no
    // transaction changed: every other event is counted.
    const snapshot = async () =>
      (
        await h.db.adminDb.raw(
          "select count(*) as n, sum(version) as v, (select count(*) from outbox where workspace_id = ? and type <> 'bank_account.synced') as e from bank_transactions where workspace_id = ?",
          [t.workspaceId, t.workspaceId],
        )
      ).rows[0];
    const before = await snapshot();
    const delivery = h.sandbox.webhookDeliveries({ item: itemId }).at(-1)!;
    const replay = await h.sandbox.replayWebhook(delivery.delivery_id);
    expect(replay.status).toBe(200);
    // The very same signed request again (same JWT): recognised as a duplicate.
    const same = await h.api('POST', '/plaid/webhook', { rawBody: delivery.body, headers: { 'plaid-verification': delivery.plaid_verification } });
    expect(same).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    await h.settle(t);
    expect(await snapshot()).toEqual(before);
  });

  it('runs one sync for ten duplicate webhooks', async () => {
    const before = (await h.api('GET', '/jobs', { tenant: t })).body.jobs.length;
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => h.sandbox.fireWebhook(itemId, 'SYNC_UPDATES_AVAILABLE')));
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(200));
    const jobs = await h.settle(t);
    expect(jobs.length).toBe(before + 1);
  });

  it('refuses unverifiable webhooks with 401: tampered body, stale iat, no header, unknown key', async () => {
    const body = JSON.stringify({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: itemId });
    const good = await h.sandbox.signWebhookBody(body);
    expect((await h.api('POST', '/plaid/webhook', { rawBody: `${body} `, headers: { 'plaid-verification': good } })).status).toBe(401);
    const stale = await h.sandbox.signWebhookBody(body, { iat: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect((await h.api('POST', '/plaid/webhook', { rawBody: body, headers: { 'plaid-verification': stale } })).status).toBe(401);
    expect((await h.api('POST', '/plaid/webhook', { rawBody: body })).status).toBe(401);
    const [head, payload, sig] = good.split('.');
    const otherKid = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'no-such-key', typ: 'JWT' })).toString('base64url');
    expect((await h.api('POST', '/plaid/webhook', { rawBody: body, headers: { 'plaid-verification': `${otherKid}.${payload}.${sig}` } })).status).toBe(401);
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: JSON.parse(Buffer.from(head!, 'base64url').toString()).kid })).toString('base64url');
    expect((await h.api('POST', '/plaid/webhook', { rawBody: body, headers: { 'plaid-verification': `${none}.${payload}.` } })).status).toBe(401);
    // And a good one is accepted (after a key rotation too: the new kid is fetched).
    await h.sandbox.rotateWebhookKey();
    const rotated = await h.sandbox.signWebhookBody(body);
    expect((await h.api('POST', '/plaid/webhook', { rawBody: body, headers: { 'plaid-verification': rotated } })).status).toBe(200);
    // A token of the rotated-out key is refused now that its expiry is known.
    expect((await h.api('POST', '/plaid/webhook', { rawBody: body, headers: { 'plaid-verification': good } })).status).toBe(401);
    await h.settle(t);
  });
});

describe('failures of the feed', () => {
  it('retries a failing page with backoff and completes', async () => {
    const t = h.tenant();
    h.sandbox.failNext({ endpoint: '/transactions/sync', error: 'INTERNAL_SERVER_ERROR', times: 2 });
    await h.link(t, { institutionId: GINGHAM, transactions: 40 });
    const [job] = await h.settle(t);
    expect(job).toMatchObject({ status: 'completed', attempts: 3, data: { transactionPushed: 40 } });
    expect(await count('select count(*) as n from bank_transactions where workspace_id = ?', [t.workspaceId])).toBe(40);
  });

  it('marks the accounts reconnectRequired and stops retrying when the bank needs a new login', async () => {
    const t = h.tenant();
    const { itemId } = await h.link(t, { institutionId: GINGHAM, transactions: 20 });
    await h.settle(t);
    await h.sandbox.requireRelogin(itemId, { webhook: false });
    const accounts = await accountsOf(t);
    const sync = await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: accounts[0]!.id } });
    expect(sync.status).toBe(200);
    expect(sync.body.message).toBe('Syncing all your latest transactions');
    const jobs = await h.settle(t);
    expect(jobs[0]).toMatchObject({ status: 'failed', failedReason: 'ITEM_LOGIN_REQUIRED', attempts: 1 });
    expect((await accountsOf(t)).every((a) => a.reconnectRequired)).toBe(true);
    // Told once, with the item's accounts: a second failed sync of the lapsed item is not announced again.
    const told = await reconnectEvents(t.workspaceId);
    expect(told.map((e) => ({ reason: e.reason, accounts: [...e.accountIds].sort() }))).toEqual([
      { reason: 'ITEM_LOGIN_REQUIRED', accounts: accounts.map((a) => a.id).sort() },
    ]);
    const failed = await h.api('GET', `/jobs?accountId=${accounts[0]!.id}&status=failed`, { tenant: t });
    expect(failed.body.jobs).toHaveLength(1);
    const update = await h.api('POST', '/plaid/update-token', { tenant: t, body: { accountId: accounts[0]!.id } });
    expect(update.status).toBe(200);
    expect(update.body.linkToken).toMatch(/^link-/);
    expect((await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: accounts[0]!.id } })).status).toBe(200);
    await h.settle(t);
    expect(await reconnectEvents(t.workspaceId)).toHaveLength(1);
  });
});

describe('item webhooks', () => {
  it('flags reconnectRequired on ITEM_LOGIN_REQUIRED and clears it after LOGIN_REPAIRED and a sync', async () => {
    const t = h.tenant();
    const { itemId } = await h.link(t, { institutionId: GINGHAM, transactions: 5 });
    await h.settle(t);
    const down = await h.sandbox.requireRelogin(itemId, { webhook: true });
    expect(down?.status).toBe(200);
    expect((await accountsOf(t)).every((a) => a.reconnectRequired)).toBe(true);
    expect((await reconnectEvents(t.workspaceId)).map((e) => e.reason)).toEqual(['ITEM_LOGIN_REQUIRED']);
    const up = await h.sandbox.repairLogin(itemId, { webhook: true });
    expect(up?.status).toBe(200);
    await expectEventually(async () => expect((await accountsOf(t)).every((a) => !a.reconnectRequired)).toBe(true), { timeoutMs: 15_000 });
    await h.settle(t);
  });
});

describe('the sync protocol', () => {
  it('restarts the pagination loop after TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION and ends with the exact state', async () => {
    const t = h.tenant();
    const { itemId } = await h.link(t, { institutionId: GINGHAM, transactions: 10 });
    await h.settle(t);
    // A multi-page update; the item changes while it is being paged.
    await h.sandbox.addTransactions(itemId, { count: 1_200, webhook: false });
    h.sandbox.failNext({ endpoint: '/transactions/sync', error: 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION', times: 1 });
    const accounts = await accountsOf(t);
    await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: accounts[0]!.id } });
    const [job] = await h.settle(t);
    expect(job).toMatchObject({ status: 'completed', attempts: 1, data: { transactionPushed: 1_200 } });
    expect(await count('select count(*) as n from bank_transactions where workspace_id = ? and removed_at is null', [t.workspaceId])).toBe(
      h.sandbox.getItem(itemId).transaction_count,
    );
    expect((await addsPublished(t.workspaceId)).adds).toBe(1_210);
  });

  it('keeps one transaction when a pending one posts', async () => {
    const t = h.tenant();
    const { itemId } = await h.link(t, { institutionId: PLATYPUS, transactions: 300, pendingDays: 20 });
    await h.settle(t);
    const pending = h.sandbox.pendingTransactions(itemId);
    expect(pending.length).toBeGreaterThan(0);
    const live = () => count('select count(*) as n from bank_transactions where workspace_id = ? and removed_at is null', [t.workspaceId]);
    const before = await live();
    const posted = await h.sandbox.postPendingTransactions(itemId, { webhook: false });
    const accounts = await accountsOf(t);
    await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: accounts[0]!.id } });
    await h.settle(t);
    expect(await live()).toBe(before);
    for (const p of posted.added) {
      const row = await h.db.adminDb('bank_transactions').where({ workspace_id: t.workspaceId, external_id: p.transaction_id }).first();
      expect(row).toMatchObject({ pending: false, version: 2 });
      expect(await h.db.adminDb('bank_transactions').where({ workspace_id: t.workspaceId, external_id: p.pending_transaction_id }).first()).toBeUndefined();
    }
    expect(await count('select count(*) as n from bank_transactions where workspace_id = ? and pending and removed_at is null', [t.workspaceId])).toBe(0);
  });
});
