// Books-grade data, checked from the client's side through the official `plaid` SDK: balances that tie to the
// synced transactions after every change, transfers with both legs, and history that lands late.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Configuration, PlaidApi, type AccountBase, type Transaction, type TransactionsSyncResponse } from 'plaid';
import { startPlaidSandbox, type AccountState, type PlaidSandbox } from '../src/index.js';

const END_DATE = '2026-06-30';
const DAY_MS = 86_400_000;
const INSTITUTIONS = ['ins_109508', 'ins_109509', 'ins_109510', 'ins_109511', 'ins_109512'] as const;

let sandbox: PlaidSandbox;
let client: PlaidApi;
let receiver: { url: string; bodies: Record<string, unknown>[]; close(): Promise<void> };

beforeAll(async () => {
  sandbox = await startPlaidSandbox({ port: 0, now: () => new Date(`${END_DATE}T15:00:00Z`), initialWebhookDelayMs: 20 });
  client = new PlaidApi(
    new Configuration({ basePath: sandbox.url, baseOptions: { headers: { 'PLAID-CLIENT-ID': sandbox.clientId, 'PLAID-SECRET': sandbox.secret } } }),
  );
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, close: () => new Promise((r) => server.close(() => r())) };
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

const day = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dateOf = (d: number): string => new Date(d * DAY_MS).toISOString().slice(0, 10);
const cents = (amount: number): number => Math.round(amount * 100);

interface Synced {
  txns: Map<string, Transaction>;
  cursor: string;
  status: string;
  accounts: AccountBase[];
}

function apply(txns: Map<string, Transaction>, data: TransactionsSyncResponse): void {
  for (const t of data.added) txns.set(t.transaction_id, t);
  for (const t of data.modified) txns.set(t.transaction_id, t);
  for (const r of data.removed) txns.delete(r.transaction_id);
}

/** Applies /transactions/sync pages from `cursor` (none = from scratch) until has_more is false. */
async function sync(accessToken: string, start: { cursor?: string; txns?: Map<string, Transaction> } = {}, count = 500): Promise<Synced> {
  const txns = new Map(start.txns ?? []);
  let cursor = start.cursor;
  for (;;) {
    const { data } = await client.transactionsSync({ access_token: accessToken, cursor, count });
    apply(txns, data);
    cursor = data.next_cursor;
    if (!data.has_more) return { txns, cursor, status: data.transactions_update_status, accounts: data.accounts };
  }
}

async function link(options: {
  institution: string;
  transactions: number;
  seed: number;
  pendingDays?: number;
  transfers?: boolean;
  lateMs?: number;
  webhook?: string;
}) {
  const created = await client.sandboxPublicTokenCreate({
    institution_id: options.institution,
    initial_products: ['transactions' as never],
    options: {
      webhook: options.webhook,
      transactions: { end_date: END_DATE },
      ledgerline: {
        transactions: options.transactions,
        seed: options.seed,
        pending_days: options.pendingDays ?? 2,
        transfers: options.transfers,
        historical_delay_ms: options.lateMs ?? 0,
        initial_webhook: false,
      },
    } as never,
  });
  const { data } = await client.itemPublicTokenExchange({ public_token: created.data.public_token });
  return { accessToken: data.access_token, itemId: data.item_id };
}

/** Per account: Σ posted and Σ pending (cents, positive = money out), counts and earliest date of the synced transactions. */
function totals(txns: Iterable<Transaction>) {
  const out = new Map<string, { posted: number; pending: number; postedCount: number; pendingCount: number; earliest: string | null }>();
  for (const t of txns) {
    const a = out.get(t.account_id) ?? { posted: 0, pending: 0, postedCount: 0, pendingCount: 0, earliest: null };
    if (t.pending) {
      a.pending += cents(t.amount);
      a.pendingCount++;
    } else {
      a.posted += cents(t.amount);
      a.postedCount++;
    }
    if (a.earliest === null || t.date < a.earliest) a.earliest = t.date;
    out.set(t.account_id, a);
  }
  return out;
}

/** current = opening + Σ posted (Plaid's sign: money held falls with money out, a card's balance owed rises). */
function expectedCurrent(state: AccountState, type: string, postedCents: number): number {
  return type === 'credit' ? state.opening_cents + postedCents : state.opening_cents - postedCents;
}

function expectBalancesFromBank(accounts: AccountBase[], states: AccountState[]): void {
  for (const account of accounts) {
    const state = states.find((s) => s.account_id === account.account_id);
    if (!state) throw new Error(`no state for ${account.account_id}`);
    expect(cents(account.balances.current ?? Number.NaN)).toBe(state.current_cents);
    expect(cents(account.balances.available ?? Number.NaN)).toBe(state.available_cents);
    expect(state.current_cents).toBe(expectedCurrent(state, account.type, state.posted_total_cents));
    const pendingAdjusted =
      account.type === 'credit' ? (state.limit_cents ?? 0) - state.current_cents - state.pending_total_cents : state.current_cents - state.pending_total_cents;
    expect(state.available_cents).toBe(pendingAdjusted);
  }
}

type Command =
  | { kind: 'add'; account: number; cents: number; pending: boolean; daysAgo: number }
  | { kind: 'addFirstLeg'; from: number; to: number; cents: number }
  | { kind: 'addSecondLeg' }
  | { kind: 'modify'; pick: number; change: 'amount' | 'flip' | 'date' | 'pending' | 'random' }
  | { kind: 'remove'; pick: number; random: boolean }
  | { kind: 'postPending' }
  | { kind: 'release' };

const nonZeroCents = fc.integer({ min: -2_000_000, max: 2_000_000 }).filter((c) => c !== 0);
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), account: fc.nat(), cents: nonZeroCents, pending: fc.boolean(), daysAgo: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('addFirstLeg' as const), from: fc.nat(), to: fc.nat(), cents: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.constant({ kind: 'addSecondLeg' as const }),
  fc.record({
    kind: fc.constant('modify' as const),
    pick: fc.nat(),
    change: fc.constantFrom('amount' as const, 'flip' as const, 'date' as const, 'pending' as const, 'random' as const),
  }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(), random: fc.boolean() }),
  fc.constant({ kind: 'postPending' as const }),
  fc.constant({ kind: 'release' as const }),
);

describe('balances tie to the synced history after every change', () => {
  it('current = opening + Σ posted live transactions, from scratch and from a saved cursor; late history only after release', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          institution: fc.constantFrom(...INSTITUTIONS),
          transactions: fc.integer({ min: 0, max: 400 }),
          seed: fc.integer({ min: 1, max: 1_000_000 }),
          pendingDays: fc.integer({ min: 0, max: 5 }),
          transfers: fc.boolean(),
          late: fc.boolean(),
        }),
        fc.array(command, { minLength: 1, maxLength: 8 }),
        async (setup, commands) => {
          const { accessToken, itemId } = await link({ ...setup, lateMs: setup.late ? 3_600_000 : 0 });
          const accountIds = sandbox.getItem(itemId).accounts.map((a) => a.account_id);
          const pick = (n: number) => accountIds[n % accountIds.length] ?? '';
          const controlAdded = new Set<string>();
          const startDay = day(sandbox.getItem(itemId).start_date);
          // Before the release only the last ~30 days are there (one generated slot of slack at the edge).
          const slotDays = Math.ceil((day(END_DATE) - startDay + 1) / Math.max(1, setup.transactions)) + 1;
          const recentBound = dateOf(day(END_DATE) - 29 - slotDays);
          let released = !setup.late;
          let pendingLeg: { to: string; cents: number; date: string; firstId: string } | undefined;
          let saved = await sync(accessToken);

          const check = async (): Promise<void> => {
            const full = await sync(accessToken);
            const incremental = await sync(accessToken, { cursor: saved.cursor, txns: saved.txns });
            expect(new Map([...incremental.txns].sort())).toEqual(new Map([...full.txns].sort()));
            saved = incremental;
            const states = sandbox.accountStates(itemId);
            const balances = (await client.accountsBalanceGet({ access_token: accessToken })).data.accounts;
            expectBalancesFromBank(balances, states);
            expectBalancesFromBank(full.accounts, states);
            expect(full.status).toBe(released ? 'HISTORICAL_UPDATE_COMPLETE' : 'INITIAL_UPDATE_COMPLETE');
            const seen = totals(full.txns.values());
            if (released) {
              // The client's books: everything synced adds up to the bank's balances.
              for (const state of states) {
                const t = seen.get(state.account_id) ?? { posted: 0, pending: 0, postedCount: 0, pendingCount: 0, earliest: null };
                const type = balances.find((b) => b.account_id === state.account_id)?.type ?? '';
                expect(state.current_cents).toBe(expectedCurrent(state, type, t.posted));
                expect([state.posted_total_cents, state.pending_total_cents, state.posted_count, state.pending_count, state.earliest_date]).toEqual([
                  t.posted,
                  t.pending,
                  t.postedCount,
                  t.pendingCount,
                  t.earliest,
                ]);
              }
              expect(full.txns.size).toBe(sandbox.getItem(itemId).transaction_count);
            } else {
              const early = [...full.txns.values()].filter((t) => !controlAdded.has(t.transaction_id) && t.date < recentBound);
              expect(early).toEqual([]);
              // Older live transactions exist at the bank, so some are still missing from the client.
              if (states.some((s) => s.earliest_date !== null && s.earliest_date < recentBound))
                expect(full.txns.size).toBeLessThan(sandbox.getItem(itemId).transaction_count);
            }
          };

          await check();
          for (const c of commands) {
            const live = [...saved.txns.values()];
            switch (c.kind) {
              case 'add': {
                const r = await sandbox.addTransactions(itemId, {
                  transactions: [{ account_id: pick(c.account), amount: c.cents / 100, pending: c.pending, date: dateOf(day(END_DATE) - c.daysAgo) }],
                  webhook: false,
                });
                r.added.forEach((t) => controlAdded.add(t.transaction_id));
                break;
              }
              case 'addFirstLeg': {
                // One leg of a transfer now, the other in a later sync.
                const from = pick(c.from);
                const to = accountIds.find((id) => id !== from) ?? from;
                const r = await sandbox.addTransactions(itemId, {
                  transactions: [{ account_id: from, amount: c.cents / 100, name: 'Online Transfer to Savings', date: dateOf(day(END_DATE) - 2) }],
                  webhook: false,
                });
                r.added.forEach((t) => controlAdded.add(t.transaction_id));
                pendingLeg = { to, cents: c.cents, date: END_DATE, firstId: r.added[0]!.transaction_id };
                break;
              }
              case 'addSecondLeg': {
                if (!pendingLeg) continue;
                const r = await sandbox.addTransactions(itemId, {
                  transactions: [{ account_id: pendingLeg.to, amount: -pendingLeg.cents / 100, name: 'Online Transfer from Checking', date: pendingLeg.date }],
                  webhook: false,
                });
                r.added.forEach((t) => controlAdded.add(t.transaction_id));
                const next = await client.transactionsSync({ access_token: accessToken, cursor: saved.cursor });
                expect(next.data.added.map((t) => [t.account_id, cents(t.amount)])).toEqual([[pendingLeg.to, -pendingLeg.cents]]);
                // The first leg reached the client in an earlier sync (a later modify may have changed its amount,
                // a remove may have withdrawn it: then the bank no longer has it either).
                const firstId = pendingLeg.firstId;
                if (sandbox.getTransaction(itemId, firstId)) expect(saved.txns.has(firstId)).toBe(true);
                pendingLeg = undefined;
                break;
              }
              case 'modify': {
                const target = live[c.pick % Math.max(1, live.length)];
                if (c.change === 'random' || !target) {
                  if (sandbox.getItem(itemId).transaction_count > 0) await sandbox.modifyTransactions(itemId, { count: 1, webhook: false });
                  break;
                }
                const change =
                  c.change === 'flip'
                    ? { amount: -target.amount }
                    : c.change === 'amount'
                      ? { amount: (cents(target.amount) + 1234) / 100 }
                      : c.change === 'date'
                        ? { date: dateOf(day(target.date) - 1) }
                        : { pending: !target.pending };
                await sandbox.modifyTransactions(itemId, { transactions: [{ transaction_id: target.transaction_id, ...change }], webhook: false });
                break;
              }
              case 'remove': {
                const target = live[c.pick % Math.max(1, live.length)];
                if (c.random || !target) {
                  if (sandbox.getItem(itemId).transaction_count > 0)
                    await sandbox.removeTransactions(itemId, { count: 1, webhook: false }).catch(() => undefined);
                } else await sandbox.removeTransactions(itemId, { transaction_ids: [target.transaction_id], webhook: false });
                break;
              }
              case 'postPending':
                await sandbox.postPendingTransactions(itemId, { webhook: false });
                break;
              case 'release': {
                const r = await sandbox.releaseHistory(itemId, { webhook: false });
                if (released) expect(r.released).toBe(0);
                released = true;
                break;
              }
            }
            await check();
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe('generated transfers and card payments, seen through the SDK', () => {
  it('every transfer has both legs (opposite amounts, two accounts of the item, ≤ 3 days apart); money held never goes below zero', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INSTITUTIONS),
        fc.integer({ min: 50, max: 2500 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        async (institution, transactions, seed) => {
          const { accessToken, itemId } = await link({ institution, transactions, seed });
          const { txns, accounts } = await sync(accessToken);
          const all = [...txns.values()];
          const isTransfer = (t: Transaction) =>
            ['TRANSFER_IN', 'TRANSFER_OUT', 'LOAN_PAYMENTS'].includes(t.personal_finance_category?.primary ?? '') &&
            t.personal_finance_category?.detailed !== 'TRANSFER_OUT_WITHDRAWAL';
          const legs = all.filter(isTransfer);
          const ins = legs.filter((t) => t.amount < 0);
          const matched = new Set<string>();
          for (const out of legs.filter((t) => t.amount > 0)) {
            const other = ins.find(
              (t) =>
                !matched.has(t.transaction_id) &&
                cents(t.amount) === -cents(out.amount) &&
                t.account_id !== out.account_id &&
                Math.abs(day(t.date) - day(out.date)) <= 3,
            );
            expect(other, `no counterpart for ${out.name} ${out.amount} ${out.date}`).toBeDefined();
            if (other) matched.add(other.transaction_id);
            expect(out.transaction_type).toBe('special');
          }
          expect(matched.size).toBe(ins.length);
          const kinds = new Set(accounts.map((a) => a.subtype));
          if (kinds.has('checking' as never) && kinds.has('credit card' as never) && transactions >= 1000) {
            expect(legs.some((t) => t.personal_finance_category?.detailed === 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT')).toBe(true);
          }
          // Replaying the synced history from the bank's opening: money held stays ≥ 0 at every day's end.
          const states = sandbox.accountStates(itemId);
          for (const account of accounts) {
            const state = states.find((s) => s.account_id === account.account_id);
            if (!state) throw new Error('state');
            const byDay = new Map<string, number>();
            for (const t of all) if (t.account_id === account.account_id && !t.pending) byDay.set(t.date, (byDay.get(t.date) ?? 0) + cents(t.amount));
            let balance = state.opening_cents;
            for (const date of [...byDay.keys()].sort()) {
              balance += (account.type === 'credit' ? 1 : -1) * (byDay.get(date) ?? 0);
              expect(balance).toBeGreaterThanOrEqual(0);
            }
            expect(balance).toBe(cents(account.balances.current ?? Number.NaN));
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  it('transfers: false generates none', async () => {
    const { accessToken } = await link({ institution: 'ins_109508', transactions: 2000, seed: 4, transfers: false });
    const { txns } = await sync(accessToken);
    const transfers = [...txns.values()].filter((t) => ['TRANSFER_IN', 'LOAN_PAYMENTS'].includes(t.personal_finance_category?.primary ?? ''));
    expect(transfers).toEqual([]);
  });
});

describe('history that arrives late', () => {
  it('syncs the last 30 days first, then the older history after historical_delay_ms, with Plaid webhooks', async () => {
    const { accessToken, itemId } = await link({ institution: 'ins_109508', transactions: 1500, seed: 8, lateMs: 400, webhook: receiver.url });
    const first = await sync(accessToken);
    expect(first.status).toBe('INITIAL_UPDATE_COMPLETE');
    expect(first.txns.size).toBeGreaterThan(0);
    expect(first.txns.size).toBeLessThan(1500 * 0.1);
    expect([...first.txns.values()].every((t) => t.date >= '2026-05-29')).toBe(true);
    expect(sandbox.getItem(itemId)).toMatchObject({ history_released: false });
    // The bank's balance is the true one already, whatever the client has seen.
    const states = sandbox.accountStates(itemId);
    expectBalancesFromBank((await client.accountsGet({ access_token: accessToken })).data.accounts, states);

    const deadline = Date.now() + 5000;
    const historical = () =>
      sandbox.webhookDeliveries({ item: itemId }).find((d) => d.payload.webhook_code === 'SYNC_UPDATES_AVAILABLE' && d.payload.historical_update_complete);
    while (!historical() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(sandbox.getItem(itemId)).toMatchObject({ history_released: true, held_back_count: 0 });
    expect(historical()?.payload).toMatchObject({
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      initial_update_complete: true,
      historical_update_complete: true,
      item_id: itemId,
    });
    expect(receiver.bodies.some((b) => b.item_id === itemId && b.historical_update_complete === true)).toBe(true);
    const next = await client.transactionsSync({ access_token: accessToken, cursor: first.cursor, count: 500 });
    expect(next.data.added.length).toBe(500);
    expect(next.data.added.every((t) => t.date < '2026-06-01')).toBe(true);
    const rest = await sync(accessToken, { cursor: first.cursor, txns: first.txns });
    expect(rest.status).toBe('HISTORICAL_UPDATE_COMPLETE');
    expect(rest.txns.size).toBe(1500);
  });

  it('release-history and balances over HTTP; changes to old transactions before the release arrive with them', async () => {
    const { accessToken, itemId } = await link({ institution: 'ins_109512', transactions: 800, seed: 9, lateMs: 3_600_000 });
    const first = await sync(accessToken);
    const balances = async () => {
      const response = await fetch(`${sandbox.url}/ledgerline/items/${itemId}/balances`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { accounts: AccountState[] }).accounts;
    };
    const before = await balances();
    expect(before).toHaveLength(4);
    expect(Object.keys(before[0] ?? {}).sort()).toEqual(
      [
        'account_id',
        'available_cents',
        'current_cents',
        'earliest_date',
        'limit_cents',
        'opening_cents',
        'pending_count',
        'pending_total_cents',
        'posted_count',
        'posted_total_cents',
      ].sort(),
    );
    // Modify and remove transactions nobody has synced yet: no update now, the release carries their state.
    const modified = await sandbox.modifyTransactions(itemId, { count: 20, webhook: false });
    const hidden = modified.modified.filter((t) => !first.txns.has(t.transaction_id));
    expect(hidden.length).toBeGreaterThan(0);
    const idle = await client.transactionsSync({ access_token: accessToken, cursor: first.cursor });
    expect(idle.data.modified.map((t) => t.transaction_id).filter((id) => hidden.some((h) => h.transaction_id === id))).toEqual([]);
    const release = await fetch(`${sandbox.url}/ledgerline/items/${itemId}/release-history`, { method: 'POST', body: '{}' });
    expect(release.status).toBe(200);
    expect(((await release.json()) as { released: number }).released).toBeGreaterThan(700);
    const after = await sync(accessToken, { cursor: first.cursor, txns: first.txns });
    for (const h of hidden) expect(after.txns.get(h.transaction_id)?.amount).toBe(h.amount);
    const seen = totals(after.txns.values());
    for (const state of await balances()) expect(state.posted_total_cents).toBe(seen.get(state.account_id)?.posted ?? 0);
    const again = await fetch(`${sandbox.url}/ledgerline/items/${itemId}/release-history`, { method: 'POST' });
    expect(await again.json()).toEqual({ released: 0, webhook: null });
  });
});
