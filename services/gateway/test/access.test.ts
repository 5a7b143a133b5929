// The role check of spec §6 and the tenancy every downstream call carries, on routes declared the way
// later areas declare theirs (`config: { auth: { minRole } }`).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  NEWCOMER_TOKEN,
  OWNER_ID,
  OWNER_TOKEN,
  startFakeIdentity,
  startGateway,
  VIEWER_TOKEN,
  WS_ADMIN,
  WS_FOREIGN,
  WS_OWNED,
  WS_VIEWED,
  type FakeIdentity,
} from './support/fake-identity.js';

let identity: FakeIdentity;
let app: FastifyInstance;

beforeAll(async () => {
  identity = await startFakeIdentity();
  app = await startGateway(identity.url);
  // Sample routes: an edit that needs Admin or better, and a read any member may do.
  app.post('/sample/edit', { config: { auth: { minRole: 'Admin' } } }, async (req) => ({
    workspace: req.auth?.workspace?.id,
    role: req.auth?.role,
    headers: req.auth?.rpcHeaders,
  }));
  app.get('/sample/read', { config: { auth: { workspace: 'required' } } }, async (req) => ({ workspace: req.auth?.workspace?.id, role: req.auth?.role }));
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await identity.close();
});

const call = (method: 'GET' | 'POST', url: string, token: string, workspace?: string) =>
  app.inject({ method, url, headers: bearer(token, workspace ? { 'x-workspace-id': workspace } : {}) });

describe('spec §6 ranking: Owner > Accountant > Admin > Viewer', () => {
  it('lets an Owner and an Admin edit, and refuses a Viewer with the spec message', async () => {
    const owner = await call('POST', '/sample/edit', OWNER_TOKEN);
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ workspace: WS_OWNED, role: 'Owner' });
    const admin = await call('POST', '/sample/edit', OWNER_TOKEN, WS_ADMIN);
    expect(admin.json()).toMatchObject({ workspace: WS_ADMIN, role: 'Admin' });

    // The same user is a Viewer in another workspace: the role is the one of the workspace acted in.
    const viewer = await call('POST', '/sample/edit', OWNER_TOKEN, WS_VIEWED);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual({ message: 'Editing actions are disabled for your account', appErrorCode: 'FORBIDDEN', statusCode: 403 });
    expect((await call('POST', '/sample/edit', VIEWER_TOKEN)).statusCode).toBe(403);
  });

  it('lets a Viewer read; hides a workspace of another tenant behind 404; asks a user with no workspace for one', async () => {
    expect((await call('GET', '/sample/read', VIEWER_TOKEN)).json()).toEqual({ workspace: WS_VIEWED, role: 'Viewer' });
    const foreign = await call('GET', '/sample/read', VIEWER_TOKEN, WS_FOREIGN);
    expect(foreign.statusCode).toBe(404);
    const newcomer = await call('GET', '/sample/read', NEWCOMER_TOKEN);
    expect(newcomer.statusCode).toBe(400);
    expect(newcomer.json()).toMatchObject({ statusCode: 400, errors: [{ field: 'x-workspace-id', message: 'A workspace is required' }] });
  });

  it('hands the workspace, user and role to downstream services as tenancy headers', async () => {
    const res = await call('POST', '/sample/edit', OWNER_TOKEN, WS_ADMIN);
    expect(res.json().headers).toEqual({ 'x-ll-workspace-id': WS_ADMIN, 'x-ll-user-id': OWNER_ID, 'x-ll-role': 'Admin' });
  });

  it('answers 401 without a token before looking at roles', async () => {
    const res = await app.inject({ method: 'POST', url: '/sample/edit' });
    expect(res.statusCode).toBe(401);
  });
});
