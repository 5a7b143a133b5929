// The documents tests' system: a fake identity; the real ledger, parties, documents and reporting services on
// fresh databases; real NATS; the real gateway. Tenants are sessions of the fake identity (an Owner and a Viewer
// token per workspace); data is set up through the REST API.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createDocumentsService, documentsConfigSchema, documentsMigrations, type DocumentsOverrides, type DocumentsService } from '@ledgerline/documents';
import { buildGateway } from '@ledgerline/gateway';
import { createPartiesService, partiesConfigSchema, partiesMigrations, type PartiesService } from '@ledgerline/parties';
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ORG_ID, startFakeIdentity, testConfig, type FakeIdentity } from '../../services/gateway/test/support/fake-identity.js';
import { bankingFor, startLedger, type LedgerHarness } from '../../services/ledger/test/support.js';
import { startReporting, type ReportingHarness } from '../../services/reporting/test/support.js';

export interface Answer {
  status: number;
  headers: Headers;
  // Tests read the documented JSON shapes field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}
export interface Tenant {
  token: string;
  viewerToken: string;
  workspaceId: string;
}

export interface DocumentsSystem {
  bus: Awaited<ReturnType<typeof createTestBus>>;
  ledger: LedgerHarness;
  reporting: ReportingHarness;
  documentsDb: TestDatabase;
  /** The documents service (its recurrence scheduler: `expose.scheduler`). */
  documents: DocumentsService;
  /** Another replica of the documents service on the same database and bus (its own pools), with this clock. */
  replica(clock: () => Date): Promise<DocumentsService>;
  /** The fake identity: tests answer its team calls (e.g. the workspace profile an invoice PDF shows) through `handlers`. */
  identity: FakeIdentity;
  /** The gateway's base URL (binary answers, read as bytes). */
  gatewayUrl: string;
  api(method: string, path: string, o?: { tenant?: Tenant; token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  tenant(): Tenant;
  stop(): Promise<void>;
}

export async function startDocumentsSystem(
  name: string,
  o: {
    documentLedger?: DocumentsOverrides['documentLedger'];
    clock?: () => Date;
    documentsEnv?: Record<string, string>;
    gatewayEnv?: Record<string, string>;
  } = {},
): Promise<DocumentsSystem> {
  const bus = await createTestBus(name);
  const ledger = await startLedger(bus);
  const reporting = await startReporting(bus, { ledgerUrl: ledger.url });
  const logger = createLogger(name, 'silent');
  const partiesDb = await createTestDatabase('parties', partiesMigrations);
  const parties: PartiesService = await createPartiesService(
    partiesConfigSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PARTIES_PORT: '0', PARTIES_DATABASE_URL: partiesDb.appUrl, LEDGER_URL: ledger.url }),
    { db: partiesDb.appDb, bus, logger },
  );
  const partiesUrl = await parties.listen();
  const documentsDb = await createTestDatabase('documents', documentsMigrations);
  const documentsConfig = documentsConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DOCUMENTS_PORT: '0',
    DOCUMENTS_DATABASE_URL: documentsDb.appUrl,
    LEDGER_URL: ledger.url,
    PARTIES_URL: partiesUrl,
    ...o.documentsEnv,
  });
  const documents: DocumentsService = await createDocumentsService(documentsConfig, {
    db: documentsDb.appDb,
    bus,
    logger,
    documentLedger: o.documentLedger,
    clock: o.clock,
  });
  const replicas: DocumentsService[] = [];
  const documentsUrl = await documents.listen();
  const identity: FakeIdentity = await startFakeIdentity();
  const reportingUrl = `http://127.0.0.1:${(reporting.service.server.server.address() as AddressInfo).port}`;
  const gateway: FastifyInstance = await buildGateway({
    config: testConfig(identity.url, {
      LEDGER_URL: ledger.url,
      PARTIES_URL: partiesUrl,
      DOCUMENTS_URL: documentsUrl,
      REPORTING_URL: reportingUrl,
      SERVICE_TIMEOUT_MS: '20000',
      ...o.gatewayEnv,
    }),
    redis: null,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;

  return {
    bus,
    ledger,
    reporting,
    documentsDb,
    documents,
    identity,
    gatewayUrl,
    async replica(clock) {
      // Another replica: the same database and bus, a port of its own.
      const r = await createDocumentsService({ ...documentsConfig, DOCUMENTS_PORT: 0 }, { bus, logger, clock });
      await r.listen();
      replicas.push(r);
      return r;
    },
    async api(method, path, o = {}) {
      const token = o.token ?? o.tenant?.token;
      const res = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: {
          ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(o.tenant ? { 'x-workspace-id': o.tenant.workspaceId } : {}),
          ...o.headers,
        },
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, headers: res.headers, body, text };
    },
    tenant() {
      const workspaceId = newId();
      const token = `tok-${randomUUID()}`;
      const viewerToken = `tok-${randomUUID()}`;
      const ws = (role: string) => ({ id: workspaceId, name: 'Books', organizationId: ORG_ID, organizationName: 'Acme', role, isDefault: true });
      identity.sessions.set(token, { userId: newId(), workspaces: [ws('Owner')], defaultWorkspaceId: workspaceId });
      identity.sessions.set(viewerToken, { userId: newId(), workspaces: [ws('Viewer')], defaultWorkspaceId: workspaceId });
      return { token, viewerToken, workspaceId };
    },
    async stop() {
      await gateway.close();
      for (const r of replicas) await r.stop().catch(() => undefined);
      await documents.stop();
      await documentsDb.drop();
      await parties.stop();
      await partiesDb.drop();
      await reporting.close();
      await ledger.close();
      await identity.close();
      await bus.close();
    },
  };
}

export async function categoryIds(s: DocumentsSystem, tn: Tenant): Promise<Record<string, string>> {
  const r = await s.api('GET', '/categories', { tenant: tn });
  expect(r.status).toBe(200);
  return Object.fromEntries((r.body.categories as { id: string; name: string }[]).map((c) => [c.name, c.id]));
}
export async function newVendor(s: DocumentsSystem, tn: Tenant, name = `Vendor ${randomUUID().slice(0, 8)}`): Promise<{ id: string; name: string }> {
  const r = await s.api('POST', '/vendors', { tenant: tn, body: { name } });
  expect(r.status).toBe(201);
  return r.body.vendor;
}
export async function newCustomer(s: DocumentsSystem, tn: Tenant, name = `Customer ${randomUUID().slice(0, 8)}`): Promise<{ id: string; name: string }> {
  const r = await s.api('POST', '/customers', { tenant: tn, body: { name } });
  expect(r.status).toBe(201);
  return r.body.customer;
}

export interface EntryRow {
  id: string;
  source_type: string;
  source_id: string | null;
  entry_date: string;
  description: string;
  reverses_entry_id: string | null;
}
export interface LineRow {
  id: string;
  entry_id: string;
  account_id: string;
  direction: string;
  amount_cents: number;
}
export async function entriesOf(s: DocumentsSystem, sourceId: string): Promise<EntryRow[]> {
  return (
    await s.ledger.db.adminDb.raw(
      "select id::text, source_type, source_id::text, to_char(entry_date, 'YYYY-MM-DD') as entry_date, description, reverses_entry_id::text from journal_entries where source_id = ? order by seq",
      [sourceId],
    )
  ).rows as EntryRow[];
}
export async function linesOf(s: DocumentsSystem, entryIds: string[]): Promise<LineRow[]> {
  return (
    await s.ledger.db.adminDb.raw(
      'select id::text, entry_id::text, account_id::text, direction, amount_cents::int from journal_lines where entry_id = any(?::uuid[]) order by entry_id, id',
      [entryIds],
    )
  ).rows as LineRow[];
}
/** The workspace's balance of one account from the ledger's lines, debit − credit, in cents. */
export async function debitBalance(s: DocumentsSystem, tn: Tenant, accountId: string): Promise<number> {
  const r = (
    await s.ledger.db.adminDb.raw(
      "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ? and account_id = ?",
      [tn.workspaceId, accountId],
    )
  ).rows as { b: string }[];
  return Number(r[0]?.b ?? 0);
}
export async function accountOfKey(s: DocumentsSystem, tn: Tenant, key: string): Promise<string> {
  const r = (await s.ledger.db.adminDb.raw('select id::text from accounts where workspace_id = ? and system_key = ?', [tn.workspaceId, key])).rows as {
    id: string;
  }[];
  expect(r).toHaveLength(1);
  return r[0]!.id;
}

/** Bank transactions of the tenant booked by the ledger (banking's events on the bus), by amount in cents: their ids. */
export async function bankTransactions(s: DocumentsSystem, tn: Tenant, amounts: number[]): Promise<string[]> {
  const banking = bankingFor(s.bus, tn.workspaceId);
  const account = await banking.link();
  const external: string[] = [];
  for (const [i, amountCents] of amounts.entries())
    external.push(`ext-${(await banking.add(account, { amountCents, name: `Payment ${i + 1}`, date: '2026-04-15' })).slice(-8)}`);
  return expectEventually(
    async () => {
      const r = await s.ledger.client.listTransactions({ take: 100 }, s.ledger.as(tn.workspaceId));
      const ids = external.map((e) => r.data.find((t) => t.vendorTransactionId === e)?.id);
      expect(ids.every((id) => id !== undefined)).toBe(true);
      return ids as string[];
    },
    { timeoutMs: 20_000 },
  );
}
