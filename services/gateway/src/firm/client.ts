import type { Client } from '@connectrpc/connect';
import { FirmService } from '@ledgerline/proto/firm/v1/firm_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type FirmClient = Client<typeof FirmService>;

/** `FIRM_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const firmClient = (config: GatewayConfig): FirmClient => upstreamClient(FirmService, 'firm', config, config.FIRM_URL);
