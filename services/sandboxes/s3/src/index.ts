// Public surface of @ledgerline/s3-sandbox: a local S3-compatible object store that the official
// @aws-sdk/client-s3 talks to (path-style), verifying Signature V4 on every request and presigned URL.
import type { AddressInfo } from 'node:net';
import { createHttpServer } from './http.js';
import { ObjectStore } from './store.js';

export { MAX_OBJECT_BYTES } from './http.js';
export { verifyRequest, MAX_PRESIGN_SECONDS } from './sigv4.js';

export interface S3SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Buckets that exist from the start. */
  buckets?: string[];
  /** The sandbox's clock (default: the system's); presigned URLs expire against it. */
  now?: () => number;
}

export interface S3Sandbox {
  /** http://host:port, the endpoint to hand the SDK (with forcePathStyle). */
  url: string;
  port: number;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Moves the sandbox's clock forward (tests expire presigned URLs without waiting). */
  advanceClock(ms: number): void;
  /** The keys in a bucket, sorted (empty when the bucket does not exist). */
  keys(bucket: string): string[];
  /** An object's bytes, or undefined. */
  object(bucket: string, key: string): Buffer | undefined;
  /** Requests refused by Signature V4 verification so far. */
  refusedRequests(): number;
  close(): Promise<void>;
}

export const SANDBOX_CREDENTIALS = { accessKeyId: 'LEDGERLINESANDBOXKEY', secretAccessKey: 'ledgerline-sandbox-secret-access-key' } as const;

export async function startS3Sandbox(options: S3SandboxOptions = {}): Promise<S3Sandbox> {
  const region = options.region ?? 'us-east-1';
  const accessKeyId = options.accessKeyId ?? SANDBOX_CREDENTIALS.accessKeyId;
  const secretAccessKey = options.secretAccessKey ?? SANDBOX_CREDENTIALS.secretAccessKey;
  const baseNow = options.now ?? (() => Date.now());
  let offset = 0;
  const now = () => baseNow() + offset;
  const store = new ObjectStore();
  for (const b of options.buckets ?? []) store.createBucket(b, new Date(now()));
  const refused = { count: 0 };
  const server = createHttpServer({ store, region, now, refused, secretOf: (id) => (id === accessKeyId ? secretAccessKey : undefined) });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    region,
    accessKeyId,
    secretAccessKey,
    advanceClock: (ms) => {
      offset += ms;
    },
    keys: (bucket) => [...(store.buckets.get(bucket)?.objects.keys() ?? [])].sort(),
    object: (bucket, key) => store.buckets.get(bucket)?.objects.get(key)?.body,
    refusedRequests: () => refused.count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
