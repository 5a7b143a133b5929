// `npm run load`: writes mixed with report reads (issue #23, item 6), against the product as the images run it —
// every service and the gateway started from its built `dist/` as its own process (the dist test layer's stack),
// with the Plaid sandbox, real PostgreSQL and NATS. The scenarios are load-tests/scenarios/mixed.json, the same
// definitions load-tests/k6/mixed.js runs against a deployment.
//
// Data: one workspace with LOAD_BANK_TRANSACTIONS bank transactions linked through the sandbox (First Platypus
// Bank: checking, savings, card — what the writes work on) and LOAD_ENTRIES two-line entries over 2023–2025
// (default 1,000,000: 2,000,000 lines) generated through the ledger's own bulk posting (what the reads read).
// Then every scenario at once for LOAD_SECONDS; afterwards the invariants: every P&L cell equals the sum of its
// ledger lines, every linked account's books equal the bank, each split answered 200 is split and each refused one is not.
// The figures and PASS/FAIL of the thresholds go to bench-results/load.md; a missed threshold or invariant exits 1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { SERVICES } from '@ledgerline/platform';
import { measure, type LoadResult } from './lib/load.js';
import { linkSandboxBank } from './lib/web-bench.js';
import { runScriptProcess } from './lib/processes.js';
import { EVERY_SERVICE, signedUpUser, startSystem, type System } from '../tests/support/system.js';
import { accountRows, cents, expected, lineSums, type Row } from '../tests/api/report-oracle.js';
import { prepareAccounts, type Api } from '../services/reporting/bench/reporting-bench.js';

interface Scenario {
  id: string;
  kind: 'read' | 'write';
  name: string;
  paths?: string[];
  connections: number;
  batch?: number;
}
interface Config {
  seconds: number;
  thresholds: { errorRate: number; readP99: number };
  scenarios: Scenario[];
}
interface Txn {
  id: string;
  amount: number;
  category: { name: string; type: string } | null;
  isSplittedParent: boolean;
  isSplittedChildren: boolean;
  isOpeningBalance: boolean;
  isTransactionFinalized: boolean;
  isAccruedParent: boolean;
  isAccruedChildren: boolean;
  entityType: string | null;
}

const config = JSON.parse(readFileSync(new URL('../load-tests/scenarios/mixed.json', import.meta.url), 'utf8')) as Config;
const ENTRIES = Number(process.env.LOAD_ENTRIES ?? 1_000_000);
const BANK_TRANSACTIONS = Number(process.env.LOAD_BANK_TRANSACTIONS ?? 6_000);
const SECONDS = Number(process.env.LOAD_SECONDS ?? config.seconds);
const log = (line: string) => console.log(`[load ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function until<T>(what: string, fn: () => Promise<T | null>, timeoutMs: number, intervalMs = 1_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = Date.now();
  let lastError = '';
  for (;;) {
    try {
      const v = await fn();
      if (v !== null) return v;
    } catch (err) {
      lastError = (err as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs / 1000} s ${lastError}`);
    if (Date.now() - last > 15_000) {
      last = Date.now();
      log(`waiting: ${what}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function ensureBuilt(): void {
  const missing = [...SERVICES.map((s) => s.dir), 'services/gateway'].filter((dir) => !existsSync(join(dir, 'dist', 'main.js')));
  if (missing.length === 0) return;
  log(`building the services (${missing.join(', ')} not built)`);
  const r = spawnSync('npm', ['run', 'build:services'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build:services failed');
}

/** Links First Platypus Bank with `n` transactions (the web bench's link) and waits until every account ties out. */
async function linkBank(system: System, token: string, n: number): Promise<void> {
  await linkSandboxBank(system, token, n, { seed: 23, timeoutMs: 30 * 60_000 });
  await until(
    'every linked account ties out',
    async () => {
      const listed = (await system.api('GET', '/accounts', { token })).body.accounts as { tieOut: { status: string } | null }[];
      return listed.length > 0 && listed.every((a) => a.tieOut?.status === 'matches') ? true : null;
    },
    5 * 60_000,
  );
}

/**
 * A request as the web app makes it, answering its status, or 0 when no answer came within 30 s (a load tool's
 * timeout, as autocannon's in the reporting bench): such a write may still have been applied.
 */
async function call(system: System, token: string, method: string, path: string, body?: unknown): Promise<number> {
  try {
    const res = await fetch(`${system.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Every workspace transaction, page by page. */
async function allTransactions(system: System, token: string): Promise<Txn[]> {
  const out: Txn[] = [];
  for (let page = 1; ; page++) {
    const r = await system.api('GET', `/transactions/v2?take=100&page=${page}`, { token });
    if (r.status !== 200) throw new Error(`GET /transactions/v2 answered ${r.status}`);
    const data = r.body.data as Txn[];
    out.push(...data);
    if (data.length < 100) return out;
  }
}

/** What a user may edit (spec platform-core §4: not a transfer, split, accrual, opening balance, finalized or linked). */
const editable = (t: Txn) =>
  t.category !== null &&
  t.category.type !== 'Transfer' &&
  !t.isSplittedParent &&
  !t.isSplittedChildren &&
  !t.isAccruedParent &&
  !t.isAccruedChildren &&
  !t.isOpeningBalance &&
  !t.isTransactionFinalized &&
  t.entityType === null &&
  Math.abs(cents(t.amount)) >= 2;

/** Every P&L account cell from 2023 to today equals the sum of its ledger lines (waits for reporting to catch up). */
async function reportsEqualLines(system: System, token: string, workspaceId: string, timeoutMs: number): Promise<{ rows: number }> {
  const to = new Date().toISOString().slice(0, 10);
  return until(
    'every P&L cell equals the sum of its ledger lines',
    async () => {
      const pl = await system.api('GET', `/financial-data/profit-loss/v3?startDate=2023-01-01&endDate=${to}&periodicity=totals_only`, { token });
      if (pl.status !== 200) return null;
      const sums = await lineSums(system.ledgerDb!.adminDb, workspaceId, '2023-01-01', to);
      const rows = accountRows(pl.body.report.data as Row[]);
      const wrong = rows.filter((r) => cents(r.total) !== expected(sums, r));
      if (wrong.length > 0) throw new Error(`${wrong.length} of ${rows.length} P&L rows differ from the lines, e.g. ${wrong[0]!.name}`);
      return rows.length > 0 ? { rows: rows.length } : null;
    },
    timeoutMs,
    5_000,
  );
}

async function main(): Promise<void> {
  ensureBuilt();
  process.env.LEDGERLINE_STACK = 'dist';
  const started = performance.now();
  const system = await startSystem({
    ...EVERY_SERVICE,
    gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000000', SERVICE_TIMEOUT_MS: '15000' },
  });
  let failed = false;
  try {
    const user = await signedUpUser(system);
    const token = user.token;
    const workspaceId = user.user.workspace.id;
    log(`stack up from dist/ in ${Math.round((performance.now() - started) / 1000)} s; linking ${BANK_TRANSACTIONS} bank transactions`);
    let t0 = performance.now();
    await linkBank(system, token, BANK_TRANSACTIONS);
    const linkSeconds = Math.round((performance.now() - t0) / 1000);

    const api: Api = async (method, path, body) => system.api(method, path, { token, body });
    const plan = await prepareAccounts(api, log);
    log(`generating ${ENTRIES} entries on ${plan.accounts} accounts`);
    t0 = performance.now();
    const planFile = join(tmpdir(), `ledgerline-load-plan-${process.pid}.json`);
    writeFileSync(planFile, JSON.stringify({ databaseUrl: system.ledgerDb!.appUrl, workspaceId, entries: ENTRIES, chunk: 5_000, seed: 20_230_101, ...plan }));
    await runScriptProcess('services/ledger/bench/bulk-generate.ts', [planFile], log).finally(() => rmSync(planFile, { force: true }));
    // The relay leaves dead rows in the outbox's partial index as it marks a million rows published; vacuuming as
    // it drains keeps its scan short (services/ledger/README.md, "Bulk loads").
    const vacuum = setInterval(() => void system.ledgerDb!.adminDb.raw('vacuum outbox').catch(() => undefined), 20_000);
    const before = await reportsEqualLines(system, token, workspaceId, 3 * 3_600_000).finally(() => clearInterval(vacuum));
    const seedSeconds = Math.round((performance.now() - t0) / 1000);
    await system.ledgerDb!.adminDb.raw('analyze');
    await system.reportingDb!.adminDb.raw('analyze');
    const lines = Number((await system.ledgerDb!.adminDb.raw('select count(*) as n from journal_lines')).rows[0].n);
    log(`${lines} journal lines; reports equal the lines (${before.rows} P&L rows) after ${seedSeconds} s`);
    // What the data costs on disk (the capacity model, docs/capacity.md): each service database, and its largest tables.
    const sizes = await Promise.all(
      (['ledger', 'reporting', 'banking'] as const).map(async (name) => {
        const db = system.databases[name]!.adminDb;
        const total = Number((await db.raw('select pg_database_size(current_database()) as n')).rows[0].n);
        const tables = (
          await db.raw(
            `select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where c.relkind = 'r' and n.nspname = 'public' order by 2 desc limit 4`,
          )
        ).rows as { name: string; bytes: string }[];
        return { service: name, bytes: total, tables: tables.map((t) => ({ name: t.name, bytes: Number(t.bytes) })) };
      }),
    );

    // Each write scenario its own transactions, so writes never meet each other's restrictions.
    const txns = (await allTransactions(system, token)).filter(editable);
    const cats = (await system.api('GET', '/categories', { token })).body.categories as { id: string; name: string }[];
    const cat = (name: string) =>
      cats.find((c) => c.name === name)?.id ??
      (() => {
        throw new Error(`no category ${name}`);
      })();
    const targets = [cat('Office Supplies'), cat('Software and Subscriptions')];
    const third = Math.floor(txns.length / 3);
    const pools = { categorise: txns.slice(0, third), bulk: txns.slice(third, 2 * third), split: txns.slice(2 * third) };
    log(`${txns.length} editable transactions: ${pools.categorise.length} to categorise, ${pools.bulk.length} to bulk-update, ${pools.split.length} to split`);
    // Each split's outcome by transaction: 200, refused (4xx/5xx: must change nothing), or no answer (may have).
    const splitAnswers = new Map<string, number>();
    const senders: Record<string, () => () => Promise<boolean>> = {
      categorise: () => {
        let i = 0;
        return async () => {
          const t = pools.categorise[i % pools.categorise.length]!;
          return (await call(system, token, 'PATCH', `/transactions/${t.id}`, { categoryId: targets[Math.floor(i++ / pools.categorise.length) % 2] })) === 200;
        };
      },
      bulk_update: () => {
        const batch = config.scenarios.find((s) => s.id === 'bulk_update')?.batch ?? 25;
        let i = 0;
        return async () => {
          const start = (i * batch) % Math.max(1, pools.bulk.length - batch);
          const categoryId = targets[i++ % 2];
          const body = { transactions: pools.bulk.slice(start, start + batch).map((t) => ({ id: t.id, categoryId })) };
          return (await call(system, token, 'PATCH', '/transactions', body)) === 200;
        };
      },
      split: () => {
        let i = 0;
        return async () => {
          const t = pools.split[i++];
          if (!t) return false;
          const total = Math.abs(cents(t.amount));
          const half = Math.floor(total / 2);
          const status = await call(system, token, 'POST', '/transactions/split', {
            parentTransaction: { id: t.id, amount: half / 100, categoryId: targets[0] },
            splitTransactions: [{ amount: (total - half) / 100, categoryId: targets[1] }],
          });
          splitAnswers.set(t.id, status);
          return status === 200;
        };
      },
    };
    const fill = (path: string) => path.replace('{busiestAccount}', plan.cash);
    log(`running ${config.scenarios.length} scenarios at once for ${SECONDS} s`);
    const results = await Promise.all(
      config.scenarios.map(async (s): Promise<LoadResult & { id: string; kind: string }> => {
        let send: () => Promise<boolean>;
        if (s.kind === 'read') {
          let i = 0;
          const paths = (s.paths ?? []).map(fill);
          send = async () => (await call(system, token, 'GET', paths[i++ % paths.length]!)) === 200;
        } else {
          const make = senders[s.id];
          if (!make) throw new Error(`no writer for scenario ${s.id}`);
          send = make();
        }
        // The split pool is finite: a split is made once per transaction.
        const requests = s.id === 'split' ? pools.split.length : undefined;
        return {
          id: s.id,
          kind: s.kind,
          ...(await measure({ name: s.name, connections: s.connections, seconds: SECONDS, requests, send, warmup: s.kind === 'read' ? 5 : 0 })),
        };
      }),
    );

    // The invariants after the load.
    const after = await reportsEqualLines(system, token, workspaceId, 120_000).then(
      (r) => ({ ok: true, detail: `${r.rows} P&L account rows equal their lines` }),
      (err: Error) => ({ ok: false, detail: err.message }),
    );
    const tied = ((await system.api('GET', '/accounts', { token })).body.accounts as { tieOut: { status: string } | null }[]).map(
      (a) => a.tieOut?.status ?? 'none',
    );
    const parents = new Set((await allTransactions(system, token)).filter((t) => t.isSplittedParent).map((t) => t.id));
    const answered = [...splitAnswers].filter(([, status]) => status === 200);
    const refused = [...splitAnswers].filter(([, status]) => status !== 200 && status !== 0);
    const unanswered = [...splitAnswers].filter(([, status]) => status === 0).length;
    const splitsHold = answered.every(([id]) => parents.has(id)) && refused.every(([id]) => !parents.has(id));
    const invariants = [
      { what: 'every P&L cell = the sum of its ledger lines', ok: after.ok, detail: after.detail },
      { what: 'books = bank for every linked account', ok: tied.every((s) => s === 'matches'), detail: tied.join(', ') },
      {
        what: 'each split answered 200 is split, each refused one is not',
        ok: splitsHold,
        detail: `${answered.length} answered 200, ${refused.length} refused, ${unanswered} without an answer in 30 s`,
      },
    ];

    const total = results.reduce((s, r) => s + r.requests, 0);
    const errors = results.reduce((s, r) => s + r.errors, 0);
    const errorRate = total === 0 ? 1 : errors / total;
    const thresholds = [
      {
        what: `failed requests ≤ ${config.thresholds.errorRate * 100} %`,
        measured: `${Math.round(errorRate * 100_000) / 1000} % (${errors} of ${total})`,
        pass: errorRate <= config.thresholds.errorRate,
      },
      ...results
        .filter((r) => r.kind === 'read')
        .map((r) => ({ what: `${r.id}: p99 ≤ ${config.thresholds.readP99} ms`, measured: `${r.p99} ms`, pass: r.p99 <= config.thresholds.readP99 })),
    ];
    failed = thresholds.some((t) => !t.pass) || invariants.some((i) => !i.ok);

    const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
    const body = [
      '| scenario | kind | connections | requests | errors | req/s | p50 ms | p90 ms | p99 ms | max ms |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (r) => `| ${r.name} | ${r.kind} | ${r.connections} | ${r.requests} | ${r.errors} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} |`,
      ),
      '',
      '| threshold | measured | result |',
      '|---|---|---|',
      ...thresholds.map((t) => `| ${t.what} | ${t.measured} | ${t.pass ? 'PASS' : 'FAIL'} |`),
      '',
      '| invariant after the load | result | detail |',
      '|---|---|---|',
      ...invariants.map((i) => `| ${i.what} | ${i.ok ? 'PASS' : 'FAIL'} | ${i.detail} |`),
    ].join('\n');
    const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;
    const sizeTable = [
      '| database | size | largest tables | bytes per journal line |',
      '|---|---|---|---|',
      ...sizes.map((d) => `| ${d.service} | ${mb(d.bytes)} | ${d.tables.map((t) => `${t.name} ${mb(t.bytes)}`).join(', ')} | ${Math.round(d.bytes / lines)} |`),
    ].join('\n');
    const report = `# Load: writes mixed with report reads (npm run load)\n\nMeasured ${new Date().toISOString().slice(0, 10)} on ${machine}; load average at the end ${load}.\nData: one workspace, ${lines} journal lines (${ENTRIES} generated two-line entries over 2023–2025 and ${BANK_TRANSACTIONS} bank transactions linked through the Plaid sandbox in ${linkSeconds} s; generation until the reports equalled the lines ${seedSeconds} s). Every service and the gateway from its built dist/ as its own process, PostgreSQL and NATS on the same machine; the load runner (scripts/lib/load.ts, closed loop) in another process; every scenario at once for ${SECONDS} s.\n\n${body}\n\nOn disk after generation (before the load):\n\n${sizeTable}\n`;
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/load.md', report);
    writeFileSync(
      'bench-results/load.json',
      `${JSON.stringify({ machine, date: new Date().toISOString().slice(0, 10), lines, entries: ENTRIES, bankTransactions: BANK_TRANSACTIONS, seconds: SECONDS, sizes, results, thresholds, invariants }, null, 2)}\n`,
    );
    console.log(report);
  } finally {
    await system.stop();
  }
  process.exit(failed ? 1 : 0);
}

await main();
