import type { Client } from '@connectrpc/connect';
import { ReportingService } from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type ReportingClient = Client<typeof ReportingService>;

/** `REPORTING_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const reportingClient = (config: GatewayConfig): ReportingClient => upstreamClient(ReportingService, 'reporting', config, config.REPORTING_URL);
