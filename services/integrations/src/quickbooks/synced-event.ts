import { EventType, writeEvent, type Knex } from '@ledgerline/platform';

/**
 * Writes integrations.quickbooks_synced to the outbox in the caller's transaction (the one committing the entity
 * rows): the owners of the entities set their qboSynced flags from it.
 */
export async function quickBooksSynced(
  trx: Knex.Transaction,
  workspaceId: string,
  payload: { entityType: string; syncedIds: string[]; unsyncedIds: string[]; jobId: string },
): Promise<void> {
  if (payload.syncedIds.length === 0 && payload.unsyncedIds.length === 0) return;
  await writeEvent(trx, 'integrations', { type: EventType.IntegrationsQuickBooksSynced, workspaceId, payload });
}
