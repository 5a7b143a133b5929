import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import { registerRecordRoutes } from './routes/records.js';
import { INTEGRATIONS_SCHEMAS } from './schemas.js';

/** The integrations service's routes (services/integrations/README.md says what it owns). */
export async function registerIntegrations(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  addSchemas(app, INTEGRATIONS_SCHEMAS);
  await registerRecordRoutes(app, { client: clients.integrations });
}
