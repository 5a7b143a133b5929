import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../upstreams.js';
import { registerCreditRoutes } from './routes/credits.js';
import { registerPartiesRoutes } from './routes/parties.js';
import { registerVendorRuleRoutes } from './routes/vendor-rules.js';

/** Vendors and customers, their credits, and the vendor rules. */
export async function registerParties(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  await registerPartiesRoutes(app, { client: clients.parties });
  await registerCreditRoutes(app, { client: clients.parties });
  await registerVendorRuleRoutes(app, { client: clients.parties });
}
