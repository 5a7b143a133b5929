import { startQuickBooksSyncedConsumer as startFlagsConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';

/** The durable (and inbox) name of the consumer of integrations.quickbooks_synced. */
export const QUICKBOOKS_SYNCED_CONSUMER = 'ledger_quickbooks_synced';

/** integrations' quickbooks_synced → the qboSynced flags of the workspace's transactions and accounts (decision 0045). A synced transaction cannot be edited until it is un-synced (spec §4, domain/restrictions.ts). Vendors and customers are parties'. */
export function startQuickBooksSyncedConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Subscription> {
  return startFlagsConsumer({ ...options, name: QUICKBOOKS_SYNCED_CONSUMER, tables: { transaction: 'workspace_transactions', account: 'accounts' } });
}
