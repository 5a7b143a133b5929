// Tagging in comments (issue #13 build 6, decision 0036) through the gateway with the real identity and ledger and
// NATS: every member of the workspace is taggable (name and email) as soon as identity's member.changed reaches the
// ledger — without their having opened the drawer; a new name follows; a removed member is no longer offered nor
// taggable, while their comment and the comments tagging them keep their name. A firm's accountant given access to a
// client organization is taggable there, and stops being when the access is removed.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;
let owner: { token: string; workspace: string; email: string; userId: string };
let txnId: string;

interface Taggable {
  id: string;
  name: string;
  email: string;
  former: boolean;
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

/** Invites `email` with `role` into the owner's workspace and accepts as a new user: their signed-in token and id. */
async function joinAs(role: string, firstName: string, lastName: string): Promise<{ token: string; userId: string; email: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const sent = await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { email, role, firstName, lastName } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const mail = await system.mailTo(email, /invited to/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no invite link in "${mail.text}"`);
  const accepted = await system.api('POST', '/verify-invite', { body: { token: tokenOf(link), password: PASSWORD, confirmPassword: PASSWORD } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { token: accepted.body.sessionToken, userId: accepted.body.user.id, email };
}

const taggable = async (query = ''): Promise<Taggable[]> => {
  const r = await system.api('GET', `/transactions/taggable-users${query}`, { token: owner.token, workspace: owner.workspace });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Taggable[];
};

beforeAll(async () => {
  system = await startSystem({
    ledger: true,
    firm: true,
    gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000', RATE_LIMIT_CODE_MAX: '100000' },
  });
  const a = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: a.token, body: onboardBody })).status).toBe(200);
  owner = { token: a.token, workspace: a.user.workspace.id, email: a.email, userId: a.user.id };
  // One bank transaction, as banking would publish it.
  const banking = bankingFor(system.bus, owner.workspace);
  const accountId = await banking.link();
  await banking.add(accountId, { amountCents: -4_250, name: 'Paper Supply Co' });
  txnId = await expectEventually(
    async () => {
      const r = await system.api('GET', '/transactions/v2?take=10', { token: owner.token, workspace: owner.workspace });
      expect(r.body.data).toHaveLength(1);
      return r.body.data[0].id as string;
    },
    { timeoutMs: 30_000 },
  );
}, 180_000);
afterAll(async () => system?.stop());

describe('tagging members in comments', () => {
  it('offers every member of the workspace with name and email, before they have opened anything, and follows a new name', async () => {
    const grace = await joinAs('Viewer', 'Grace', 'Hopper');
    const alan = await joinAs('Accountant', 'Alan', 'Turing');
    // Neither has called the ledger: identity's member.changed told it.
    await expectEventually(
      async () =>
        expect((await taggable()).map((u) => [u.name, u.email])).toEqual([
          ['Ada Lovelace', owner.email],
          ['Alan Turing', alan.email],
          ['Grace Hopper', grace.email],
        ]),
      { timeoutMs: 30_000 },
    );
    const posted = await system.api('POST', '/transactions/comment', {
      token: owner.token,
      workspace: owner.workspace,
      body: { transactionId: txnId, comment: 'Whose toner is this?', taggedUsers: [grace.userId, alan.userId] },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.message).toBe('Posted Comment Succesfully');
    expect(posted.body.comment.taggedUsers).toEqual([
      { id: grace.userId, name: 'Grace Hopper' },
      { id: alan.userId, name: 'Alan Turing' },
    ]);

    // Grace renames herself (PATCH users/me): the ledger follows.
    expect((await system.api('PATCH', '/users/me', { token: grace.token, workspace: owner.workspace, body: { firstName: 'Amazing Grace' } })).status).toBe(200);
    await expectEventually(async () => expect((await taggable()).find((u) => u.id === grace.userId)?.name).toBe('Amazing Grace Hopper'), { timeoutMs: 30_000 });
    const listed = await system.api('GET', `/transactions/comments?transactionId=${txnId}`, { token: owner.token, workspace: owner.workspace });
    expect(listed.body.data[0].taggedUsers.map((t: { name: string }) => t.name)).toEqual(['Amazing Grace Hopper', 'Alan Turing']);
  });

  it('stops offering a removed member; their comment and tags keep their name, and tagging them is refused', async () => {
    const bob = await joinAs('Admin', 'Bob', 'Builder');
    await expectEventually(async () => expect((await taggable()).map((u) => u.id)).toContain(bob.userId), { timeoutMs: 30_000 });
    const own = await system.api('POST', '/transactions/comment', {
      token: bob.token,
      workspace: owner.workspace,
      body: { transactionId: txnId, comment: 'Mine, for the site office' },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const tagging = await system.api('POST', '/transactions/comment', {
      token: owner.token,
      workspace: owner.workspace,
      body: { transactionId: txnId, comment: 'Thanks Bob', taggedUsers: [bob.userId] },
    });
    expect(tagging.status).toBe(200);

    expect((await system.api('DELETE', `/members/${bob.userId}`, { token: owner.token, workspace: owner.workspace })).status).toBe(200);
    await expectEventually(async () => expect((await taggable()).map((u) => u.id)).not.toContain(bob.userId), { timeoutMs: 30_000 });
    // Listed as former only when asked (the drawer's history names him).
    expect((await taggable('?includeFormer=true')).find((u) => u.id === bob.userId)).toEqual({
      id: bob.userId,
      name: 'Bob Builder',
      email: bob.email,
      former: true,
    });

    const refused = await system.api('POST', '/transactions/comment', {
      token: owner.token,
      workspace: owner.workspace,
      body: { transactionId: txnId, comment: 'Still there?', taggedUsers: [bob.userId] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('taggedUsers');
    const listed = await system.api('GET', `/transactions/comments?transactionId=${txnId}`, { token: owner.token, workspace: owner.workspace });
    const byText = new Map((listed.body.data as { comment: string; user: { name: string }; taggedUsers: { name: string }[] }[]).map((c) => [c.comment, c]));
    expect(byText.get('Mine, for the site office')?.user.name).toBe('Bob Builder');
    expect(byText.get('Thanks Bob')?.taggedUsers.map((t) => t.name)).toEqual(['Bob Builder']);
  });
});

describe("a firm's members", () => {
  it('are taggable in a client organization while the firm gives them access to it', async () => {
    const person = async (company: string, email = uniqueEmail('firm')) => {
      const u = await signedUpUser(system, email);
      expect((await system.api('POST', '/onboard-user', { token: u.token, body: { ...onboardBody, companyName: company } })).status).toBe(200);
      return { token: u.token, email: u.email, userId: u.user.id as string };
    };
    const firmOwner = await person('Partners Own Books');
    expect((await system.api('PATCH', '/accounting-firm', { token: firmOwner.token, body: { firmName: 'Partners', country: 'US' } })).status).toBe(200);
    const made = await system.api('POST', '/accounting-firm/add-organization', { token: firmOwner.token, body: { name: 'Client Co' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const client = { organizationId: made.body.organization.id as string, workspace: made.body.organization.workspaces[0].id as string };
    const email = uniqueEmail('accountant');
    expect((await system.api('POST', '/accounting-firm/invite', { token: firmOwner.token, body: { email, role: 'accountant' } })).status).toBe(201);
    const mail = await system.mailTo(email, /^Join .* on Ledgerline$/);
    const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
    if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
    const accountant = await person('Accountant Co', email);
    const accepted = await system.api('POST', '/accounting-firm/accept-invite/', {
      token: accountant.token,
      body: { token: new URL(link).searchParams.get('token') },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const members = async () => {
      const r = await system.api('GET', '/transactions/taggable-users', { token: firmOwner.token, workspace: client.workspace });
      expect(r.status).toBe(200);
      return (r.body.data as Taggable[]).map((u) => u.email);
    };
    const given = await system.api('PATCH', `/accounting-firm/member-access/${accountant.userId}`, {
      token: firmOwner.token,
      body: { type: 'give-access', organizationIds: [client.organizationId] },
    });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    // The accountant has not opened the client's books: the grant's member.changed made them a member there.
    await expectEventually(async () => expect(await members()).toContain(accountant.email), { timeoutMs: 30_000 });
    const removed = await system.api('PATCH', `/accounting-firm/member-access/${accountant.userId}`, {
      token: firmOwner.token,
      body: { type: 'remove-access', organizationIds: [client.organizationId] },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await expectEventually(async () => expect(await members()).not.toContain(accountant.email), { timeoutMs: 30_000 });
  });
});
