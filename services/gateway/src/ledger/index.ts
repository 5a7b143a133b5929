import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../upstreams.js';
import { registerCategorizationJobRoutes } from './routes/categorization-jobs.js';
import { registerLedgerRoutes } from './routes/ledger.js';
import { registerTransactionDrawerRoutes } from './routes/transaction-drawer.js';

/**
 * The books: categories, transactions, billers, the general ledger, opening balances and accruals, and the
 * transaction drawer (receipts stored as documents uploads, comments, taggable users from identity).
 */
export async function registerLedger(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  await registerLedgerRoutes(app, { ledger: clients.ledger });
  await registerTransactionDrawerRoutes(app, { ledger: clients.ledger, identity: clients.identity, uploads: clients.documents.uploads });
}

/** The learned categorisation's queue (`/jobs/categorization`). */
export async function registerLedgerCategorizationJobs(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  await registerCategorizationJobRoutes(app, { ledger: clients.ledger });
}
