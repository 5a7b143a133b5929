// Issue #16 items 1–3 through the gateway with the real identity and ledger: workspaces (a new one gets its
// own chart of accounts by event), the organization, members and roles, invites through the mailbox, and
// the trust boundaries: another organization's ids answer 404 (in paths and bodies), a removed member's very
// next request is refused, a revoked, used or expired invite cannot be accepted.
import { createHash } from 'node:crypto';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../../services/gateway/src/app.js';
import { gatewayConfigSchema } from '../../services/gateway/src/config.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;
let owner: { token: string; workspace: string; email: string; userId: string };
let other: { token: string; workspace: string };

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

/** The invite link in the newest invite mail to `email`. */
async function inviteLink(email: string): Promise<string> {
  const mail = await system.mailTo(email, /invited to/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no invite link in "${mail.text}"`);
  return link;
}

/** Invites `email` with `role` into the owner's workspace and accepts as a new user: their signed-in token. */
async function joinAs(role: string, email = uniqueEmail(role.toLowerCase())): Promise<{ token: string; userId: string; email: string }> {
  const sent = await system.api('POST', '/send-invite', {
    token: owner.token,
    workspace: owner.workspace,
    body: { email, role, firstName: 'Grace', lastName: 'Hopper' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const token = tokenOf(await inviteLink(email));
  const accepted = await system.api('POST', '/verify-invite', { body: { token, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { token: accepted.body.sessionToken, userId: accepted.body.user.id, email };
}

beforeAll(async () => {
  system = await startSystem({ ledger: true, gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000', RATE_LIMIT_CODE_MAX: '100000' } });
  const a = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: a.token, body: onboardBody })).status).toBe(200);
  owner = { token: a.token, workspace: a.user.workspace.id, email: a.email, userId: a.user.id };
  const b = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: b.token, body: { ...onboardBody, companyName: 'Other Co' } })).status).toBe(200);
  other = { token: b.token, workspace: b.user.workspace.id };
}, 180_000);
afterAll(async () => system?.stop());

describe('workspaces and the organization', () => {
  it('lists, creates (with its own chart of accounts), changes and deletes workspaces; the last one stays', async () => {
    const list = await system.api('GET', '/workspace', { token: owner.token, workspace: owner.workspace });
    expect(list.status).toBe(200);
    expect(list.body.workspaces).toEqual([
      expect.objectContaining({ id: owner.workspace, isDefault: true, role: 'Owner', memberCount: 1, ownerEmail: owner.email, name: 'Analytical Co' }),
    ]);

    const missing = await system.api('POST', '/workspace', { token: owner.token, workspace: owner.workspace, body: { name: '  ' } });
    expect(missing).toMatchObject({ status: 400, body: { message: 'Workspace name is required', errors: [{ field: 'name' }] } });

    const created = await system.api('POST', '/workspace', { token: owner.token, workspace: owner.workspace, body: { name: 'Subsidiary LLC' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      message: 'Workspace created',
      workspace: { name: 'Subsidiary LLC', isDefault: false, role: 'Owner', memberCount: 1 },
    });
    const sub = created.body.workspace.id as string;
    // The ledger learns of it by the workspace.created event and seeds its chart there.
    await expectEventually(
      async () => {
        const chart = await system.api('GET', '/categories', { token: owner.token, workspace: sub });
        expect(chart.status).toBe(200);
        expect(JSON.stringify(chart.body)).toContain('Uncategorised Income');
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );

    const badEmail = await system.api('PATCH', '/workspace', { token: owner.token, workspace: sub, body: { email: 'not-an-email' } });
    expect(badEmail).toMatchObject({ status: 400, body: { message: 'Please enter a valid email', errors: [{ field: 'email' }] } });
    const badSize = await system.api('PATCH', '/workspace', { token: owner.token, workspace: sub, body: { maxTeamSize: 0 } });
    expect(badSize.status).toBe(400);
    expect(badSize.body.errors[0].field).toBe('maxTeamSize');

    const patched = await system.api('PATCH', '/workspace', {
      token: owner.token,
      workspace: owner.workspace,
      body: {
        id: sub,
        address: '1 Main St',
        email: 'Books@Sub.example',
        bankName: 'First Bank',
        accountNumber: '12345678',
        bankAddress: '2 Bank Rd',
        accountType: 'Checking',
        maxTeamSize: 12,
        isDefault: true,
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.workspace).toMatchObject({
      id: sub,
      address: '1 Main St',
      email: 'books@sub.example',
      bankName: 'First Bank',
      accountNumber: '12345678',
      bankAddress: '2 Bank Rd',
      accountType: 'Checking',
      maxTeamSize: 12,
      isDefault: true,
    });

    const org = await system.api('GET', '/organization', { token: owner.token, workspace: owner.workspace });
    expect(org.status).toBe(200);
    expect(org.body).toMatchObject({
      name: 'Analytical Co',
      owner: { id: owner.userId, email: owner.email },
      memberCount: 1,
      isDefault: true,
      type: 'business',
      subscription: null,
    });
    expect(org.body.workspaces.map((w: { id: string; isDefault: boolean }) => [w.id, w.isDefault])).toEqual([
      [sub, true],
      [owner.workspace, false],
    ]);

    // Deleting the selected default: the default passes to the remaining one, which the answer selects.
    const deleted = await system.api('DELETE', `/workspace/${sub}`, { token: owner.token, workspace: sub });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({
      message: 'Workspace deleted',
      selectedWorkspaceId: owner.workspace,
      workspaces: [{ id: owner.workspace, isDefault: true }],
    });
    expect((await system.api('GET', '/categories', { token: owner.token, workspace: sub })).status).toBe(404);
    // Every other service learns of it by a typed event through identity's outbox.
    const outbox = await system.db.adminDb('outbox').where({ workspace_id: sub }).orderBy('created_at').select('type');
    expect(outbox.map((r: { type: string }) => r.type)).toEqual(expect.arrayContaining(['workspace.created', 'workspace.deleted']));

    const last = await system.api('DELETE', `/workspace/${owner.workspace}`, { token: owner.token, workspace: owner.workspace });
    expect(last).toMatchObject({ status: 409, body: { message: 'The last workspace of an organization cannot be deleted', errors: [{ field: 'id' }] } });
    expect((await system.api('GET', '/workspace', { token: owner.token, workspace: owner.workspace })).body.workspaces).toHaveLength(1);
  });
});

describe('invites', () => {
  it('validates with the spec messages: Owner cannot be invited, a bad email is named', async () => {
    const asOwner = await system.api('POST', '/send-invite', {
      token: owner.token,
      workspace: owner.workspace,
      body: { email: uniqueEmail('x'), role: 'Owner' },
    });
    expect(asOwner).toMatchObject({ status: 400, body: { message: 'Role cannot be Owner', errors: [{ field: 'role', message: 'Role cannot be Owner' }] } });
    const noEmail = await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { role: 'Viewer' } });
    expect(noEmail).toMatchObject({ status: 400, body: { message: 'Email cannot be empty', errors: [{ field: 'email' }] } });
    const badEmail = await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { email: 'nope' } });
    expect(badEmail).toMatchObject({ status: 400, body: { message: 'Please enter a valid email' } });
    expect((await system.api('GET', '/invites', { token: owner.token, workspace: owner.workspace })).body.invites).toEqual([]);
  });

  it('a new user sets a password from the mailed link (default role Viewer), is signed in, and the link works once', async () => {
    const email = uniqueEmail('newbie');
    const sent = await system.api('POST', '/send-invite', {
      token: owner.token,
      workspace: owner.workspace,
      body: { email: email.toUpperCase(), firstName: 'Ann', middleName: 'B', lastName: 'Cole' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({
      message: 'Invite sent',
      invite: {
        email,
        role: 'Viewer',
        status: 'pending',
        statusLabel: 'Pending',
        isExpired: false,
        workspaceIds: [owner.workspace],
        invitedByEmail: owner.email,
      },
    });
    const expiry = new Date(sent.body.invite.expiryDate).getTime() - new Date(sent.body.invite.createdOn).getTime();
    expect(expiry).toBe(7 * 86_400_000);
    const token = tokenOf(await inviteLink(email));
    // Only the token's SHA-256 is stored; the token itself appears nowhere in the row.
    const row = await system.db.adminDb('invites').where({ id: sent.body.invite.id }).first();
    expect(Buffer.from(row.token_hash).equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(JSON.stringify(row)).not.toContain(token);

    // No password yet: the page learns it must ask for one; nothing changed.
    const peek = await system.api('POST', '/verify-invite', { body: { token } });
    expect(peek.body).toMatchObject({ status: 'password-required', email, firstName: 'Ann', lastName: 'Cole' });
    const weak = await system.api('POST', '/verify-invite', { body: { token, password: 'short' } });
    expect(weak).toMatchObject({ status: 400, body: { message: 'Must be 8 or more characters', errors: [{ field: 'password' }] } });
    const simple = await system.api('POST', '/verify-invite', { body: { token, password: 'abcdefgh' } });
    expect(simple).toMatchObject({ status: 400, body: { message: 'Must contain at least one uppercase letter, one lowercase letter, and one number' } });
    const mismatch = await system.api('POST', '/verify-invite', { body: { token, password: PASSWORD, confirmPassword: `${PASSWORD}x` } });
    expect(mismatch).toMatchObject({ status: 400, body: { message: 'Password must match', errors: [{ field: 'confirmPassword' }] } });
    const noToken = await system.api('POST', '/verify-invite', { body: {} });
    expect(noToken).toMatchObject({ status: 400, body: { message: 'Invite token is required', errors: [{ field: 'token' }] } });

    const accepted = await system.api('POST', '/verify-invite', { body: { token, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({
      status: 'accepted',
      message: 'Your password has been set.',
      user: { email, role: 'Viewer', isOnboarded: true, workspace: { id: owner.workspace } },
    });
    const me = await system.api('GET', '/users/me', { token: accepted.body.sessionToken, workspace: owner.workspace });
    expect(me.body).toMatchObject({ email, role: 'Viewer' });
    // The password works for a later sign-in.
    expect((await system.api('POST', '/login', { body: { email, password: PASSWORD } })).status).toBe(200);

    const again = await system.api('POST', '/verify-invite', { body: { token, password: PASSWORD } });
    expect(again).toMatchObject({ status: 400, body: { message: 'This invite link is invalid or has expired', errors: [{ field: 'token' }] } });
    const invites = await system.api('GET', '/invites', { token: owner.token, workspace: owner.workspace });
    expect(invites.body.invites.find((i: { email: string }) => i.email === email)).toMatchObject({
      status: 'verified',
      statusLabel: 'Active',
      vendorUserId: accepted.body.user.id,
    });
  });

  it("an existing user accepts without a password; their role in the workspace is the invite's", async () => {
    const existing = await signedUpUser(system);
    const sent = await system.api('POST', '/send-invite', {
      token: owner.token,
      workspace: owner.workspace,
      body: { email: existing.email, role: 'Accountant' },
    });
    expect(sent.status).toBe(201);
    const accepted = await system.api('POST', '/verify-invite', { body: { token: tokenOf(await inviteLink(existing.email)) } });
    expect(accepted.body).toMatchObject({ status: 'accepted', message: 'Invite accepted. Sign in to continue.' });
    expect(accepted.body.sessionToken).toBeUndefined();
    const me = await system.api('GET', '/users/me', { token: existing.token, workspace: owner.workspace });
    expect(me.body).toMatchObject({ role: 'Accountant', workspace: { id: owner.workspace } });
    // Invited again into the same workspace: nothing to do.
    const dup = await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { email: existing.email } });
    expect(dup).toMatchObject({ status: 409, body: { errors: [{ field: 'email' }] } });
  });

  it('a revoked invite, a replaced link and an expired invite cannot be accepted; PATCH changes and resends', async () => {
    const email = uniqueEmail('revoked');
    const sent = await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { email, role: 'Admin' } });
    const first = tokenOf(await inviteLink(email));
    const changed = await system.api('PATCH', `/invites/${sent.body.invite.id}`, {
      token: owner.token,
      workspace: owner.workspace,
      body: { role: 'Accountant', lastName: 'Lamarr' },
    });
    expect(changed.body).toMatchObject({ message: 'Invite updated', invite: { role: 'Accountant', lastName: 'Lamarr', status: 'pending' } });
    const toOwner = await system.api('PATCH', `/invites/${sent.body.invite.id}`, { token: owner.token, workspace: owner.workspace, body: { role: 'Owner' } });
    expect(toOwner).toMatchObject({ status: 400, body: { message: 'Role cannot be Owner' } });

    const resent = await system.api('PATCH', `/invites/${sent.body.invite.id}`, { token: owner.token, workspace: owner.workspace, body: { resend: true } });
    expect(resent.body.message).toBe('Invite sent again');
    await expectEventually(async () => expect(tokenOf(await inviteLink(email))).not.toBe(first), { timeoutMs: 5_000 });
    const second = tokenOf(await inviteLink(email));
    expect((await system.api('POST', '/verify-invite', { body: { token: first, password: PASSWORD } })).status).toBe(400);

    const revoked = await system.api('POST', '/revoke-invite', { token: owner.token, workspace: owner.workspace, body: { id: sent.body.invite.id } });
    expect(revoked.body).toMatchObject({ message: 'Invite revoked', invite: { status: 'revoked', statusLabel: 'Inactive' } });
    const refused = await system.api('POST', '/verify-invite', { body: { token: second, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(refused).toMatchObject({ status: 400, body: { message: 'This invite link is invalid or has expired' } });
    const twice = await system.api('POST', '/revoke-invite', { token: owner.token, workspace: owner.workspace, body: { id: sent.body.invite.id } });
    expect(twice.status).toBe(409);
    expect((await system.api('POST', '/login', { body: { email, password: PASSWORD } })).status).toBe(401);

    // Expiry: 7 days by identity's clock.
    const late = uniqueEmail('late');
    await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { email: late } });
    const lateToken = tokenOf(await inviteLink(late));
    system.clock.offsetMs = 7 * 86_400_000 + 60_000;
    try {
      const expired = await system.api('POST', '/verify-invite', { body: { token: lateToken, password: PASSWORD, confirmPassword: PASSWORD } });
      expect(expired).toMatchObject({ status: 400, body: { message: 'This invite link is invalid or has expired' } });
    } finally {
      system.clock.offsetMs = 0;
    }
    const listed = await system.api('GET', '/members?type=invite', { token: owner.token, workspace: owner.workspace });
    expect(listed.body.members.map((m: { email: string }) => m.email)).toContain(late);
    expect(listed.body.members.every((m: { type: string }) => m.type === 'invite')).toBe(true);
  });
});

describe('members and roles', () => {
  it("lists members by type, changes a role, refuses Owner and changes to the owner, and a removed member's next request is refused", async () => {
    const admin = await joinAs('Admin');
    const viewer = await joinAs('Viewer');
    const users = await system.api('GET', '/members?type=user', { token: owner.token, workspace: owner.workspace });
    expect(users.status).toBe(200);
    const byId = new Map(users.body.members.map((m: { id: string }) => [m.id, m]));
    expect(byId.get(owner.userId)).toMatchObject({
      role: 'Owner',
      type: 'user',
      status: 'verified',
      statusLabel: 'Active',
      entities: [{ id: owner.workspace, userRole: 'Owner' }],
    });
    expect(byId.get(viewer.userId)).toMatchObject({ role: 'Viewer', email: viewer.email, firstName: 'Grace', organizationCount: 1 });
    const badType = await system.api('GET', '/members?type=robot', { token: owner.token, workspace: owner.workspace });
    expect(badType.status).toBe(400);

    const toOwner = await system.api('PATCH', `/members/${viewer.userId}`, { token: owner.token, workspace: owner.workspace, body: { role: 'Owner' } });
    expect(toOwner).toMatchObject({ status: 400, body: { message: 'Role cannot be Owner', errors: [{ field: 'role' }] } });
    const ownerChange = await system.api('PATCH', `/members/${owner.userId}`, { token: admin.token, workspace: owner.workspace, body: { role: 'Viewer' } });
    expect(ownerChange).toMatchObject({ status: 403, body: { message: "The owner's role cannot be changed" } });
    const removeOwner = await system.api('DELETE', `/members/${owner.userId}`, { token: admin.token, workspace: owner.workspace });
    expect(removeOwner).toMatchObject({ status: 403, body: { message: 'The owner cannot be removed' } });

    // A Viewer cannot write; promoted to Accountant the very next request may.
    const denied = await system.api('POST', '/workspace', { token: viewer.token, workspace: owner.workspace, body: { name: 'Nope' } });
    expect(denied).toMatchObject({ status: 403, body: { message: 'Editing actions are disabled for your account' } });
    const promoted = await system.api('PATCH', `/members/${viewer.userId}`, { token: admin.token, workspace: owner.workspace, body: { role: 'Accountant' } });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ message: 'Member updated', member: { id: viewer.userId, role: 'Accountant' } });
    expect((await system.api('GET', '/users/me', { token: viewer.token, workspace: owner.workspace })).body.role).toBe('Accountant');
    // An Accountant edits the books but does not manage the team (spec §6 admin check).
    const manage = await system.api('POST', '/send-invite', { token: viewer.token, workspace: owner.workspace, body: { email: uniqueEmail('x') } });
    expect(manage).toMatchObject({ status: 403, body: { message: 'Only an Owner or Admin can manage the team' } });

    // Downgraded: the next write is refused at once (no cache window).
    await system.api('PATCH', `/members/${viewer.userId}`, { token: owner.token, workspace: owner.workspace, body: { role: 'Viewer' } });
    expect((await system.api('PATCH', '/workspace', { token: viewer.token, workspace: owner.workspace, body: { name: 'x' } })).status).toBe(403);

    const removed = await system.api('DELETE', `/members/${viewer.userId}`, { token: admin.token, workspace: owner.workspace });
    expect(removed).toMatchObject({ status: 200, body: { message: 'Member removed' } });
    // The very next request, read or write, is refused.
    expect((await system.api('GET', '/members', { token: viewer.token, workspace: owner.workspace })).status).toBe(404);
    expect((await system.api('GET', '/categories', { token: viewer.token, workspace: owner.workspace })).status).toBe(404);
    const gone = await system.api('GET', '/members?type=user', { token: owner.token, workspace: owner.workspace });
    expect(gone.body.members.map((m: { id: string }) => m.id)).not.toContain(viewer.userId);
  });
});

describe('two gateway replicas', () => {
  it("a removal made through one replica refuses the member's next request on the other, with the production session settings", async () => {
    // A second replica in this process, with the defaults production runs with.
    const replica = await buildGateway({ config: gatewayConfigSchema.parse({ LOG_LEVEL: 'silent', IDENTITY_URL: system.identityUrl }), redis: null });
    try {
      const member = await joinAs('Admin');
      const viaReplica = (method: 'GET' | 'PATCH', url: string, payload?: unknown) =>
        replica.inject({
          method,
          url,
          headers: { authorization: `Bearer ${member.token}`, 'x-workspace-id': owner.workspace },
          ...(payload ? { payload: payload as object } : {}),
        });
      // Warm: the replica has just authorised this member, read and write.
      expect((await viaReplica('GET', '/members')).statusCode).toBe(200);
      expect((await viaReplica('PATCH', '/workspace', { accountType: 'Checking' })).statusCode).toBe(200);
      const removed = await system.api('DELETE', `/members/${member.userId}`, { token: owner.token, workspace: owner.workspace });
      expect(removed.status).toBe(200);
      const read = await viaReplica('GET', '/members');
      const write = await viaReplica('PATCH', '/workspace', { accountType: 'Savings' });
      expect([read.statusCode, write.statusCode]).toEqual([404, 404]);
      expect(JSON.parse(write.body)).toMatchObject({ message: 'Workspace not found', statusCode: 404 });
      expect((await system.api('GET', '/workspace', { token: owner.token, workspace: owner.workspace })).body.workspaces[0].accountType).toBe('Checking');
    } finally {
      await replica.close();
    }
  });
});

describe('two tenants', () => {
  it("another organization's ids answer 404, in paths and in bodies, and change nothing", async () => {
    const email = uniqueEmail('tenant');
    const invite = (await system.api('POST', '/send-invite', { token: other.token, workspace: other.workspace, body: { email } })).body.invite;
    const theirs = (await system.api('GET', '/members?type=user', { token: other.token, workspace: other.workspace })).body.members[0].id as string;
    const asOwner = { token: owner.token, workspace: owner.workspace };
    const answers = [
      await system.api('DELETE', `/workspace/${other.workspace}`, asOwner),
      await system.api('PATCH', '/workspace', { ...asOwner, body: { id: other.workspace, name: 'Hijacked' } }),
      await system.api('PATCH', `/members/${theirs}`, { ...asOwner, body: { role: 'Viewer' } }),
      await system.api('DELETE', `/members/${theirs}`, asOwner),
      await system.api('PATCH', `/invites/${invite.id}`, { ...asOwner, body: { role: 'Admin' } }),
      await system.api('POST', '/revoke-invite', { ...asOwner, body: { id: invite.id } }),
      await system.api('POST', '/send-invite', { ...asOwner, body: { email: uniqueEmail('x'), workspaceIds: [other.workspace] } }),
      await system.api('PATCH', `/members/${owner.userId}`, { ...asOwner, body: { role: 'Viewer', workspaceId: other.workspace } }),
      await system.api('GET', '/organization', { token: owner.token, workspace: other.workspace }),
      // The reference decides before the other fields: a body that is also invalid elsewhere still answers 404.
      await system.api('POST', '/send-invite', { ...asOwner, body: { email: 'x', role: 'Owner', workspaceIds: [other.workspace] } }),
      await system.api('PATCH', '/workspace', { ...asOwner, body: { id: other.workspace, email: 'x', accountNumber: 'x' } }),
      await system.api('PATCH', `/members/${theirs}`, { ...asOwner, body: { role: 'Owner' } }),
    ];
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(404);
    expect(answers[6]!.body.errors[0].field).toBe('workspaceIds');
    const after = await system.api('GET', '/invites', { token: other.token, workspace: other.workspace });
    expect(after.body.invites[0]).toMatchObject({ id: invite.id, status: 'pending', role: 'Viewer' });
    expect((await system.api('GET', '/workspace', { token: other.token, workspace: other.workspace })).body.workspaces[0].name).toBe('Other Co');
  });
});
