// `npm run bench`: measured figures, written with the machine and the data size to bench-results/.
// `npm run bench -- identity`, `-- banking`, `-- ingest`, `-- ledger`, `-- reporting`, `-- web`, `-- bundle`, `-- rules`, `-- recategorise` or `-- categorisation` runs one suite.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { startPlaidSandbox } from '@ledgerline/plaid-sandbox';
import { measure, type LoadResult } from './lib/load.js';
import { signedUpUser, startSystem } from '../tests/support/system.js';
import { benchSyncThroughput } from '../services/banking/bench/sync-throughput.js';
import { benchLedger, ingest } from '../services/ledger/bench/ledger-bench.js';
import { startRulesHarness } from '../tests/api/vendor-rules.support.js';
import { benchWeb, webReport } from './lib/web-bench.js';
import { benchCategorisation, categorisationTable } from '../services/parties/bench/categorisation-bench.js';
import { benchBundle, bundleReport } from './lib/bundle-bench.js';
import { benchIngest, ingestTable } from './lib/ingest-bench.js';
import { benchRecategorise, recategoriseTable } from './lib/recategorise-bench.js';

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
    const login = async () =>
      (await system.api('POST', '/login', { body: { email: users[i++ % users.length]!.email, password: 'Sup3rSecret' } })).status === 200;
    results.push(await measure({ name: 'POST /login (argon2id verify, new session)', connections: 2, seconds: 8, send: login, warmup: 4 }));
  } finally {
    await system.stop();
  }
  const table = [
    '| scenario | connections | requests | errors | req/s | p50 ms | p90 ms | p99 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.name} | ${r.connections} | ${r.requests} | ${r.errors} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} |`),
  ].join('\n');
  write(
    'identity',
    'Identity through the gateway',
    '20 signed-up users in a fresh identity database; the gateway, identity, PostgreSQL and NATS on the same machine; the load runner in the same process (scripts/lib/load.ts).',
    table,
    { results },
  );
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
    write(
      'banking-sync',
      'Banking: transaction sync throughput',
      `one sandbox item (First Platypus Bank: checking, savings, credit card) with ${transactions} transactions, synced through the official plaid SDK in pages of 500; each page is one database transaction (rows, cursor, outbox); the relay publishes to JetStream. Sandbox, banking, PostgreSQL and NATS on the same machine.`,
      table,
      { result },
    );
  } finally {
    await sandbox.close();
  }
}

/**
 * End-to-end bank ingest (issue #22): a sandbox account of N transactions linked through the gateway; seconds until
 * banking stored and published them, the ledger booked and published them and reporting applied every entry.
 * BENCH_INGEST_SIZES (comma-separated) overrides the sizes; 1000000 is on demand (it takes minutes).
 */
async function ingestSuite(): Promise<void> {
  const sizes = (process.env.BENCH_INGEST_SIZES ?? '10000,100000').split(',').map(Number);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const results = await benchIngest({ sizes, log: (line) => console.log(line) });
  write(
    'ingest',
    'Bank ingest end to end: link → banking → ledger → reporting',
    `one First Platypus Bank item of the Plaid sandbox (checking, savings, credit card) per size, linked through the gateway (POST /accounts) on fresh databases; identity, gateway, banking, ledger, reporting and the sandbox in one process (as npm start), PostgreSQL and NATS on the same machine. The machine was shared with other sessions running tests: load average (1/5/15 min) when the suite started ${load}; compare ratios, not absolute figures.`,
    ingestTable(results),
    { results, loadAverage: load },
  );
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
  write(
    'ledger',
    'Ledger: ingest, bulk re-categorise, general-ledger pages',
    `${transactions} bank transactions over two years (10 merchants) in one workspace with one bank account; ${glLines} lines on one account (Cash and Cash Equivalents) of another workspace over two years. Gateway (fake identity), ledger, PostgreSQL and NATS on the same machine; the load runner in the same process (scripts/lib/load.ts).`,
    body,
    { result: r },
  );
}

/** The web app in Chromium with a cold cache: compressed JavaScript per route and the dashboard's time to draw. */
async function webSuite(): Promise<void> {
  // Needs the built frontends (npm run build -w @ledgerline/settings -w @ledgerline/accounting -w @ledgerline/reports -w @ledgerline/shell).
  const runs = Number(process.env.BENCH_WEB_RUNS ?? 5);
  const transactions = Number(process.env.BENCH_WEB_TRANSACTIONS ?? 200);
  // The machine is shared: the load average says how quiet it was (timings move with it, bytes do not).
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const throttledRuns = Number(process.env.BENCH_WEB_THROTTLED_RUNS ?? 3);
  const result = await benchWeb({ transactions, runs, throttledRuns, log: (line) => console.log(line) });
  const { body, summary } = webReport(result);
  write(
    'web',
    'Web app: compressed bytes and time to draw, cold cache',
    `the production build of the shell and the settings, accounting and reports remotes served by frontends/shell/server/serve.ts (precompressed br/gzip); Debian's Chromium (headless, playwright-core) on the same machine as the gateway, identity, banking, ledger, reporting, PostgreSQL, NATS and the Plaid sandbox; /dashboard as an onboarded user with a First Platypus Bank item of ${result.transactions} sandbox transactions, linked, synced and booked. Localhost: no network latency or bandwidth limit. Load average (1/5/15 min) when the suite started: ${load}.`,
    body,
    { result, summary, loadAverage: load },
  );
}

/** The JavaScript a signed-out first visit fetches (issue #13's 200 kB budget), page by page and script by script. */
async function bundleSuite(): Promise<void> {
  // Needs the built frontends, as the web suite.
  const loads = await benchBundle();
  write(
    'bundle',
    'Web app: first-load JavaScript of the public pages',
    "the production build of the shell and the settings, accounting and reports remotes served by frontends/shell/server/serve.ts (precompressed br/gzip), each page loaded signed out in a fresh context of Debian's Chromium (headless, playwright-core); bytes do not depend on the machine's load.",
    bundleReport(loads),
    { loads },
  );
}

/**
 * Vendor rules (issue #17): a rule matching a quarter of a workspace's transactions is created through the gateway
 * (parties → the ledger's one set-based ApplyVendorRule: reversals and new entries in one statement), then the
 * time until every report reflects it (reporting's read model equals the ledger's lines again, and the P&L cell
 * of the rule's category equals the ledger). BENCH_RULES_TRANSACTIONS sizes it (the brief's figure: 200,000).
 */
async function rulesSuite(): Promise<void> {
  const transactions = Number(process.env.BENCH_RULES_TRANSACTIONS ?? 200_000);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const h = await startRulesHarness({ serviceTimeoutMs: 600_000 });
  try {
    const t = h.tenant();
    const seeded = await ingest(h, t, transactions);
    console.log(`rules: ${transactions} transactions booked in ${seeded.bookedSeconds} s`);
    const caughtUpAt = performance.now();
    await h.caughtUp(t, 3_600_000);
    const seedReportingSeconds = Math.round((performance.now() - caughtUpAt) / 10) / 100;
    const admin = h.ledger.db.adminDb;
    const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[];
    const office = cats.find((c) => c.name === 'Office Supplies')!.id;
    // The bench's amounts are spread evenly over 1.00..2,500.99 dollars: below 626.00 is about a quarter of them.
    const body = { name: 'Small purchases', categoryId: office, ruleApplyDateTime: '2024-01-01', amountSign: 'less_than', amountValue: 626 };
    const expected = Number(
      (
        (await admin.raw('select count(*)::int as n from workspace_transactions where workspace_id = ? and abs(amount_cents) < 62600', [t.workspaceId]))
          .rows[0] as { n: number }
      ).n,
    );
    const entriesBefore = Number(
      ((await admin.raw('select count(*)::int as n from journal_entries where workspace_id = ?', [t.workspaceId])).rows[0] as { n: number }).n,
    );
    const t0 = performance.now();
    const r = await h.api('POST', '/vendors/rule-engines', { tenant: t, body });
    const applied = performance.now();
    if (r.status !== 201) throw new Error(`POST /vendors/rule-engines answered ${r.status} ${JSON.stringify(r.body)}`);
    // Where the time goes after the ledger's commit: its outbox relayed to JetStream, then reporting's read model.
    const unpublished = async () =>
      Number(
        ((await admin.raw('select count(*)::int as n from outbox where workspace_id = ? and published_at is null', [t.workspaceId])).rows[0] as { n: number })
          .n,
      );
    while ((await unpublished()) > 0) await new Promise((done) => setTimeout(done, 100));
    const relayed = performance.now();
    await h.caughtUp(t, 3_600_000);
    const reflected = performance.now();
    const pl = await h.api('GET', '/financial-data/profit-loss/v3?startDate=2024-01-01&endDate=2025-12-31&periodicity=totals_only', { tenant: t });
    const cell = JSON.stringify(pl.body).includes('Office Supplies');
    const entriesAfter = Number(
      ((await admin.raw('select count(*)::int as n from journal_entries where workspace_id = ?', [t.workspaceId])).rows[0] as { n: number }).n,
    );
    const result = {
      transactions,
      matched: r.body.rule.impactedTransactionCount as number,
      expected,
      categorised: r.body.categorised as number,
      entriesPosted: entriesAfter - entriesBefore,
      applySeconds: Math.round((applied - t0) / 10) / 100,
      relayedSeconds: Math.round((relayed - t0) / 10) / 100,
      reflectedSeconds: Math.round((reflected - t0) / 10) / 100,
      seedBookedSeconds: seeded.bookedSeconds,
      seedReportingSeconds,
      officeRowShown: cell,
    };
    console.log(`rules: ${JSON.stringify(result)}`);
    const table = [
      '| transactions | matched by the rule | entries posted (reversal + new) | POST answered (ledger applied, committed) | ledger outbox relayed | every report reflects it | goal |',
      '|---|---|---|---|---|---|---|',
      `| ${transactions} | ${result.matched} (expected ${expected}) | ${result.entriesPosted} | ${result.applySeconds} s | ${result.relayedSeconds} s | ${result.reflectedSeconds} s | ≤ 2 s |`,
      '',
      'Times are from the POST. "Ledger outbox relayed": every entry.posted of the workspace published to JetStream.',
    ].join('\n');
    write(
      'vendor-rules',
      'Vendor rules: one rule applied to a quarter of the transactions',
      `${transactions} bank transactions in one workspace (10 merchants, amounts 1.00..2,500.99, two years), booked through the ledger's consumer (${seeded.bookedSeconds} s) and projected by reporting (${seedReportingSeconds} s more) before the rule; a rule "amount less than 626.00" created through the gateway (parties, ledger, reporting and the gateway in this process; PostgreSQL and NATS on the same machine). "Every report reflects it": reporting's check finds its balances equal to the ledger's lines again. Load average (1/5/15 min) before: ${load}.`,
      table,
      { result, loadAverage: load },
    );
  } finally {
    await h.close();
  }
}

/**
 * Bulk re-categorisation to the P&L (issue #22): 1,000 transactions re-categorised through the gateway in one PATCH
 * /transactions, timed until the P&L shows it, five runs. BENCH_RECATEGORISE_TRANSACTIONS sizes the workspace.
 */
async function recategoriseSuite(): Promise<void> {
  const transactions = Number(process.env.BENCH_RECATEGORISE_TRANSACTIONS ?? 10_000);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const r = await benchRecategorise({ transactions, recategorise: 1_000, runs: 5, log: (line) => console.log(line) });
  write(
    'recategorise',
    'Bulk re-categorise: 1,000 transactions to the P&L',
    `${transactions} bank transactions in one workspace with one bank account (10 merchants, two years), booked through the ledger's consumer (${r.seedBookedSeconds} s) and projected by reporting before the runs; 1,000 of them re-categorised per run. Gateway (fake identity), ledger, reporting, PostgreSQL and NATS on the same machine, the gateway, ledger and reporting in this process. The machine was shared with other sessions running tests: load average (1/5/15 min) when the suite started ${load}; to be rerun on a quiet machine.`,
    recategoriseTable(r),
    { result: r, loadAverage: load },
  );
}

/** Learned categorisation: accuracy and coverage of the auto-applied suggestions on a held-out month (the pure model). */
function categorisationSuite(): void {
  const r = benchCategorisation();
  const data = `one generated workspace (seed ${r.seed}; services/parties/bench/categorisation-bench.ts): ${r.merchants} merchants — subscriptions, frequent card merchants with noisy descriptions ("SQ *BLUE BOTTLE 1234"), five merchants in two categories by amount, one with the same amounts in two categories, local merchants seen once, merchants never seen before (20 in the held-out month), income — ${r.history} transactions categorised by hand over three months (1 % of them wrong, as people are), then a held-out fourth month of ${r.heldOut}. The held-out month is replayed in date order with the shipped model (services/parties/src/domain/categorisation.ts): a suggestion at or above the threshold is applied; any other transaction is categorised by the user, correctly, and learnt (as the product does), an applied one is not. Accuracy = correct among the applied; coverage = applied / held-out.`;
  write('categorisation', 'Learned categorisation: accuracy and coverage on a held-out month', data, categorisationTable(r), r);
}

if (runs('identity')) await identitySuite();
if (runs('banking')) await bankingSuite();
if (runs('ingest')) await ingestSuite();
if (runs('ledger')) await ledgerSuite();
if (runs('web')) await webSuite();
if (runs('bundle')) await bundleSuite();
if (runs('rules')) await rulesSuite();
if (runs('recategorise')) await recategoriseSuite();
if (runs('categorisation')) categorisationSuite();
// The reporting suite writes bench-results/reporting.{md,json} itself (services/reporting/bench/run.ts). At its
// default size (1,000,000 entries) the first run generates the data set for many minutes; later runs reuse it.
if (runs('reporting')) await import('../services/reporting/bench/run.js');
