// RELIABILITY 5 and 12 for banking: the banking process is killed (SIGKILL) in the middle of a
// 20,000-transaction sync and started again; the job resumes from the last committed page and ends with
// exactly 20,000 transactions and one event each.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServiceClient, DEVELOPMENT_SERVICE_TOKEN_KEY, newId, tenantHeaders } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, TEST_NATS_URL, type TestDatabase } from '@ledgerline/platform/testing';
import { bankingMigrations } from '@ledgerline/banking';
import { fromBinary } from '@bufbuild/protobuf';
import { BankingService } from '@ledgerline/proto/banking/v1/banking_pb';
import { BankTransactionsPageSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { startPlaidSandbox, type PlaidSandbox } from '@ledgerline/plaid-sandbox';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const TOTAL = 20_000;

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let sandbox: PlaidSandbox;
let child: ChildProcess | undefined;
let port: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const p = (server.address() as { port: number }).port;
      server.close(() => resolve(p));
    });
  });
}

/** The banking service as its own process, from source, as `npm start` would run it. */
async function startBanking(): Promise<ChildProcess> {
  // tsx as a loader in this one process (its CLI would fork a second one that a SIGKILL would miss).
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=ledgerline-source', 'services/banking/src/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.SYSTEM_LOG_LEVEL ?? 'warn',
      BANKING_PORT: String(port),
      BANKING_DATABASE_URL: db.appUrl,
      NATS_URL: TEST_NATS_URL,
      NATS_NAMESPACE: bus.namespace,
      PLAID_BASE_URL: sandbox.url,
      PLAID_CLIENT_ID: sandbox.clientId,
      PLAID_SECRET: sandbox.secret,
      // A killed worker's job is handed on after 2 s; no telemetry exporters in tests.
      SYNC_ACK_WAIT_MS: '2000',
      SYNC_CONCURRENCY: '1',
      OTEL_SDK_DISABLED: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await expectEventually(
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(res.status).toBe(200);
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return proc;
}

async function kill(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  db = await createTestDatabase('banking', bankingMigrations);
  bus = await createTestBus('banking-crash');
  sandbox = await startPlaidSandbox({ port: 0 });
  port = await freePort();
});

afterAll(async () => {
  if (child && child.exitCode === null) await kill(child);
  await sandbox?.close();
  if (bus) {
    const jsm = await jetstreamManager(bus.connection);
    await jsm.streams.delete(`${bus.namespace.toUpperCase()}_JOBS_TRANSACTION_SYNC`).catch(() => undefined);
    await bus.close();
  }
  await db?.drop();
});

const scalar = async (sql: string, bindings: unknown[] = []) => Number((await db.adminDb.raw(sql, bindings as never[])).rows[0].n);

it('finishes a 20,000-transaction sync killed midway with exactly 20,000 transactions and no duplicate events', async () => {
  child = await startBanking();
  const workspaceId = newId();
  const client = createServiceClient(BankingService, {
    baseUrl: `http://127.0.0.1:${port}`,
    timeoutMs: 10_000,
    trust: { key: DEVELOPMENT_SERVICE_TOKEN_KEY, issuer: 'test', audience: 'banking' },
  });
  const publicToken = sandbox.createPublicToken({
    institution_id: 'ins_109508',
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: TOTAL, seed: 42, initial_webhook: false } },
  });
  const item = sandbox.listItems().at(-1)!;
  const linked = await client.linkAccounts(
    {
      publicToken,
      accounts: item.accounts.map((a) => ({
        id: a.account_id,
        name: a.name,
        mask: a.mask,
        type: a.subtype === 'credit card' ? 'credit' : 'depository',
        subtype: a.subtype,
      })),
      institution: { name: item.institution_name, institutionId: item.institution_id },
      ignoreDuplicateAccounts: false,
    },
    { headers: tenantHeaders({ workspaceId }) },
  );
  const jobId = linked.jobs[0]!.id;
  const pushed = async () => scalar('select transaction_pushed as n from sync_jobs where id = ?', [jobId]);

  // Kill it while pages are being committed.
  await expectEventually(async () => expect(await pushed()).toBeGreaterThanOrEqual(4_000), { timeoutMs: 30_000, intervalMs: 20 });
  await kill(child);
  const atKill = await pushed();
  expect(atKill).toBeLessThan(TOTAL);
  expect(await scalar('select count(*) as n from bank_transactions')).toBe(atKill);

  child = await startBanking();
  await expectEventually(
    async () => {
      const job = (await db.adminDb.raw('select status, transaction_pushed, attempts from sync_jobs where id = ?', [jobId])).rows[0];
      expect(job).toMatchObject({ status: 'completed', transaction_pushed: TOTAL });
      expect(job.attempts).toBeGreaterThanOrEqual(2);
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );

  expect(await scalar('select count(*) as n from bank_transactions')).toBe(TOTAL);
  expect(await scalar('select count(distinct (account_id, external_id)) as n from bank_transactions')).toBe(TOTAL);
  // One bank_transactions.page per committed page (issue #22): decode every envelope; each transaction is added once.
  const envelopes: { envelope: Buffer }[] = await db.adminDb('outbox').where({ type: 'bank_transactions.page' }).select('envelope');
  const adds = envelopes.flatMap((r) =>
    fromBinary(BankTransactionsPageSchema, fromBinary(EventEnvelopeSchema, r.envelope).payload).changes.flatMap((c) =>
      c.change.case === 'added' ? [c.change.value.externalId] : [],
    ),
  );
  expect(adds.length).toBe(TOTAL);
  expect(new Set(adds).size).toBe(TOTAL);
  // Every row's event reached JetStream once (a relay killed mid-batch republishes; Nats-Msg-Id drops the copy).
  // One event per page now, so this wait is short; before, one event per transaction made it the
  // longest part of the test.
  const jsm = await jetstreamManager(bus.connection);
  const subject = `${bus.namespace}.events.bank_transactions.page`;
  await expectEventually(
    async () => {
      const info = await jsm.streams.info(`${bus.namespace.toUpperCase()}_LEDGERLINE_EVENTS`, { subjects_filter: subject });
      expect(info.state.subjects?.[subject]).toBe(envelopes.length);
    },
    { timeoutMs: 90_000, intervalMs: 200 },
  );
  expect(await scalar('select count(*) as n from outbox where published_at is null')).toBe(0);
}, 180_000);
