import { eventMessage, EventType, isUuid, startConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';

/** The durable (and inbox) name of the consumer of integrations.quickbooks_synced. */
export const QUICKBOOKS_SYNCED_CONSUMER = 'ledger_quickbooks_synced';

interface Flags {
  entityType: string;
  syncedIds: string[];
  unsyncedIds: string[];
}

/**
 * integrations' quickbooks_synced → the qboSynced flags of the workspace's transactions and accounts (decision
 * 0045). A synced transaction cannot be edited until it is un-synced (spec §4, domain/restrictions.ts). Other
 * entity types are parties'. A bad payload is dead-lettered at once.
 */
export function startQuickBooksSyncedConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Subscription> {
  return startConsumer<typeof EventType.IntegrationsQuickBooksSynced, Flags>({
    name: QUICKBOOKS_SYNCED_CONSUMER,
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
      const table = entityType === 'transaction' ? 'workspace_transactions' : entityType === 'account' ? 'accounts' : undefined;
      if (!table) return;
      // Row-level security holds the update to the event's workspace.
      if (syncedIds.length > 0) await trx(table).whereIn('id', syncedIds).update({ qbo_synced: true });
      if (unsyncedIds.length > 0) await trx(table).whereIn('id', unsyncedIds).update({ qbo_synced: false });
    },
  });
}
