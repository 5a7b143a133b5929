import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import { registerRecordRoutes } from './routes/records.js';
import { NOTIFICATIONS_SCHEMAS } from './schemas.js';

/** The notifications service's routes (services/notifications/README.md says what it owns). */
export async function registerNotifications(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  addSchemas(app, NOTIFICATIONS_SCHEMAS);
  await registerRecordRoutes(app, { client: clients.notifications });
}
