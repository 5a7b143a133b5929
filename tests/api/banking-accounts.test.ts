import { tablesMissingRls } from '@ledgerline/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankingHarness, type BankingHarness, type Tenant } from './banking.harness.js';

let h: BankingHarness;
beforeAll(async () => {
  h = await startBankingHarness();
});
afterAll(async () => {
  await h?.close();
});

const GINGHAM = 'ins_109509'; // checking 4321 and savings 8765
const TOMORROW = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

interface Account {
  id: string;
  mask: string;
  vendorAccountId: string;
}

async function liveTx(accountId: string): Promise<{ id: string; date: string; amount_cents: number; external_id: string }[]> {
  return h.db.adminDb('bank_transactions').where({ account_id: accountId }).whereNull('removed_at').orderBy('date').orderBy('id');
}

/** The same bank linked twice (the second time past the duplicate warning): the old and the new checking account. */
async function duplicatePair(t: Tenant, options: { extraOnNew?: number; extraOnOld?: string } = {}) {
  const first = await h.link(t, { institutionId: GINGHAM, transactions: 30, seed: 7 });
  expect(first.answer.status).toBe(200);
  await h.settle(t);
  if (options.extraOnOld) {
    await h.sandbox.addTransactions(first.itemId, {
      transactions: [
        { account_id: h.sandbox.getItem(first.itemId).accounts[0]!.account_id, amount: 12.34, date: options.extraOnOld, name: 'Only in the old link' },
      ],
      webhook: false,
    });
    const old = (first.answer.body.accounts as Account[]).find((a) => a.mask === '4321')!;
    await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: old.id } });
    await h.settle(t);
  }
  const second = await h.link(t, { institutionId: GINGHAM, transactions: 30, seed: 7, ignoreDuplicateAccounts: true });
  expect(second.answer.status).toBe(200);
  const old = (first.answer.body.accounts as Account[]).find((a) => a.mask === '4321')!;
  const fresh = (second.answer.body.accounts as Account[]).find((a) => a.mask === '4321')!;
  await h.settle(t);
  if (options.extraOnNew) {
    const checking = h.sandbox.getItem(second.itemId).accounts.find((a) => a.mask === '4321')!;
    await h.sandbox.addTransactions(second.itemId, {
      transactions: Array.from({ length: options.extraOnNew }, (_, i) => ({
        account_id: checking.account_id,
        amount: 5 + i,
        date: TOMORROW,
        name: `New ${i}`,
      })),
      webhook: false,
    });
    await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: fresh.id } });
    await h.settle(t);
  }
  return { old, fresh, newItemId: second.itemId };
}

describe('the duplicate-account check', () => {
  it('catches the same institution account linked twice, and matches its transactions', async () => {
    const t = h.tenant();
    const first = await h.link(t, { institutionId: GINGHAM, transactions: 30, seed: 7 });
    await h.settle(t);
    const again = await h.link(t, { institutionId: GINGHAM, transactions: 30, seed: 7 });
    expect(again.answer.status).toBe(200);
    expect(again.answer.body).toMatchObject({ resultCode: 'duplicate_account', accounts: [], jobs: [] });
    expect(again.answer.body.matchingAccounts.map((a: Account) => a.id).sort()).toEqual(first.answer.body.accounts.map((a: Account) => a.id).sort());
    const listed = (await h.api('GET', '/accounts', { tenant: t })).body;
    expect(listed.accounts).toHaveLength(2);
    // No ledger runs beside banking here: the accounts answer all the same, without a tie-out.
    expect(listed.tieOut).toBeNull();
    expect(listed.accounts.map((a: { tieOut: unknown }) => a.tieOut)).toEqual([null, null]);

    const { old, fresh } = await duplicatePair(h.tenant());
    expect(old.id).not.toBe(fresh.id);
  });

  it('reports matching accounts, overlapping and matched transactions and the match percentage', async () => {
    const t = h.tenant();
    const { old, fresh } = await duplicatePair(t);
    const r = await h.api('GET', `/accounts/check-anomaly?accountId=${fresh.id}`, { tenant: t });
    expect(r.status).toBe(200);
    const n = (await liveTx(fresh.id)).length;
    expect(n).toBeGreaterThan(0);
    expect(r.body).toMatchObject({ resultCode: 'duplicate_account', overlappingTransactions: n, matchedTransactions: n, matchPercentage: 100 });
    expect(r.body.matchingAccounts.map((a: Account) => a.id)).toEqual([old.id]);
    expect(r.body.matches[0].matched).toHaveLength(n);

    const all = await h.api('GET', '/accounts/check-anomaly', { tenant: t });
    expect(all.body.matches).toHaveLength(2); // checking and savings, each pair once

    const alone = h.tenant();
    const single = await h.link(alone, { institutionId: GINGHAM, transactions: 5 });
    const none = await h.api('GET', `/accounts/check-anomaly?accountId=${single.answer.body.accounts[0].id}`, { tenant: alone });
    expect(none.body).toMatchObject({ resultCode: null, matches: [], matchPercentage: 0 });
  });
});

describe('merging a duplicate account', () => {
  it('forward-only-merge (the default) keeps the target history and moves only newer transactions; the target takes over the feed', async () => {
    const t = h.tenant();
    const { old, fresh, newItemId } = await duplicatePair(t, { extraOnNew: 2 });
    const before = await liveTx(old.id);
    const r = await h.api('POST', '/transactions/merge', { tenant: t, body: { sourceAccountId: fresh.id, targetAccountId: old.id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ movedTransactions: 2, removedTargetTransactions: 0 });
    expect(r.body.targetAccount.vendorAccountId).toBe(fresh.vendorAccountId);
    const after = await liveTx(old.id);
    expect(after).toHaveLength(before.length + 2);
    expect(after.filter((x) => x.date === TOMORROW)).toHaveLength(2);
    expect(await liveTx(fresh.id)).toEqual([]);
    const accounts = (await h.api('GET', '/accounts', { tenant: t })).body.accounts as Account[];
    expect(accounts.map((a) => a.id)).not.toContain(fresh.id);

    // The feed now lands in the target account.
    const checking = h.sandbox.getItem(newItemId).accounts.find((a) => a.mask === '4321')!;
    await h.sandbox.addTransactions(newItemId, {
      transactions: [{ account_id: checking.account_id, amount: 1.23, date: TOMORROW, name: 'After the merge' }],
      webhook: false,
    });
    await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: old.id } });
    await h.settle(t);
    expect(await liveTx(old.id)).toHaveLength(before.length + 3);
  });

  it('complete-merge with keep_target (default) drops matched source transactions and moves the unmatched', async () => {
    const t = h.tenant();
    const { old, fresh } = await duplicatePair(t, { extraOnNew: 1 });
    const n = (await liveTx(old.id)).length;
    const r = await h.api('POST', '/transactions/merge', {
      tenant: t,
      body: { sourceAccountId: fresh.id, targetAccountId: old.id, mergeStrategy: 'complete-merge' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ movedTransactions: 1, droppedTransactions: n, removedTargetTransactions: 0 });
    expect(await liveTx(old.id)).toHaveLength(n + 1);
  });

  it('complete-merge applies keep_source and keep_both conflicts', async () => {
    const t = h.tenant();
    const { old, fresh } = await duplicatePair(t);
    const check = await h.api('GET', `/accounts/check-anomaly?accountId=${fresh.id}`, { tenant: t });
    const [p1, p2] = check.body.matches[0].matched as { sourceTransactionId: string; targetTransactionId: string }[];
    const n = (await liveTx(old.id)).length;
    const r = await h.api('POST', '/transactions/merge', {
      tenant: t,
      body: {
        sourceAccountId: fresh.id,
        targetAccountId: old.id,
        mergeStrategy: 'complete-merge',
        conflicts: [
          { ...p1, resolution: 'keep_source' },
          { ...p2, resolution: 'keep_both' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ movedTransactions: 2, droppedTransactions: n - 2, removedTargetTransactions: 1 });
    const after = await liveTx(old.id);
    expect(after).toHaveLength(n + 1); // one replaced (keep_source), one doubled (keep_both)
    expect(after.map((x) => x.id)).not.toContain(p1!.targetTransactionId);
    expect(after.map((x) => x.id)).toContain(p2!.targetTransactionId);
    // Events: each moved transaction was removed from the source and added to the target.
    const removed = await h.db.adminDb('outbox').where({ workspace_id: t.workspaceId, type: 'bank_transaction.removed' }).count({ n: '*' });
    expect(Number(removed[0]!.n)).toBe(n + 1);
  });

  it("complete-merge removes the target's unmatched transactions when keepTargetsNonMatchedTransactions is false", async () => {
    const t = h.tenant();
    const probe = h.tenant();
    await h.link(probe, { institutionId: GINGHAM, transactions: 30, seed: 7 });
    await h.settle(probe);
    const dates = (await h.db.adminDb('bank_transactions').where({ workspace_id: probe.workspaceId }).orderBy('date')).map((r: { date: string }) => r.date);
    const { old, fresh } = await duplicatePair(t, { extraOnOld: dates[Math.floor(dates.length / 2)]! });
    const n = (await liveTx(old.id)).length;
    const kept = await h.api('POST', '/transactions/merge', {
      tenant: t,
      body: { sourceAccountId: fresh.id, targetAccountId: old.id, mergeStrategy: 'complete-merge', keepTargetsNonMatchedTransactions: false },
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ movedTransactions: 0, removedTargetTransactions: 1 });
    expect(await liveTx(old.id)).toHaveLength(n - 1);
  });

  it('refuses bad merges: unknown strategy or resolution, same account, foreign transaction', async () => {
    const t = h.tenant();
    const { old, fresh } = await duplicatePair(t);
    const bad = await h.api('POST', '/transactions/merge', {
      tenant: t,
      body: { sourceAccountId: fresh.id, targetAccountId: old.id, mergeStrategy: 'everything' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('mergeStrategy');
    const same = await h.api('POST', '/transactions/merge', { tenant: t, body: { sourceAccountId: old.id, targetAccountId: old.id } });
    expect(same.body).toMatchObject({ statusCode: 400, message: 'sourceAccountId and targetAccountId must differ' });
    const foreign = await h.api('POST', '/transactions/merge', {
      tenant: t,
      body: {
        sourceAccountId: fresh.id,
        targetAccountId: old.id,
        mergeStrategy: 'complete-merge',
        conflicts: [{ sourceTransactionId: old.id, targetTransactionId: fresh.id, resolution: 'keep_both' }],
      },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors.map((e: { field: string }) => e.field)).toEqual(['conflicts[0].sourceTransactionId', 'conflicts[0].targetTransactionId']);
    expect(await liveTx(fresh.id)).not.toEqual([]); // nothing changed
  });
});

describe('bad input, roles and tenants', () => {
  it("answers 'accounts cannot be empty' for an empty link", async () => {
    const t = h.tenant();
    const r = await h.api('POST', '/accounts', { tenant: t, body: { publicToken: 'public-sandbox-x', accounts: [] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message: 'accounts cannot be empty', errors: [{ field: 'accounts', message: 'accounts cannot be empty' }] });
    const missing = await h.api('POST', '/accounts', { tenant: t, body: { publicToken: 'public-sandbox-x' } });
    expect(missing.body.message).toBe('accounts cannot be empty');
  });

  it('answers 400 naming the field for a non-UUID id', async () => {
    const t = h.tenant();
    const cases: [string, string, unknown, string][] = [
      ['DELETE', '/accounts/not-a-uuid', undefined, 'id'],
      ['GET', '/accounts/check-anomaly?accountId=42', undefined, 'accountId'],
      ['GET', '/jobs?accountId=nope', undefined, 'accountId'],
      ['GET', '/bank-transactions?accountId=nope', undefined, 'accountId'],
      ['POST', '/transactions/sync', { accountId: 'nope' }, 'accountId'],
      ['POST', '/plaid/update-token', { accountId: 'nope' }, 'accountId'],
      ['POST', '/transactions/merge', { sourceAccountId: 'x', targetAccountId: '0192e0a4-2b4c-7def-8abc-0123456789ab' }, 'sourceAccountId'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await h.api(method, path, { tenant: t, body });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.errors[0].field, `${method} ${path}`).toBe(field);
      expect(r.body.message).toContain(field);
    }
    const sync = await h.api('POST', '/transactions/sync', { tenant: t, body: {} });
    expect(sync.body).toMatchObject({ statusCode: 400, errors: [{ field: 'accountId', message: 'accountId is required' }] });
  });

  it("answers 404 for another workspace's account, worded like a missing one", async () => {
    const owner = h.tenant();
    const other = h.tenant();
    const linked = await h.link(owner, { institutionId: GINGHAM, transactions: 5 });
    const id = linked.answer.body.accounts[0].id as string;
    await h.settle(owner);
    const missing = await h.api('DELETE', '/accounts/0192e0a4-2b4c-7def-8abc-0123456789ab', { tenant: other });
    expect(missing.status).toBe(404);
    for (const [method, path, body] of [
      ['DELETE', `/accounts/${id}`, undefined],
      ['GET', `/accounts/check-anomaly?accountId=${id}`, undefined],
      ['POST', '/transactions/sync', { accountId: id }],
      ['POST', '/plaid/update-token', { accountId: id }],
      ['GET', `/bank-transactions?accountId=${id}`, undefined],
      ['POST', '/transactions/merge', { sourceAccountId: id, targetAccountId: '0192e0a4-2b4c-7def-8abc-0123456789ab' }],
    ] as const) {
      const r = await h.api(method, path, { tenant: other, body });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toEqual(missing.body);
    }
    expect((await h.api('GET', `/jobs?accountId=${id}`, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', '/accounts', { tenant: other })).body.accounts).toEqual([]);
    expect((await h.api('GET', '/accounts', { tenant: owner })).body.accounts).toHaveLength(2);
  });

  it("refuses a Viewer's writes with 403 and lets them read", async () => {
    const t = h.tenant();
    const linked = await h.link(t, { institutionId: GINGHAM, transactions: 5 });
    await h.settle(t);
    const id = linked.answer.body.accounts[0].id as string;
    const viewer = { ...t, token: t.viewerToken };
    for (const [method, path, body] of [
      ['POST', '/plaid/link-token', undefined],
      ['POST', '/plaid/update-token', { accountId: id }],
      ['POST', '/accounts', { publicToken: 'x', accounts: [] }],
      ['DELETE', `/accounts/${id}`, undefined],
      ['POST', '/transactions/sync', { accountId: id }],
      ['POST', '/transactions/merge', { sourceAccountId: id, targetAccountId: id }],
    ] as const) {
      const r = await h.api(method, path, { tenant: viewer, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.message).toBe('Editing actions are disabled for your account');
    }
    expect((await h.api('GET', '/accounts', { tenant: viewer })).status).toBe(200);
    expect((await h.api('GET', '/jobs?status=completed,failed', { tenant: viewer })).body.jobs).toHaveLength(1);
    expect((await h.api('GET', '/jobs?status=bogus', { tenant: viewer })).status).toBe(400);
  });

  it('links through a real link token, and unlinks: the account leaves the list and a removal event is written', async () => {
    const t = h.tenant();
    const token = await h.api('POST', '/plaid/link-token', { tenant: t });
    expect(token.status).toBe(200);
    expect(token.body.linkToken).toMatch(/^link-/);
    const linked = await h.link(t, {
      institutionId: GINGHAM,
      transactions: 5,
      accounts: (a) => a.account_id === h.sandbox.listItems().at(-1)!.accounts[0]!.account_id,
    });
    expect(linked.answer.body.accounts).toHaveLength(1);
    const id = linked.answer.body.accounts[0].id as string;
    await h.settle(t);
    const r = await h.api('DELETE', `/accounts/${id}`, { tenant: t });
    expect(r.status).toBe(200);
    expect((await h.api('GET', '/accounts', { tenant: t })).body.accounts).toEqual([]);
    expect(await h.db.adminDb('outbox').where({ workspace_id: t.workspaceId, type: 'bank_account.removed' }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect((await h.api('DELETE', `/accounts/${id}`, { tenant: t })).status).toBe(404);
  });

  it('refuses a page with a bad amount whole: nothing of it is stored', async () => {
    const t = h.tenant();
    const linked = await h.link(t, { institutionId: GINGHAM, transactions: 10 });
    await h.settle(t);
    const accountId = h.sandbox.getItem(linked.itemId).accounts[0]!.account_id;
    await h.sandbox.addTransactions(linked.itemId, {
      transactions: [
        { account_id: accountId, amount: 3 },
        { account_id: accountId, amount: 4 },
        { account_id: accountId, raw: { amount: 1.005 } },
      ],
      webhook: false,
    });
    await h.api('POST', '/transactions/sync', { tenant: t, body: { accountId: linked.answer.body.accounts[0].id } });
    const jobs = await h.settle(t);
    expect(jobs[0]).toMatchObject({ status: 'failed', failedReason: 'INVALID_PAYLOAD' });
    expect(await h.db.adminDb('bank_transactions').where({ workspace_id: t.workspaceId }).count({ n: '*' })).toEqual([{ n: 10 }]);
  });

  it('has row-level security on every workspace table, and the service role sees nothing without a tenant', async () => {
    expect(await tablesMissingRls(h.db.adminDb)).toEqual([]);
    expect(Number((await h.db.adminDb('bank_transactions').count({ n: '*' }))[0]!.n)).toBeGreaterThan(0);
    for (const table of ['plaid_items', 'bank_accounts', 'bank_transactions', 'sync_jobs']) {
      expect((await h.db.appDb(table).count({ n: '*' }))[0], table).toEqual({ n: 0 });
    }
  });
});
