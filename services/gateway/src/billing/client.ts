import type { Client } from '@connectrpc/connect';
import { BillingService } from '@ledgerline/proto/billing/v1/billing_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

/** The gateway's client of the billing service (services/billing/README.md). */
export type BillingClient = Client<typeof BillingService>;

/** `BILLING_URL`, `SERVICE_TIMEOUT_MS` per call. */
export const billingClient = (config: GatewayConfig): BillingClient => upstreamClient(BillingService, 'billing', config, config.BILLING_URL);
