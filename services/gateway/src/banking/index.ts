import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../upstreams.js';
import { quickBooksSyncClient } from '../integrations/quickbooks-client.js';
import { registerBankingRoutes } from './routes/banking.js';

/** Banking's routes: Plaid links, accounts (with the ledger's tie-out), syncs, jobs (with bulk uploads and QuickBooks sync jobs), bank transactions. */
export async function registerBanking(app: FastifyInstance, { clients, config }: RouteContext): Promise<void> {
  await registerBankingRoutes(app, {
    banking: clients.banking,
    ledger: clients.ledger,
    bulkUploads: clients.documents.bulkUploads,
    quickBooks: quickBooksSyncClient(config),
  });
}
