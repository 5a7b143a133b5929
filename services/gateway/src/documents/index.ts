import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../upstreams.js';
import { registerDocumentsRoutes } from './routes/documents.js';
import { registerDraftsRoutes } from './routes/drafts.js';
import { registerFixedAssetRoutes } from './routes/fixed-assets.js';
import { registerInvoicePdfRoute } from './routes/invoice-pdf.js';
import { registerRecurrenceRoutes } from './routes/recurrence.js';
import { registerScheduleRoutes } from './routes/schedules.js';
import { registerUploadsRoutes } from './routes/uploads.js';

/**
 * Bills, invoices and manual entries (with payments and recurrence), drafts, the invoice PDF, workspace uploads,
 * fixed assets, and the schedules composed from the ledger's lines and the fixed assets' depreciation.
 */
export async function registerDocuments(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  const { documents, drafts, uploads, fixedAssets } = clients.documents;
  await registerDocumentsRoutes(app, { client: documents });
  await registerRecurrenceRoutes(app, { client: documents });
  await registerDraftsRoutes(app, { client: drafts });
  registerInvoicePdfRoute(app, { client: documents, identity: clients.identity });
  await registerUploadsRoutes(app, { client: uploads });
  await registerFixedAssetRoutes(app, { client: fixedAssets });
  await registerScheduleRoutes(app, { ledger: clients.ledger, assets: fixedAssets });
}
