// Reporting behind the real gateway, in one test process: a fake identity (fixed sessions and roles),
// the real ledger and the real reporting service, each on a fresh database, on real NATS. Banking's events
// are published on the bus as banking publishes them; the ledger books them and publishes entry.posted,
// which reporting consumes.
import type { AddressInfo } from 'node:net';
import { buildGateway } from '@ledgerline/gateway';
import { expectEventually } from '@ledgerline/platform/testing';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../services/gateway/test/support/fake-identity.js';
import { startReporting, type ReportingHarness } from '../../services/reporting/test/support.js';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

export interface ReportingApiHarness extends LedgerApiHarness {
  reporting: ReportingHarness;
  /** A gateway that also routes /financial-data/ to reporting (the ledger harness's own gateway does not). */
  gatewayWithReporting: FastifyInstance;
  /** Waits until reporting's balances for the workspace equal the ledger's (the check passes). */
  caughtUp(tenant: Tenant, timeoutMs?: number): Promise<void>;
}

export async function startReportingHarness(): Promise<ReportingApiHarness> {
  const base = await startLedgerHarness();
  const reporting = await startReporting(base.bus, { ledgerUrl: base.ledger.url });
  const gateway = await buildGateway({ config: testConfig(base.identity.url, { LEDGER_URL: base.ledger.url, REPORTING_URL: `http://127.0.0.1:${(reporting.service.server.server.address() as AddressInfo).port}`, SERVICE_TIMEOUT_MS: '20000' }), redis: null });
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
      signal: AbortSignal.timeout(30_000),
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
  return {
    ...base,
    api,
    reporting,
    gatewayWithReporting: gateway,
    async caughtUp(tenant, timeoutMs = 30_000) {
      await expectEventually(async () => {
        const [r] = await reporting.service.check([tenant.workspaceId]);
        if (!r?.ok) throw new Error(`read model differs: ${JSON.stringify(r?.differences.slice(0, 3))}`);
      }, { timeoutMs, intervalMs: 200 });
    },
    async close() {
      await gateway.close();
      await reporting.close();
      await base.close();
    },
  };
}
