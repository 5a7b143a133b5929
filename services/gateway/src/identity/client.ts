import type { Client } from '@connectrpc/connect';
import { IdentityService } from '@ledgerline/proto/identity/v1/identity_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type IdentityClient = Client<typeof IdentityService>;

/** `IDENTITY_URL`, with its own deadline `IDENTITY_TIMEOUT_MS`: every request's session is resolved by it. */
export const identityClient = (config: GatewayConfig): IdentityClient =>
  upstreamClient(IdentityService, 'identity', config, config.IDENTITY_URL, config.IDENTITY_TIMEOUT_MS);
