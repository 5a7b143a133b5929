import { EventType, writeEvent, type Knex } from '@ledgerline/platform';

/** Writes integrations.stripe_synced to the outbox in the caller's transaction: published if and only if it commits. */
export function stripeSynced(
  trx: Knex.Transaction,
  workspaceId: string,
  payload: { stripeAccountId: string; jobId: string; objectsSynced: bigint },
): Promise<string> {
  return writeEvent(trx, 'integrations', { type: EventType.IntegrationsStripeSynced, workspaceId, payload });
}
