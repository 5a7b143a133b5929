// Issue #16, Must show: the ROLE MATRIX, generated from the gateway's /docs/json. For every mutating
// operation (POST, PUT, PATCH, DELETE) that acts on a workspace, a Viewer gets 403 with the spec's message
// 'Editing actions are disabled for your account' and nothing changes; Admin, Accountant and Owner get what
// spec §6's rankings give: the edit ranking (Owner > Accountant > Admin > Viewer, writes need Admin) for the
// books, the admin check (Owner or Admin) for team management (the operations tagged `teams`).
// A route added later is covered without editing this file. Not covered, by design: public operations
// (no bearer: sign-up, sign-in, the invite link, the bank's webhook) and the signed-in user's own account
// (tags `auth` and `users`: names, password, sign-in security, onboarding, logout), which every role manages,
// and the accounting firm's routes (tag `firm`): a firm is not a workspace, its routes take the firm role
// (owner, admin, accountant), and tests/api/firm-role-matrix.test.ts walks them the same way.
// Every service runs, and the Viewer's calls carry real ids and bodies where a change would show: the second
// workspace, a member, an open invite, two vendors and a customer (issue #17's /vendors and /customers routes).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SERVICE, onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type ApiAnswer, type System } from '../support/system.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string }[];
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
const MANAGE_MESSAGE = 'Only an Owner or Admin can manage the team';
const MUTATING = new Set(['post', 'put', 'patch', 'delete']);
const OWN_ACCOUNT_TAGS = new Set(['auth', 'users']);
/** Operations authorised by another role than the workspace's (the firm's: tests/api/firm-role-matrix.test.ts). */
const OTHER_ROLE_TAGS = new Set(['firm']);
const RANDOM_ID = '7d0c3c4e-2f4b-4e36-9a8a-3f1f1c2b9d10';

let system: System;
let doc: Doc;
let workspace: string;
let second: string;
let pendingInvite: string;
/** Real parties of the default workspace (issue #17), so a Viewer's change to one would show. */
let vendor: string;
let otherVendor: string;
let customer: string;
const people: Record<'Owner' | 'Admin' | 'Accountant' | 'Viewer', { token: string; userId: string }> = {} as never;

interface Op {
  method: string;
  path: string;
  manage: boolean;
}
const ops = (): Op[] =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(
        ([method, op]) =>
          MUTATING.has(method) &&
          !(Array.isArray(op.security) && op.security.length === 0) &&
          !(op.tags ?? []).some((t) => OWN_ACCOUNT_TAGS.has(t) || OTHER_ROLE_TAGS.has(t)),
      )
      .map(([method, op]) => ({ method: method.toUpperCase(), path, manage: (op.tags ?? []).includes('teams') })),
  );

async function joinAs(role: 'Admin' | 'Accountant' | 'Viewer'): Promise<{ token: string; userId: string }> {
  const email = uniqueEmail(role.toLowerCase());
  const sent = await system.api('POST', '/send-invite', { token: people.Owner.token, workspace, body: { email, role, workspaceIds: [workspace, second] } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const mail = await system.mailTo(email, /invited to/);
  const token = new URL(/https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text)?.[0] ?? 'http://x/').searchParams.get('token');
  const accepted = await system.api('POST', '/verify-invite', { body: { token, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { token: accepted.body.sessionToken, userId: accepted.body.user.id };
}

/** For the Viewer: real ids and real bodies on the team routes, so a missing check would change something. */
function viewerRequest(op: Op): { url: string; body: unknown } {
  const ids: Record<string, string> = {
    '/workspace/{id}': second,
    '/members/{id}': people.Admin.userId,
    '/invites/{id}': pendingInvite,
    '/vendors/{id}': vendor,
    '/customers/{id}': customer,
  };
  const url = op.path.replace(/\{\w+\}/g, () => ids[op.path] ?? RANDOM_ID);
  const bodies: Record<string, unknown> = {
    'POST /workspace': { name: 'Made by a viewer' },
    'PATCH /workspace': { name: 'Renamed by a viewer' },
    'PATCH /members/{id}': { role: 'Viewer' },
    'POST /send-invite': { email: uniqueEmail('by-viewer') },
    'POST /revoke-invite': { id: pendingInvite },
    'PATCH /invites/{id}': { role: 'Admin' },
    'POST /vendors': { name: 'Vendor made by a viewer' },
    'PATCH /vendors/{id}': { name: 'Renamed by a viewer', status: 'inactive' },
    'POST /vendors/merge': { parentVendorId: vendor, mergingVendorsId: [otherVendor] },
    'POST /customers': { name: 'Customer made by a viewer' },
    'PATCH /customers/{id}': { name: 'Renamed by a viewer', status: 'inactive' },
    'PATCH /transactions': { transactions: [{ id: RANDOM_ID, vendorId: vendor }] },
  };
  return { url, body: bodies[`${op.method} ${op.path}`] ?? {} };
}

/** Everything a team or books change would show, read as the Owner. */
async function stateHash(): Promise<string> {
  const h = createHash('sha256');
  for (const ws of [workspace, second]) {
    for (const path of [
      '/workspace',
      '/members',
      '/invites',
      '/organization',
      '/categories',
      '/categories/chart-of-accounts',
      '/billers',
      '/transactions/v2?take=100',
      '/accounts',
      '/vendors?take=100',
      '/customers?take=100',
    ]) {
      const a = await system.api('GET', path, { token: people.Owner.token, workspace: ws });
      expect(a.status, `${path} ${JSON.stringify(a.body).slice(0, 200)}`).toBe(200);
      h.update(path).update(JSON.stringify(a.body));
    }
  }
  return h.digest('hex');
}

const show = (a: ApiAnswer) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`;

beforeAll(async () => {
  // Every service: a route a new service adds is walked with its service answering, not a 503.
  system = await startSystem({
    ...EVERY_SERVICE,
    gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '1000000', RATE_LIMIT_LOGIN_MAX: '1000000', RATE_LIMIT_CODE_MAX: '1000000' },
  });
  const owner = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: owner.token, body: onboardBody })).status).toBe(200);
  people.Owner = { token: owner.token, userId: owner.user.id };
  workspace = owner.user.workspace.id;
  const created = await system.api('POST', '/workspace', { token: owner.token, workspace, body: { name: 'Second' } });
  expect(created.status).toBe(201);
  second = created.body.workspace.id;
  people.Admin = await joinAs('Admin');
  people.Accountant = await joinAs('Accountant');
  people.Viewer = await joinAs('Viewer');
  const open = await system.api('POST', '/send-invite', { token: owner.token, workspace, body: { email: uniqueEmail('open'), role: 'Accountant' } });
  pendingInvite = open.body.invite.id;
  const made = async (path: string, name: string, key: 'vendor' | 'customer') => {
    const answer = await system.api('POST', path, { token: owner.token, workspace, body: { name } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body[key].id as string;
  };
  [vendor, otherVendor, customer] = [
    await made('/vendors', 'Harbor Supply Co', 'vendor'),
    await made('/vendors', 'Summit Paper', 'vendor'),
    await made('/customers', 'Alder Bakery', 'customer'),
  ];
  doc = (await system.api('GET', '/docs/json')).body;
}, 240_000);
afterAll(async () => system?.stop());

describe('role matrix over /docs/json', () => {
  it('walks the documented API (a check of the walk itself)', () => {
    const all = ops();
    expect(all.length).toBeGreaterThan(30);
    for (const must of [
      'POST /categories',
      'PATCH /transactions',
      'POST /accounts',
      'POST /send-invite',
      'DELETE /members/{id}',
      'DELETE /workspace/{id}',
      'POST /vendors',
      'PATCH /vendors/{id}',
      'DELETE /vendors/{id}',
      'POST /vendors/merge',
      'POST /customers',
      'PATCH /customers/{id}',
      'DELETE /customers/{id}',
    ]) {
      expect(all.map((o) => `${o.method} ${o.path}`)).toContain(must);
    }
    expect(all.filter((o) => o.manage).length).toBeGreaterThanOrEqual(8);
  });

  it('a Viewer is refused every change with the spec message, in either workspace, and nothing changes', async () => {
    const before = await stateHash();
    const wrong: string[] = [];
    for (const op of ops()) {
      for (const ws of [workspace, second]) {
        const { url, body } = viewerRequest(op);
        const a = await system.api(op.method, url, { token: people.Viewer.token, workspace: ws, body });
        if (a.status !== 403 || a.body?.message !== VIEWER_MESSAGE || a.body?.appErrorCode !== 'FORBIDDEN')
          wrong.push(`${op.method} ${op.path} in ${ws === workspace ? 'default' : 'second'} → ${show(a)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await stateHash()).toBe(before);
  });

  it("Owner, Admin and Accountant pass the books' edit ranking; only Owner and Admin pass the admin check of team changes", async () => {
    const wrong: string[] = [];
    for (const op of ops()) {
      const url = op.path.replace(/\{\w+\}/g, RANDOM_ID);
      for (const role of ['Owner', 'Admin', 'Accountant'] as const) {
        // Hostile to nothing: an unknown id and an empty body; what is checked here is the role decision only.
        const a = await system.api(op.method, url, { token: people[role].token, workspace, body: {} });
        const refusedForRole = a.status === 403 && (a.body?.message === VIEWER_MESSAGE || a.body?.message === MANAGE_MESSAGE);
        const expectRefused = op.manage && role === 'Accountant';
        if (expectRefused && !(a.status === 403 && a.body?.message === MANAGE_MESSAGE))
          wrong.push(`${role} ${op.method} ${op.path} should be refused → ${show(a)}`);
        if (!expectRefused && refusedForRole) wrong.push(`${role} ${op.method} ${op.path} should pass the role check → ${show(a)}`);
        if (a.status >= 500) wrong.push(`${role} ${op.method} ${op.path} → ${show(a)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
