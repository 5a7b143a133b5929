// Reporting behind the real gateway, in one test process: a fake identity (fixed sessions and roles),
// the real ledger and the real reporting service, each on a fresh database, on real NATS. Banking's events
// are published on the bus as banking publishes them; the ledger books them and publishes entry.posted,
// which reporting consumes.
import type { AddressInfo } from 'node:net';
import { buildGateway } from '@ledgerline/gateway';
import { jetstreamManager } from '@nats-io/jetstream';
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
  const gateway = await buildGateway({
    config: testConfig(base.identity.url, {
      LEDGER_URL: base.ledger.url,
      REPORTING_URL: `http://127.0.0.1:${(reporting.service.server.server.address() as AddressInfo).port}`,
      SERVICE_TIMEOUT_MS: '20000',
    }),
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
      try {
        await expectEventually(
          async () => {
            const [r] = await reporting.service.check([tenant.workspaceId]);
            if (!r?.ok) throw new Error(`read model differs: ${JSON.stringify(r?.differences.slice(0, 3))}`);
          },
          { timeoutMs, intervalMs: 200 },
        );
      } catch (err) {
        // Where the entries reporting lacks got stuck: never published, published but not received, or received.
        throw new Error(`${(err as Error).message}\n${JSON.stringify(await whereStuck(base, reporting, tenant.workspaceId), null, 1)}`, { cause: err });
      }
    },
    async close() {
      await gateway.close();
      await reporting.close();
      await base.close();
    },
  };
}

/** For a read model that never catches up: each ledger entry reporting lacks, its outbox row and inbox row, and the projector's consumer. */
async function whereStuck(base: LedgerApiHarness, reporting: ReportingHarness, workspaceId: string) {
  const projected = new Set(
    ((await reporting.db.adminDb.raw('select entry_id::text from projected_entries where workspace_id = ?', [workspaceId])).rows as { entry_id: string }[]).map(
      (r) => r.entry_id,
    ),
  );
  const entries = (
    await base.ledger.db.adminDb.raw('select id::text, seq::int, created_at from journal_entries where workspace_id = ? order by seq', [workspaceId])
  ).rows as { id: string; seq: number; created_at: Date }[];
  const missing = entries.filter((e) => !projected.has(e.id)).slice(0, 10);
  const rows = [];
  for (const e of missing) {
    const outbox = (
      await base.ledger.db.adminDb.raw(
        "select id::text, type, seq::int, created_at, published_at from outbox where workspace_id = ? and position(convert_to(?, 'UTF8') in envelope) > 0",
        [workspaceId, e.id],
      )
    ).rows as { id: string }[];
    const inbox = outbox.length
      ? (await reporting.db.adminDb.raw('select consumer, event_id::text, handled_at from inbox where event_id = any(?::uuid[])', [outbox.map((o) => o.id)]))
          .rows
      : [];
    rows.push({ entry: e, outbox, inbox });
  }
  const unpublished = (await base.ledger.db.adminDb.raw('select count(*)::int as n from outbox where published_at is null')).rows[0];
  const consumers = [];
  try {
    const jsm = await jetstreamManager(base.bus.connection);
    for await (const stream of jsm.streams.list()) {
      if (!stream.config.name.startsWith(base.bus.namespace.toUpperCase())) continue;
      consumers.push({ stream: stream.config.name, messages: stream.state.messages });
      for await (const c of jsm.consumers.list(stream.config.name)) {
        consumers.push({
          stream: stream.config.name,
          name: c.name,
          pending: c.num_pending,
          ackPending: c.num_ack_pending,
          redelivered: c.num_redelivered,
          waiting: c.num_waiting,
          delivered: c.delivered.stream_seq,
          ackFloor: c.ack_floor.stream_seq,
        });
      }
    }
  } catch (err) {
    consumers.push({ error: String(err) });
  }
  return {
    entries: entries.length,
    projected: projected.size,
    missing: rows,
    ledgerOutboxUnpublished: unpublished,
    consumers,
    reportingLogs: reporting.logs.filter((l) => !l.includes('read model differs')).slice(-40),
  };
}
