// The ledger behind the real gateway, in one test process: a fake identity (fixed sessions and roles, see
// services/gateway/test/support/fake-identity.ts), the ledger service on a fresh database and real NATS.
// Banking's events are published on the bus as banking publishes them (the event contract in proto/).
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { buildGateway } from '@ledgerline/gateway';
import type { FastifyInstance } from 'fastify';
import { ORG_ID, startFakeIdentity, testConfig, type FakeIdentity } from '../../services/gateway/test/support/fake-identity.js';
import { bankingFor, startLedger, type LedgerHarness as LedgerService } from '../../services/ledger/test/support.js';

export interface Answer {
  status: number;
  headers: Headers;
  // Tests read the documented JSON shapes field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Tenant {
  token: string;
  workspaceId: string;
  /** A Viewer of the same workspace. */
  viewerToken: string;
  banking: ReturnType<typeof bankingFor>;
}

export interface LedgerApiHarness {
  bus: Awaited<ReturnType<typeof createTestBus>>;
  ledger: LedgerService;
  identity: FakeIdentity;
  gateway: FastifyInstance;
  api(method: string, path: string, options?: { tenant?: Tenant; token?: string; body?: unknown }): Promise<Answer>;
  /** A workspace with an Owner and a Viewer, and banking's events for it. */
  tenant(): Tenant;
  /** Waits until the workspace lists `count` transactions. */
  transactions(tenant: Tenant, count: number, query?: string): Promise<Answer['body']>;
  close(): Promise<void>;
}

/** `serviceTimeoutMs`: the gateway's deadline for ledger calls (benchmarks time requests longer than tests allow). */
export async function startLedgerHarness(settings: { serviceTimeoutMs?: number } = {}): Promise<LedgerApiHarness> {
  const bus = await createTestBus('ledger-api');
  const ledger = await startLedger(bus);
  const identity = await startFakeIdentity();
  const gateway = await buildGateway({
    config: testConfig(identity.url, { LEDGER_URL: ledger.url, SERVICE_TIMEOUT_MS: String(settings.serviceTimeoutMs ?? 20_000) }),
    redis: null,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;

  const api: LedgerApiHarness['api'] = async (method, path, options = {}) => {
    const token = options.token ?? options.tenant?.token;
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.tenant ? { 'x-workspace-id': options.tenant.workspaceId } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(Math.max(30_000, (settings.serviceTimeoutMs ?? 0) + 5_000)),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body };
  };

  const tenant = (): Tenant => {
    const workspaceId = newId();
    const token = `tok-${randomUUID()}`;
    const viewerToken = `tok-${randomUUID()}`;
    const ws = (role: string) => ({ id: workspaceId, name: 'Books', organizationId: ORG_ID, organizationName: 'Acme', role, isDefault: true });
    identity.sessions.set(token, { userId: newId(), workspaces: [ws('Owner')], defaultWorkspaceId: workspaceId });
    identity.sessions.set(viewerToken, { userId: newId(), workspaces: [ws('Viewer')], defaultWorkspaceId: workspaceId });
    return { token, workspaceId, viewerToken, banking: bankingFor(bus, workspaceId) };
  };

  const transactions: LedgerApiHarness['transactions'] = (t, count, query = 'take=100') =>
    expectEventually(
      async () => {
        const r = await api('GET', `/transactions/v2?${query}`, { tenant: t });
        if (r.status !== 200 || r.body.meta.itemCount !== count)
          throw new Error(`GET /transactions/v2 answered ${r.status} ${JSON.stringify(r.body.meta ?? r.body)}`);
        return r.body;
      },
      { timeoutMs: 20_000 },
    );

  return {
    bus,
    ledger,
    identity,
    gateway,
    api,
    tenant,
    transactions,
    async close() {
      await gateway.close();
      await ledger.close();
      await identity.close();
      await bus.close();
    },
  };
}
