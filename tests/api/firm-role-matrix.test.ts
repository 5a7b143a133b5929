// Issue #16 item 4, the role matrix for the accounting firm, generated from the gateway's /docs/json: every
// mutating operation tagged `firm` (a route added later is covered without editing this file). A firm
// accountant is refused every change but their own default organization and accepting an invite, with
// 'Only a firm owner or admin can manage the firm', and nothing changes; a user outside every firm gets 404
// for everything but creating a firm and accepting an invite; owner and admin pass the role check.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, uniqueEmail, type ApiAnswer, type System } from '../support/system.js';

interface Operation {
  tags?: string[];
  security?: unknown[];
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

const MANAGE_MESSAGE = 'Only a firm owner or admin can manage the firm';
const NO_FIRM_MESSAGE = 'You do not belong to an accounting firm';
const MUTATING = new Set(['post', 'put', 'patch', 'delete']);
/** What a firm accountant may change: their own default organization, and joining by an invite. */
const ACCOUNTANT_MAY = new Set(['PATCH /accounting-firm/make-default-org/{id}', 'POST /accounting-firm/accept-invite/']);
/** What a user outside every firm may call: creating a firm, and joining by an invite. */
const OUTSIDER_MAY = new Set(['PATCH /accounting-firm', 'POST /accounting-firm/accept-invite/']);
const RANDOM_ID = '7d0c3c4e-2f4b-4e36-9a8a-3f1f1c2b9d10';

interface Person {
  token: string;
  userId: string;
  organizationId: string;
}
let system: System;
let doc: Doc;
let owner: Person;
let admin: Person;
let accountant: Person;
let outsider: Person;
let pendingInvite = '';

interface Op {
  method: string;
  path: string;
  key: string;
}
const ops = (): Op[] =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method, op]) => MUTATING.has(method) && (op.tags ?? []).includes('firm'))
      .map(([method]) => ({ method: method.toUpperCase(), path, key: `${method.toUpperCase()} ${path}` })),
  );

async function person(email = uniqueEmail('firm-matrix')): Promise<Person> {
  const u = await signedUpUser(system, email);
  expect((await system.api('POST', '/onboard-user', { token: u.token, body: onboardBody })).status).toBe(200);
  const org = await system.api('GET', '/organization', { token: u.token });
  return { token: u.token, userId: u.user.id, organizationId: org.body.id };
}

async function join(role: 'admin' | 'accountant'): Promise<Person> {
  const email = uniqueEmail(role);
  const sent = await system.api('POST', '/accounting-firm/invite', { token: owner.token, body: { email, role, organizationIds: [owner.organizationId] } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const mail = await system.mailTo(email, /^Join .* on Ledgerline$/);
  const token = new URL(/https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text)?.[0] ?? 'http://x/').searchParams.get('token');
  const p = await person(email);
  const accepted = await system.api('POST', '/accounting-firm/accept-invite/', { token: p.token, body: { token } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return p;
}

/** Real ids and bodies, so a missing check would change something. */
function realRequest(op: Op): { url: string; body: unknown } {
  const ids: Record<string, string> = {
    '/accounting-firm/member/{id}': admin.userId,
    '/accounting-firm/member-access/{id}': admin.userId,
    '/accounting-firm/invite/{id}': pendingInvite,
    '/accounting-firm/organization/{id}': owner.organizationId,
    '/accounting-firm/make-default-org/{id}': owner.organizationId,
  };
  const bodies: Record<string, unknown> = {
    'PATCH /accounting-firm': { firmName: 'Taken over', country: 'FR' },
    'POST /accounting-firm/invite': { email: uniqueEmail('by-accountant'), role: 'accountant' },
    'PATCH /accounting-firm/member/{id}': { role: 'accountant' },
    'PATCH /accounting-firm/member-access/{id}': { type: 'give-access', organizationIds: [owner.organizationId] },
    // The caller's own organization: the gateway lets it through, the firm decides.
    'POST /accounting-firm/add-organization': { organizationId: accountant.organizationId },
  };
  return { url: op.path.replace(/\{\w+\}/g, () => ids[op.path] ?? RANDOM_ID), body: bodies[op.key] ?? {} };
}

async function stateHash(): Promise<string> {
  const h = createHash('sha256');
  for (const path of ['/accounting-firm/me', '/accounting-firm/members', '/accounting-firm/organizations']) {
    const a = await system.api('GET', path, { token: owner.token });
    expect(a.status, `${path} ${JSON.stringify(a.body).slice(0, 200)}`).toBe(200);
    h.update(path).update(JSON.stringify(a.body));
  }
  return h.digest('hex');
}

const show = (a: ApiAnswer) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`;

beforeAll(async () => {
  system = await startSystem({ firm: true, gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '1000000', RATE_LIMIT_LOGIN_MAX: '1000000', RATE_LIMIT_CODE_MAX: '1000000' } });
  owner = await person();
  expect((await system.api('PATCH', '/accounting-firm', { token: owner.token, body: { firmName: 'Matrix Books', country: 'US' } })).status).toBe(200);
  expect((await system.api('POST', '/accounting-firm/add-organization', { token: owner.token, body: { organizationId: owner.organizationId } })).status).toBe(
    201,
  );
  admin = await join('admin');
  accountant = await join('accountant');
  outsider = await person();
  const open = await system.api('POST', '/accounting-firm/invite', { token: owner.token, body: { email: uniqueEmail('open'), role: 'accountant' } });
  pendingInvite = open.body.invite.id;
  doc = (await system.api('GET', '/docs/json')).body;
}, 240_000);
afterAll(async () => system?.stop());

describe('firm role matrix over /docs/json', () => {
  it('walks the documented firm API (a check of the walk itself)', () => {
    const keys = ops().map((o) => o.key);
    for (const must of [
      'PATCH /accounting-firm',
      'POST /accounting-firm/invite',
      'DELETE /accounting-firm/member/{id}',
      'PATCH /accounting-firm/member-access/{id}',
      'POST /accounting-firm/add-organization',
    ])
      expect(keys).toContain(must);
    expect(keys.length).toBeGreaterThanOrEqual(10);
  });

  it('an accountant is refused every change but their default organization, and nothing changes', async () => {
    const before = await stateHash();
    const wrong: string[] = [];
    for (const op of ops().filter((o) => !ACCOUNTANT_MAY.has(o.key))) {
      const { url, body } = realRequest(op);
      const a = await system.api(op.method, url, { token: accountant.token, body });
      if (a.status !== 403 || a.body?.message !== MANAGE_MESSAGE || a.body?.appErrorCode !== 'FORBIDDEN') wrong.push(`${op.key} → ${show(a)}`);
    }
    expect(wrong).toEqual([]);
    expect(await stateHash()).toBe(before);
  });

  it('a user outside every firm reaches no firm', async () => {
    const before = await stateHash();
    const wrong: string[] = [];
    for (const op of ops().filter((o) => !OUTSIDER_MAY.has(o.key))) {
      const request = realRequest(op);
      // Their own organization: the gateway lets it through, the firm service finds no firm of theirs.
      const body = op.key === 'POST /accounting-firm/add-organization' ? { organizationId: outsider.organizationId } : request.body;
      const a = await system.api(op.method, request.url, { token: outsider.token, body });
      if (a.status !== 404 || a.body?.message !== NO_FIRM_MESSAGE) wrong.push(`${op.key} → ${show(a)}`);
    }
    expect(wrong).toEqual([]);
    expect(await stateHash()).toBe(before);
  });

  it('owner and admin pass the role check on every change', async () => {
    const wrong: string[] = [];
    for (const op of ops()) {
      const url = op.path.replace(/\{\w+\}/g, RANDOM_ID);
      for (const [name, who] of [
        ['owner', owner],
        ['admin', admin],
      ] as const) {
        // An unknown id and an empty body: what is checked here is the role decision only.
        const a = await system.api(op.method, url, { token: who.token, body: {} });
        if (a.status === 403 || a.status >= 500) wrong.push(`${name} ${op.key} → ${show(a)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
