import type { DescService } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { createServiceClient } from '@ledgerline/platform';
import type { GatewayConfig } from '../config.js';

/**
 * A Connect client of one upstream service, from its generated descriptor: its URL, a deadline per call
 * (`SERVICE_TIMEOUT_MS` unless given) and, on every call, a 60-second token for that one service (services
 * refuse bare x-ll-* headers). Each folder's `client.ts` builds its service's clients with it, once per gateway.
 */
export function upstreamClient<S extends DescService>(
  service: S,
  audience: string,
  config: GatewayConfig,
  baseUrl: string,
  timeoutMs: number = config.SERVICE_TIMEOUT_MS,
): Client<S> {
  return createServiceClient(service, { baseUrl, timeoutMs, trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'gateway', audience } });
}
