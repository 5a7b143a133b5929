import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { createLogger, eventSubject, newId, type EventBus } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { EntryPostedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import { reportingConfigSchema } from '../src/config.js';
import { createReportingService, type ReportingService } from '../src/service.js';
import { reportingMigrations } from '../src/store/migrations.js';

export interface ReportingHarness {
  db: TestDatabase;
  service: ReportingService;
  close(): Promise<void>;
}

/** A real reporting service on a fresh database consuming from `bus` (the ledger at `ledgerUrl`, if any). */
export async function startReporting(bus: EventBus, options: { ledgerUrl?: string; batchSize?: number; maxDeliver?: number } = {}): Promise<ReportingHarness> {
  const db = await createTestDatabase('reporting', reportingMigrations);
  const config = reportingConfigSchema.parse({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', REPORTING_PORT: '0', REPORTING_DATABASE_URL: db.appUrl, LEDGER_URL: options.ledgerUrl ?? 'http://127.0.0.1:9',
    REPORTING_BATCH_SIZE: String(options.batchSize ?? 500), REPORTING_LEDGER_TIMEOUT_MS: '20000',
  });
  const service = await createReportingService(config, { db: db.appDb, bus, logger: createLogger('reporting-test', 'silent'), maxDeliver: options.maxDeliver });
  await service.listen();
  return {
    db, service,
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
  bus: EventBus, workspaceId: string,
  entry: { entryId?: string; seq: number; date: string; lines: Line[]; billerId?: string; billerName?: string; reversesEntryId?: string; sourceType?: string }, eventId = newId(),
): Promise<{ eventId: string; entryId: string }> {
  const entryId = entry.entryId ?? newId();
  const payload = create(EntryPostedSchema, {
    entryId, seq: BigInt(entry.seq), date: entry.date, sourceType: entry.sourceType ?? 'ManualEntry', sourceId: newId(), description: 'test',
    billerId: entry.billerId ?? '', billerName: entry.billerName ?? '', reversesEntryId: entry.reversesEntryId ?? '',
    lines: entry.lines.map((l) => ({ lineId: newId(), accountId: l.accountId, direction: l.direction, amountCents: BigInt(l.amountCents) })),
  });
  const envelope = create(EventEnvelopeSchema, { id: eventId, type: 'entry.posted', workspaceId, occurredAt: timestampFromDate(new Date()), source: 'ledger', payload: toBinary(EntryPostedSchema, payload) });
  await bus.publish(eventSubject('entry.posted'), toBinary(EventEnvelopeSchema, envelope), { msgId: eventId });
  return { eventId, entryId };
}

/** Debit `a`, credit `b`. */
export const transfer = (a: string, b: string, amountCents: number): Line[] => [{ accountId: a, direction: 'debit', amountCents }, { accountId: b, direction: 'credit', amountCents }];
