import type { Client } from '@connectrpc/connect';
import { IntegrationsService } from '@ledgerline/proto/integrations/v1/integrations_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

/** The gateway's client of the integrations service (services/integrations/README.md). */
export type IntegrationsClient = Client<typeof IntegrationsService>;

/** `INTEGRATIONS_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const integrationsClient = (config: GatewayConfig): IntegrationsClient =>
  upstreamClient(IntegrationsService, 'integrations', config, config.INTEGRATIONS_URL);
