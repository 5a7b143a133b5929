// Issue #22 "Must show", RELIABILITY 5 on the batched ingest path (decision 0037), in the dist layer only: every
// service runs from its built dist/ as its own process (scripts/lib/service-process.ts), so it can be killed -9.
// A sandbox item of N transactions is linked through the gateway (Plaid sandbox → banking → one
// bank_transactions.page per sync page → the ledger books a page in one transaction → entries.posted batches →
// reporting applies batches). While the import runs, the ledger and then reporting are killed with SIGKILL at a
// seeded random point (each once some but not all of its work was done) and started again; once everything has
// caught up:
// - banking's transactions = the ledger's booked transactions = its live WorkspaceTransaction entries = those
//   reporting has applied, each bank transaction once (no duplicate row, no second live entry);
// - reporting applied exactly the ledger's entries (no more, no fewer);
// - every P&L and balance-sheet cell, month by month, equals a recomputation from the ledger's own lines.
// IMPORT_CRASH_TRANSACTIONS sizes it (the figure: 100,000); IMPORT_CRASH_SEED repeats a run.
import { expectEventually } from '@ledgerline/platform/testing';
import type { Knex } from '@ledgerline/platform';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';
import { accountRows, cents, expected, lineSums, netIncomeOf, type Column, type Row } from '../api/report-oracle.js';

const TOTAL = Number(process.env.IMPORT_CRASH_TRANSACTIONS ?? 3_000);
const SEED = Number(process.env.IMPORT_CRASH_SEED ?? Date.now() % 1_000_000);
const PLATYPUS = 'ins_109508'; // checking, savings and a credit card

/** mulberry32 over the seed: the kill delays of a run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = async (db: Knex, sql: string, bindings: readonly unknown[] = []) =>
  Number(((await db.raw(sql, bindings as Knex.RawBinding[])).rows[0] as { n: string | number }).n);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

let system: System;
beforeAll(async () => {
  if (process.env.LEDGERLINE_STACK !== 'dist') throw new Error('the import crash test kills service processes: run it in the dist layer (npm test -- dist)');
  // The production lease of a sync job: a page that takes long under load is not handed to a second worker.
  system = await startSystem({ banking: true, ledger: true, reporting: true, bankingEnv: { SYNC_ACK_WAIT_MS: '600000' } });
});
afterAll(async () => system?.stop());

it(`kill -9 of reporting and of the ledger mid-import of ${TOTAL} bank transactions (seed ${SEED}): bank = ledger = reporting, once each; every report = the lines`, async () => {
  const next = random(SEED);
  const banking = system.bankingDb!.adminDb;
  const ledger = system.ledgerDb!.adminDb;
  const reporting = system.reportingDb!.adminDb;
  const { token, user } = await signedUpUser(system);
  const workspaceId = user.workspace.id;
  const plaid = system.plaid!;
  const publicToken = plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    // Transfers between the item's accounts (default on): the ledger re-books pairs too, inside the crashes.
    options: { ledgerline: { transactions: TOTAL, seed: SEED, pending_days: 0, initial_webhook: false } },
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
  const linked = await system.api('POST', '/accounts', {
    token,
    body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);

  const booked = () => count(ledger, 'select count(*) as n from workspace_transactions where workspace_id = ?', [workspaceId]);
  const entries = () => count(ledger, 'select count(*) as n from journal_entries where workspace_id = ?', [workspaceId]);
  const projected = () => count(reporting, 'select count(*) as n from projected_entries where workspace_id = ?', [workspaceId]);

  // The ledger: killed once it has booked a first page, after a random 0–200 ms more (a page is one database
  // transaction: the kill lands between pages or inside one).
  await expectEventually(async () => expect(await booked()).toBeGreaterThan(0), { timeoutMs: 120_000, intervalMs: 10 });
  await sleep(Math.floor(next() * 200));
  await system.killService('ledger');
  const ledgerKill = { booked: await booked() };
  await sleep(500);
  await system.startService('ledger');

  // Reporting: killed while it has a backlog (it applied some entries, the ledger has posted more), after a random
  // 0–100 ms more of its work; again (up to three times) if it had caught up by the kill.
  let reportingKill = { projected: 0, entries: 0, attempts: 0 };
  do {
    await expectEventually(
      async () => {
        const applied = await projected();
        expect(applied).toBeGreaterThan(0);
        expect(applied).toBeLessThan(await entries());
      },
      { timeoutMs: 120_000, intervalMs: 10 },
    );
    await sleep(Math.floor(next() * 100));
    const posted = await entries();
    await system.killService('reporting');
    reportingKill = { projected: await projected(), entries: posted, attempts: reportingKill.attempts + 1 };
    await sleep(500);
    await system.startService('reporting');
  } while (reportingKill.projected >= reportingKill.entries && reportingKill.attempts < 3);

  // Everything catches up: the sync completed, both outboxes relayed, every transaction booked, every entry applied.
  const bankCount = () => count(banking, 'select count(*) as n from bank_transactions where workspace_id = ? and removed_at is null', [workspaceId]);
  await expectEventually(
    async () => {
      expect(await count(banking, "select count(*) as n from sync_jobs where workspace_id = ? and status <> 'completed'", [workspaceId])).toBe(0);
      expect(await bankCount()).toBe(TOTAL);
      expect(await count(banking, 'select count(*) as n from outbox where published_at is null')).toBe(0);
      expect(await booked()).toBe(TOTAL);
      expect(await count(ledger, 'select count(*) as n from outbox where published_at is null')).toBe(0);
      expect(await projected()).toBe(await entries());
    },
    { timeoutMs: Math.max(240_000, TOTAL * 10), intervalMs: 500 },
  );
  // The kills landed mid-work: some but not all of each service's work was done.
  expect(reportingKill.projected).toBeGreaterThan(0);
  expect(reportingKill.projected).toBeLessThan(reportingKill.entries);
  expect(ledgerKill.booked).toBeGreaterThan(0);
  expect(ledgerKill.booked).toBeLessThan(TOTAL);

  // Bank = ledger = reporting, each bank transaction once.
  expect(await count(banking, 'select count(distinct (account_id, external_id)) as n from bank_transactions where workspace_id = ?', [workspaceId])).toBe(
    TOTAL,
  );
  expect(
    await count(ledger, 'select count(distinct bank_transaction_id) as n from workspace_transactions where workspace_id = ? and not is_removed', [workspaceId]),
  ).toBe(TOTAL);
  // Each booked transaction has one live entry (not reversed, not a reversal), and it is the one the row points to.
  const live = (
    await ledger.raw(
      `select e.id, e.transaction_id, t.current_entry_id from journal_entries e
       left join workspace_transactions t on t.id = e.transaction_id
       where e.workspace_id = ? and e.source_type = 'WorkspaceTransaction' and e.reverses_entry_id is null
         and not exists (select 1 from journal_entries r where r.reverses_entry_id = e.id)`,
      [workspaceId],
    )
  ).rows as { id: string; transaction_id: string; current_entry_id: string | null }[];
  const zero = await count(ledger, 'select count(*) as n from workspace_transactions where workspace_id = ? and amount_cents = 0', [workspaceId]);
  expect(live.length).toBe(TOTAL - zero);
  expect(new Set(live.map((e) => e.transaction_id)).size).toBe(live.length);
  expect(live.filter((e) => e.current_entry_id !== e.id)).toEqual([]);
  // Reporting applied every live entry, and exactly the ledger's entries: as many, none twice (entry_id is its key).
  const seen = await count(reporting, 'select count(*) as n from projected_entries where workspace_id = ? and entry_id = any(?::uuid[])', [
    workspaceId,
    live.map((e) => e.id),
  ]);
  expect(seen).toBe(live.length);
  expect(await projected()).toBe(await entries());
  const lines = await count(ledger, 'select count(*) as n from journal_lines where workspace_id = ?', [workspaceId]);
  expect(await count(reporting, 'select coalesce(sum(line_count), 0) as n from balances_monthly where workspace_id = ?', [workspaceId])).toBe(lines);

  // Every report, month by month over the whole history, = the ledger's lines.
  const span = (
    await ledger.raw(
      "select to_char(min(entry_date), 'YYYY-MM-DD') as first, to_char(max(entry_date), 'YYYY-MM-DD') as last from journal_entries where workspace_id = ?",
      [workspaceId],
    )
  ).rows[0] as { first: string; last: string };
  const start = `${span.first.slice(0, 7)}-01`;
  const query = `startDate=${start}&endDate=${span.last}&periodicity=monthly`;
  const types = new Map(((await system.api('GET', '/categories', { token })).body.categories as { id: string; type: string }[]).map((c) => [c.id, c.type]));
  const pl = await system.api('GET', `/financial-data/profit-loss/v3?${query}`, { token });
  expect(pl.status, JSON.stringify(pl.body)).toBe(200);
  const plColumns = pl.body.report.columns as Column[];
  expect(plColumns.length).toBeGreaterThan(1);
  let cells = 0;
  for (const [i, col] of plColumns.entries()) {
    const sums = await lineSums(ledger, workspaceId, col.startDate, col.endDate);
    for (const r of accountRows(pl.body.report.data as Row[])) {
      expect(cents(r.amounts[i] ?? NaN), `P&L ${r.name} ${col.startDate}..${col.endDate}`).toBe(expected(sums, r));
      cells++;
    }
  }
  const bs = await system.api('GET', `/financial-data/balance-sheet/v2?${query}`, { token });
  expect(bs.status, JSON.stringify(bs.body)).toBe(200);
  const sheet = bs.body.data as Row[];
  const row = (name: string) => sheet.find((r) => r.name === name) as Row;
  for (const [i, col] of (bs.body.columns as Column[]).entries()) {
    expect(cents(row('Total Assets').amounts[i] ?? NaN)).toBe(cents(row('Total Liabilities and Equity').amounts[i] ?? NaN));
    const sums = await lineSums(ledger, workspaceId, '0001-01-01', col.endDate);
    for (const r of accountRows(sheet).filter((x) => x.type !== 'Equity')) {
      expect(cents(r.amounts[i] ?? NaN), `balance sheet ${r.name} as of ${col.endDate}`).toBe(expected(sums, r));
      cells++;
    }
    // Retained Earnings closes the earlier fiscal years into itself; Net Income is this fiscal year's.
    const fiscalYear = `${col.endDate.slice(0, 4)}-01-01`;
    const earlier = await lineSums(ledger, workspaceId, '0001-01-01', addDays(fiscalYear, -1));
    const retained = accountRows(sheet).find((r) => r.name === 'Retained Earnings') as Row;
    expect(cents(retained.amounts[i] ?? NaN), `retained earnings as of ${col.endDate}`).toBe(expected(sums, retained) + netIncomeOf(earlier, types));
    expect(cents(row('Net Income').amounts[i] ?? NaN), `net income as of ${col.endDate}`).toBe(
      netIncomeOf(await lineSums(ledger, workspaceId, fiscalYear, col.endDate), types),
    );
  }

  process.stdout.write(
    [
      `import crash (seed ${SEED}):`,
      `  reporting killed at ${reportingKill.projected} of ${reportingKill.entries} entries then posted (attempt ${reportingKill.attempts}); ledger killed at ${ledgerKill.booked} of ${TOTAL} transactions booked`,
      `  bank ${TOTAL} = ledger booked ${TOTAL}; live entries ${live.length} (+${zero} of amount 0, no entry) = applied by reporting ${seen}; entries ${await entries()}, lines ${lines}`,
      `  report cells = ledger lines: ${cells} (${plColumns.length} months)`,
    ].join('\n') + '\n',
  );
}, 600_000);
