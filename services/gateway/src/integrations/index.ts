import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import { registerStripeAnalyticsRoutes, registerStripeViewRoutes } from './routes/stripe-analytics.js';
import { registerStripeRoutes } from './routes/stripe.js';
import { INTEGRATIONS_SCHEMAS } from './schemas.js';

/** The integrations service's routes (services/integrations/README.md): /stripe-integrate/* and /stripe-analytic/*. */
export async function registerIntegrations(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  addSchemas(app, INTEGRATIONS_SCHEMAS);
  await registerStripeRoutes(app, { client: clients.integrations });
  await registerStripeAnalyticsRoutes(app, { client: clients.integrations });
  await registerStripeViewRoutes(app, { client: clients.integrations });
}
