// The sandbox against what identity does with a Google ID token (jose's remote key set and jwtVerify, as
// services/identity/src/usecases/google.ts), and the implicit flow a browser app runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcSandbox, subjectOf, type OidcSandbox } from '../src/index.js';

const CLIENT = 'ledgerline-local.apps.googleusercontent.com';
const REDIRECT = 'http://localhost:4000/oauth/google';

let sandbox: OidcSandbox;
beforeAll(async () => {
  sandbox = await startOidcSandbox({ clientIds: [CLIENT] });
});
afterAll(async () => sandbox?.close());

const authorize = (params: Record<string, string>) => `${sandbox.authorizationUrl}?${new URLSearchParams(params).toString()}`;
const request = { client_id: CLIENT, redirect_uri: REDIRECT, response_type: 'id_token', scope: 'openid email profile', state: 's-1', nonce: 'n-1' };
const fragmentOf = (location: string | null) => new URLSearchParams(new URL(location ?? '').hash.slice(1));

describe('discovery and keys', () => {
  it('publishes its issuer, endpoints and keys, and its tokens verify as identity verifies them', async () => {
    const config = (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ issuer: sandbox.issuer, authorization_endpoint: sandbox.authorizationUrl, jwks_uri: sandbox.jwksUrl });
    const token = await sandbox.idToken({ email: 'Ada@Example.com', givenName: 'Ada', familyName: 'Lovelace' }, { audience: CLIENT });
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(sandbox.jwksUrl)), { audience: CLIENT, issuer: sandbox.issuer });
    expect(payload).toMatchObject({
      email: 'ada@example.com',
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
      sub: subjectOf('ada@example.com'),
    });
    await expect(jwtVerify(token, createRemoteJWKSet(new URL(sandbox.jwksUrl)), { audience: 'another-client', issuer: sandbox.issuer })).rejects.toThrow();
  });
});

describe('the authorization endpoint (implicit flow)', () => {
  it('shows the account page, then sends the ID token back in the fragment with the state and nonce', async () => {
    const page = await fetch(authorize(request));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="email"');
    const form = new URLSearchParams({ ...request, email: 'grace@example.com', given_name: 'Grace', family_name: 'Hopper' });
    const answer = await fetch(sandbox.authorizationUrl, { method: 'POST', body: form, redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location');
    expect(location?.startsWith(`${REDIRECT}#`)).toBe(true);
    const fragment = fragmentOf(location);
    expect(fragment.get('state')).toBe('s-1');
    const claims = decodeJwt(fragment.get('id_token') ?? '');
    expect(claims).toMatchObject({ aud: CLIENT, email: 'grace@example.com', given_name: 'Grace', nonce: 'n-1', iss: sandbox.issuer });
  });

  it('shows an unknown client or a redirect off this machine, and never redirects them', async () => {
    const unknown = await fetch(authorize({ ...request, client_id: 'someone-else' }), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('invalid_client');
    const away = await fetch(authorize({ ...request, redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(away.status).toBe(400);
    expect(await away.text()).toContain('redirect_uri_mismatch');
  });

  it('answers the app with an error for a flow it does not support, a missing nonce or scope', async () => {
    for (const [change, error] of [
      [{ response_type: 'code' }, 'unsupported_response_type'],
      [{ nonce: '' }, 'invalid_request'],
      [{ scope: 'email' }, 'invalid_scope'],
    ] as const) {
      const answer = await fetch(authorize({ ...request, ...change }), { redirect: 'manual' });
      expect(answer.status).toBe(302);
      expect(fragmentOf(answer.headers.get('location')).get('error')).toBe(error);
    }
  });

  it('asks again for an email that is not one, and issues nothing', async () => {
    const answer = await fetch(sandbox.authorizationUrl, {
      method: 'POST',
      body: new URLSearchParams({ ...request, email: 'not an email' }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Enter a valid email');
  });
});

describe('restarts', () => {
  it('keeps its signing key in the key file, so a token issued before a restart still verifies after it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oidc-sandbox-'));
    try {
      const keyFile = join(dir, 'key.json');
      const first = await startOidcSandbox({ clientIds: [CLIENT], keyFile, issuer: 'https://accounts.google.com' });
      const token = await first.idToken({ email: 'ada@example.com' }, { audience: CLIENT });
      await first.close();
      const second = await startOidcSandbox({ clientIds: [CLIENT], keyFile, issuer: 'https://accounts.google.com' });
      try {
        const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(second.jwksUrl)), { audience: CLIENT, issuer: 'https://accounts.google.com' });
        expect(payload.email).toBe('ada@example.com');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
