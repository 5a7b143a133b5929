import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { createLogger, createServiceClient, eventSubject, newId, tenantHeaders, type EventBus, type Knex, type Role } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankAccountLinkedSchema, BankTransactionRemovedSchema, BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { WorkspaceCreatedSchema } from '@ledgerline/proto/events/v1/identity_pb';
import { EntriesPostedSchema, EntryPostedSchema, type EntryPosted } from '@ledgerline/proto/events/v1/ledger_pb';
import { LedgerService as LedgerRpc } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { ledgerConfigSchema } from '../src/config.js';
import { createLedgerService, type LedgerOverrides, type LedgerService } from '../src/service.js';
import { ledgerMigrations } from '../src/store/migrations.js';

export interface LedgerHarness {
  db: TestDatabase;
  service: LedgerService;
  url: string;
  client: ReturnType<typeof createServiceClient<typeof LedgerRpc>>;
  /** Call options acting as `role` in `workspaceId`. */
  as(workspaceId: string, role?: Role): { headers: Record<string, string> };
  close(): Promise<void>;
}

/** A real ledger service on a fresh database, consuming from `bus`, listening on a free port. */
export async function startLedger(
  bus: EventBus,
  options: { port?: number; maxDeliver?: number; applySuggestions?: LedgerOverrides['applySuggestions'] } = {},
): Promise<LedgerHarness> {
  const db = await createTestDatabase('ledger', ledgerMigrations);
  const config = ledgerConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    LEDGER_PORT: String(options.port ?? 0),
    LEDGER_DATABASE_URL: db.appUrl,
    LEDGER_CONSUMER_CONCURRENCY: process.env.LEDGER_CONSUMER_CONCURRENCY,
    LEDGER_INGEST_BATCH: process.env.LEDGER_INGEST_BATCH,
  });
  const service = await createLedgerService(config, {
    db: db.appDb,
    bus,
    logger: createLogger('ledger-test', 'silent'),
    maxDeliver: options.maxDeliver,
    applySuggestions: options.applySuggestions,
  });
  const url = await service.listen();
  const client = createServiceClient(LedgerRpc, {
    baseUrl: url,
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'ledger-test', audience: 'ledger' },
  });
  return {
    db,
    service,
    url,
    client,
    as: (workspaceId, role = 'Owner') => ({ headers: tenantHeaders({ workspaceId, userId: newId(), role }) }),
    async close() {
      await service.stop();
      await db.drop();
    },
  };
}

/** Publishes an event as its owning service would (through its outbox relay): envelope, subject, msg id. */
export async function publish<D extends DescMessage>(
  bus: EventBus,
  type: string,
  workspaceId: string,
  schema: D,
  payload: MessageInitShape<D>,
  id = newId(),
): Promise<string> {
  const envelope = create(EventEnvelopeSchema, {
    id,
    type,
    workspaceId,
    occurredAt: timestampFromDate(new Date()),
    source: 'test',
    payload: toBinary(schema, create(schema, payload)),
  });
  await bus.publish(eventSubject(type), toBinary(EventEnvelopeSchema, envelope), { msgId: id });
  return id;
}

/** Banking's events for one workspace, with ids and versions kept for the test. */
export function bankingFor(bus: EventBus, workspaceId: string) {
  const versions = new Map<string, number>();
  return {
    workspaceCreated: () =>
      publish(bus, 'workspace.created', workspaceId, WorkspaceCreatedSchema, {
        workspaceId,
        organizationId: newId(),
        name: 'Test Co',
        ownerUserId: newId(),
        isDefault: true,
      }),
    async link(over: { name?: string; mask?: string; type?: string; subtype?: string } = {}): Promise<string> {
      const accountId = newId();
      await publish(bus, 'bank_account.linked', workspaceId, BankAccountLinkedSchema, {
        accountId,
        name: over.name ?? 'Checking',
        mask: over.mask ?? '1234',
        type: over.type ?? 'depository',
        subtype: over.subtype ?? 'checking',
        institutionName: 'Test Bank',
        isoCurrencyCode: 'USD',
        source: 'plaid',
      });
      return accountId;
    },
    async add(
      accountId: string,
      t: { amountCents: number; date?: string; name?: string; merchantName?: string; id?: string; isoCurrencyCode?: string },
    ): Promise<string> {
      const id = t.id ?? newId();
      const version = (versions.get(id) ?? 0) + 1;
      versions.set(id, version);
      await publish(bus, 'bank_transaction.added', workspaceId, BankTransactionSchema, {
        id,
        accountId,
        externalId: `ext-${id.slice(-8)}`,
        amountCents: BigInt(t.amountCents),
        isoCurrencyCode: t.isoCurrencyCode ?? 'USD',
        date: t.date ?? '2026-10-05',
        name: t.name ?? 'Coffee Shop',
        merchantName: t.merchantName ?? '',
        pending: false,
        version: BigInt(version),
      });
      return id;
    },
    async modify(
      accountId: string,
      id: string,
      t: { amountCents: number; date?: string; name?: string; version?: number; isoCurrencyCode?: string },
    ): Promise<void> {
      const version = t.version ?? (versions.get(id) ?? 0) + 1;
      versions.set(id, Math.max(version, versions.get(id) ?? 0));
      await publish(bus, 'bank_transaction.modified', workspaceId, BankTransactionSchema, {
        id,
        accountId,
        externalId: `ext-${id.slice(-8)}`,
        amountCents: BigInt(t.amountCents),
        isoCurrencyCode: t.isoCurrencyCode ?? 'USD',
        date: t.date ?? '2026-10-05',
        name: t.name ?? 'Coffee Shop',
        pending: false,
        version: BigInt(version),
      });
    },
    async remove(accountId: string, id: string): Promise<void> {
      const version = (versions.get(id) ?? 0) + 1;
      versions.set(id, version);
      await publish(bus, 'bank_transaction.removed', workspaceId, BankTransactionRemovedSchema, {
        id,
        accountId,
        externalId: `ext-${id.slice(-8)}`,
        version: BigInt(version),
      });
    },
  };
}

export async function rows<T>(db: Knex, sql: string, bindings: readonly unknown[] = []): Promise<T[]> {
  return (await db.raw(sql, bindings as Knex.RawBinding[])).rows as T[];
}

/** Trial balance of a workspace, read as the owner (bypasses RLS): debits − credits over every line. */
export async function trialBalance(db: Knex, workspaceId: string): Promise<number> {
  const [r] = await rows<{ s: number }>(
    db,
    "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ?",
    [workspaceId],
  );
  return r?.s ?? 0;
}

/**
 * The entries the ledger published for a workspace, in outbox order: each `entry.posted`, and each entry of an
 * `entries.posted` (a batch, issue #22), decoded. What a consumer sees, whichever way they were grouped.
 */
export async function publishedEntries(db: Knex, workspaceId: string): Promise<EntryPosted[]> {
  const rows = (
    await db.raw("select type, envelope from outbox where workspace_id = ? and type in ('entry.posted', 'entries.posted') order by seq", [workspaceId])
  ).rows as { type: string; envelope: Buffer }[];
  return rows.flatMap((r) => {
    const payload = fromBinary(EventEnvelopeSchema, r.envelope).payload;
    return r.type === 'entry.posted' ? [fromBinary(EntryPostedSchema, payload)] : fromBinary(EntriesPostedSchema, payload).entries;
  });
}
