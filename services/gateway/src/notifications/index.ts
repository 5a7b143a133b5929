import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import type { LiveNotifications } from './live.js';
import { registerNotificationRoutes } from './routes/notifications.js';
import { NOTIFICATIONS_SCHEMAS } from './schemas.js';

/** The notifications service's routes (services/notifications/README.md says what it owns) and the live bell's stream. */
export async function registerNotifications(app: FastifyInstance, { clients, config }: RouteContext, live: LiveNotifications): Promise<void> {
  addSchemas(app, NOTIFICATIONS_SCHEMAS);
  await registerNotificationRoutes(app, { client: clients.notifications, live, heartbeatMs: config.NOTIFICATIONS_HEARTBEAT_MS });
}
