// The stack vendor rules run on, in one test process: a fake identity, the real ledger, parties and reporting
// services on fresh databases, real NATS, and a gateway routing to all three. Banking's events are published on
// the bus as banking publishes them.
import type { AddressInfo } from 'node:net';
import { buildGateway } from '@ledgerline/gateway';
import { createLogger } from '@ledgerline/platform';
import { createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { createPartiesService, partiesConfigSchema, partiesMigrations, type PartiesService } from '@ledgerline/parties';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../services/gateway/test/support/fake-identity.js';
import type { Answer, LedgerApiHarness, Tenant } from './ledger.harness.js';
import { accountRows, cents, expected, lineSums, type Row } from './report-oracle.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';

export interface RulesHarness extends ReportingApiHarness {
  parties: PartiesService;
  partiesDb: TestDatabase;
  rulesGateway: FastifyInstance;
}

export async function startRulesHarness(settings: { serviceTimeoutMs?: number } = {}): Promise<RulesHarness> {
  const base = await startReportingHarness();
  const partiesDb = await createTestDatabase('parties', partiesMigrations);
  const timeout = String(settings.serviceTimeoutMs ?? 20_000);
  const config = partiesConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PARTIES_PORT: '0',
    PARTIES_DATABASE_URL: partiesDb.appUrl,
    LEDGER_URL: base.ledger.url,
    PARTIES_LEDGER_TIMEOUT_MS: timeout,
  });
  const parties = await createPartiesService(config, { db: partiesDb.appDb, bus: base.bus, logger: createLogger('parties-rules', 'silent') });
  const partiesUrl = await parties.listen();
  const reportingUrl = `http://127.0.0.1:${(base.reporting.service.server.server.address() as AddressInfo).port}`;
  const gateway = await buildGateway({
    config: testConfig(base.identity.url, { LEDGER_URL: base.ledger.url, PARTIES_URL: partiesUrl, REPORTING_URL: reportingUrl, SERVICE_TIMEOUT_MS: timeout }),
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
      signal: AbortSignal.timeout(Math.max(30_000, Number(timeout) + 5_000)),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body } as Answer;
  };
  const transactions: LedgerApiHarness['transactions'] = (t, count, query = 'take=100') =>
    expectEventually(
      async () => {
        const r = await api('GET', `/transactions/v2?${query}`, { tenant: t });
        if (r.status !== 200 || r.body.meta.itemCount !== count)
          throw new Error(`GET /transactions/v2 answered ${r.status} ${JSON.stringify(r.body.meta ?? r.body)}`);
        return r.body;
      },
      { timeoutMs: 60_000 },
    );
  return {
    ...base,
    api,
    transactions,
    parties,
    partiesDb,
    rulesGateway: gateway,
    async close() {
      await gateway.close();
      await parties.stop();
      await partiesDb.drop();
      await base.close();
    },
  };
}

/** Every profit-and-loss cell of [from, to] equals the ledger's own lines of its subtree (the report oracle), once reporting caught up. */
export async function assertBooksTie(h: RulesHarness, t: Tenant, from: string, to: string): Promise<void> {
  await h.caughtUp(t);
  const pl = await h.api('GET', `/financial-data/profit-loss/v3?startDate=${from}&endDate=${to}&periodicity=totals_only`, { tenant: t });
  if (pl.status !== 200) throw new Error(`profit-loss answered ${pl.status} ${JSON.stringify(pl.body)}`);
  const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, from, to);
  const rows = accountRows(pl.body.report.data as Row[]);
  if (rows.length === 0) throw new Error('the report has no account rows');
  for (const r of rows) {
    const cell = cents(r.amounts[0] ?? NaN);
    if (cell !== expected(sums, r)) throw new Error(`${r.name}: report ${cell} ≠ ledger ${expected(sums, r)}`);
  }
}
