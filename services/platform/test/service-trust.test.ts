// The chassis' service tokens end to end through a real Connect server and client (rpc/trust.ts): the
// client turns x-ll-* headers into a token for its callee; the server's one interceptor takes the tenancy
// from the token only. The same checks against the real services: tests/api/service-trust.test.ts.
import type { AddressInfo } from 'node:net';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { IdentityService } from '@ledgerline/proto/identity/v1/identity_pb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  createServiceClient,
  createServiceServer,
  newId,
  signServiceToken,
  tenantHeaders,
  tenantKey,
  verifyServiceToken,
  type TenantContext,
} from '../src/index.js';

const KEY = 'a-test-only-service-token-key-of-some-length';
let server: FastifyInstance;
let url: string;
const seen: TenantContext[] = [];
const authorizations: string[] = [];

beforeAll(async () => {
  server = await createServiceServer({
    name: 'identity',
    logger: createLogger('trust-test', 'silent'),
    tokenKey: KEY,
    routes: (router) =>
      router.service(IdentityService, {
        getMe(_req, ctx) {
          seen.push(ctx.values.get(tenantKey));
          authorizations.push(ctx.requestHeader.get('authorization') ?? '');
          return {};
        },
      }),
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});
afterAll(async () => server?.close());

const code = async (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: unknown) => Code[ConnectError.from(err).code],
  );

describe('service tokens', () => {
  it('carry the tenancy of the headers the caller wrote, and nothing else reaches the handler', async () => {
    const client = createServiceClient(IdentityService, { baseUrl: url, trust: { key: KEY, issuer: 'gateway', audience: 'identity' } });
    const a = { workspaceId: newId(), userId: newId(), role: 'Admin' as const };
    const b = { workspaceId: newId(), userId: newId(), role: 'Viewer' as const };
    seen.length = 0;
    authorizations.length = 0;
    await client.getMe({}, { headers: tenantHeaders(a) });
    await client.getMe({}, { headers: tenantHeaders(a) });
    await client.getMe({}, { headers: tenantHeaders(b) });
    await client.getMe({});
    expect(seen).toEqual([a, a, b, {}]);
    // A token is reused for the same tenancy (within its first half-life) and differs per tenancy.
    expect(authorizations[0]).toBe(authorizations[1]);
    expect(new Set(authorizations).size).toBe(3);
  });

  it('refuses a client with another key, one addressed to another service, and bare headers', async () => {
    const headers = tenantHeaders({ workspaceId: newId(), role: 'Owner' });
    const otherKey = createServiceClient(IdentityService, { baseUrl: url, trust: { key: `${KEY}-other`, issuer: 'gateway', audience: 'identity' } });
    const otherAudience = createServiceClient(IdentityService, { baseUrl: url, trust: { key: KEY, issuer: 'gateway', audience: 'ledger' } });
    const bare = createClient(IdentityService, createConnectTransport({ baseUrl: url, httpVersion: '1.1' }));
    expect(await code(otherKey.getMe({}, { headers }))).toBe('Unauthenticated');
    expect(await code(otherAudience.getMe({}, { headers }))).toBe('Unauthenticated');
    expect(await code(bare.getMe({}, { headers }))).toBe('Unauthenticated');
  });

  it('verifies signature, audience and expiry, and refuses a tampered payload', async () => {
    const workspaceId = newId();
    const token = await signServiceToken(KEY, { workspaceId, role: 'Owner', issuer: 'test', audience: 'ledger' });
    await expect(verifyServiceToken(KEY, 'ledger', `Bearer ${token}`)).resolves.toMatchObject({ workspaceId, role: 'Owner', issuer: 'test' });
    await expect(verifyServiceToken(KEY, 'reporting', `Bearer ${token}`)).rejects.toThrow('The service token is for another service');
    const [h, p, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, wid: newId() })).toString('base64url');
    await expect(verifyServiceToken(KEY, 'ledger', `Bearer ${h}.${forged}.${sig}`)).rejects.toThrow('The service token is not valid');
    const expired = await signServiceToken(KEY, { workspaceId, issuer: 'test', audience: 'ledger' }, -30);
    await expect(verifyServiceToken(KEY, 'ledger', `Bearer ${expired}`)).rejects.toThrow('The service token has expired');
    await expect(verifyServiceToken(KEY, 'ledger', undefined)).rejects.toThrow('A service token is required');
  });
});
