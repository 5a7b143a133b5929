import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import { registerStripeAnalyticsRoutes, registerStripeViewRoutes } from './routes/stripe-analytics.js';
import { registerStripeRoutes } from './routes/stripe.js';
import { INTEGRATIONS_SCHEMAS } from './schemas.js';
import { quickBooksClient, quickBooksSyncClient } from './quickbooks-client.js';
import { QUICKBOOKS_SCHEMAS } from './quickbooks-schemas.js';
import { registerQuickBooksRoutes } from './routes/quickbooks.js';
import { registerQuickBooksSyncRoutes } from './routes/quickbooks-sync.js';

/** The integrations service's routes (services/integrations/README.md): /stripe-integrate/*, /stripe-analytic/* and /quickbook/*. */
export async function registerIntegrations(app: FastifyInstance, { clients, config }: RouteContext): Promise<void> {
  addSchemas(app, INTEGRATIONS_SCHEMAS);
  addSchemas(app, QUICKBOOKS_SCHEMAS);
  await registerStripeRoutes(app, { client: clients.integrations });
  await registerStripeAnalyticsRoutes(app, { client: clients.integrations });
  await registerStripeViewRoutes(app, { client: clients.integrations });
  await registerQuickBooksRoutes(app, { client: quickBooksClient(config) });
  await registerQuickBooksSyncRoutes(app, { client: quickBooksSyncClient(config) });
}
