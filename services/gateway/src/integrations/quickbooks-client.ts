import type { Client } from '@connectrpc/connect';
import { QuickBooksService, QuickBooksSyncService } from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

/** The gateway's client of the integrations service's QuickBooksService (services/integrations/README.md). */
export type QuickBooksClient = Client<typeof QuickBooksService>;

/** `INTEGRATIONS_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const quickBooksClient = (config: GatewayConfig): QuickBooksClient => upstreamClient(QuickBooksService, 'integrations', config, config.INTEGRATIONS_URL);

export type QuickBooksSyncClient = Client<typeof QuickBooksSyncService>;

export const quickBooksSyncClient = (config: GatewayConfig): QuickBooksSyncClient =>
  upstreamClient(QuickBooksSyncService, 'integrations', config, config.INTEGRATIONS_URL);
