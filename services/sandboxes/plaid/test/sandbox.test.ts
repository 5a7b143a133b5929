// The sandbox through the official `plaid` SDK, as services/banking will use it.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import {
  Configuration,
  CountryCode,
  PlaidApi,
  Products,
  SandboxItemFireWebhookRequestWebhookCodeEnum,
  type Transaction,
  type TransactionsSyncResponse,
} from 'plaid';
import { startPlaidSandbox, type PlaidSandbox } from '../src/index.js';

let sandbox: PlaidSandbox;
let client: PlaidApi;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startPlaidSandbox({ port: 0 });
  client = plaidClient(sandbox.clientId, sandbox.secret);
  receiver = await startReceiver();
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

function plaidClient(clientId: string, secret: string): PlaidApi {
  return new PlaidApi(new Configuration({ basePath: sandbox.url, baseOptions: { headers: { 'PLAID-CLIENT-ID': clientId, 'PLAID-SECRET': secret } } }));
}

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/plaid/webhook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function link(options: { institutionId?: string; transactions: number; seed?: number | string; webhook?: string; endDate?: string }) {
  const created = await client.sandboxPublicTokenCreate({
    institution_id: options.institutionId ?? 'ins_109508',
    initial_products: [Products.Transactions],
    options: {
      webhook: options.webhook,
      transactions: options.endDate ? { end_date: options.endDate } : undefined,
      // Our extension: the SDK passes extra JSON through unchanged.
      ledgerline: { transactions: options.transactions, seed: options.seed ?? 1, initial_webhook: false },
    } as never,
  });
  const exchanged = await client.itemPublicTokenExchange({ public_token: created.data.public_token });
  return { accessToken: exchanged.data.access_token, itemId: exchanged.data.item_id };
}

interface Local {
  txns: Map<string, Transaction>;
  addedTotal: number;
  pages: number;
  cursor: string;
}

/** Pages through /transactions/sync from `cursor` to has_more false, applying updates in order. */
async function syncAll(accessToken: string, start: { cursor?: string; txns?: Map<string, Transaction> } = {}, count = 500): Promise<Local> {
  const txns = start.txns ?? new Map<string, Transaction>();
  let cursor = start.cursor;
  let addedTotal = 0;
  let pages = 0;
  for (;;) {
    const { data } = await client.transactionsSync({ access_token: accessToken, cursor, count });
    pages++;
    apply(txns, data);
    addedTotal += data.added.length;
    cursor = data.next_cursor;
    if (!data.has_more) return { txns, addedTotal, pages, cursor };
  }
}

function apply(txns: Map<string, Transaction>, data: TransactionsSyncResponse): void {
  for (const t of data.added) txns.set(t.transaction_id, t);
  for (const t of data.modified) txns.set(t.transaction_id, t);
  for (const r of data.removed) txns.delete(r.transaction_id);
}

async function plaidError(promise: Promise<unknown>): Promise<{ status: number; data: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    const response = (error as { response?: { status: number; data: Record<string, unknown> } }).response;
    if (response) return response;
    throw error;
  }
  throw new Error('expected a Plaid error');
}

/** Content of a transaction without its ids (which are per item). */
const content = (t: Transaction) => ({ ...t, transaction_id: undefined, account_id: undefined });

describe('link, accounts and a full sync of 5,000 transactions', () => {
  let accessToken: string;
  let itemId: string;

  beforeAll(async () => {
    ({ accessToken, itemId } = await link({ transactions: 5000, seed: 42 }));
  });

  it('creates a link token, exchanges the public token and lists 3 accounts', async () => {
    const linkToken = await client.linkTokenCreate({
      client_name: 'Ledgerline',
      language: 'en',
      country_codes: [CountryCode.Us],
      user: { client_user_id: 'user-1' },
      products: [Products.Transactions],
      webhook: receiver.url,
    });
    expect(linkToken.data.link_token).toMatch(/^link-sandbox-/);
    expect(Date.parse(linkToken.data.expiration)).toBeGreaterThan(Date.now());

    expect(accessToken).toMatch(/^access-sandbox-/);
    const { data } = await client.accountsGet({ access_token: accessToken });
    expect(data.item.item_id).toBe(itemId);
    expect(data.item.institution_id).toBe('ins_109508');
    expect(data.accounts.map((a) => [a.type, a.subtype, a.mask])).toEqual([
      ['depository', 'checking', '0000'],
      ['depository', 'savings', '1111'],
      ['credit', 'credit card', '3333'],
    ]);
    for (const account of data.accounts) {
      expect(account.account_id).toMatch(/^[A-Za-z0-9]{37}$/);
      expect(account.balances.iso_currency_code).toBe('USD');
      expect(typeof account.balances.current).toBe('number');
    }
    const item = await client.itemGet({ access_token: accessToken });
    expect(item.data.item.error).toBeNull();
    expect(item.data.item.institution_name).toBe('First Platypus Bank');
  });

  it('pages through exactly 5,000 transactions with no duplicates and stable ids', async () => {
    const first = await syncAll(accessToken);
    expect(first.addedTotal).toBe(5000);
    expect(first.txns.size).toBe(5000);
    expect(first.pages).toBe(10);
    const accountIds = new Set((await client.accountsGet({ access_token: accessToken })).data.accounts.map((a) => a.account_id));
    const all = [...first.txns.values()];
    expect(all.filter((t) => !accountIds.has(t.account_id))).toEqual([]);
    expect(all.filter((t) => Math.round(t.amount * 100) / 100 !== t.amount)).toEqual([]);
    expect(all.filter((t) => !/^\d{4}-\d{2}-\d{2}$/.test(t.date))).toEqual([]);
    // The default count is 100.
    const firstPage = await client.transactionsSync({ access_token: accessToken });
    expect(firstPage.data.added).toHaveLength(100);
    expect(firstPage.data.added.map((t) => t.transaction_id)).toEqual([...first.txns.keys()].slice(0, 100));
    // Another full sync in other page sizes: same transactions, same ids.
    const again = await syncAll(accessToken, {}, 400);
    expect(again.pages).toBe(13);
    expect([...again.txns.keys()].sort()).toEqual([...first.txns.keys()].sort());
    expect(again.txns.get([...first.txns.keys()][1234] ?? '')).toEqual(first.txns.get([...first.txns.keys()][1234] ?? ''));
    // Nothing new since the final cursor.
    const after = await client.transactionsSync({ access_token: accessToken, cursor: first.cursor });
    expect(after.data).toMatchObject({ added: [], modified: [], removed: [], has_more: false, next_cursor: first.cursor });
  });

  it('resumes from a cursor saved mid-way (a crash between pages) without loss or duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 4; page++) {
      const { data } = await client.transactionsSync({ access_token: accessToken, cursor, count: 500 });
      seen.push(...data.added.map((t) => t.transaction_id));
      cursor = data.next_cursor;
      expect(data.has_more).toBe(true);
    }
    // "Restart": only the saved cursor survives.
    const rest = await syncAll(accessToken, { cursor }, 250);
    const all = [...seen, ...rest.txns.keys()];
    expect(all).toHaveLength(5000);
    expect(new Set(all).size).toBe(5000);
  });

  it('reports modified and removed transactions (and new ones) in the next sync', async () => {
    const base = await syncAll(accessToken);
    const modified = await sandbox.modifyTransactions(itemId, { count: 3 });
    const removed = await sandbox.removeTransactions(itemId, { count: 2 });
    const target = [...base.txns.values()][10];
    if (!target) throw new Error('no transaction');
    const renamed = await sandbox.modifyTransactions(itemId, {
      transactions: [{ transaction_id: target.transaction_id, amount: 12.34, name: 'CORRECTED DESCRIPTOR' }],
    });
    const added = await sandbox.addTransactions(itemId, { count: 2 });

    const { data } = await client.transactionsSync({ access_token: accessToken, cursor: base.cursor, count: 500 });
    expect(data.has_more).toBe(false);
    expect(data.added.map((t) => t.transaction_id).sort()).toEqual(added.added.map((t) => t.transaction_id).sort());
    const removedIds = removed.removed.map((r) => r.transaction_id);
    expect(data.removed.map((r) => r.transaction_id).sort()).toEqual([...removedIds].sort());
    const modifiedIds = [...modified.modified, ...renamed.modified].map((t) => t.transaction_id).filter((id) => !removedIds.includes(id));
    expect(data.modified.map((t) => t.transaction_id).sort()).toEqual([...new Set(modifiedIds)].sort());
    const corrected = data.modified.find((t) => t.transaction_id === target.transaction_id);
    if (!removedIds.includes(target.transaction_id)) expect(corrected).toMatchObject({ amount: 12.34, name: 'CORRECTED DESCRIPTOR' });
    for (const m of modified.modified) {
      if (!removedIds.includes(m.transaction_id)) expect(base.txns.get(m.transaction_id)?.amount).not.toBe(m.amount);
    }

    apply(base.txns, data);
    expect(base.txns.size).toBe(sandbox.getItem(itemId).transaction_count);
    expect(base.txns.size).toBe(5000 - 2 + 2);
    // A fresh client replaying the whole log ends in the same state.
    const fresh = await syncAll(accessToken);
    expect([...fresh.txns.keys()].sort()).toEqual([...base.txns.keys()].sort());
    expect(fresh.txns.get(target.transaction_id)).toEqual(base.txns.get(target.transaction_id));
  });

  it('answers TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION after a change mid-loop; restarting from the loop start converges', async () => {
    const before = await syncAll(accessToken);
    const loopStart = before.cursor;
    await sandbox.addTransactions(itemId, { count: 250, webhook: false });
    // A loop of several pages starts...
    const first = await client.transactionsSync({ access_token: accessToken, cursor: loopStart, count: 100 });
    expect(first.data.has_more).toBe(true);
    apply(before.txns, first.data);
    // ...the data changes underneath it...
    await sandbox.addTransactions(itemId, { count: 1, webhook: false });
    const error = await plaidError(client.transactionsSync({ access_token: accessToken, cursor: first.data.next_cursor, count: 100 }));
    expect(error.status).toBe(400);
    expect(error.data).toMatchObject({
      error_type: 'TRANSACTIONS_ERROR',
      error_code: 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION',
      error_message: 'Underlying transaction data changed since last page was fetched. Please restart pagination from last update.',
      display_message: null,
    });
    expect(typeof error.data.request_id).toBe('string');
    // The same cursor stays invalid (it belongs to a stale snapshot).
    expect((await plaidError(client.transactionsSync({ access_token: accessToken, cursor: first.data.next_cursor }))).data.error_code).toBe(
      'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION',
    );
    // Restart from the loop's first cursor: re-applying the first page is harmless (upserts).
    const restarted = await syncAll(accessToken, { cursor: loopStart, txns: before.txns }, 100);
    expect(restarted.txns.size).toBe(sandbox.getItem(itemId).transaction_count);
  });

  it('posts pending transactions as Plaid does: pending removed, posted added with pending_transaction_id', async () => {
    const base = await syncAll(accessToken);
    const pending = [...base.txns.values()].filter((t) => t.pending);
    expect(pending.length).toBeGreaterThan(0);
    expect(
      sandbox
        .pendingTransactions(itemId)
        .map((t) => t.transaction_id)
        .sort(),
    ).toEqual(pending.map((t) => t.transaction_id).sort());
    await sandbox.postPendingTransactions(itemId);
    const { data } = await client.transactionsSync({ access_token: accessToken, cursor: base.cursor, count: 500 });
    expect(data.removed.map((r) => r.transaction_id).sort()).toEqual(pending.map((t) => t.transaction_id).sort());
    expect(data.added).toHaveLength(pending.length);
    for (const posted of data.added) {
      expect(posted.pending).toBe(false);
      const original = pending.find((p) => p.transaction_id === posted.pending_transaction_id);
      expect(original).toBeDefined();
      expect(posted.account_id).toBe(original?.account_id);
      expect(posted.transaction_id).not.toBe(original?.transaction_id);
    }
    apply(base.txns, data);
    expect([...base.txns.values()].filter((t) => t.pending)).toHaveLength(0);
  });
});

describe('errors', () => {
  it('refuses bad credentials with INVALID_API_KEYS', async () => {
    const { accessToken } = await link({ transactions: 10 });
    const error = await plaidError(plaidClient(sandbox.clientId, 'wrong-secret').accountsGet({ access_token: accessToken }));
    expect(error.status).toBe(400);
    expect(error.data).toMatchObject({
      error_type: 'INVALID_INPUT',
      error_code: 'INVALID_API_KEYS',
      error_message: 'invalid client_id or secret provided',
      display_message: null,
    });
    // Credentials in the body are accepted too.
    const response = await fetch(`${sandbox.url}/accounts/get`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: sandbox.clientId, secret: sandbox.secret, access_token: accessToken }),
    });
    expect(response.status).toBe(200);
  });

  it('answers Plaid errors for bad tokens, counts and cursors', async () => {
    const { accessToken } = await link({ transactions: 10 });
    expect((await plaidError(client.accountsGet({ access_token: 'nope' }))).data.error_code).toBe('INVALID_ACCESS_TOKEN');
    expect((await plaidError(client.itemPublicTokenExchange({ public_token: 'public-sandbox-00000000-0000-0000-0000-000000000000' }))).data.error_code).toBe(
      'INVALID_PUBLIC_TOKEN',
    );
    expect((await client.transactionsRefresh({ access_token: accessToken })).data.request_id).toMatch(/^[A-Za-z0-9]{15}$/);
    expect((await plaidError(client.transactionsSync({ access_token: accessToken, count: 501 }))).data.error_code).toBe('INVALID_FIELD');
    expect((await plaidError(client.transactionsSync({ access_token: accessToken, cursor: 'bm90LWEtY3Vyc29y' }))).data.error_code).toBe('INVALID_FIELD');
    expect((await plaidError(client.sandboxPublicTokenCreate({ institution_id: 'ins_0', initial_products: [Products.Transactions] }))).data.error_code).toBe(
      'INVALID_INSTITUTION',
    );
    const tooMany = await plaidError(
      client.sandboxPublicTokenCreate({
        institution_id: 'ins_109508',
        initial_products: [Products.Transactions],
        options: { ledgerline: { transactions: 100_001 } } as never,
      }),
    );
    expect(tooMany.data.error_code).toBe('INVALID_FIELD');
    await client.itemRemove({ access_token: accessToken });
    expect((await plaidError(client.accountsGet({ access_token: accessToken }))).data.error_code).toBe('ITEM_NOT_FOUND');
  });

  it('reset_login makes data calls answer ITEM_LOGIN_REQUIRED until the login is repaired', async () => {
    const { accessToken, itemId } = await link({ transactions: 20, webhook: receiver.url });
    const reset = await client.sandboxItemResetLogin({ access_token: accessToken });
    expect(reset.data.reset_login).toBe(true);
    for (const call of [client.accountsGet({ access_token: accessToken }), client.transactionsSync({ access_token: accessToken })]) {
      const error = await plaidError(call);
      expect(error.status).toBe(400);
      expect(error.data).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', display_message: null });
    }
    const item = await client.itemGet({ access_token: accessToken });
    expect(item.data.item.error?.error_code).toBe('ITEM_LOGIN_REQUIRED');
    const errorWebhook = sandbox.webhookDeliveries({ item: itemId }).find((d) => d.webhook_code === 'ERROR');
    expect(errorWebhook?.payload).toMatchObject({ webhook_type: 'ITEM', webhook_code: 'ERROR', item_id: itemId, error: { error_code: 'ITEM_LOGIN_REQUIRED' } });
    expect(errorWebhook?.status).toBe(200);
    // An update-mode link token can be made for the broken item.
    const update = await client.linkTokenCreate({
      client_name: 'Ledgerline',
      language: 'en',
      country_codes: [CountryCode.Us],
      user: { client_user_id: 'u' },
      access_token: accessToken,
    });
    expect(update.data.link_token).toMatch(/^link-sandbox-/);
    await sandbox.repairLogin(itemId);
    expect((await client.transactionsSync({ access_token: accessToken })).data.added).toHaveLength(20);
  });

  it('can make the next call fail with an injected error', async () => {
    const { accessToken, itemId } = await link({ transactions: 5 });
    sandbox.failNext({ endpoint: '/transactions/sync', item: itemId, error: 'INTERNAL_SERVER_ERROR' });
    const error = await plaidError(client.transactionsSync({ access_token: accessToken }));
    expect(error.status).toBe(500);
    expect(error.data.error_type).toBe('API_ERROR');
    expect((await client.transactionsSync({ access_token: accessToken })).data.added).toHaveLength(5);
  });
});

describe('webhooks', () => {
  async function verify(received: Received): Promise<Record<string, unknown>> {
    const header = received.headers['plaid-verification'];
    if (typeof header !== 'string') throw new Error('no Plaid-Verification header');
    const protectedHeader = decodeProtectedHeader(header);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    const { data } = await client.webhookVerificationKeyGet({ key_id: String(protectedHeader.kid) });
    expect(data.key).toMatchObject({ alg: 'ES256', crv: 'P-256', kty: 'EC', use: 'sig', kid: protectedHeader.kid, expired_at: null });
    expect(typeof data.key.created_at).toBe('number');
    const key = await importJWK({ ...data.key }, 'ES256');
    const { payload } = await jwtVerify(header, key, { algorithms: ['ES256'], maxTokenAge: '5 min' });
    const bodyHash = createHash('sha256').update(received.body).digest('hex');
    if (payload.request_body_sha256 !== bodyHash) throw new Error('body hash mismatch');
    return JSON.parse(received.body) as Record<string, unknown>;
  }

  it('delivers SYNC_UPDATES_AVAILABLE signed as Plaid signs it; a tampered body fails verification', async () => {
    const { accessToken, itemId } = await link({ transactions: 5, webhook: receiver.url });
    const before = receiver.received.length;
    const fired = await client.sandboxItemFireWebhook({
      access_token: accessToken,
      webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.SyncUpdatesAvailable,
    });
    expect(fired.data.webhook_fired).toBe(true);
    const delivered = receiver.received[before];
    if (!delivered) throw new Error('no webhook received');
    expect(await verify(delivered)).toEqual({
      environment: 'sandbox',
      historical_update_complete: true,
      initial_update_complete: true,
      item_id: itemId,
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      webhook_type: 'TRANSACTIONS',
    });
    const tampered = {
      ...delivered,
      body: delivered.body.replace(
        itemId,
        itemId.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
      ),
    };
    await expect(verify(tampered)).rejects.toThrow(/body hash mismatch/);
    const forged = {
      ...delivered,
      headers: { ...delivered.headers, 'plaid-verification': String(delivered.headers['plaid-verification']).replace(/.{4}$/, 'AAAA') },
    };
    await expect(verify(forged)).rejects.toThrow();
  });

  it('fires SYNC_UPDATES_AVAILABLE when transactions change, and the ITEM ERROR webhook on request', async () => {
    const { accessToken, itemId } = await link({ transactions: 5, webhook: receiver.url });
    const change = await sandbox.addTransactions(itemId, { count: 1 });
    expect(change.webhook?.status).toBe(200);
    expect(JSON.parse(change.webhook?.body ?? '{}')).toMatchObject({ webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: itemId });
    await client.sandboxItemFireWebhook({ access_token: accessToken, webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.Error });
    const last = receiver.received[receiver.received.length - 1];
    if (!last) throw new Error('no webhook');
    expect(await verify(last)).toMatchObject({
      webhook_type: 'ITEM',
      webhook_code: 'ERROR',
      item_id: itemId,
      error: { error_code: 'ITEM_LOGIN_REQUIRED', error_type: 'ITEM_ERROR' },
    });
    // Replays send the same bytes again.
    const replay = await sandbox.replayWebhook(change.webhook?.delivery_id ?? '');
    expect(replay.body).toBe(change.webhook?.body);
    expect(receiver.received[receiver.received.length - 1]?.body).toBe(change.webhook?.body);
  });

  it('sends the first SYNC_UPDATES_AVAILABLE after the public token exchange', async () => {
    const created = await client.sandboxPublicTokenCreate({
      institution_id: 'ins_109512',
      initial_products: [Products.Transactions],
      options: { webhook: receiver.url },
    });
    const { data } = await client.itemPublicTokenExchange({ public_token: created.data.public_token });
    const deadline = Date.now() + 5000;
    while (!sandbox.webhookDeliveries({ item: data.item_id }).some((d) => d.status === 200) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(sandbox.webhookDeliveries({ item: data.item_id }).map((d) => d.webhook_code)).toEqual(['SYNC_UPDATES_AVAILABLE']);
  });
});

describe('determinism and controls over HTTP', () => {
  it('the same seed gives the same transactions; another seed does not', async () => {
    const endDate = '2026-06-30';
    const a = await syncAll((await link({ transactions: 300, seed: 'bench-1', endDate })).accessToken);
    const b = await syncAll((await link({ transactions: 300, seed: 'bench-1', endDate })).accessToken);
    const c = await syncAll((await link({ transactions: 300, seed: 'bench-2', endDate })).accessToken);
    const list = (l: Local) => [...l.txns.values()].map(content);
    expect(list(a)).toEqual(list(b));
    expect(list(a)).not.toEqual(list(c));
    expect(a.txns.size).toBe(300);
    const dates = [...a.txns.values()].map((t) => t.date);
    expect(dates.every((d) => d <= endDate)).toBe(true);
  });

  it('completes a Link session like Plaid Link (development link flow), and repairs a login in update mode', async () => {
    const linkToken = (
      await client.linkTokenCreate({
        client_name: 'Ledgerline',
        language: 'en',
        country_codes: [CountryCode.Us],
        user: { client_user_id: 'u-2' },
        products: [Products.Transactions],
        webhook: receiver.url,
      })
    ).data.link_token;
    const complete = async (body: unknown) => {
      const response = await fetch(`${sandbox.url}/ledgerline/link/complete`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:3000' },
        body: JSON.stringify(body),
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.status).toBe(200);
      return (await response.json()) as {
        public_token: string;
        metadata: { institution: { institution_id: string }; accounts: { id: string; subtype: string }[] };
      };
    };
    const success = await complete({ link_token: linkToken, institution_id: 'ins_109511', ledgerline: { transactions: 30, seed: 5 } });
    expect(success.metadata.institution.institution_id).toBe('ins_109511');
    expect(success.metadata.accounts.map((a) => a.subtype)).toEqual(['checking', 'checking', 'savings', 'credit card']);
    const { access_token, item_id } = (await client.itemPublicTokenExchange({ public_token: success.public_token })).data;
    expect((await client.itemGet({ access_token })).data.item.webhook).toBe(receiver.url);
    expect((await client.transactionsSync({ access_token, count: 500 })).data.added).toHaveLength(30);

    await sandbox.requireRelogin(item_id, { webhook: false });
    const updateToken = (
      await client.linkTokenCreate({
        client_name: 'Ledgerline',
        language: 'en',
        country_codes: [CountryCode.Us],
        user: { client_user_id: 'u-2' },
        access_token,
      })
    ).data.link_token;
    await complete({ link_token: updateToken });
    expect((await client.accountsGet({ access_token })).data.accounts).toHaveLength(4);
  });

  it("accepts cursor 'now' to skip the history", async () => {
    const { accessToken, itemId } = await link({ transactions: 40 });
    const now = await client.transactionsSync({ access_token: accessToken, cursor: 'now' });
    expect(now.data).toMatchObject({ added: [], modified: [], removed: [], has_more: false });
    await sandbox.addTransactions(itemId, { count: 2, webhook: false });
    expect((await client.transactionsSync({ access_token: accessToken, cursor: now.data.next_cursor })).data.added).toHaveLength(2);
  });

  it('changes transactions through POST /ledgerline/items/{item_id}/transactions/*', async () => {
    const { accessToken, itemId } = await link({ transactions: 50 });
    const base = await syncAll(accessToken);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${sandbox.url}/ledgerline/items/${itemId}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { added: Transaction[]; modified: Transaction[]; removed: { transaction_id: string }[] };
    };
    const accountId = [...base.txns.values()][0]?.account_id ?? '';
    const added = await post('/transactions/add', { transactions: [{ account_id: accountId, amount: 42.5, name: 'WIRE FROM CUSTOMER', date: '2026-01-15' }] });
    expect(added.added[0]).toMatchObject({ account_id: accountId, amount: 42.5, name: 'WIRE FROM CUSTOMER', date: '2026-01-15', pending: false });
    await post('/transactions/modify', { count: 2 });
    await post('/transactions/remove', { transaction_ids: [[...base.txns.keys()][3]] });
    const { data } = await client.transactionsSync({ access_token: accessToken, cursor: base.cursor });
    expect([data.added.length, data.modified.length, data.removed.length]).toEqual([1, 2, 1]);
    const items = (await (await fetch(`${sandbox.url}/ledgerline/items/${itemId}`)).json()) as { transaction_count: number };
    expect(items.transaction_count).toBe(50);
    const relogin = await fetch(`${sandbox.url}/ledgerline/items/${itemId}/require-relogin`, { method: 'POST' });
    expect(relogin.status).toBe(200);
    expect((await plaidError(client.transactionsSync({ access_token: accessToken }))).data.error_code).toBe('ITEM_LOGIN_REQUIRED');
    const missing = await fetch(`${sandbox.url}/ledgerline/items/nope/transactions/add`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
  });
});
