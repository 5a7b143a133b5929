// The gateway's own promises with the real identity behind it: a service that is down or stuck answers
// 503 quickly, the workspace header, rate limits, CORS for the shell and the OpenAPI document.
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpUser, signUpBody, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;

beforeAll(async () => {
  // The production deadline for identity calls: the 503 tests measure it.
  system = await startSystem({ gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '5', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '1500' } });
});
afterAll(async () => system?.stop());

describe('a downstream service that is down', () => {
  it('answers 503 in the error shape within 2 s while identity is stopped, and works again after it restarts', async () => {
    const { token } = await signedUpUser(system);
    expect((await system.api('GET', '/users/me', { token })).status).toBe(200);

    await system.stopIdentity();
    try {
      const down = await system.api('GET', '/users/me', { token });
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ message: 'Service temporarily unavailable', appErrorCode: 'SERVICE_UNAVAILABLE', statusCode: 503 });
      expect(down.ms).toBeLessThan(2_000);
      const publicRoute = await system.api('POST', '/forgot-password', { body: { email: uniqueEmail() } });
      expect(publicRoute.status).toBe(503);
      // The gateway stays in rotation: its readiness is its own, not identity's (issue #23), so the 503 above is the
      // gateway's clear answer rather than a load balancer's empty one.
      const ready = await system.api('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'ready', service: 'gateway' });
    } finally {
      await system.startIdentity();
    }
    const again = await system.api('GET', '/users/me', { token });
    expect(again.status).toBe(200);
  });

  it('answers 503 within 2 s when identity accepts connections but never answers', async () => {
    const port = Number(new URL(system.identityUrl).port);
    await system.stopIdentity();
    const sockets: Socket[] = [];
    const blackHole = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => blackHole.listen(port, '127.0.0.1', r));
    try {
      const stuck = await system.api('POST', '/forgot-password', { body: { email: uniqueEmail() } });
      expect(stuck.status).toBe(503);
      expect(stuck.body.appErrorCode).toBe('SERVICE_UNAVAILABLE');
      expect(stuck.ms).toBeLessThan(2_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => blackHole.close(() => r()));
      await system.startIdentity();
    }
    expect((await system.api('POST', '/forgot-password', { body: { email: uniqueEmail() } })).status).toBe(200);
  });
});

describe('the workspace header', () => {
  it('accepts the caller’s own workspace, refuses a non-UUID naming the header, and hides other tenants behind 404', async () => {
    const ada = await signedUpUser(system);
    const bob = await signedUpUser(system);
    const own = await system.api('GET', '/users/me', { token: ada.token, workspace: ada.user.workspace.id });
    expect(own.status).toBe(200);
    expect(own.body.workspace.id).toBe(ada.user.workspace.id);

    const malformed = await system.api('GET', '/users/me', { token: ada.token, workspace: 'not-a-uuid' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ statusCode: 400, errors: [{ field: 'x-workspace-id', message: expect.any(String) }] });

    const others = await system.api('GET', '/users/me', { token: ada.token, workspace: bob.user.workspace.id });
    const nobody = await system.api('GET', '/users/me', { token: ada.token, workspace: '0190b2a4-7c1e-7aa0-9f1c-4c1d2e3f4a5b' });
    expect(others.status).toBe(404);
    expect(others.body).toEqual(nobody.body);
  });
});

describe('rate limits', () => {
  it('answers 429 in the error shape once an address tries to sign in too often', async () => {
    const email = uniqueEmail('limited');
    await system.api('POST', '/signup', { body: signUpBody(email) });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await system.api('POST', '/login', { body: { email, password: 'Wr0ngPassword' } })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await system.api('POST', '/login', { body: { email, password: 'Wr0ngPassword' } });
    expect(limited.body).toMatchObject({ appErrorCode: 'RATE_LIMITED', statusCode: 429, message: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other routes keep their own budget.
    expect((await system.api('POST', '/forgot-password', { body: { email } })).status).toBe(200);
  });
});

describe('CORS and the OpenAPI document', () => {
  it('lets the shell’s origin call with the workspace header, and no other origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${system.gatewayUrl}/users/me`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,x-workspace-id' },
      });
    const allowed = await preflight(system.webOrigin);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(system.webOrigin);
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-workspace-id');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    const refused = await preflight('https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves OpenAPI 3.1 at /docs/json with every auth path and named schemas', async () => {
    const doc = await system.api('GET', '/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.body.paths);
    for (const p of [
      '/signup',
      '/login',
      '/authenticate-otp',
      '/resend-otp',
      '/login-oauth',
      '/signup-oauth',
      '/forgot-password',
      '/reset-password',
      '/update-credentials',
      '/update-password-by-existing-password',
      '/logout',
      '/onboard-user',
      '/users/me',
    ]) {
      expect(paths).toContain(p);
    }
    expect(Object.keys(doc.body.components.schemas)).toEqual(
      expect.arrayContaining(['User', 'Workspace', 'OnboardingProfile', 'ErrorResponse', 'SignUpBody', 'LoginResponse']),
    );
    expect(paths).not.toContain('/healthz');
  });
});
