import type { DescService } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';

export interface ServiceClientOptions {
  baseUrl: string;
  /** Deadline for each call; a service that is down or stuck fails fast instead of hanging. */
  timeoutMs?: number;
}

/** A Connect client over HTTP/1.1 to another service (see STACK.md: Connect protocol between services). */
export function createServiceClient<S extends DescService>(service: S, { baseUrl, timeoutMs = 5_000 }: ServiceClientOptions): Client<S> {
  const transport = createConnectTransport({ baseUrl, httpVersion: '1.1', defaultTimeoutMs: timeoutMs, useBinaryFormat: true });
  return createClient(service, transport);
}
