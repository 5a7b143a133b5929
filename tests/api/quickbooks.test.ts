// The QuickBooks connection through the gateway, on the test system (identity, the gateway, integrations and the
// QuickBooks sandbox): the authorize link and its one-time state, the callback's code, state and realmId, the
// connection, disconnect. Bad input answers 400 naming the field and changes nothing; another workspace's
// integration id is a 404; a Viewer cannot connect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;
let token: string;
let otherToken: string;

const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

async function onboarded(): Promise<string> {
  const { token: t } = await signedUpUser(system);
  const res = await system.api('POST', '/onboard-user', { token: t, body: onboardBody });
  expect(res.status).toBe(200);
  return t;
}

/** The browser opens the link; the sandbox consents at once and redirects back with code, state and realmId. */
async function callback(url: string): Promise<{ code: string; state: string; realmId: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, realmId: back.searchParams.get('realmId')! };
}

beforeAll(async () => {
  system = await startSystem({ integrations: true });
  [token, otherToken] = [await onboarded(), await onboarded()];
});
afterAll(async () => {
  await system?.stop();
});

const db = () => system.databases.integrations!.adminDb;

describe('/quickbook/integration', () => {
  let id: string;

  it('connects through the authorize link and its callback, refusing bad input naming the field', async () => {
    expect((await system.api('GET', '/quickbook/integration', { token })).status).toBe(404);
    const link = await system.api('GET', '/quickbook/integration/oauth-link', { token });
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(system.quickbooks!.endpoints.authorizeEndpoint);
    expect(url.searchParams.get('state')).toBe(link.body.state);
    const back = await callback(link.body.url);

    for (const [body, named] of [
      [{ ...back, code: 5 }, ['code']],
      [{ ...back, code: 'x'.repeat(600) }, ['code']],
      [{ ...back, code: 'a\u0000b' }, ['code']],
      [{ code: back.code, realmId: back.realmId }, ['state']],
      [{ ...back, realmId: 'company-1' }, ['realmId']],
    ] as const) {
      const res = await system.api('POST', '/quickbook/integration/connect', { token, body });
      expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(400);
      expect(fields(res.body)).toEqual(named);
    }
    // Another workspace cannot use this workspace's state.
    const stolen = await system.api('POST', '/quickbook/integration/connect', { token: otherToken, body: back });
    expect(stolen.status).toBe(400);
    expect(fields(stolen.body)).toEqual(['state']);
    expect(await db()('quickbooks_connections').select('id')).toEqual([]);

    const connected = await system.api('POST', '/quickbook/integration/connect', { token, body: back });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ realmId: back.realmId, isReconnectRequired: false, type: 'quickbooks', lastSyncedAt: '' });
    id = connected.body.id;
    const [row] = await db()('quickbooks_connections').select('access_token', 'refresh_token');
    expect(row.access_token).toMatch(/^v1\./);
    expect(row.refresh_token).toMatch(/^v1\./);
    const again = await system.api('POST', '/quickbook/integration/connect', { token, body: back });
    expect(again.status).toBe(409);

    const got = await system.api('GET', '/quickbook/integration', { token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(connected.body);
  });

  it('another workspace gets 404 for the integration and its id; bad ids are 400', async () => {
    expect((await system.api('GET', '/quickbook/integration', { token: otherToken })).status).toBe(404);
    expect((await system.api('DELETE', `/quickbook/integration/${id}`, { token: otherToken })).status).toBe(404);
    const bad = await system.api('DELETE', '/quickbook/integration/not-an-id', { token });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['id']);
    expect((await system.api('GET', '/quickbook/integration')).status).toBe(401);
    expect(await db()('quickbooks_connections').select('id')).toEqual([{ id }]);
  });

  it('disconnects: the grant is revoked and the workspace forgets the company', async () => {
    const res = await system.api('DELETE', `/quickbook/integration/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id });
    expect((await system.api('GET', '/quickbook/integration', { token })).status).toBe(404);
    expect((await system.api('DELETE', `/quickbook/integration/${id}`, { token })).status).toBe(404);
    expect(await db()('quickbooks_connections').select('id')).toEqual([]);
  });
});
