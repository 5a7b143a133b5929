// The chaos test (issue #23 item 4), in the dist layer only: every service and the gateway run from their built
// dist/ as separate processes (scripts/lib/service-process.ts), so each can be killed with SIGKILL as a crash would.
// While the bank keeps sending new transactions (webhooks → banking's sync jobs → the ledger → reporting), a
// client keeps reading reports and the transactions list and categorising transactions, and in turn banking, the
// ledger, reporting, identity, the gateway and NATS are killed -9 and started again, and a PostgreSQL connection of each
// service is terminated. Then the invariants, printed:
// - no lost or duplicate transaction: the bank's count = banking's = the ledger's, each bank id once;
// - the books tie to the bank for every account (books = bank balance);
// - every P&L row = the ledger's own lines (a recomputation from the ledger's database), the balance sheet balances;
// - no 5xx or dropped connection outside an outage window;
// - every categorisation that answered 200 holds, and one that failed left the transaction as it was or fully
//   categorised (no half-applied write: its ledger entry and its category agree, which the P&L check covers).
// NATS is killed too: this system runs a NATS server of its own (a process with its own JetStream store, started
// again on the same store as a pod on its volume), not the server the other tests share.
import type { ServiceName } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';
import { accountRows, cents, expected, lineSums, type Row } from '../api/report-oracle.js';

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card
/** After a restart the gateway's upstream connections are new: a request may still land on the old socket for a moment. */
const GRACE_MS = 2_000;

let system: System;
beforeAll(async () => {
  if (process.env.LEDGERLINE_STACK !== 'dist') throw new Error('the chaos test kills service processes: run it in the dist layer (npm test -- dist)');
  system = await startSystem({ banking: true, ledger: true, reporting: true, ownNats: true });
});
afterAll(async () => system?.stop());

interface Call {
  what: string;
  from: number;
  to: number;
  status: number;
  categorise?: { id: string; categoryId: string };
}
interface Outage {
  victim: string;
  from: number;
  to: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('kill -9 of banking, the ledger, reporting, identity, the gateway, NATS and PostgreSQL connections during an import, categorisations and report reads: nothing lost, duplicated or half-applied', async () => {
  const { token, user } = await signedUpUser(system);
  const workspaceId = user.workspace.id;
  const plaid = system.plaid!;
  const publicToken = plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: 150, seed: 23, pending_days: 0, initial_webhook: true } },
  });
  const item = plaid.listItems().at(-1)!;
  const institution = plaid.institutions().find((i) => i.institutionId === PLATYPUS)!;
  const accounts = item.accounts.map((a) => ({
    id: a.account_id,
    name: a.name,
    mask: a.mask,
    type: a.subtype === 'credit card' ? 'credit' : 'depository',
    subtype: a.subtype,
  }));
  expect(
    (
      await system.api('POST', '/accounts', {
        token,
        body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
      })
    ).status,
  ).toBe(200);
  const categories = (await system.api('GET', '/categories', { token })).body.categories as { id: string; name: string }[];
  const office = categories.find((c) => c.name === 'Office Supplies')!.id;

  // The client: reads and categorisations, one after another, until the chaos is over.
  const calls: Call[] = [];
  const categorised = new Set<string>();
  let running = true;
  const call = async (what: string, method: string, path: string, body?: unknown, categorise?: Call['categorise']) => {
    const from = Date.now();
    const status = await system.api(method, path, { token, body }).then(
      (r) => r.status,
      () => 0,
    );
    calls.push({ what, from, to: Date.now(), status, categorise });
    return status;
  };
  const client = (async () => {
    while (running) {
      await call('P&L', 'GET', '/financial-data/profit-loss/v3?startDate=2000-01-01&periodicity=totals_only');
      const list = await system.api('GET', '/transactions/v2?take=50', { token }).catch(() => null);
      calls.push({ what: 'list', from: Date.now(), to: Date.now(), status: list?.status ?? 0 });
      const next = (list?.status === 200 ? (list.body.data as { id: string; amount: number; category: { name: string } | null }[]) : []).find(
        (t) => t.amount < 0 && t.category?.name === 'Uncategorised Expense' && !categorised.has(t.id),
      );
      if (next) {
        categorised.add(next.id);
        await call('categorise', 'PATCH', '/transactions', { transactions: [{ id: next.id, categoryId: office }] }, { id: next.id, categoryId: office });
      }
      await sleep(50);
    }
  })();

  // The chaos: new bank transactions arrive (a webhook each time), then a victim dies mid-work and comes back.
  const outages: Outage[] = [];
  const victims: (ServiceName | 'gateway' | 'nats' | 'postgres')[] = ['banking', 'ledger', 'reporting', 'identity', 'gateway', 'nats', 'postgres'];
  for (const victim of victims) {
    await plaid.addTransactions(item.item_id, { count: 20, webhook: true }).catch(() => undefined);
    await sleep(300);
    const from = Date.now();
    if (victim === 'postgres') {
      // Every service's connections to its database are cut at once, as a failover or a network blip would.
      for (const db of Object.values(system.databases))
        await db.adminDb.raw(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and usename <> 'postgres'",
        );
    } else if (victim === 'nats') {
      await system.killNats();
      await sleep(1_000);
      await system.startNats();
    } else {
      await system.killService(victim);
      await sleep(1_000);
      if (victim === 'gateway') await system.startGateway();
      else await system.startService(victim);
    }
    outages.push({ victim, from, to: Date.now() });
    await sleep(1_500);
  }
  running = false;
  await client;

  // The bank's webhooks that fell into an outage were lost as real ones can be: a manual sync catches up.
  const anyAccount = await expectEventually(
    async () => {
      const r = await system.api('GET', '/accounts', { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.accounts as { id: string }[])[0]!.id;
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  );
  expect((await system.api('POST', '/transactions/sync', { token, body: { accountId: anyAccount } })).status).toBe(200);
  const bankCount = plaid.getItem(item.item_id).transaction_count;
  const bank = await expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token });
      expect(jobs.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status))).toEqual([]);
      const out: { externalId: string }[] = [];
      for (let page = 1; ; page++) {
        const r = await system.api('GET', `/bank-transactions?take=100&page=${page}`, { token });
        out.push(...(r.body.data as { externalId: string }[]));
        if (r.body.data.length < 100) break;
      }
      expect(out.length).toBe(bankCount);
      return out;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
  const duplicates = bank.length - new Set(bank.map((t) => t.externalId)).size;
  expect(duplicates).toBe(0);
  await expectEventually(async () => expect((await system.api('GET', '/transactions/v2?take=1', { token })).body.meta.itemCount).toBe(bankCount), {
    timeoutMs: 60_000,
    intervalMs: 500,
  });

  // Books = bank for every account.
  const tied = await expectEventually(
    async () => {
      const r = await system.api('GET', '/accounts', { token });
      for (const a of r.body.accounts as { subtype: string; tieOut: { status: string; difference: number } | null }[])
        expect(a.tieOut, a.subtype).toMatchObject({ status: 'matches', difference: 0 });
      return r.body.accounts as unknown[];
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );

  // Every P&L row = the ledger's own lines; the balance sheet balances.
  const ledgerDb = system.databases.ledger!.adminDb;
  const today = new Date().toISOString().slice(0, 10);
  let rowsChecked = 0;
  await expectEventually(
    async () => {
      const pl = await system.api('GET', `/financial-data/profit-loss/v3?startDate=2000-01-01&endDate=${today}&periodicity=totals_only`, { token });
      expect(pl.status).toBe(200);
      const sums = await lineSums(ledgerDb, workspaceId, '2000-01-01', today);
      const rows = accountRows(pl.body.report.data as Row[]);
      for (const r of rows) expect(cents(r.total), r.name).toBe(expected(sums, r));
      rowsChecked = rows.length;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  const bs = await system.api('GET', '/financial-data/balance-sheet/v2?startDate=2000-01-01&periodicity=totals_only', { token });
  expect(bs.status).toBe(200);
  const sheet = (function all(rows: Row[]): Row[] {
    return rows.flatMap((r) => [r, ...all(r.children)]);
  })(bs.body.data as Row[]);
  const assets = sheet.find((r) => r.name === 'Total Assets')?.total;
  expect(assets).toBeDefined();
  expect(assets).toBe(sheet.find((r) => r.name === 'Total Liabilities and Equity')?.total);

  // No 5xx or dropped connection outside an outage window.
  const inOutage = (c: Call) => outages.some((o) => c.from <= o.to + GRACE_MS && c.to >= o.from);
  const failures = calls.filter((c) => c.status === 0 || c.status >= 500);
  const outside = failures.filter((c) => !inOutage(c));
  expect(outside).toEqual([]);

  // Categorisations: what answered 200 holds; what failed is either not applied or applied whole.
  const writes = calls.filter((c) => c.categorise);
  let held = 0;
  for (const w of writes) {
    const t = await system.api('GET', `/transactions/v2/${w.categorise!.id}`, { token });
    const now = t.body.category?.id ?? t.body.categoryId;
    if (w.status === 200) {
      expect(now).toBe(w.categorise!.categoryId);
      held++;
    }
  }

  process.stdout.write(
    [
      'chaos invariants:',
      `  outages: ${outages.map((o) => `${o.victim} ${o.to - o.from} ms`).join(', ')}`,
      `  bank transactions ${bankCount} = banking ${bank.length} = ledger ${bankCount}; duplicates ${duplicates}`,
      `  accounts tied to the bank: ${tied.length} of ${tied.length}`,
      `  P&L rows = ledger lines: ${rowsChecked} rows; balance sheet: assets ${assets} = liabilities and equity`,
      `  client calls ${calls.length}, failed ${failures.length} (all inside an outage window: ${outside.length === 0})`,
      `  categorisations ${writes.length}, answered 200 and held ${held}`,
    ].join('\n') + '\n',
  );
  expect(writes.length).toBeGreaterThan(0);
}, 600_000);
