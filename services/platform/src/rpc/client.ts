import type { DescService } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { signingInterceptor } from './trust.js';

export interface ServiceClientOptions {
  baseUrl: string;
  /** Deadline for each call; a service that is down or stuck fails fast instead of hanging. */
  timeoutMs?: number;
  /**
   * Signs every call with a short-lived token for `audience` (the callee's registry name) carrying the
   * tenancy of the call's `x-ll-*` headers; services refuse calls without one (see rpc/trust.ts).
   */
  trust: { key: string; issuer: string; audience: string };
}

/** A Connect client over HTTP/1.1 to another service (see STACK.md: Connect protocol between services). */
export function createServiceClient<S extends DescService>(service: S, { baseUrl, timeoutMs = 5_000, trust }: ServiceClientOptions): Client<S> {
  // No compression between services: they share a network, and gzip of a report answer (tens of kB) cost
  // more CPU at both ends than the rest of the call (a service only compresses for a client that accepts it).
  const transport = createConnectTransport({
    baseUrl,
    httpVersion: '1.1',
    defaultTimeoutMs: timeoutMs,
    useBinaryFormat: true,
    acceptCompression: [],
    interceptors: [signingInterceptor(trust)],
  });
  return createClient(service, transport);
}
