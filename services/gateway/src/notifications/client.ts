import type { Client } from '@connectrpc/connect';
import { NotificationsService } from '@ledgerline/proto/notifications/v1/notifications_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

/** The gateway's client of the notifications service (services/notifications/README.md). */
export type NotificationsClient = Client<typeof NotificationsService>;

/** `NOTIFICATIONS_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const notificationsClient = (config: GatewayConfig): NotificationsClient =>
  upstreamClient(NotificationsService, 'notifications', config, config.NOTIFICATIONS_URL);
