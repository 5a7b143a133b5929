// RELIABILITY 5 for reporting: the reporting process is killed (SIGKILL) at seeded random points while the
// ledger is posting entries, and started again each time; afterwards its balances equal the ledger's (the
// check passes) and no entry is counted twice. REPORTING_CRASH_SEED repeats a run (the seed is printed);
// `npm run test:crash-10k -w @ledgerline/reporting` runs it on 10,000 transactions.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, TEST_NATS_URL, type TestDatabase } from '@ledgerline/platform/testing';
import { createReportingService, reportingConfigSchema, reportingMigrations, type ReportingService } from '@ledgerline/reporting';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/stack.js';
import { bankingFor, startLedger, type LedgerHarness } from '../../services/ledger/test/support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const TOTAL = Number(process.env.REPORTING_CRASH_TRANSACTIONS ?? 400);
const SEED = Number(process.env.REPORTING_CRASH_SEED ?? Date.now() % 1_000_000);

/** Three distinct kill points in the middle 80% of the run, drawn from the seed (mulberry32). */
function killPoints(seed: number): number[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const points = new Set<number>();
  while (points.size < 3) points.add(Math.floor(TOTAL * (0.1 + 0.8 * next())));
  return [...points].sort((x, y) => x - y);
}

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
let checker: ReportingService;
let child: ChildProcess | undefined;
let port: number;

/** The reporting service as its own process, from source, as `npm start` would run it. */
async function startReporting(): Promise<ChildProcess> {
  // tsx as a loader in this one process (its CLI would fork a second one that a SIGKILL would miss).
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=ledgerline-source', 'services/reporting/src/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.SYSTEM_LOG_LEVEL ?? 'warn',
      REPORTING_PORT: String(port),
      REPORTING_DATABASE_URL: db.appUrl,
      NATS_URL: TEST_NATS_URL,
      NATS_NAMESPACE: bus.namespace,
      LEDGER_URL: ledger.url,
      // Small batches: many commits, so the kill lands between and inside them.
      REPORTING_BATCH_SIZE: '25',
      OTEL_SDK_DISABLED: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await expectEventually(
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(res.status).toBe(200);
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  return proc;
}

async function kill(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

const count = async (d: TestDatabase['adminDb'], sql: string, ws: string) => Number(((await d.raw(sql, [ws])).rows as { n: string }[])[0]?.n ?? 0);

beforeAll(async () => {
  bus = await createTestBus('reporting-crash');
  ledger = await startLedger(bus);
  db = await createTestDatabase('reporting', reportingMigrations);
  port = await freePort();
  // Reads only (the check): no consumer runs in this process.
  checker = await createReportingService(
    reportingConfigSchema.parse({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      REPORTING_DATABASE_URL: db.appUrl,
      LEDGER_URL: ledger.url,
      REPORTING_LEDGER_TIMEOUT_MS: '20000',
    }),
    { db: db.appDb, bus, logger: createLogger('reporting-check', 'silent') },
  );
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) await kill(child);
  await checker?.stop();
  await ledger?.close();
  await bus?.close();
  await db?.drop();
});

it(`killed three times at random points (seed ${SEED}: after transactions ${killPoints(SEED).join(', ')}) while ${TOTAL} bank transactions are booked, restarted: balances equal the ledger's, nothing counted twice`, async () => {
  const ws = newId();
  const banking = bankingFor(bus, ws);
  const checking = await banking.link();
  child = await startReporting();
  const points = killPoints(SEED);
  let appliedBefore = 0;
  for (let i = 0; i < TOTAL; i++) {
    await banking.add(checking, {
      amountCents: (i % 7 === 0 ? 1 : -1) * (100 + i),
      date: `2026-0${1 + (i % 6)}-${String(1 + (i % 28)).padStart(2, '0')}`,
      name: `T${i}`,
    });
    if (points.includes(i)) {
      // Wait until reporting is applying entries again, then kill it mid-stream; the last kill leaves it down.
      await expectEventually(
        async () => expect(await count(db.adminDb, 'select count(*) as n from projected_entries where workspace_id = ?', ws)).toBeGreaterThan(appliedBefore),
        { timeoutMs: 60_000 },
      );
      await kill(child);
      appliedBefore = await count(db.adminDb, 'select count(*) as n from projected_entries where workspace_id = ?', ws);
      if (i !== points.at(-1)) child = await startReporting();
    }
  }
  const appliedAtKill = await count(db.adminDb, 'select count(*) as n from projected_entries where workspace_id = ?', ws);
  expect(appliedAtKill).toBeLessThan(TOTAL);
  // The ledger keeps booking while reporting is down.
  await expectEventually(
    async () => expect(await count(ledger.db.adminDb, 'select count(*) as n from workspace_transactions where workspace_id = ?', ws)).toBe(TOTAL),
    { timeoutMs: 120_000, intervalMs: 250 },
  );
  child = await startReporting();
  await expectEventually(
    async () => {
      const [r] = await checker.check([ws]);
      expect(r?.differences ?? ['no result']).toEqual([]);
      expect(r?.ok).toBe(true);
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
  const entries = await count(ledger.db.adminDb, 'select count(*) as n from journal_entries where workspace_id = ?', ws);
  expect(await count(db.adminDb, 'select count(*) as n from projected_entries where workspace_id = ?', ws)).toBe(entries);
  const lines = await count(ledger.db.adminDb, 'select count(*) as n from journal_lines where workspace_id = ?', ws);
  expect(await count(db.adminDb, 'select coalesce(sum(line_count), 0) as n from balances_daily where workspace_id = ?', ws)).toBe(lines);

  // The rebuild command, with the service stopped: empties the read model, replays the stream, checks.
  await kill(child);
  const code = await cli(['rebuild']);
  expect(code).toBe(0);
  expect(await count(db.adminDb, 'select count(*) as n from projected_entries where workspace_id = ?', ws)).toBe(entries);
  expect(await count(db.adminDb, 'select coalesce(sum(line_count), 0) as n from balances_daily where workspace_id = ?', ws)).toBe(lines);
  expect(await cli(['check', ws])).toBe(0);
}, 300_000);

/** `node dist/cli.js <args>` from source; resolves with the exit code. */
function cli(args: string[]): Promise<number | null> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=ledgerline-source', 'services/reporting/src/cli.ts', ...args], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.SYSTEM_LOG_LEVEL ?? 'warn',
      REPORTING_DATABASE_URL: db.appUrl,
      NATS_URL: TEST_NATS_URL,
      NATS_NAMESPACE: bus.namespace,
      LEDGER_URL: ledger.url,
      OTEL_SDK_DISABLED: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => proc.once('exit', (c) => resolve(c)));
}
