import type { Client } from '@connectrpc/connect';
import { PartiesService } from '@ledgerline/proto/parties/v1/parties_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type PartiesClient = Client<typeof PartiesService>;

/** `PARTIES_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const partiesClient = (config: GatewayConfig): PartiesClient => upstreamClient(PartiesService, 'parties', config, config.PARTIES_URL);
