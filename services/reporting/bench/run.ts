// `npm run bench -- reporting` (or `npm run bench -w @ledgerline/reporting`): the reporting benchmark,
// written with the machine, its load and the data size to bench-results/reporting.{md,json}.
// BENCH_REPORTING_ENTRIES (default 1,000,000 entries, 2,000,000 lines; the data set is generated once per
// size and reused), BENCH_REPORTING_CHUNK (entries per ledger posting transaction, default 5,000),
// BENCH_REPORTING_TIME_SCALE (multiplies each scenario's seconds, default 1), BENCH_REPORTING_FRESH=1 (drop
// the kept data set of that size and generate it again). Missed targets are reported
// as FAIL; the command itself fails only when the bench cannot run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { benchReporting } from './reporting-bench.js';

const entries = Number(process.env.BENCH_REPORTING_ENTRIES ?? 1_000_000);
const chunk = Number(process.env.BENCH_REPORTING_CHUNK ?? 5_000);
const timeScale = Number(process.env.BENCH_REPORTING_TIME_SCALE ?? 1);
const fresh = process.env.BENCH_REPORTING_FRESH === '1';
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const loadBefore = load();
const started = performance.now();
const r = await benchReporting({ entries, chunk, timeScale, fresh, log: (line) => process.stderr.write(`reporting bench: ${line}\n`) });
const loadAfter = load();
const fmt = (n: number) => n.toLocaleString('en-US');
const stageRow = (what: string, s: { entries: number; seconds: number; wallSeconds?: number; entriesPerSecond: number; resumed?: boolean; events?: number }) =>
  `| ${what} | ${fmt(s.entries)}${s.events !== undefined ? ` (in ${fmt(s.events)} events)` : ''} | ${s.seconds} s | ${s.wallSeconds ?? s.seconds} s | ${fmt(s.entriesPerSecond)}${s.resumed ? ' (resumed: part was done by an earlier run)' : ''} |`;
const body = [
  `## Data set`,
  '',
  `${fmt(r.entries)} two-line entries (${fmt(r.lines)} lines), ${r.accounts} postable accounts, 2023-01-01..2025-12-31, one workspace; ${r.reused ? `reused (generated ${r.generatedAt})` : `generated in this run (${r.generatedAt})`}.`,
  '',
  '| stage | entries | active time | wall time (with process start) | entries/s (active) |',
  '|---|---|---|---|---|',
  stageRow('ledger posting (`postEntries`, chunks of one transaction, ledger and reporting stopped)', r.stages.posting),
  stageRow('ledger outbox relay → JetStream (entries.posted, up to 500 entries an event)', r.stages.relay),
  stageRow('reporting consumer → day and month balances', r.stages.apply),
  '',
  r.check
    ? `reporting's check (read model = the ledger's general ledger): ${r.check.ok ? 'passed' : 'FAILED'} in ${r.check.seconds} s.`
    : "reporting's check ran when the data set was generated.",
  '',
  `Busiest account (general-ledger scenarios): ${fmt(r.busiestAccount.lines)} lines, ${fmt(r.busiestAccount.pages)} pages of 100.`,
  '',
  '## Through the gateway (autocannon, load-tests/scenarios/reporting.json)',
  '',
  '| scenario | connections | requests | errors | req/s | p50 ms | p90 ms | p99 ms | max ms |',
  '|---|---|---|---|---|---|---|---|---|',
  ...r.http.map((x) => `| ${x.name} | ${x.connections} | ${x.requests} | ${x.errors} | ${x.rps} | ${x.p50} | ${x.p90} | ${x.p99} | ${x.max} |`),
  '',
  '## Directly in PostgreSQL',
  '',
  '| query | p50 ms | p90 ms |',
  '|---|---|---|',
  ...r.direct.map((x) => `| ${x.name} | ${x.p50} | ${x.p90} |`),
  '',
  `Read model vs GROUP BY: ${r.speedup.throughGateway}× faster through the gateway (P&L 2025 by month, p50 at 1 connection, HTTP and both services included), ${r.speedup.throughGatewayCachesOff}× with the report caches off (the report built on every request), ${r.speedup.queryAlone}× for the read-model query alone.`,
  '',
  '## Targets (issue #5)',
  '',
  '| scenario | figure | target | measured | |',
  '|---|---|---|---|---|',
  ...r.thresholds.map((t) => `| ${t.scenario} | ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'PASS' : 'FAIL'} |`),
].join('\n');
const today = new Date().toISOString().slice(0, 10);
const setup = `Identity (a signed-up user's session), the ledger, reporting and the gateway each in its own Node process (src/main.ts, NODE_ENV=production, from source through tsx, no OpenTelemetry); PostgreSQL, NATS JetStream and the load runner (autocannon, in the bench process) on the same machine. Load average (1, 5, 15 min) before: ${loadBefore}; after: ${loadAfter}. Whole run: ${Math.round((performance.now() - started) / 1000)} s.`;
const report = `# Reporting: read model and reports at ${fmt(r.lines)} lines\n\nMeasured ${today} on ${machine}.\n${setup}\n\n${body}\n`;
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/reporting.md', report);
writeFileSync('bench-results/reporting.json', `${JSON.stringify({ machine, date: today, loadBefore, loadAfter, result: r }, null, 2)}\n`);
process.stdout.write(report);
