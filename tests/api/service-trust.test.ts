// Issue #15 item 4: a service accepts tenancy only from a caller that proves it with a short-lived token
// signed with the system's service key and addressed to it. Called directly (around the gateway) with
// forged x-ll-* headers, a token for another service, an expired token or one signed with another key,
// the ledger refuses (Unauthenticated) before any handler runs; health and metrics stay open.
import { randomBytes, randomUUID } from 'node:crypto';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { IdentityService } from '@ledgerline/proto/identity/v1/identity_pb';
import { newId, signServiceToken, tenantHeaders } from '@ledgerline/platform';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;
let workspaceId: string;
let userId: string;
let ledgerUrl: string;
let sessionToken: string;

const ledger = () => createClient(LedgerService, createConnectTransport({ baseUrl: ledgerUrl, httpVersion: '1.1' }));
const chart = (headers: Record<string, string>) => ledger().getChartOfAccounts({ endDate: '2026-12-31' }, { headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function refusal(call: Promise<unknown>): Promise<{ code: Code; message: string }> {
  try {
    await call;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, message: e.rawMessage };
  }
  throw new Error('the call was accepted');
}

beforeAll(async () => {
  // A key of its own: the gateway and the services get it through their settings (SERVICE_TOKEN_KEY).
  system = await startSystem({ ledger: true, serviceTokenKey: randomBytes(32).toString('base64url') });
  ledgerUrl = system.serviceUrls.ledger!;
  const user = await signedUpUser(system);
  workspaceId = user.user.workspace.id;
  userId = user.user.id;
  sessionToken = user.token;
}, 120_000);
afterAll(async () => system?.stop());

describe('a service called directly', () => {
  it('answers a call with a valid token for it (the refusals below are not blanket)', async () => {
    const token = await signServiceToken(system.serviceTokenKey, { workspaceId, userId, role: 'Owner', issuer: 'test', audience: 'ledger' });
    const answer = await chart(bearer(token));
    expect(answer.$typeName).toBe('ledgerline.ledger.v1.GetChartOfAccountsResponse');
  });

  it('refuses forged x-ll-* headers without a token', async () => {
    expect(await refusal(chart(tenantHeaders({ workspaceId, userId, role: 'Owner' })))).toEqual({
      code: Code.Unauthenticated,
      message: 'A service token is required',
    });
  });

  it('refuses a token addressed to another service', async () => {
    const token = await signServiceToken(system.serviceTokenKey, { workspaceId, userId, role: 'Owner', issuer: 'test', audience: 'reporting' });
    expect(await refusal(chart(bearer(token)))).toEqual({ code: Code.Unauthenticated, message: 'The service token is for another service' });
  });

  it('refuses an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ wid: workspaceId, sub: userId, role: 'Owner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('test')
      .setAudience('ledger')
      .setJti(randomUUID())
      .setIssuedAt(now - 180)
      .setExpirationTime(now - 120)
      .sign(new TextEncoder().encode(system.serviceTokenKey));
    expect(await refusal(chart(bearer(token)))).toEqual({ code: Code.Unauthenticated, message: 'The service token has expired' });
  });

  it('refuses a token signed with another key (e.g. the development key) and an unsigned one', async () => {
    const other = await signServiceToken('development-only-service-token-key-do-not-use-in-production', { workspaceId, issuer: 'test', audience: 'ledger' });
    expect(await refusal(chart(bearer(other)))).toEqual({ code: Code.Unauthenticated, message: 'The service token is not valid' });
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ wid: workspaceId, aud: 'ledger', iss: 'test', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url')}.`;
    expect(await refusal(chart(bearer(unsigned)))).toEqual({ code: Code.Unauthenticated, message: 'The service token is not valid' });
  });

  it('takes the tenancy from the token only: x-ll-* headers beside a valid token are ignored', async () => {
    const noTenant = await signServiceToken(system.serviceTokenKey, { issuer: 'test', audience: 'ledger' });
    const answer = await refusal(chart({ ...bearer(noTenant), ...tenantHeaders({ workspaceId, userId, role: 'Owner' }) }));
    expect(answer.code).toBe(Code.InvalidArgument);
    expect(answer.message).toBe('A workspace is required');
  });

  it('refuses identity calls without a token too (every service has the interceptor)', async () => {
    const identity = createClient(IdentityService, createConnectTransport({ baseUrl: system.identityUrl, httpVersion: '1.1' }));
    const call = identity.getMe({}, { headers: tenantHeaders({ workspaceId: newId(), userId, role: 'Owner' }) });
    expect((await refusal(call)).code).toBe(Code.Unauthenticated);
  });

  it('keeps health and metrics open', async () => {
    expect((await fetch(`${ledgerUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${ledgerUrl}/metrics`)).status).toBe(200);
  });

  it('works end to end through the gateway, which signs every call for the service it goes to', async () => {
    const me = await system.api('GET', '/users/me', { token: sessionToken, workspace: workspaceId });
    expect(me.status).toBe(200);
    const categories = await system.api('GET', '/categories', { token: sessionToken, workspace: workspaceId });
    expect(categories.status).toBe(200);
  });
});
