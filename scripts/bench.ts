// `npm run bench`: measured figures, written with the machine and the data size to bench-results/.
// `npm run bench -- identity`, `-- banking`, `-- ledger`, `-- reporting` or `-- web` runs one suite.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { startPlaidSandbox } from '@ledgerline/plaid-sandbox';
import { measure, type LoadResult } from './lib/load.js';
import { signedUpUser, startSystem } from '../tests/support/system.js';
import { benchSyncThroughput } from '../services/banking/bench/sync-throughput.js';
import { benchLedger } from '../services/ledger/bench/ledger-bench.js';
import { benchWeb, webReport } from './lib/web-bench.js';

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
const today = new Date().toISOString().slice(0, 10);
const wanted = new Set(process.argv.slice(2));
const runs = (suite: string) => wanted.size === 0 || wanted.has(suite);

function write(name: string, title: string, data: string, body: string, json: unknown): void {
  const report = `# ${title}\n\nMeasured ${today} on ${machine}.\nData: ${data}\n\n${body}\n`;
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(`bench-results/${name}.md`, report);
  writeFileSync(`bench-results/${name}.json`, `${JSON.stringify({ machine, date: today, ...(json as object) }, null, 2)}\n`);
  console.log(report);
}

/** Identity through the gateway: the session check every API call pays, and a password sign-in. */
async function identitySuite(): Promise<void> {
  const system = await startSystem({ gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '10000000', RATE_LIMIT_LOGIN_MAX: '10000000', RATE_LIMIT_CODE_MAX: '10000000' } });
  const results: LoadResult[] = [];
  try {
    const users: Array<Awaited<ReturnType<typeof signedUpUser>>> = [];
    for (let n = 0; n < 20; n++) users.push(await signedUpUser(system));
    let i = 0;
    const anyUser = async () => (await system.api('GET', '/users/me', { token: users[i++ % users.length]!.token })).status === 200;
    results.push(await measure({ name: 'GET /users/me (session cached at the gateway)', connections: 1, seconds: 8, send: anyUser }));
    results.push(await measure({ name: 'GET /users/me (session cached at the gateway)', connections: 8, seconds: 8, send: anyUser }));
    const login = async () => (await system.api('POST', '/login', { body: { email: users[i++ % users.length]!.email, password: 'Sup3rSecret' } })).status === 200;
    results.push(await measure({ name: 'POST /login (argon2id verify, new session)', connections: 2, seconds: 8, send: login, warmup: 4 }));
  } finally {
    await system.stop();
  }
  const table = [
    '| scenario | connections | requests | errors | req/s | p50 ms | p90 ms | p99 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.name} | ${r.connections} | ${r.requests} | ${r.errors} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} |`),
  ].join('\n');
  write('identity', 'Identity through the gateway', '20 signed-up users in a fresh identity database; the gateway, identity, PostgreSQL and NATS on the same machine; the load runner in the same process (scripts/lib/load.ts).', table, { results });
}

/** Banking: transactions per second from the Plaid sandbox to stored raw transactions and published events. */
async function bankingSuite(): Promise<void> {
  const sandbox = await startPlaidSandbox({ port: 0 });
  try {
    // BENCH_BANKING_TRANSACTIONS makes a quick check of the bench itself; the recorded figure is at 100,000.
    const transactions = Number(process.env.BENCH_BANKING_TRANSACTIONS ?? 100_000);
    const result = await benchSyncThroughput({ plaidUrl: sandbox.url, clientId: sandbox.clientId, secret: sandbox.secret, transactions });
    const table = [
      '| transactions | stored in | stored/s | stored and published in | transactions/s (headline) |',
      '|---|---|---|---|---|',
      `| ${result.transactions} | ${result.storedSeconds} s | ${result.storedPerSecond} | ${result.publishedSeconds} s | ${result.transactionsPerSecond} |`,
    ].join('\n');
    write('banking-sync', 'Banking: transaction sync throughput', `one sandbox item (First Platypus Bank: checking, savings, credit card) with ${transactions} transactions, synced through the official plaid SDK in pages of 500; each page is one database transaction (rows, cursor, outbox); the relay publishes to JetStream. Sandbox, banking, PostgreSQL and NATS on the same machine.`, table, { result });
  } finally {
    await sandbox.close();
  }
}

/** Ledger: ingest through the consumer, bulk re-categorise and general-ledger pages through the gateway. */
async function ledgerSuite(): Promise<void> {
  // Small-N knobs make a quick check of the bench itself; the recorded figures use the defaults.
  const transactions = Number(process.env.BENCH_LEDGER_TRANSACTIONS ?? 100_000);
  const glLines = Number(process.env.BENCH_LEDGER_GL_LINES ?? 200_000);
  const sweepTransactions = Number(process.env.BENCH_LEDGER_SWEEP_TRANSACTIONS ?? 3_000);
  const concurrency = Number(process.env.LEDGER_CONSUMER_CONCURRENCY ?? 4);
  const r = await benchLedger({ transactions, sweepTransactions, concurrency, recategorise: 1_000, glLines, log: (line) => console.log(line) });
  const body = [
    '## (a) Ingest: bank_transaction.added on JetStream → the ledger consumer → balanced entries',
    '',
    `Headline with adds batched (LEDGER_INGEST_BATCH=${process.env.LEDGER_INGEST_BATCH ?? '256, the default'}: up to that many pending events of a workspace in one database transaction, set-based; 1 = one transaction per event) at consumer concurrency ${r.concurrency} (LEDGER_CONSUMER_CONCURRENCY, which then applies to modifications and removals).`,
    '',
    '| transactions | published in | booked in | transactions/s (headline) | journal lines |',
    '|---|---|---|---|---|',
    `| ${r.ingest.transactions} | ${r.ingest.publishedSeconds} s | ${r.ingest.bookedSeconds} s | ${r.ingest.transactionsPerSecond} | ${r.ingest.lines} |`,
    '',
    'The same on a fresh ledger per row, by consumer concurrency (adds batched as above; concurrency is how many batches or single events are applied at once):',
    '',
    '| concurrency | transactions | booked in | transactions/s |',
    '|---|---|---|---|',
    ...r.sweep.map((x) => `| ${x.concurrency} | ${x.transactions} | ${x.bookedSeconds} s | ${x.transactionsPerSecond} |`),
    '',
    '## (b) Bulk re-categorise through the gateway (PATCH /transactions, one request)',
    '',
    '| transactions per request | runs (ms) | p50 ms | max ms | failed runs |',
    '|---|---|---|---|---|',
    `| ${r.recategorise.transactions} | ${r.recategorise.runs.join(', ')} | ${r.recategorise.p50} | ${r.recategorise.max} | ${r.recategorise.failures.join('; ') || 'none'} |`,
    '',
    `## (c) General-ledger pages of one account with ${r.glLines} lines (GET /ledger/get-ledger-transactions, 1 connection)`,
    '',
    `Seeded in ${r.seedSeconds} s (set-based SQL in chunks of whole days, through the tables' triggers).`,
    '',
    '| take | page | first line | requests | p50 ms | p90 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|---|---|',
    ...r.pages.map((p) => `| ${p.take} | ${p.page} | ${p.firstLine} | ${p.requests} | ${p.p50} | ${p.p90} | ${p.p99} | ${p.errors} |`),
    '',
    'For comparison, the same pages with OFFSET (and a window for the running balance) timed directly in PostgreSQL:',
    '',
    '| take | page | p50 ms |',
    '|---|---|---|',
    ...r.offsetSql.map((o) => `| ${o.take} | ${o.page} | ${o.p50} |`),
  ].join('\n');
  write('ledger', 'Ledger: ingest, bulk re-categorise, general-ledger pages', `${transactions} bank transactions over two years (10 merchants) in one workspace with one bank account; ${glLines} lines on one account (Cash and Cash Equivalents) of another workspace over two years. Gateway (fake identity), ledger, PostgreSQL and NATS on the same machine; the load runner in the same process (scripts/lib/load.ts).`, body, { result: r });
}

/** The web app in Chromium with a cold cache: compressed JavaScript per route and the dashboard's time to draw. */
async function webSuite(): Promise<void> {
  // Needs the built frontends (npm run build -w @ledgerline/settings -w @ledgerline/accounting -w @ledgerline/reports -w @ledgerline/shell).
  const runs = Number(process.env.BENCH_WEB_RUNS ?? 5);
  const transactions = Number(process.env.BENCH_WEB_TRANSACTIONS ?? 200);
  // The machine is shared: the load average says how quiet it was (timings move with it, bytes do not).
  const load = loadavg().map((x) => x.toFixed(2)).join(' / ');
  const throttledRuns = Number(process.env.BENCH_WEB_THROTTLED_RUNS ?? 3);
  const result = await benchWeb({ transactions, runs, throttledRuns, log: (line) => console.log(line) });
  const { body, summary } = webReport(result);
  write('web', 'Web app: compressed bytes and time to draw, cold cache', `the production build of the shell and the settings, accounting and reports remotes served by frontends/shell/server/serve.ts (precompressed br/gzip); Debian's Chromium (headless, playwright-core) on the same machine as the gateway, identity, banking, ledger, reporting, PostgreSQL, NATS and the Plaid sandbox; /dashboard as an onboarded user with a First Platypus Bank item of ${result.transactions} sandbox transactions, linked, synced and booked. Localhost: no network latency or bandwidth limit. Load average (1/5/15 min) when the suite started: ${load}.`, body, { result, summary, loadAverage: load });
}

if (runs('identity')) await identitySuite();
if (runs('banking')) await bankingSuite();
if (runs('ledger')) await ledgerSuite();
if (runs('web')) await webSuite();
// The reporting suite writes bench-results/reporting.{md,json} itself (services/reporting/bench/run.ts). At its
// default size (1,000,000 entries) the first run generates the data set for many minutes; later runs reuse it.
if (runs('reporting')) await import('../services/reporting/bench/run.js');
