import type { Client } from '@connectrpc/connect';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type LedgerClient = Client<typeof LedgerService>;

/** `LEDGER_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const ledgerClient = (config: GatewayConfig): LedgerClient => upstreamClient(LedgerService, 'ledger', config, config.LEDGER_URL);
