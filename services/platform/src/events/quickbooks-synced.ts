// The consumer of integrations.quickbooks_synced that every owner of synced records runs (decision 0045): it sets
// or clears `qbo_synced` on the rows of its own tables named in the event. One implementation for the ledger
// (transactions, accounts) and parties (vendors, customers); a service passes the tables it owns by entity type.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EventBus, Subscription } from './bus.js';
import { EventType, eventMessage } from './catalog.js';
import { startConsumer } from './consumer.js';
import { isUuid } from '../ids.js';

interface Flags {
  entityType: string;
  syncedIds: string[];
  unsyncedIds: string[];
}

/**
 * Starts the consumer `name` that sets `qbo_synced` on `tables[entityType]`; other entity types are another owner's.
 * Row-level security holds each update to the event's workspace; a bad payload is dead-lettered at once.
 */
export function startQuickBooksSyncedConsumer(options: {
  name: string;
  tables: Readonly<Record<string, string>>;
  db: Knex;
  bus: EventBus;
  logger: Logger;
  maxDeliver?: number;
}): Promise<Subscription> {
  return startConsumer<typeof EventType.IntegrationsQuickBooksSynced, Flags>({
    name: options.name,
    types: [EventType.IntegrationsQuickBooksSynced],
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    maxDeliver: options.maxDeliver ?? 8,
    check: (event) => {
      const m = eventMessage(event);
      const ids = [...m.syncedIds, ...m.unsyncedIds];
      if (ids.length > 10_000 || !ids.every(isUuid)) throw new Error('integrations.quickbooks_synced: ids must be at most 10,000 UUIDs');
      return { entityType: m.entityType, syncedIds: m.syncedIds, unsyncedIds: m.unsyncedIds };
    },
    handle: async (trx, event) => {
      const { entityType, syncedIds, unsyncedIds } = event.checked;
      const table = Object.hasOwn(options.tables, entityType) ? options.tables[entityType] : undefined;
      if (!table) return;
      if (syncedIds.length > 0) await trx(table).whereIn('id', syncedIds).update({ qbo_synced: true });
      if (unsyncedIds.length > 0) await trx(table).whereIn('id', unsyncedIds).update({ qbo_synced: false });
    },
  });
}
