import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../upstreams.js';
import { registerExportRoutes } from './routes/exports.js';
import { registerReportingRoutes } from './routes/reporting.js';
import { registerSpendingRoutes } from './routes/spending.js';

/** The reports (`/financial-data/*`), their exports as files (with the ledger's lines and transactions as CSV), spending. */
export async function registerReporting(app: FastifyInstance, { clients, config }: RouteContext): Promise<void> {
  await registerReportingRoutes(app, { reporting: clients.reporting, answerCacheEntries: config.REPORT_ANSWER_CACHE_ENTRIES });
  await registerExportRoutes(app, { ledger: clients.ledger, reporting: clients.reporting });
  await registerSpendingRoutes(app, { reporting: clients.reporting });
}
