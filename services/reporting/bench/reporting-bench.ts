// Reporting benchmark (issue #5): a workspace of BENCH_REPORTING_ENTRIES two-line entries (default
// 1,000,000: 2,000,000 lines) over 2023–2025, generated through the ledger's own bulk posting, relayed by
// the ledger's outbox relay and applied by reporting's consumer; then the scenarios of
// load-tests/scenarios/reporting.json through the gateway with autocannon, beside the same reports as a
// GROUP BY over the ledger's lines in PostgreSQL. Identity (a real signed-up user), the ledger, reporting
// and the gateway each run in their own process; this process only generates load and measures.
// The data set is kept (databases ledgerline_bench_reporting_<entries>_*, NATS namespace of the same name)
// with a marker of the generator version and size, so the next run measures at once.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { createDb, type Knex } from '@ledgerline/platform';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { EntriesPostedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import { loadHttp, type LoadResult } from '../../../scripts/lib/load.js';
import {
  benchDatabases,
  benchLogDir,
  dropBenchData,
  migrateBenchData,
  readMarker,
  startBenchStack,
  writeMarker,
  type BenchDatabases,
  type BenchStack,
} from '../../../scripts/lib/bench-stack.js';
import { runScriptProcess } from '../../../scripts/lib/processes.js';

/** Bump when the generated data changes shape: older data sets are dropped and generated again. */
export const GENERATOR_VERSION = 1;
const PASSWORD = 'Bench-Only-Passw0rd';
const TARGET_ACCOUNTS = 300;

export interface Stage {
  entries: number;
  seconds: number;
  entriesPerSecond: number;
  /** Including the start of the process that does the work (the rate is over `seconds`, its active span). */
  wallSeconds: number;
  /** The stage had been partly done by an earlier, interrupted run. */
  resumed?: boolean;
  /** Events (outbox rows) the stage moved, where they differ from entries (the relay: `entries.posted` carries up to 500). */
  events?: number;
}

interface Marker {
  version: number;
  entries: number;
  complete: boolean;
  email: string;
  workspaceId: string;
  cash: string;
  accounts: number;
  generatedAt?: string;
  stages?: { posting: Stage; relay: Stage; apply: Stage };
}

export interface ScenarioDef {
  id: string;
  name: string;
  paths: string[];
  connections: number;
  seconds: number;
  thresholds: { p50?: number; p99?: number; rps?: number };
  /** "off": run against services started with the report caches off (every request builds its report). */
  caches?: 'on' | 'off';
}

export interface ThresholdResult {
  scenario: string;
  what: string;
  target: string;
  measured: number;
  pass: boolean;
}

export interface ReportingBenchResult {
  entries: number;
  lines: number;
  accounts: number;
  /** Reused from an earlier run (generated on `generatedAt`), or generated now. */
  reused: boolean;
  generatedAt: string;
  stages: { posting: Stage; relay: Stage; apply: Stage };
  /** reporting's own check (read model = the ledger's general ledger) after generation; null when reused. */
  check: { ok: boolean; seconds: number } | null;
  busiestAccount: { id: string; lines: number; pages: number };
  http: (LoadResult & { id: string })[];
  direct: { name: string; p50: number; p90: number }[];
  /** GROUP BY p50 ÷ the gateway's P&L p50 at 1 connection (end to end), and ÷ the read-model query alone. */
  speedup: { throughGateway: number; throughGatewayCachesOff: number; queryAlone: number };
  thresholds: ThresholdResult[];
}

export const loadScenarios = (): { glTake: number; scenarios: ScenarioDef[] } =>
  JSON.parse(readFileSync(new URL('../../../load-tests/scenarios/reporting.json', import.meta.url), 'utf8')) as { glTake: number; scenarios: ScenarioDef[] };

async function count(db: Knex, sql: string, bindings: readonly Knex.RawBinding[] = []): Promise<number> {
  return Number(((await db.raw(sql, bindings)).rows[0] as { n: string }).n);
}

async function timeSql(db: Knex, sql: string, bindings: readonly Knex.RawBinding[], runs = 15): Promise<{ p50: number; p90: number }> {
  const ms: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    await db.raw(sql, bindings);
    if (i >= 3) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => Math.round((ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p90: at(0.9) };
}

async function waitFor(what: string, fn: () => Promise<boolean>, log: (line: string) => void, timeoutMs = 6 * 3_600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastLog = Date.now();
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s`);
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(`waiting: ${what}`);
    }
    // Counting a million rows costs the database too: poll gently (the rates come from the rows' own timestamps).
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** The journal entries carried by the ledger's unpublished outbox rows (read in slices by sequence). */
async function unpublishedEntries(db: Knex): Promise<number> {
  let entries = 0;
  for (let after = 0; ;) {
    const rows = (
      await db.raw(
        `select seq, type, envelope from outbox where published_at is null and seq > ? and type in ('entry.posted', 'entries.posted') order by seq limit 2000`,
        [after],
      )
    ).rows as { seq: string; type: string; envelope: Buffer }[];
    if (rows.length === 0) return entries;
    for (const r of rows)
      entries += r.type === 'entry.posted' ? 1 : fromBinary(EntriesPostedSchema, fromBinary(EventEnvelopeSchema, r.envelope).payload).entries.length;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

const stage = (entries: number, ms: number, resumed = false, wallMs = ms): Stage => ({
  entries,
  seconds: Math.round(ms / 100) / 10,
  wallSeconds: Math.round(wallMs / 100) / 10,
  entriesPerSecond: Math.round(entries / Math.max(ms / 1000, 0.001)),
  ...(resumed ? { resumed } : {}),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documented JSON shapes, read field by field
export type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

function apiFor(stack: BenchStack, token: string, workspaceId: string): Api {
  return async (method, path, body) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
}

/**
 * The chart the ledger seeded for the workspace, plus income and expense accounts up to `target` postable
 * ones (created through the API, once: a second call finds them), and the generator's account plan.
 */
export async function prepareAccounts(api: Api, log: (line: string) => void, target = TARGET_ACCOUNTS) {
  let cats: { id: string; name: string; type: string }[] = [];
  await waitFor(
    'the ledger seeds the workspace chart',
    async () => {
      const r = await api('GET', '/categories');
      cats = r.status === 200 ? r.body.categories : [];
      return cats.length > 0;
    },
    log,
    120_000,
  );
  const parents = (await api('GET', '/categories/chart-of-accounts')).body.parentCategories as { id: string; name: string }[];
  const parentId = (name: string) => parents.find((p) => p.name === name)?.id;
  const existing = cats.filter((c) => !/^(Revenue stream|Cost centre) \d+$/.test(c.name)).length;
  for (let i = 0; existing + i < target; i++) {
    const income = i % 3 === 0;
    const name = `${income ? 'Revenue stream' : 'Cost centre'} ${i + 1}`;
    if (cats.some((c) => c.name === name)) continue;
    const r = await api('POST', '/categories', { name, coaId: 90_000 + i, parentId: parentId(income ? 'Operating Income' : 'Operating Expenses') });
    if (r.status !== 201) throw new Error(`POST /categories answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  cats = (await api('GET', '/categories')).body.categories;
  const byName = (name: string) => {
    const c = cats.find((x) => x.name === name);
    if (!c) throw new Error(`no account ${name} in the chart`);
    return c.id;
  };
  const cash = byName('Cash and Cash Equivalents');
  // Balance-sheet movements, so every section of the balance sheet has content: loans in and out, equity
  // raised, equipment and deposits paid, card spending, receivables invoiced and collected.
  const pairs: [string, string][] = [
    ['Cash and Cash Equivalents', 'Loans Payable'],
    ['Loans Payable', 'Cash and Cash Equivalents'],
    ['Cash and Cash Equivalents', 'Common Stock'],
    ['Cash and Cash Equivalents', 'Additional Paid-in Capital'],
    ['Cash and Cash Equivalents', 'Convertible Notes'],
    ['Computer Equipment', 'Cash and Cash Equivalents'],
    ['Property and Equipment', 'Cash and Cash Equivalents'],
    ['Security Deposits', 'Cash and Cash Equivalents'],
    ['Software and Subscriptions', 'Credit Cards'],
    ['Credit Cards', 'Cash and Cash Equivalents'],
    ['Accounts Receivable', 'Sales'],
    ['Cash and Cash Equivalents', 'Accounts Receivable'],
  ];
  const balanceSheet = pairs
    .filter(([d, c]) => cats.some((x) => x.name === d) && cats.some((x) => x.name === c))
    .map(([d, c]) => [byName(d), byName(c)] as [string, string]);
  return {
    accounts: cats.length,
    cash,
    balanceSheet,
    income: cats.filter((c) => c.type === 'Income').map((c) => c.id),
    expenses: cats.filter((c) => c.type === 'Expenses').map((c) => c.id),
  };
}

/** Generates (or finishes generating) the data set: chart, ledger posting, relay, reporting apply. */
async function generate(stack: BenchStack, dbs: BenchDatabases, marker: Marker | null, options: BenchOptions, log: (line: string) => void): Promise<Marker> {
  const email = marker?.email ?? `bench.reporting.${options.entries}.${Date.now().toString(36)}@example.com`;
  const session = marker ? await stack.logIn(email, PASSWORD) : await stack.signUp(email, PASSWORD);
  const api = apiFor(stack, session.token, session.workspaceId);
  const plan = await prepareAccounts(api, log);
  const m: Marker = {
    version: GENERATOR_VERSION,
    entries: options.entries,
    complete: false,
    email,
    workspaceId: session.workspaceId,
    cash: plan.cash,
    accounts: plan.accounts,
  };
  await writeMarker(dbs, m);
  log(`generating ${options.entries} entries on ${plan.accounts} postable accounts (workspace ${session.workspaceId})`);

  const ledgerAdmin = createDb({ url: dbs.adminUrl.ledger, pool: { max: 1 } });
  const reportingAdmin = createDb({ url: dbs.adminUrl.reporting, pool: { max: 1 } });
  try {
    // Stages one after another, each measured alone: the ledger process (and so its relay) and reporting
    // are stopped while the generator posts, then the relay drains the outbox, then reporting applies.
    await stack.stopService('reporting');
    await stack.stopService('ledger');
    const planFile = join(tmpdir(), `ledgerline-bench-plan-${process.pid}.json`);
    writeFileSync(
      planFile,
      JSON.stringify({
        databaseUrl: dbs.appUrl.ledger,
        workspaceId: session.workspaceId,
        entries: options.entries,
        chunk: options.chunk,
        seed: 20_230_101,
        cash: plan.cash,
        income: plan.income,
        expenses: plan.expenses,
        balanceSheet: plan.balanceSheet,
      }),
    );
    const generated = JSON.parse(
      await runScriptProcess('services/ledger/bench/bulk-generate.ts', [planFile], log).finally(() => rmSync(planFile, { force: true })),
    ) as { posted: number; skipped: number; seconds: number };
    const posting = stage(generated.posted, generated.seconds * 1000, generated.skipped > 0);
    log(`ledger posting: ${JSON.stringify(posting)}`);

    // A stage's rate is over its active span (first to last batch, by the database's own timestamps of
    // each batch), so a process's start-up is not counted; its wall time including that is kept beside.
    const span = async (db: Knex, sql: string, since: string) => Number(((await db.raw(sql, [since])).rows[0] as { s: string | null }).s ?? 0) * 1000;
    const unpublished = () => count(ledgerAdmin, 'select count(*) as n from outbox where published_at is null');
    const relayEvents = await unpublished();
    // The entries those events carry: `entry.posted` one, `entries.posted` (issue #22) a batch of them.
    const relayBacklog = await unpublishedEntries(ledgerAdmin);
    let since = ((await ledgerAdmin.raw('select now()::text as t')).rows[0] as { t: string }).t;
    let t0 = performance.now();
    await stack.start('ledger');
    // A million rows marked published leave as many dead entries in the outbox's partial index, which the
    // relay's next select walks past until autovacuum comes (at 20% of the table by default): measured
    // here, the relay fell from ~6,000 to ~30 entries/s. Vacuuming the outbox as it drains keeps the scan
    // short (see services/ledger/README.md "Bulk loads").
    let lastVacuum = Date.now();
    await waitFor(
      'the ledger relay publishes entry.posted',
      async () => {
        if (Date.now() - lastVacuum > 20_000) {
          await ledgerAdmin.raw('vacuum outbox');
          lastVacuum = Date.now();
        }
        return (await unpublished()) === 0;
      },
      log,
    );
    const relay = {
      ...stage(
        relayBacklog,
        await span(
          ledgerAdmin,
          'select extract(epoch from max(published_at) - min(published_at)) as s from outbox where published_at >= ?::timestamptz',
          since,
        ),
        relayBacklog < options.entries,
        performance.now() - t0,
      ),
      events: relayEvents,
    };
    log(`relay: ${JSON.stringify(relay)}`);

    const applied = () => count(reportingAdmin, 'select count(*) as n from projected_entries');
    const appliedBefore = await applied();
    since = ((await reportingAdmin.raw('select now()::text as t')).rows[0] as { t: string }).t;
    t0 = performance.now();
    await stack.start('reporting');
    await waitFor('reporting applies entry.posted', async () => (await applied()) >= options.entries, log);
    const apply = stage(
      options.entries - appliedBefore,
      await span(
        reportingAdmin,
        'select extract(epoch from max(projected_at) - min(projected_at)) as s from projected_entries where projected_at >= ?::timestamptz',
        since,
      ),
      appliedBefore > 0,
      performance.now() - t0,
    );
    log(`reporting apply: ${JSON.stringify(apply)}`);
    // What autovacuum would have done on a deployed database by the time anyone reads reports.
    await ledgerAdmin.raw('analyze');
    await reportingAdmin.raw('analyze');
    const done: Marker = { ...m, complete: true, generatedAt: new Date().toISOString(), stages: { posting, relay, apply } };
    await writeMarker(dbs, done);
    return done;
  } finally {
    await ledgerAdmin.destroy();
    await reportingAdmin.destroy();
  }
}

export interface BenchOptions {
  entries: number;
  /** Entries per ledger posting transaction. */
  chunk: number;
  /** Drop the kept data set of this size and generate it again. */
  fresh?: boolean;
  /** Multiplies each scenario's seconds (a quick check of the bench itself uses less). */
  timeScale?: number;
  log?: (line: string) => void;
}

export async function benchReporting(options: BenchOptions): Promise<ReportingBenchResult> {
  const log = options.log ?? (() => undefined);
  const name = `reporting_${options.entries}`;
  const dbs = benchDatabases(name);
  let marker = await readMarker<Marker>(dbs);
  if (marker && (options.fresh || marker.version !== GENERATOR_VERSION || marker.entries !== options.entries)) {
    log(`data set of generator ${marker.version} (${marker.entries} entries) found: dropping it${options.fresh ? ' (asked for a fresh one)' : ''}`);
    await dropBenchData(dbs);
    marker = null;
  }
  if (!marker) await dropBenchData(dbs);
  await migrateBenchData(dbs);
  const startStack = (caches: 'on' | 'off') =>
    startBenchStack(dbs, {
      logDir: benchLogDir(name),
      // The bench is one client sending hundreds of requests a second: the per-IP limiter would answer 429.
      gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000000', ...(caches === 'off' ? { REPORT_ANSWER_CACHE_ENTRIES: '0' } : {}) },
      ...(caches === 'off' ? { reportingEnv: { REPORTING_REPORT_CACHE_ENTRIES: '0' } } : {}),
    });
  let stack = await startStack('on');
  try {
    const reused = !!marker?.complete;
    let check: ReportingBenchResult['check'] = null;
    if (!reused) {
      if (marker) log('finishing an interrupted generation');
      marker = await generate(stack, dbs, marker, options, log);
      const t0 = performance.now();
      const ok = await runScriptProcess('services/reporting/src/cli.ts', ['check', marker.workspaceId], log, {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        SERVICE_TOKEN_KEY: stack.serviceTokenKey,
        NATS_NAMESPACE: dbs.namespace,
        REPORTING_DATABASE_URL: dbs.appUrl.reporting,
        REPORTING_DATABASE_ADMIN_URL: dbs.adminUrl.reporting,
        LEDGER_URL: stack.processes.get('ledger')?.url ?? '',
      }).then(
        () => true,
        (err: Error) => {
          log(`reporting check failed: ${err.message}`);
          return false;
        },
      );
      check = { ok, seconds: Math.round((performance.now() - t0) / 100) / 10 };
      log(`reporting check: ${JSON.stringify(check)}`);
    } else {
      log(`reusing the data set generated ${marker?.generatedAt}`);
    }
    const m = marker as Marker;
    const session = await stack.logIn(m.email, PASSWORD);
    const api = apiFor(stack, session.token, session.workspaceId);
    const { glTake, scenarios } = loadScenarios();

    const ledgerAdmin = createDb({ url: dbs.adminUrl.ledger, pool: { max: 1 } });
    const reportingAdmin = createDb({ url: dbs.adminUrl.reporting, pool: { max: 1 } });
    try {
      // PostgreSQL here runs with autovacuum off (the machine's setting); a deployment runs it on, and a
      // million upserts leave the balances tables several times their size in dead rows, the journal
      // without statistics. So the data set is vacuumed and analysed once, as autovacuum would have.
      const t0 = performance.now();
      for (const db of [ledgerAdmin, reportingAdmin]) await db.raw('vacuum (analyze)');
      log(`vacuum (analyze) of the ledger's and reporting's databases: ${Math.round((performance.now() - t0) / 100) / 10} s`);
      const busiest = (
        await ledgerAdmin.raw('select account_id, sum(line_count) as n from account_balances where workspace_id = ? group by 1 order by 2 desc limit 1', [
          m.workspaceId,
        ])
      ).rows[0] as { account_id: string; n: string };
      const first = await api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${busiest.account_id}&take=${glTake}&page=1`);
      if (first.status !== 200) throw new Error(`general ledger answered ${first.status}: ${JSON.stringify(first.body)}`);
      const lastPage = Number(first.body.meta.pageCount);
      const items = Number(first.body.meta.itemCount);
      const vars: Record<string, string> = {
        busiestAccount: busiest.account_id,
        middlePage: String(Math.max(1, Math.ceil(lastPage / 2))),
        lastPage: String(lastPage),
        middlePageMax: String(Math.max(1, Math.ceil(items / 100 / 2))),
      };
      const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);
      const headers = { authorization: `Bearer ${session.token}`, 'x-workspace-id': session.workspaceId };

      const http: ReportingBenchResult['http'] = [];
      const run = async (s: ScenarioDef, hdrs: Record<string, string>) => {
        const r = await loadHttp({
          name: s.name,
          baseUrl: stack.gatewayUrl,
          paths: s.paths.map(fill),
          headers: hdrs,
          connections: s.connections,
          seconds: Math.max(1, Math.round(s.seconds * (options.timeScale ?? 1))),
        });
        http.push({ ...r, id: s.id });
        log(`${s.name} × ${s.connections}: ${r.requests} requests, ${r.errors} errors, ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
      };
      for (const s of scenarios.filter((x) => (x.caches ?? 'on') === 'on')) await run(s, headers);
      const cold = scenarios.filter((x) => x.caches === 'off');
      if (cold.length) {
        // The same services started again with the report caches off: what building each report costs.
        await stack.close();
        stack = await startStack('off');
        const again = await stack.logIn(m.email, PASSWORD);
        for (const s of cold) await run(s, { authorization: `Bearer ${again.token}`, 'x-workspace-id': again.workspaceId });
      }

      const ws = [m.workspaceId];
      const direct = [
        {
          name: "P&L 2025 by month: GROUP BY over the ledger's journal_lines",
          ...(await timeSql(
            ledgerAdmin,
            `select account_id, date_trunc('month', entry_date) as m, sum(amount_cents) filter (where direction = 'debit') as d, sum(amount_cents) filter (where direction = 'credit') as c from journal_lines where workspace_id = ? and entry_date between '2025-01-01' and '2025-12-31' group by 1, 2`,
            ws,
          )),
        },
        {
          name: "Balance sheet as of 2025-08-17: GROUP BY over the ledger's journal_lines",
          ...(await timeSql(
            ledgerAdmin,
            `select account_id, sum(amount_cents) filter (where direction = 'debit') as d, sum(amount_cents) filter (where direction = 'credit') as c from journal_lines where workspace_id = ? and entry_date <= '2025-08-17' group by 1`,
            ws,
          )),
        },
        {
          name: 'P&L 2025 by month: the read-model query alone (balances_monthly)',
          ...(await timeSql(
            reportingAdmin,
            `select s.col, b.account_id, sum(b.debit_cents), sum(b.credit_cents) from generate_series(0, 11) as s(col) join balances_monthly b on b.workspace_id = ? and b.month = (date '2025-01-01' + make_interval(months => s.col))::date group by 1, 2`,
            ws,
          )),
        },
      ];
      for (const d of direct) log(`${d.name}: p50 ${d.p50} ms`);

      const pl1 = http.find((x) => x.id === 'pl_12_months_1');
      const groupBy = direct[0]?.p50 ?? 0;
      const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10) / 10 : 0);
      const pl1Cold = http.find((x) => x.id === 'pl_12_months_1_cold');
      const speedup = {
        throughGateway: ratio(groupBy, pl1?.p50 ?? 0),
        throughGatewayCachesOff: ratio(groupBy, pl1Cold?.p50 ?? 0),
        queryAlone: ratio(groupBy, direct[2]?.p50 ?? 0),
      };

      const thresholds: ThresholdResult[] = [];
      for (const s of scenarios) {
        const r = http.find((x) => x.id === s.id);
        if (!r) continue;
        const failed = r.errors > 0 ? ' (with errors)' : '';
        if (s.thresholds.p50 !== undefined)
          thresholds.push({
            scenario: `${s.name} × ${s.connections}`,
            what: `p50${failed}`,
            target: `< ${s.thresholds.p50} ms`,
            measured: r.p50,
            pass: r.p50 < s.thresholds.p50 && r.errors === 0,
          });
        if (s.thresholds.p99 !== undefined)
          thresholds.push({
            scenario: `${s.name} × ${s.connections}`,
            what: `p99${failed}`,
            target: `< ${s.thresholds.p99} ms`,
            measured: r.p99,
            pass: r.p99 < s.thresholds.p99 && r.errors === 0,
          });
        if (s.thresholds.rps !== undefined)
          thresholds.push({
            scenario: `${s.name} × ${s.connections}`,
            what: `req/s${failed}`,
            target: `≥ ${s.thresholds.rps}`,
            measured: r.rps,
            pass: r.rps >= s.thresholds.rps && r.errors === 0,
          });
      }
      thresholds.push({
        scenario: 'P&L 2025 by month: read model through the gateway vs GROUP BY over the lines',
        what: 'speed-up (p50)',
        target: '≥ 20×',
        measured: speedup.throughGateway,
        pass: speedup.throughGateway >= 20,
      });

      const stages = m.stages as NonNullable<Marker['stages']>;
      return {
        entries: m.entries,
        lines: m.entries * 2,
        accounts: m.accounts,
        reused,
        generatedAt: m.generatedAt ?? '',
        stages,
        check,
        busiestAccount: { id: busiest.account_id, lines: Number(busiest.n), pages: lastPage },
        http,
        direct,
        speedup,
        thresholds,
      };
    } finally {
      await ledgerAdmin.destroy();
      await reportingAdmin.destroy();
    }
  } finally {
    await stack.close();
  }
}
