// `npm run bench -w @ledgerline/reporting`: the reporting suite, written with the machine, its load and the
// data size to bench-results/reporting.{md,json}. BENCH_REPORTING_ENTRIES (default 100,000 entries,
// 200,000 lines) and BENCH_REPORTING_ACCOUNTS (extra accounts on top of the default chart, default 220).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { benchReporting } from './reporting-bench.js';

const entries = Number(process.env.BENCH_REPORTING_ENTRIES ?? 100_000);
const extraAccounts = Number(process.env.BENCH_REPORTING_ACCOUNTS ?? 220);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
const loadBefore = loadavg().map((x) => x.toFixed(1)).join(' ');
const r = await benchReporting({ entries, extraAccounts, log: (line) => process.stderr.write(`${line}\n`) });
const loadAfter = loadavg().map((x) => x.toFixed(1)).join(' ');
const body = [
  '## (a) entry.posted → balances by day and by month',
  '',
  '| entries | lines | published in | applied in | entries/s | lines/s | monthly rows | daily rows |',
  '|---|---|---|---|---|---|---|---|',
  `| ${r.entries} | ${r.lines} | ${r.projector.publishedSeconds} s | ${r.projector.appliedSeconds} s | ${r.projector.entriesPerSecond} | ${r.projector.linesPerSecond} | ${r.projector.monthlyRows} | ${r.projector.dailyRows} |`,
  '',
  '## (b) Reports through the gateway',
  '',
  '| scenario | connections | requests | errors | req/s | p50 ms | p90 ms | p99 ms |',
  '|---|---|---|---|---|---|---|---|',
  ...r.http.map((x) => `| ${x.name} | ${x.connections} | ${x.requests} | ${x.errors} | ${x.rps} | ${x.p50} | ${x.p90} | ${x.p99} |`),
  '',
  '## (c) Directly in PostgreSQL: what computing on the fly costs, and the read model query alone',
  '',
  '| query | p50 ms | p90 ms |',
  '|---|---|---|',
  ...r.direct.map((x) => `| ${x.name} | ${x.p50} | ${x.p90} |`),
].join('\n');
const today = new Date().toISOString().slice(0, 10);
const data = `one workspace, ${r.accounts} postable accounts, ${r.entries} two-line entries over 2023–2025 published as the ledger's relay publishes entry.posted; gateway (fake identity), ledger (chart of accounts), reporting, PostgreSQL and NATS on the same machine; the load runner in the same process (scripts/lib/load.ts). Load average before/after: ${loadBefore} / ${loadAfter}.`;
const report = `# Reporting: read model and reports\n\nMeasured ${today} on ${machine}.\nData: ${data}\n\n${body}\n`;
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/reporting.md', report);
writeFileSync('bench-results/reporting.json', `${JSON.stringify({ machine, date: today, loadBefore, loadAfter, result: r }, null, 2)}\n`);
process.stdout.write(report);
