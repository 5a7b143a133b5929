import { EventType, writeEvent, type Knex } from '@ledgerline/platform';
import type { RecordView } from '../domain/record.js';

/** Writes integrations.record_created to the outbox in the caller's transaction: published if and only if it commits. */
export function recordCreated(trx: Knex.Transaction, workspaceId: string, record: RecordView): Promise<string> {
  return writeEvent(trx, 'integrations', { type: EventType.IntegrationsRecordCreated, workspaceId, payload: { recordId: record.id, title: record.title } });
}
