// Intuit OAuth 2.0 through the official `intuit-oauth` and `node-quickbooks` packages: authorize, token
// exchange, refresh, expiry (401 AuthenticationFailed), revoke, another company's token (403), throttling (429).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import OAuthClient from 'intuit-oauth';
import { startQuickBooksSandbox, type QuickBooksSandbox } from '../src/index.js';
import { call, connect, consent, fault, oauthClient, qboClient, QuickBooks } from './support.js';

let sandbox: QuickBooksSandbox;
let clock = Date.parse('2026-03-02T18:00:00Z');

beforeAll(async () => {
  sandbox = await startQuickBooksSandbox({ port: 0, now: () => new Date(clock), defaultCompany: { seed: 7, bills: 3, invoices: 3 } });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('authorize and token exchange', () => {
  it('redirects with code, state and realmId, and the code buys a token pair once', async () => {
    const oauth = oauthClient(sandbox);
    const uri = oauth.authorizeUri({ scope: [OAuthClient.scopes.Accounting, OAuthClient.scopes.OpenId], state: 'xyz' });
    expect(uri.startsWith(sandbox.endpoints.authorizeEndpoint)).toBe(true);
    const back = await consent(uri);
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:1/callback');
    expect(back.searchParams.get('state')).toBe('xyz');
    expect(back.searchParams.get('realmId')).toBe(sandbox.defaultRealmId);
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^AB11/);

    const response = await oauth.createToken(back.toString());
    const token = response.getJson() as Record<string, unknown>;
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 3600, x_refresh_token_expires_in: 8_726_400 });
    expect(typeof token.access_token).toBe('string');
    expect(oauth.getToken().realmId).toBe(sandbox.defaultRealmId);
    expect(oauth.isAccessTokenValid()).toBe(true);

    // The code works once.
    await expect(oauthClient(sandbox).createToken(back.toString())).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('answers errors on the redirect URI for a bad scope or a denied consent, and a page for an unknown app', async () => {
    const oauth = oauthClient(sandbox);
    const badScope = await consent(oauth.authorizeUri({ scope: ['com.example.nothing'], state: 's1' }));
    expect(badScope.searchParams.get('error')).toBe('invalid_scope');
    expect(badScope.searchParams.get('code')).toBeNull();

    sandbox.queueConsent({ deny: true });
    const denied = await consent(oauth.authorizeUri({ scope: [OAuthClient.scopes.Accounting], state: 's2' }));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s2');

    const unknown = await fetch(
      `${sandbox.endpoints.authorizeEndpoint}?client_id=nobody&response_type=code&scope=com.intuit.quickbooks.accounting&redirect_uri=http://x.example/cb`,
      {
        redirect: 'manual',
      },
    );
    expect(unknown.status).toBe(400);
  });

  it('refuses a wrong client secret (invalid_client)', async () => {
    const oauth = oauthClient(sandbox);
    const back = await consent(oauth.authorizeUri({ scope: [OAuthClient.scopes.Accounting], state: 's' }));
    await expect(oauthClient(sandbox, undefined, 'wrong').createToken(back.toString())).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('connects the company queued for the next consent', async () => {
    const other = sandbox.createCompany({ seed: 'other', history: false });
    const connection = await connect(sandbox, other.realmId);
    expect(connection.realmId).toBe(other.realmId);
  });
});

describe('expiry, refresh and revoke', () => {
  it('an expired access token answers 401 AuthenticationFailed; a refresh brings a new pair and retires the old refresh token', async () => {
    const connection = await connect(sandbox);
    const qbo = qboClient(sandbox, connection);
    expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);

    clock += 3601 * 1000;
    const expired = await call(qbo, 'getVendor', '1');
    expect(expired.status).toBe(401);
    expect(fault(expired.body)).toMatchObject({ code: '3200', Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401' });
    expect((expired.body as { Fault: { type: string } }).Fault.type).toBe('AUTHENTICATION');
    expect(String(expired.headers['www-authenticate'])).toContain('invalid_token');

    // node-quickbooks' own refresh (QuickBooks.TOKEN_URL).
    const refreshed = await new Promise<{ access_token: string; refresh_token: string }>((resolve, reject) =>
      qbo.refreshAccessToken((err: unknown, data?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(data as never))),
    );
    expect(refreshed.access_token).not.toBe(connection.accessToken);
    expect(qbo.token).toBe(refreshed.access_token);
    expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);

    // intuit-oauth's refresh with the retired refresh token fails; with the new one it works.
    await expect(connection.oauth.refreshUsingToken(connection.refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    const again = await connection.oauth.refreshUsingToken(refreshed.refresh_token);
    expect((again.getJson() as { access_token: string }).access_token).toBeTruthy();
  });

  it('expireAccessTokens ends every live token at once (a test need not wait an hour)', async () => {
    const connection = await connect(sandbox);
    const qbo = qboClient(sandbox, connection);
    expect(sandbox.expireAccessTokens(connection.realmId)).toBeGreaterThan(0);
    expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(401);
    const refreshed = await connection.oauth.refresh();
    expect(refreshed.getJson()).toHaveProperty('access_token');
  });

  it('a short token life is settable', async () => {
    let shortClock = clock;
    const short = await startQuickBooksSandbox({ port: 0, accessTokenTtlSeconds: 90, now: () => new Date(shortClock), defaultCompany: { history: false } });
    try {
      const connection = await connect(short);
      expect(connection.oauth.getToken().expires_in).toBe(90);
      const qbo = qboClient(short, connection);
      expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);
      shortClock += 89_000;
      expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);
      shortClock += 1_000;
      expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('revoking (intuit-oauth or node-quickbooks) disconnects: both tokens stop working', async () => {
    const first = await connect(sandbox);
    await first.oauth.revoke({ refresh_token: first.refreshToken });
    expect((await call(qboClient(sandbox, first), 'getCompanyInfo', first.realmId)).status).toBe(401);
    await expect(oauthClient(sandbox).refreshUsingToken(first.refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });

    const second = await connect(sandbox);
    const qbo = qboClient(sandbox, second);
    const revoked = await new Promise<number>((resolve) => qbo.revokeAccess(false, (_err: unknown, res?: { status: number }) => resolve(res?.status ?? 0)));
    expect(revoked).toBe(200);
    expect((await call(qboClient(sandbox, second), 'getCompanyInfo', second.realmId)).status).toBe(401);
  });

  it("a token for one company gets 403 on another's realm", async () => {
    const connection = await connect(sandbox);
    const other = sandbox.createCompany({ history: false });
    const qbo = qboClient(sandbox, { ...connection, realmId: other.realmId });
    const answer = await call(qbo, 'getVendor', '1');
    expect(answer.status).toBe(403);
    expect(fault(answer.body)?.code).toBe('3100');
  });

  it('intuit-oauth makeApiCall reaches the accounting API by absolute URL', async () => {
    const connection = await connect(sandbox);
    const response = await connection.oauth.makeApiCall({
      url: `${sandbox.endpoints.v3EndpointBaseUrl}${connection.realmId}/companyinfo/${connection.realmId}`,
    });
    expect((response.json as { CompanyInfo: { CompanyName: string } }).CompanyInfo.CompanyName).toContain('Sandbox Company');
  });
});

describe('throttling', () => {
  it('answers 429 ThrottleExceeded with Retry-After once a realm spends its per-minute budget, and recovers', async () => {
    const connection = await connect(sandbox, sandbox.createCompany({ history: false }).realmId);
    const qbo = qboClient(sandbox, connection);
    sandbox.setRequestsPerMinute(5);
    try {
      for (let i = 0; i < 5; i++) expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);
      const throttled = await call(qbo, 'findAccounts', {});
      expect(throttled.status).toBe(429);
      expect(fault(throttled.body)).toMatchObject({ code: '3001', Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429' });
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      expect(throttled.headers.intuit_tid).toBeTruthy();

      // Another realm has its own budget.
      const other = await connect(sandbox);
      expect((await call(qboClient(sandbox, other), 'getCompanyInfo', other.realmId)).status).toBe(200);

      clock += 61_000;
      expect((await call(qbo, 'findAccounts', {})).status).toBe(200);
    } finally {
      sandbox.setRequestsPerMinute(500);
    }
  });

  it('answers 429 to an 11th concurrent request of a realm; the 10 in flight finish', async () => {
    const connection = await connect(sandbox, sandbox.createCompany({ history: false }).realmId);
    const url = new URL(`${sandbox.endpoints.v3EndpointBaseUrl}${connection.realmId}/vendor`);
    // Ten creates whose bodies are still arriving: in flight until they end.
    const held = Array.from({ length: 10 }, (_, i) => {
      const req = request(url, { method: 'POST', headers: { Authorization: `Bearer ${connection.accessToken}`, 'Content-Type': 'application/json' } });
      const answered = new Promise<number>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      req.write(`{"DisplayName": "Concurrent ${i}"`);
      return { req, answered };
    });
    await vi.waitFor(() => expect(sandbox.inFlight(connection.realmId)).toBe(10));
    const qbo = qboClient(sandbox, connection);
    const refused = await call(qbo, 'getCompanyInfo', connection.realmId);
    expect(refused.status).toBe(429);
    expect(fault(refused.body)?.code).toBe('3001');

    for (const { req } of held) req.end('}');
    expect(await Promise.all(held.map((h) => h.answered))).toEqual(Array(10).fill(200));
    expect(sandbox.inFlight(connection.realmId)).toBe(0);
    expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);
  });

  it('failNext injects a 429 or 503 for the next call', async () => {
    const connection = await connect(sandbox);
    const qbo = qboClient(sandbox, connection);
    sandbox.failNext({ status: 503, times: 1 });
    expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(503);
    expect((await call(qbo, 'getCompanyInfo', connection.realmId)).status).toBe(200);
  });
});

// Keeps the import used when the class-wide settings are checked.
it('node-quickbooks is pointed at the sandbox by its class-wide token URLs and a per-instance endpoint', async () => {
  const connection = await connect(sandbox);
  const qbo = qboClient(sandbox, connection);
  expect(QuickBooks.TOKEN_URL).toBe(sandbox.endpoints.tokenEndpoint);
  expect(qbo.endpoint).toBe(sandbox.endpoints.v3EndpointBaseUrl);
});

it('userinfo answers for a token granted openid, through intuit-oauth', async () => {
  const oauth = oauthClient(sandbox);
  const back = await consent(oauth.authorizeUri({ scope: [OAuthClient.scopes.Accounting, OAuthClient.scopes.OpenId, OAuthClient.scopes.Email], state: 's' }));
  await oauth.createToken(back.toString());
  const info = await oauth.getUserInfo();
  expect(info.getJson()).toMatchObject({ email: 'owner@sandbox-company.example', emailVerified: true });

  const accountingOnly = await connect(sandbox);
  await expect(accountingOnly.oauth.getUserInfo()).rejects.toBeTruthy();
});

describe('HTTP controls under /ledgerline', () => {
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/ledgerline${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('create a company, list its entities, queue a consent, expire tokens, throttle and inject failures', async () => {
    expect(await control('GET', '/health')).toEqual({ status: 200, body: { ok: true } });
    const created = await control('POST', '/companies', {
      seed: 3,
      vendors: 4,
      bills: 2,
      invoices: 0,
      customers: 1,
      journalEntries: 0,
      purchases: 0,
      deposits: 0,
    });
    expect(created.body).toMatchObject({ counts: { Vendor: 4, Bill: 2, Account: 28, Item: 2 } });
    const realmId = String(created.body.realmId);
    const vendors = await control('GET', `/companies/${realmId}/vendor`);
    expect((vendors.body.Vendor as unknown[]).length).toBe(4);
    expect((await control('GET', '/companies')).body.defaultRealmId).toBe(sandbox.defaultRealmId);

    expect((await control('POST', '/consent', { realmId })).status).toBe(200);
    const connection = await connect(sandbox);
    expect(connection.realmId).toBe(realmId);
    const qbo = qboClient(sandbox, connection);
    expect((await control('POST', '/tokens/expire', { realmId })).body.expired).toBe(1);
    expect((await call(qbo, 'getCompanyInfo', realmId)).status).toBe(401);

    const fresh = qboClient(sandbox, await connect(sandbox, realmId));
    expect((await control('POST', '/fail-next', { status: 429, times: 2, realmId })).status).toBe(200);
    expect((await call(fresh, 'getCompanyInfo', realmId)).status).toBe(429);
    expect((await control('POST', '/fail-next/clear')).status).toBe(200);
    expect((await call(fresh, 'getCompanyInfo', realmId)).status).toBe(200);

    expect((await control('POST', '/companies', { vendors: -1 })).status).toBe(400);
    expect((await control('POST', '/consent', {})).status).toBe(400);
    expect((await control('GET', '/companies/nope')).status).toBe(404);
    expect((await control('POST', '/throttle', { requestsPerMinute: 0 })).status).toBe(400);
  });
});
