import type { Client } from '@connectrpc/connect';
import { BankingService } from '@ledgerline/proto/banking/v1/banking_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type BankingClient = Client<typeof BankingService>;

/** `BANKING_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const bankingClient = (config: GatewayConfig): BankingClient => upstreamClient(BankingService, 'banking', config, config.BANKING_URL);
