import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import { registerBillingRoutes } from './routes/billing.js';
import { BILLING_SCHEMAS } from './schemas.js';

/** The billing service's routes (services/billing/README.md says what it owns). */
export async function registerBilling(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  addSchemas(app, BILLING_SCHEMAS);
  await registerBillingRoutes(app, { client: clients.billing });
}
