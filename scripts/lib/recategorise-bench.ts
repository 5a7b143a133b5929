// Bulk re-categorisation to the P&L (issue #22 "Must show"): `n` transactions re-categorised through the gateway
// in one PATCH /transactions, timed from the request until GET of the P&L shows the new figures (the target
// category's cell holds every moved amount). `npm run bench -- recategorise` calls `benchRecategorise`.
import type { Knex } from 'knex';
import { ingest } from '../../services/ledger/bench/ledger-bench.js';
import { accountRows, cents, expected, lineSums, type Row } from '../../tests/api/report-oracle.js';
import { startReportingHarness } from '../../tests/api/reporting.harness.js';

export interface RecategoriseRun {
  /** The category the run moved every transaction into. */
  category: string;
  /** From the PATCH request to its answer (the ledger's reversal + re-post committed). */
  answeredMs: number;
  /** From the PATCH request until the P&L showed the new figure (the headline). */
  visibleMs: number;
  /** GETs of the P&L until it did. */
  polls: number;
}

export interface RecategoriseResult {
  /** Transactions in the workspace (booked and projected before the runs). */
  transactions: number;
  /** Transactions re-categorised per request. */
  recategorised: number;
  runs: RecategoriseRun[];
  p50Ms: number;
  maxMs: number;
  answeredP50Ms: number;
  /** Seconds to book the workspace's transactions through the ledger's consumer (set-up, not timed). */
  seedBookedSeconds: number;
  /** After the last run, every P&L cell of the range equals the ledger's own lines (the report oracle). */
  pnlEqualsLines: boolean;
}

const FROM = '2024-01-01';
const TO = '2025-12-31';
const PNL = `/financial-data/profit-loss/v3?startDate=${FROM}&endDate=${TO}&periodicity=totals_only`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The moved transactions' category-side amounts (debit − credit, cents) not already in `target`: what `target`'s expense cell gains. */
async function moving(admin: Knex, workspaceId: string, ids: string[], target: string): Promise<number> {
  const row = (
    await admin.raw(
      `select coalesce(sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end), 0)::bigint as n
       from workspace_transactions t join journal_lines l on l.entry_id = t.current_entry_id
       where t.workspace_id = ? and t.id = any(?::uuid[]) and l.account_id <> t.ledger_account_id and l.account_id <> ?`,
      [workspaceId, ids, target],
    )
  ).rows[0] as { n: string };
  return Number(row.n);
}

export async function benchRecategorise(options: {
  transactions: number;
  recategorise: number;
  runs: number;
  log?: (line: string) => void;
}): Promise<RecategoriseResult> {
  const log = options.log ?? (() => undefined);
  const h = await startReportingHarness();
  try {
    const t = h.tenant();
    const seeded = await ingest(h, t, options.transactions);
    log(`recategorise: ${options.transactions} transactions booked in ${seeded.bookedSeconds} s`);
    await h.caughtUp(t, 600_000);
    const admin = h.ledger.db.adminDb;
    const ids: string[] = [];
    for (let page = 1; ids.length < options.recategorise; page++) {
      const r = await h.api('GET', `/transactions/v2?take=100&page=${page}`, { tenant: t });
      if (r.status !== 200 || r.body.data.length === 0) throw new Error(`GET /transactions/v2 answered ${r.status}`);
      ids.push(...(r.body.data as { id: string }[]).map((x) => x.id));
    }
    ids.length = options.recategorise;
    const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string; type: string }[];
    const targets = ['Office Supplies', 'Travel'].map((name) => {
      const c = cats.find((x) => x.name === name && x.type === 'Expenses');
      if (!c) throw new Error(`expense category ${name} not found`);
      return c;
    });
    const cell = (body: { report: { data: Row[] } }, id: string) => {
      const row = accountRows(body.report.data).find((r) => r.id === id);
      return row ? cents(row.total) : 0;
    };
    const runs: RecategoriseRun[] = [];
    for (let run = 0; run < options.runs; run++) {
      const target = targets[run % targets.length]!;
      const before = await h.api('GET', PNL, { tenant: t });
      if (before.status !== 200) throw new Error(`GET P&L answered ${before.status}`);
      const want = cell(before.body, target.id) + (await moving(admin, t.workspaceId, ids, target.id));
      const body = { transactions: ids.map((id) => ({ id, categoryId: target.id })) };
      const t0 = performance.now();
      const patched = await h.api('PATCH', '/transactions', { tenant: t, body });
      const answered = performance.now();
      if (patched.status !== 200) throw new Error(`PATCH /transactions answered ${patched.status} ${JSON.stringify(patched.body).slice(0, 300)}`);
      let polls = 0;
      for (;;) {
        polls++;
        const r = await h.api('GET', PNL, { tenant: t });
        if (r.status === 200 && cell(r.body, target.id) === want) break;
        if (performance.now() - t0 > 120_000) throw new Error(`the P&L did not show run ${run} within 120 s`);
      }
      const visible = performance.now();
      runs.push({ category: target.name, answeredMs: Math.round(answered - t0), visibleMs: Math.round(visible - t0), polls });
      log(`recategorise run ${run}: ${JSON.stringify(runs.at(-1))}`);
    }
    // The figure the runs waited for is the whole truth: every cell equals the ledger's lines.
    const pl = await h.api('GET', PNL, { tenant: t });
    const sums = await lineSums(admin, t.workspaceId, FROM, TO);
    const pnlEqualsLines = accountRows(pl.body.report.data as Row[]).every((r) => cents(r.total) === expected(sums, r));
    const visible = runs.map((r) => r.visibleMs);
    return {
      transactions: options.transactions,
      recategorised: ids.length,
      runs,
      p50Ms: median(visible),
      maxMs: Math.max(...visible),
      answeredP50Ms: median(runs.map((r) => r.answeredMs)),
      seedBookedSeconds: seeded.bookedSeconds,
      pnlEqualsLines,
    };
  } finally {
    await h.close();
  }
}

/** The report's table. */
export function recategoriseTable(r: RecategoriseResult): string {
  return [
    '| transactions in the workspace | re-categorised per request | runs: visible in the P&L (ms) | p50 ms | max ms | goal | PATCH answered, p50 ms | P&L = ledger lines after the runs |',
    '|---|---|---|---|---|---|---|---|',
    `| ${r.transactions} | ${r.recategorised} | ${r.runs.map((x) => x.visibleMs).join(', ')} | **${r.p50Ms}** | ${r.maxMs} | ≤ 150 ms | ${r.answeredP50Ms} | ${r.pnlEqualsLines ? 'yes' : 'NO'} |`,
    '',
    'Each run moves the same transactions into the other of two expense categories (Office Supplies, Travel). "Visible": from sending PATCH /transactions until a GET of the P&L (totals, the whole range) through the gateway shows the target category\'s cell with every moved amount in it; the P&L is polled back to back. "Answered": until PATCH answered (the ledger committed the reversals and new entries).',
  ].join('\n');
}
