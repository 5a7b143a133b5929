// Issue #22 item 5 (decision 0042): bulk re-categorisation is one set-based reversal + re-post. A property over
// the real gateway, ledger and reporting (real PostgreSQL and NATS): a workspace of bank transactions booked through
// the ledger's consumer, a few of them finalized; then random PATCH /transactions requests — random subsets,
// repeated and overlapping, each item with its own category, sometimes naming a finalized transaction (the whole
// request is refused and changes nothing). After every request, once reporting has caught up:
//   1. every entry of the workspace balances (debits = credits, at least two lines);
//   2. every line posted before is still there, unchanged (lines are never edited; corrections are new entries);
//   3. each transaction's category is the last one a successful request gave it (or its import's), and its current
//      entry books it there; finalized transactions are untouched;
//   4. every P&L cell, by month, equals the sum of the ledger's lines behind it (report-oracle.ts);
//   5. the bank account's books balance equals the bank's balance (the sum of the amounts the bank sent), in the
//      ledger's lines and in the tie-out.
// BULK_RECATEGORISE_RUNS (default 12) random sequences; a failure prints fast-check's seed and path.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingest } from '../../services/ledger/bench/ledger-bench.js';
import { accountRows, cents, expected, type Column, type LineSums, type Row } from './report-oracle.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

const N = 120;
const FINALIZED = 6;
const FROM = '2024-01-01';
const TO = '2025-12-31';

let h: ReportingApiHarness;
let t: Tenant;
let ids: string[];
let finalized: Set<string>;
let categories: string[];
/** The category each transaction is in, as the successful requests left it. */
const model = new Map<string, string>();
/** Every line seen so far: id → its columns as first seen. */
const lines = new Map<string, string>();

/** The bank's balance: what the bench's bank sent (ledger-bench.ts publishAdded: transaction i's amount). */
const bankBalance = Array.from({ length: N }, (_, i) => (i % 5 === 0 ? 1 : -1) * (100 + ((i * 7919) % 250_000))).reduce((a, b) => a + b, 0);

const rows = async <T>(sql: string, bindings: unknown[]): Promise<T[]> => (await h.ledger.db.adminDb.raw(sql, bindings as never)).rows as T[];

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  await ingest(h, t, N);
  await h.caughtUp(t, 120_000);
  const txns = await rows<{ id: string; category_id: string }>('select id, category_id from workspace_transactions where workspace_id = ? order by id', [
    t.workspaceId,
  ]);
  ids = txns.map((x) => x.id);
  for (const x of txns) model.set(x.id, x.category_id);
  const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string; type: string }[];
  categories = ['Office Supplies', 'Travel', 'Rent', 'Sales', 'Service Revenue', 'Software and Subscriptions']
    .map((name) => cats.find((c) => c.name === name)?.id)
    .filter((x): x is string => !!x);
  expect(categories.length).toBeGreaterThanOrEqual(4);
  finalized = new Set(ids.slice(0, FINALIZED));
  const f = await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [...finalized] } });
  expect(f.status, JSON.stringify(f.body)).toBe(200);
  await remember();
}, 300_000);
afterAll(async () => h?.close());

/** Records every line of the workspace; a line seen before must be unchanged (2). */
async function remember(): Promise<void> {
  const all = await rows<{ id: string; v: string }>(
    `select id::text, concat_ws('|', entry_id, account_id, direction, amount_cents, entry_date, transaction_id, day_seq, day_net_before) as v
     from journal_lines where workspace_id = ?`,
    [t.workspaceId],
  );
  const now = new Map(all.map((r) => [r.id, r.v]));
  for (const [id, v] of lines) expect(now.get(id), `line ${id} changed or vanished`).toBe(v);
  for (const [id, v] of now) lines.set(id, v);
}

async function checkBooks(label: string): Promise<void> {
  await h.caughtUp(t, 60_000);
  // 1. Every entry balances.
  const unbalanced = await rows<{ entry_id: string }>(
    `select entry_id from journal_lines where workspace_id = ? group by entry_id
     having count(*) < 2 or sum(case when direction = 'debit' then amount_cents else -amount_cents end) <> 0`,
    [t.workspaceId],
  );
  expect(unbalanced, `unbalanced entries after ${label}`).toEqual([]);
  // 2. Posted lines unchanged.
  await remember();
  // 3. Categories as the model says, each booked by the transaction's current entry.
  const booked = await rows<{ id: string; category_id: string; booked: string | null; is_finalized: boolean }>(
    `select t.id, t.category_id, t.is_finalized,
            (select l.account_id from journal_lines l where l.entry_id = t.current_entry_id and l.account_id <> t.ledger_account_id) as booked
     from workspace_transactions t where t.workspace_id = ?`,
    [t.workspaceId],
  );
  for (const b of booked) {
    expect({ category: b.category_id, booked: b.booked }, `transaction ${b.id} after ${label}`).toEqual({ category: model.get(b.id), booked: model.get(b.id) });
    expect(b.is_finalized, `finalized flag of ${b.id}`).toBe(finalized.has(b.id));
  }
  // 4. Every P&L cell by month = the ledger's lines behind it.
  const pl = await h.api('GET', `/financial-data/profit-loss/v3?startDate=${FROM}&endDate=${TO}&periodicity=monthly`, { tenant: t });
  expect(pl.status, JSON.stringify(pl.body)).toBe(200);
  const monthly = await rows<{ account_id: string; month: string; d: string; c: string }>(
    `select account_id, to_char(entry_date, 'YYYY-MM') as month, coalesce(sum(amount_cents) filter (where direction = 'debit'), 0)::bigint as d,
            coalesce(sum(amount_cents) filter (where direction = 'credit'), 0)::bigint as c
     from journal_lines where workspace_id = ? group by 1, 2`,
    [t.workspaceId],
  );
  for (const [i, col] of (pl.body.report.columns as Column[]).entries()) {
    const sums: LineSums = new Map();
    for (const r of monthly) if (r.month === col.startDate.slice(0, 7)) sums.set(r.account_id, { d: Number(r.d), c: Number(r.c) });
    for (const r of accountRows(pl.body.report.data as Row[]))
      expect(cents(r.amounts[i] ?? NaN), `${r.name} ${col.startDate} after ${label}`).toBe(expected(sums, r));
  }
  // 5. Bank = books, in the lines and in the tie-out.
  const [bank] = await rows<{ net: string }>(
    `select coalesce(sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end), 0)::bigint as net
     from journal_lines l join accounts a on a.id = l.account_id where l.workspace_id = ? and a.bank_account_id is not null`,
    [t.workspaceId],
  );
  expect(Number(bank?.net), `bank account's lines after ${label}`).toBe(bankBalance);
  const tie = await h.ledger.client.getBankTieOut({}, h.ledger.as(t.workspaceId));
  expect(
    tie.accounts.map((a) => Number(a.booksBalanceCents)),
    `tie-out after ${label}`,
  ).toEqual([bankBalance]);
}

it('random, repeated and overlapping bulk re-categorisations keep every entry balanced, posted lines unchanged, reports = lines and bank = books', async () => {
  await checkBooks('the import');
  const request = fc.record({
    // Indexes into the open transactions (a request names each transaction once; subsets of any size, so requests overlap).
    picks: fc.uniqueArray(fc.integer({ min: FINALIZED, max: N - 1 }), { minLength: 1, maxLength: N - FINALIZED }),
    // One request in five also names a finalized transaction, somewhere among its items.
    finalizedAt: fc.option(fc.tuple(fc.nat({ max: FINALIZED - 1 }), fc.nat()), { freq: 4 }),
    categoryOf: fc.array(fc.nat({ max: 5 }), { minLength: N, maxLength: N }),
    // The same request sent again right after (an idempotent repeat: nothing new is posted).
    repeat: fc.boolean(),
  });
  let step = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 3 }), async (requests) => {
      for (const r of requests) {
        step++;
        const picks = [...r.picks];
        if (r.finalizedAt) picks.splice(r.finalizedAt[1] % (picks.length + 1), 0, r.finalizedAt[0]);
        const items = picks.map((i) => ({ id: ids[i]!, categoryId: categories[r.categoryOf[i]! % categories.length]! }));
        const refused = items.some((it) => finalized.has(it.id));
        const sends = r.repeat ? 2 : 1;
        for (let s = 0; s < sends; s++) {
          const before = lines.size;
          const res = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: items } });
          if (refused) {
            expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
            expect(res.status).toBeLessThan(500);
            expect(res.body.appErrorCode).toBe('TRANSACTION_FINALIZED');
          } else {
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            for (const it of items) model.set(it.id, it.categoryId);
          }
          await checkBooks(`request ${step}${s ? ' (repeated)' : ''} of ${items.length} items${refused ? ' (refused)' : ''}`);
          // A repeat, or a refused request, posts nothing.
          if (s > 0 || refused) expect(lines.size, `lines posted by request ${step}`).toBe(before);
        }
      }
    }),
    { numRuns: Number(process.env.BULK_RECATEGORISE_RUNS ?? 12), endOnFailure: true },
  );
}, 900_000);
