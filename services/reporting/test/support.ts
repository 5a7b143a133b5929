import { createLogger, EventType, newId, publishEvent, type EventBus } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { reportingConfigSchema } from '../src/config.js';
import { createReportingService, type ReportingService } from '../src/service.js';
import { reportingMigrations } from '../src/store/migrations.js';
import type { LedgerClient } from '../src/usecases/accounts.js';

export interface ReportingHarness {
  db: TestDatabase;
  service: ReportingService;
  /** The service's last warnings and errors (a test that fails on the read model shows them). */
  logs: string[];
  close(): Promise<void>;
}

/** A real reporting service on a fresh database consuming from `bus` (the ledger at `ledgerUrl`, if any). */
export async function startReporting(
  bus: EventBus,
  options: { ledgerUrl?: string; batchSize?: number; maxDeliver?: number; ledger?: LedgerClient } = {},
): Promise<ReportingHarness> {
  const db = await createTestDatabase('reporting', reportingMigrations);
  const config = reportingConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    REPORTING_PORT: '0',
    REPORTING_DATABASE_URL: db.appUrl,
    LEDGER_URL: options.ledgerUrl ?? 'http://127.0.0.1:9',
    REPORTING_BATCH_SIZE: String(options.batchSize ?? 500),
    REPORTING_LEDGER_TIMEOUT_MS: '20000',
  });
  const logs: string[] = [];
  const kept = { write: (line: string) => void (logs.push(line.trimEnd()) > 200 && logs.shift()) };
  const logger = process.env.SYSTEM_LOG_LEVEL
    ? createLogger('reporting-test', process.env.SYSTEM_LOG_LEVEL as 'warn')
    : createLogger('reporting-test', 'warn', kept);
  const service = await createReportingService(config, { db: db.appDb, bus, logger, maxDeliver: options.maxDeliver, ledger: options.ledger });
  await service.listen();
  return {
    db,
    service,
    logs,
    async close() {
      await service.stop();
      await db.drop();
    },
  };
}

export interface Line {
  accountId: string;
  direction: 'debit' | 'credit';
  amountCents: number;
}

/** Publishes entry.posted as the ledger's outbox relay does (envelope, subject, Nats-Msg-Id = event id). */
export async function publishEntry(
  bus: EventBus,
  workspaceId: string,
  entry: { entryId?: string; seq: number; date: string; lines: Line[]; billerId?: string; billerName?: string; reversesEntryId?: string; sourceType?: string },
  eventId = newId(),
): Promise<{ eventId: string; entryId: string }> {
  const entryId = entry.entryId ?? newId();
  await publishEvent(bus, 'ledger', {
    type: EventType.EntryPosted,
    id: eventId,
    workspaceId,
    payload: {
      entryId,
      seq: BigInt(entry.seq),
      date: entry.date,
      sourceType: entry.sourceType ?? 'ManualEntry',
      sourceId: newId(),
      description: 'test',
      billerId: entry.billerId ?? '',
      billerName: entry.billerName ?? '',
      reversesEntryId: entry.reversesEntryId ?? '',
      lines: entry.lines.map((l) => ({ lineId: newId(), accountId: l.accountId, direction: l.direction, amountCents: BigInt(l.amountCents) })),
    },
  });
  return { eventId, entryId };
}

/** Debit `a`, credit `b`. */
export const transfer = (a: string, b: string, amountCents: number): Line[] => [
  { accountId: a, direction: 'debit', amountCents },
  { accountId: b, direction: 'credit', amountCents },
];

/** Publishes chart.changed as the ledger's outbox relay does. */
export async function publishChartChange(
  bus: EventBus,
  workspaceId: string,
  seq: number,
  change = 'updated',
  accountIds: string[] = [],
  eventId = newId(),
): Promise<string> {
  return publishEvent(bus, 'ledger', { type: EventType.ChartChanged, id: eventId, workspaceId, payload: { seq: BigInt(seq), change, accountIds } });
}

type BankTransactionType = typeof EventType.BankTransactionAdded | typeof EventType.BankTransactionModified | typeof EventType.BankTransactionRemoved;

/** banking's bank_transaction.added / .modified (only what reporting reads of them: id, currency, date, version) or .removed. */
export async function publishBankTransaction(
  bus: EventBus,
  workspaceId: string,
  type: BankTransactionType,
  t: { id: string; isoCurrencyCode?: string; date?: string; version: number },
): Promise<void> {
  await publishEvent(
    bus,
    'banking',
    type === EventType.BankTransactionRemoved
      ? { type, workspaceId, payload: { id: t.id, accountId: newId(), externalId: 'x', version: BigInt(t.version) } }
      : {
          type,
          workspaceId,
          payload: {
            id: t.id,
            accountId: newId(),
            externalId: 'x',
            amountCents: -100n,
            isoCurrencyCode: t.isoCurrencyCode ?? 'USD',
            date: t.date ?? '2026-05-10',
            name: 'x',
            version: BigInt(t.version),
          },
        },
  );
}

/** Publishes banking's bank_account.linked or bank_account.synced (only what reporting reads: the account and its currency). */
export async function publishBankAccount(
  bus: EventBus,
  workspaceId: string,
  type: typeof EventType.BankAccountLinked | typeof EventType.BankAccountSynced,
  accountId: string,
  isoCurrencyCode: string,
  eventId = newId(),
): Promise<void> {
  await publishEvent(
    bus,
    'banking',
    type === EventType.BankAccountLinked
      ? { type, id: eventId, workspaceId, payload: { accountId, isoCurrencyCode, name: 'Account', type: 'depository' } }
      : { type, id: eventId, workspaceId, payload: { accountId, isoCurrencyCode, type: 'depository' } },
  );
}
