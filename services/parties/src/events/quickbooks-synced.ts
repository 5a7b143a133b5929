import { startQuickBooksSyncedConsumer as startFlagsConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';

/** The durable (and inbox) name of the consumer of integrations.quickbooks_synced. */
export const QUICKBOOKS_SYNCED_CONSUMER = 'parties_quickbooks_synced';

/** integrations' quickbooks_synced → the qboSynced flags of the workspace's vendors and customers (decision 0045). Transactions and accounts are the ledger's. */
export function startQuickBooksSyncedConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Subscription> {
  return startFlagsConsumer({ ...options, name: QUICKBOOKS_SYNCED_CONSUMER, tables: { vendor: 'vendors', customer: 'customers' } });
}
