// Issue #15 item 6: security headers on every answer of the gateway — every operation of /docs/json,
// answers the framework makes before routing (unknown route, bad percent-encoding, over-long path
// parameter, body too large, wrong content type) and errors — and request ids the gateway makes itself
// (a client's x-request-id is never adopted). Also the static web server of the shell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SERVICE, signedUpUser, startSystem, type ApiAnswer, type System } from '../support/system.js';

let system: System;
let token: string;
let workspace: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectSecurityHeaders(a: { headers: Headers; status: number }, what: string): void {
  const h = a.headers;
  expect(h.get('x-content-type-options'), what).toBe('nosniff');
  expect(h.get('strict-transport-security'), what).toMatch(/max-age=\d{7,}/);
  expect(h.get('content-security-policy'), what).toMatch(/frame-ancestors 'none'/);
  expect(h.get('x-frame-options'), what).toBe('DENY');
  expect(h.get('referrer-policy'), what).toBeTruthy();
  expect(h.get('x-request-id'), what).toMatch(UUID);
}

beforeAll(async () => {
  system = await startSystem({ ...EVERY_SERVICE, web: true, gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000' } });
  const user = await signedUpUser(system);
  token = user.token;
  workspace = user.user.workspace.id;
}, 120_000);
afterAll(async () => system?.stop());

describe('security headers', () => {
  it('on every operation of /docs/json, signed in and not; signed-in JSON is never cached', async () => {
    const doc = (await system.api('GET', '/docs/json')).body as { paths: Record<string, Record<string, unknown>> };
    let n = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      const url = path.replace(/\{\w+\}/g, '7d0c3c4e-2f4b-4e36-9a8a-3f1f1c2b9d10');
      for (const method of Object.keys(ops)) {
        const M = method.toUpperCase();
        // Writes get a content type no route takes (415): nothing changes, the answer still has the headers.
        const send = async (auth: boolean): Promise<ApiAnswer> =>
          M === 'GET'
            ? system.api(M, url, auth ? { token, workspace } : {})
            : system.api(M, url, { ...(auth ? { token, workspace } : {}), body: '<x/>', headers: { 'content-type': 'application/xml' } });
        for (const auth of [true, false]) {
          const a = await send(auth);
          n++;
          expectSecurityHeaders(a, `${M} ${path} (${auth ? 'signed in' : 'anonymous'}) → ${a.status}`);
          if (auth && (a.headers.get('content-type') ?? '').includes('json')) expect(a.headers.get('cache-control'), `${M} ${path}`).toMatch(/no-store/);
        }
      }
    }
    expect(n).toBeGreaterThan(100);
  }, 300_000);

  it('on answers the framework makes itself, in the documented error shape', async () => {
    const cases: [string, string, RequestInit][] = [
      ['unknown route', '/no/such/route', {}],
      ['bad percent-encoding', '/transactions/v2/%E0%A4%A', {}],
      ['over-long path parameter', `/transactions/v2/${'a'.repeat(5_000)}`, {}],
      ['body too large', '/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a'.repeat(2_000_000) }) }],
      ['wrong content type', '/login', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' }],
      ['broken JSON', '/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' }],
    ];
    for (const [what, path, init] of cases) {
      const res = await fetch(`${system.gatewayUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      });
      const body = await res.json();
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      expect(body, what).toEqual({
        message: expect.any(String),
        appErrorCode: expect.any(String),
        statusCode: res.status,
        ...(body.errors ? { errors: expect.any(Array) } : {}),
      });
      expectSecurityHeaders(res, what);
    }
  });

  it("makes its own request id: a client's x-request-id is not adopted", async () => {
    const a = await system.api('GET', '/users/me', { token, headers: { 'x-request-id': 'client-chosen-id' } });
    expect(a.status).toBe(200);
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe('client-chosen-id');
    const b = await system.api('GET', '/users/me', { token });
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });

  it('the shell is served with a CSP, no framing, nosniff and a referrer policy', async () => {
    if (!system.webUrl) throw new Error('the system runs without the web app');
    for (const path of ['/', '/dashboard', '/config.json']) {
      const res = await fetch(`${system.webUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('referrer-policy'), path).toBeTruthy();
    }
  });
});
