// Banking behind the real gateway, in one test process: a fake identity (fixed sessions and roles, see
// services/gateway/test/support/fake-identity.ts), the banking service on a fresh database, real NATS,
// and the Plaid sandbox driven by the official plaid SDK. Webhooks go sandbox → gateway → banking.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { bankingConfigSchema, bankingMigrations, createBankingService, type BankingService } from '@ledgerline/banking';
import { buildGateway } from '@ledgerline/gateway';
import { startPlaidSandbox, type PlaidSandbox } from '@ledgerline/plaid-sandbox';
import type { FastifyInstance } from 'fastify';
import { ORG_ID, startFakeIdentity, testConfig, type FakeIdentity } from '../../services/gateway/test/support/fake-identity.js';

export interface Answer {
  status: number;
  // Tests read the documented JSON shapes field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Tenant {
  token: string;
  workspaceId: string;
  /** A Viewer of the same workspace. */
  viewerToken: string;
}

export interface BankingHarness {
  db: TestDatabase;
  bus: Awaited<ReturnType<typeof createTestBus>>;
  sandbox: PlaidSandbox;
  identity: FakeIdentity;
  banking: BankingService;
  gateway: FastifyInstance;
  gatewayUrl: string;
  webhookUrl: string;
  api(
    method: string,
    path: string,
    options?: { tenant?: Tenant; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<Answer>;
  /** A workspace with an Owner and a Viewer (sessions of the fake identity). */
  tenant(): Tenant;
  /** Plaid Link in the sandbox: an item of the institution, then POST /accounts with its accounts. */
  link(
    tenant: Tenant,
    options: {
      institutionId: string;
      transactions?: number;
      seed?: number;
      pendingDays?: number;
      ignoreDuplicateAccounts?: boolean;
      initialWebhook?: boolean;
      accounts?: (a: { account_id: string }) => boolean;
    },
  ): Promise<{ answer: Answer; itemId: string }>;
  /** Waits until no job of the workspace is waiting, delayed or active; returns the jobs. */
  settle(tenant: Tenant, timeoutMs?: number): Promise<Answer['body'][]>;
  /** Messages JetStream holds per event subject (after de-duplication by Nats-Msg-Id). */
  streamCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export async function startBankingHarness(env: Record<string, string> = {}): Promise<BankingHarness> {
  const db = await createTestDatabase('banking', bankingMigrations);
  const bus = await createTestBus('banking-api');
  const sandbox = await startPlaidSandbox({ port: 0 });
  const identity = await startFakeIdentity();
  const config = bankingConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.SYSTEM_LOG_LEVEL ?? 'silent',
    BANKING_PORT: '0',
    BANKING_DATABASE_URL: db.appUrl,
    PLAID_BASE_URL: sandbox.url,
    PLAID_CLIENT_ID: sandbox.clientId,
    PLAID_SECRET: sandbox.secret,
    NATS_NAMESPACE: bus.namespace,
    SYNC_ACK_WAIT_MS: '5000',
    SYNC_RETRY_BASE_MS: '100',
    WEBHOOK_SYNC_DELAY_MS: '1000',
    ...env,
  });
  const banking = await createBankingService(config, { db: db.appDb, bus, logger: createLogger('banking', config.LOG_LEVEL) });
  const bankingUrl = await banking.listen();
  // No ledger here (nothing listens on port 1): GET /accounts answers without its tie-out.
  const gateway = await buildGateway({
    config: testConfig(identity.url, { BANKING_URL: bankingUrl, LEDGER_URL: 'http://127.0.0.1:1', SERVICE_TIMEOUT_MS: '10000' }),
    redis: null,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  const webhookUrl = `${gatewayUrl}/plaid/webhook`;

  const api: BankingHarness['api'] = async (method, path, options = {}) => {
    const token = options.token ?? options.tenant?.token;
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined || options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.tenant ? { 'x-workspace-id': options.tenant.workspaceId } : {}),
        ...options.headers,
      },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body };
  };

  const tenant = (): Tenant => {
    const workspaceId = newId();
    const token = `tok-${randomUUID()}`;
    const viewerToken = `tok-${randomUUID()}`;
    const ws = (role: string) => ({ id: workspaceId, name: 'Books', organizationId: ORG_ID, organizationName: 'Acme', role, isDefault: true });
    identity.sessions.set(token, { userId: newId(), workspaces: [ws('Owner')], defaultWorkspaceId: workspaceId });
    identity.sessions.set(viewerToken, { userId: newId(), workspaces: [ws('Viewer')], defaultWorkspaceId: workspaceId });
    return { token, workspaceId, viewerToken };
  };

  const link: BankingHarness['link'] = async (t, options) => {
    const publicToken = sandbox.createPublicToken({
      institution_id: options.institutionId,
      initial_products: ['transactions'],
      options: {
        webhook: webhookUrl,
        ledgerline: {
          transactions: options.transactions ?? 50,
          seed: options.seed ?? 1,
          pending_days: options.pendingDays ?? 2,
          initial_webhook: options.initialWebhook ?? false,
        },
      },
    });
    const item = sandbox.listItems().at(-1)!;
    const institution = sandbox.institutions().find((i) => i.institutionId === options.institutionId)!;
    const accounts = item.accounts
      .filter(options.accounts ?? (() => true))
      .map((a) => ({ id: a.account_id, name: a.name, mask: a.mask, type: a.subtype === 'credit card' ? 'credit' : 'depository', subtype: a.subtype }));
    const answer = await api('POST', '/accounts', {
      tenant: t,
      body: {
        publicToken,
        accounts,
        institution: { name: institution.name, institution_id: institution.institutionId },
        ignoreDuplicateAccounts: options.ignoreDuplicateAccounts ?? false,
      },
    });
    return { answer, itemId: item.item_id };
  };

  const settle: BankingHarness['settle'] = async (t, timeoutMs = 30_000) =>
    expectEventually(
      async () => {
        const r = await api('GET', '/jobs', { tenant: t });
        if (r.status !== 200) throw new Error(`GET /jobs answered ${r.status}`);
        const busy = r.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status));
        if (busy.length > 0) throw new Error(`jobs still running: ${JSON.stringify(busy.map((j: { status: string; data: unknown }) => [j.status, j.data]))}`);
        return r.body.jobs;
      },
      { timeoutMs, intervalMs: 100 },
    );

  const streamCounts = async () => {
    const jsm = await jetstreamManager(bus.connection);
    const info = await jsm.streams.info(`${bus.namespace.toUpperCase()}_LEDGERLINE_EVENTS`, { subjects_filter: '>' });
    const prefix = `${bus.namespace}.events.`;
    return Object.fromEntries(Object.entries(info.state.subjects ?? {}).map(([s, n]) => [s.slice(prefix.length), n]));
  };

  return {
    db,
    bus,
    sandbox,
    identity,
    banking,
    gateway,
    gatewayUrl,
    webhookUrl,
    api,
    tenant,
    link,
    settle,
    streamCounts,
    async close() {
      await gateway.close();
      await banking.stop();
      await identity.close();
      await sandbox.close();
      // The sync queue's stream lives in the test namespace too.
      const jsm = await jetstreamManager(bus.connection);
      await jsm.streams.delete(`${bus.namespace.toUpperCase()}_JOBS_TRANSACTION_SYNC`).catch(() => undefined);
      await bus.close();
      await db.drop();
    },
  };
}
