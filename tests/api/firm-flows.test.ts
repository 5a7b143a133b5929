// Issue #16 item 4 through the gateway with the real identity and firm services: a firm is created, keeps a
// client organization, invites an accountant through the mailbox, gives and removes access; another firm's
// ids answer 404 (in paths and bodies); a removed member's or stripped accountant's very next request is
// refused; a used, revoked or expired invite cannot be accepted.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;
interface Person {
  token: string;
  email: string;
  userId: string;
  organizationId: string;
}
let ownerA: Person;
let ownerB: Person;
let newClient = '';

async function person(company = 'Analytical Co', email = uniqueEmail('firm')): Promise<Person> {
  const u = await signedUpUser(system, email);
  const onboarded = await system.api('POST', '/onboard-user', { token: u.token, body: { ...onboardBody, companyName: company } });
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  const org = await system.api('GET', '/organization', { token: u.token });
  expect(org.status).toBe(200);
  return { token: u.token, email: u.email, userId: u.user.id, organizationId: org.body.id };
}

/** The token of the newest firm invite mail to `email`. */
async function inviteToken(email: string): Promise<string> {
  const mail = await system.mailTo(email, /^Join .* on Ledgerline$/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
  return new URL(link).searchParams.get('token') ?? '';
}

const api = (who: { token: string }, method: string, path: string, body?: unknown) => system.api(method, path, { token: who.token, body });

beforeAll(async () => {
  system = await startSystem({
    firm: true,
    ledger: true,
    gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000', RATE_LIMIT_CODE_MAX: '100000' },
  });
  ownerA = await person('Client A Inc');
  ownerB = await person('Client B Inc');
}, 180_000);
afterAll(async () => system?.stop());

describe('the accounting firm', () => {
  let accountant: Person;
  let inviteId = '';

  it('is created by PATCH /accounting-firm (firmName and country required, naming the field) and read by /me', async () => {
    const none = await api(ownerA, 'GET', '/accounting-firm/me');
    expect(none).toMatchObject({ status: 404, body: { message: 'You do not belong to an accounting firm' } });
    expect(await api(ownerA, 'PATCH', '/accounting-firm', { firmName: ' ', country: 'US' })).toMatchObject({
      status: 400,
      body: { message: 'Firm name is required', errors: [{ field: 'firmName' }] },
    });
    expect(await api(ownerA, 'PATCH', '/accounting-firm', { firmName: 'Ledger & Co' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'country', message: 'Country is required' }] },
    });
    expect(await api(ownerA, 'PATCH', '/accounting-firm', { firmName: 7 })).toMatchObject({ status: 400, body: { errors: [{ field: 'firmName' }] } });
    expect((await api(ownerA, 'GET', '/accounting-firm/me')).status).toBe(404);

    const created = await api(ownerA, 'PATCH', '/accounting-firm', { firmName: 'Ledger & Co', country: 'US' });
    expect(created).toMatchObject({
      status: 200,
      body: { message: 'Firm created', created: true, firm: { name: 'Ledger & Co', country: 'US', ownerUserId: ownerA.userId } },
    });
    const renamed = await api(ownerA, 'PATCH', '/accounting-firm', { firmName: 'Ledger and Co' });
    expect(renamed).toMatchObject({ status: 200, body: { message: 'Firm updated', created: false, firm: { name: 'Ledger and Co', country: 'US' } } });

    const me = await api(ownerA, 'GET', '/accounting-firm/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { id: ownerA.userId, email: ownerA.email },
      owner: { id: ownerA.userId, email: ownerA.email, role: 'owner' },
      member: { role: 'owner' },
      firm: { name: 'Ledger and Co' },
    });

    expect((await api(ownerB, 'PATCH', '/accounting-firm', { firmName: 'Other Firm', country: 'CA' })).status).toBe(200);
  });

  it("keeps client organizations the caller manages; another tenant's organization is a 404 naming the field", async () => {
    expect(await api(ownerA, 'POST', '/accounting-firm/add-organization', { organizationId: 'nope' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'organizationId' }] },
    });
    expect(await api(ownerA, 'POST', '/accounting-firm/add-organization', { organizationId: ownerB.organizationId })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'organizationId' }] },
    });
    const added = await api(ownerA, 'POST', '/accounting-firm/add-organization', { organizationId: ownerA.organizationId });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({
      message: 'Organization added',
      organization: { id: ownerA.organizationId, name: 'Client A Inc', isDefault: false, type: 'business', subscription: null, memberCount: 1 },
    });
    expect(added.body.organization.workspaces).toHaveLength(1);
    expect(await api(ownerA, 'POST', '/accounting-firm/add-organization', { organizationId: ownerA.organizationId })).toMatchObject({
      status: 409,
      body: { errors: [{ field: 'organizationId' }] },
    });
    expect((await api(ownerB, 'POST', '/accounting-firm/add-organization', { organizationId: ownerB.organizationId })).status).toBe(201);

    const listA = await api(ownerA, 'GET', '/accounting-firm/organizations');
    expect(listA.body.organizations.map((o: { id: string }) => o.id)).toEqual([ownerA.organizationId]);

    // A new client organization: identity makes it with its first workspace, the ledger seeds its chart by event.
    expect(await api(ownerA, 'POST', '/accounting-firm/add-organization', {})).toMatchObject({ status: 400, body: { errors: [{ field: 'organizationId' }] } });
    expect(await api(ownerA, 'POST', '/accounting-firm/add-organization', { name: '  ' })).toMatchObject({
      status: 400,
      body: { message: 'Organization name is required', errors: [{ field: 'name' }] },
    });
    const made = await api(ownerA, 'POST', '/accounting-firm/add-organization', { name: 'New Client LLC' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      message: 'Organization added',
      organization: { name: 'New Client LLC', isDefault: false, workspaces: [{ name: 'New Client LLC', role: 'Owner' }] },
    });
    newClient = made.body.organization.id;
    const newWorkspace = made.body.organization.workspaces[0].id as string;
    await expectEventually(
      async () => {
        const chart = await system.api('GET', '/categories', { token: ownerA.token, workspace: newWorkspace });
        expect(chart.status).toBe(200);
        expect(JSON.stringify(chart.body)).toContain('Uncategorised');
      },
      { timeoutMs: 20_000 },
    );
    const both = await api(ownerA, 'GET', '/accounting-firm/organizations');
    expect(both.body.organizations.map((o: { name: string }) => o.name)).toEqual(['Client A Inc', 'New Client LLC']);
    expect(both.body.organizations[1].workspaces.map((w: { id: string }) => w.id)).toEqual([newWorkspace]);
    // Firm B cannot remove or default firm A's organization.
    expect(await api(ownerB, 'DELETE', `/accounting-firm/organization/${ownerA.organizationId}`)).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'id' }] },
    });
    expect((await api(ownerB, 'PATCH', `/accounting-firm/make-default-org/${ownerA.organizationId}`)).status).toBe(404);
    const defaulted = await api(ownerA, 'PATCH', `/accounting-firm/make-default-org/${ownerA.organizationId}`);
    expect(defaulted).toMatchObject({
      status: 200,
      body: { message: 'Default organization updated', organization: { id: ownerA.organizationId, isDefault: true } },
    });
  });

  it('invites an accountant through the mailbox; bad input names the field; the link works once, for the invited email', async () => {
    const email = uniqueEmail('accountant');
    const send = (body: unknown) => api(ownerA, 'POST', '/accounting-firm/invite', body);
    expect(await send({ email: 'not-an-email', role: 'accountant' })).toMatchObject({
      status: 400,
      body: { message: 'Please enter a valid email.', errors: [{ field: 'email' }] },
    });
    expect(await send({ email, role: 'Owner' })).toMatchObject({ status: 400, body: { message: 'Role cannot be Owner', errors: [{ field: 'role' }] } });
    expect(await send({ email, role: 'viewer' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'role', message: 'Role must be admin or accountant' }] },
    });
    expect(await send({ email, role: 'accountant', organizationIds: [ownerB.organizationId] })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'organizationIds' }] },
    });
    const sent = await send({ email: email.toUpperCase(), role: 'accountant', firstName: 'Grace', organizationIds: [ownerA.organizationId] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({
      message: 'Invite sent',
      invite: { email, role: 'accountant', status: 'pending', statusLabel: 'Pending', isExpired: false, organizationIds: [ownerA.organizationId] },
    });
    inviteId = sent.body.invite.id;
    const expiry = Date.parse(sent.body.invite.expiryDate) - Date.parse(sent.body.invite.createdOn);
    expect(expiry).toBe(7 * 86_400_000);
    expect(await api(ownerA, 'GET', `/accounting-firm/invite/${inviteId}`)).toMatchObject({ status: 200, body: { id: inviteId, status: 'pending' } });
    expect(await api(ownerB, 'GET', `/accounting-firm/invite/${inviteId}`)).toMatchObject({ status: 404, body: { errors: [{ field: 'id' }] } });
    expect((await api(ownerB, 'DELETE', `/accounting-firm/invite/${inviteId}`)).status).toBe(404);
    expect(await api(ownerA, 'GET', '/accounting-firm/invite/123')).toMatchObject({ status: 400, body: { errors: [{ field: 'id' }] } });

    const token = await inviteToken(email);
    // Someone else signed in cannot use it.
    expect(await api(ownerB, 'POST', '/accounting-firm/accept-invite/', { token })).toMatchObject({ status: 403, body: { errors: [{ field: 'token' }] } });
    expect(await api(ownerB, 'POST', '/accounting-firm/accept-invite/', {})).toMatchObject({ status: 400, body: { errors: [{ field: 'token' }] } });
    accountant = await person('Accountant Own Co', email);
    const accepted = await api(accountant, 'POST', '/accounting-firm/accept-invite/', { token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({
      message: 'You have joined the firm',
      firm: { name: 'Ledger and Co' },
      member: { id: accountant.userId, role: 'accountant', organizationCount: 1 },
    });
    expect(await api(accountant, 'POST', '/accounting-firm/accept-invite/', { token })).toMatchObject({
      status: 400,
      body: { message: 'This invite link is invalid or has expired' },
    });
    expect(await api(ownerA, 'GET', `/accounting-firm/invite/${inviteId}`)).toMatchObject({
      status: 200,
      body: { status: 'verified', statusLabel: 'Active', vendorUserId: accountant.userId },
    });
  });

  it("lists and reads members; an accountant reads but does not manage; another firm's member is a 404", async () => {
    const members = await api(ownerA, 'GET', '/accounting-firm/members');
    expect(members.status).toBe(200);
    expect(members.body.members.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [ownerA.userId, 'owner'],
      [accountant.userId, 'accountant'],
    ]);
    expect(members.body.invites.map((i: { id: string }) => i.id)).toContain(inviteId);
    expect((await api(accountant, 'GET', '/accounting-firm/members')).body.invites).toEqual([]);
    expect(await api(ownerA, 'GET', `/accounting-firm/member/${accountant.userId}`)).toMatchObject({
      status: 200,
      body: { email: accountant.email, organizations: [{ id: ownerA.organizationId }] },
    });
    expect(await api(ownerB, 'GET', `/accounting-firm/member/${accountant.userId}`)).toMatchObject({ status: 404, body: { errors: [{ field: 'id' }] } });
    expect((await api(ownerB, 'PATCH', `/accounting-firm/member/${accountant.userId}`, { role: 'admin' })).status).toBe(404);
    expect((await api(ownerB, 'DELETE', `/accounting-firm/member/${accountant.userId}`)).status).toBe(404);
    expect(await api(accountant, 'POST', '/accounting-firm/invite', { email: uniqueEmail('x'), role: 'accountant' })).toMatchObject({
      status: 403,
      body: { message: 'Only a firm owner or admin can manage the firm' },
    });
    expect((await api(accountant, 'PATCH', '/accounting-firm', { firmName: 'Mine now' })).status).toBe(403);
    expect(await api(ownerA, 'PATCH', `/accounting-firm/member/${accountant.userId}`, { role: 'Owner' })).toMatchObject({
      status: 400,
      body: { message: 'Role cannot be Owner', errors: [{ field: 'role' }] },
    });
    expect(await api(ownerA, 'PATCH', `/accounting-firm/member/${ownerA.userId}`, { role: 'admin' })).toMatchObject({
      status: 403,
      body: { message: 'The firm owner cannot be changed or removed' },
    });
    expect(await api(ownerA, 'PATCH', `/accounting-firm/member/${accountant.userId}`, { role: 'admin' })).toMatchObject({
      status: 200,
      body: { message: 'Member updated', member: { role: 'admin' } },
    });
    expect(await api(ownerA, 'PATCH', `/accounting-firm/member/${accountant.userId}`, { role: 'accountant' })).toMatchObject({
      status: 200,
      body: { member: { role: 'accountant' } },
    });
  });

  it("gives and removes an accountant's access; the stripped accountant's next request no longer reaches the organization", async () => {
    const change = (body: unknown, who: { token: string } = ownerA) => api(who, 'PATCH', `/accounting-firm/member-access/${accountant.userId}`, body);
    expect(await api(accountant, 'GET', '/accounting-firm/organizations')).toMatchObject({
      status: 200,
      body: { organizations: [{ id: ownerA.organizationId }] },
    });
    expect((await api(accountant, 'PATCH', `/accounting-firm/make-default-org/${ownerA.organizationId}`)).status).toBe(200);
    expect(await change({ type: 'remove-access', organizationIds: [] })).toMatchObject({
      status: 400,
      body: { message: 'At least one organization is required', errors: [{ field: 'organizationIds' }] },
    });
    expect(await change({ type: 'take-it', organizationIds: [ownerA.organizationId] })).toMatchObject({ status: 400, body: { errors: [{ field: 'type' }] } });
    expect(await change({ type: 'remove-access', organizationIds: [ownerB.organizationId] })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'organizationIds' }] },
    });
    expect((await change({ type: 'remove-access', organizationIds: [ownerA.organizationId] }, ownerB)).status).toBe(404);
    expect((await change({ type: 'remove-access', organizationIds: [ownerA.organizationId] }, accountant)).status).toBe(403);

    const removed = await change({ type: 'remove-access', organizationIds: [ownerA.organizationId] });
    expect(removed).toMatchObject({
      status: 200,
      body: { message: 'Access updated', member: { organizationCount: 0, organizations: [], defaultOrganizationId: '' } },
    });
    expect(await api(accountant, 'GET', '/accounting-firm/organizations')).toMatchObject({ status: 200, body: { organizations: [] } });
    expect(await api(accountant, 'PATCH', `/accounting-firm/make-default-org/${ownerA.organizationId}`)).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'id' }] },
    });

    expect(await change({ type: 'give-access', organizationIds: [ownerA.organizationId] })).toMatchObject({
      status: 200,
      body: { member: { organizationCount: 1 } },
    });
    expect((await api(accountant, 'GET', '/accounting-firm/organizations')).body.organizations).toHaveLength(1);
  });

  it('refuses a revoked or expired invite', async () => {
    const revokedEmail = uniqueEmail('revoked');
    const sent = await api(ownerA, 'POST', '/accounting-firm/invite', { email: revokedEmail, role: 'admin' });
    expect(sent.status).toBe(201);
    const token = await inviteToken(revokedEmail);
    expect(await api(ownerA, 'DELETE', `/accounting-firm/invite/${sent.body.invite.id}`)).toMatchObject({
      status: 200,
      body: { message: 'Invite revoked', invite: { status: 'revoked', statusLabel: 'Inactive' } },
    });
    expect(await api(ownerA, 'DELETE', `/accounting-firm/invite/${sent.body.invite.id}`)).toMatchObject({
      status: 409,
      body: { message: 'This invite is no longer pending' },
    });
    const revokedUser = await person('Revoked Co', revokedEmail);
    expect(await api(revokedUser, 'POST', '/accounting-firm/accept-invite/', { token })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'token', message: 'This invite link is invalid or has expired' }] },
    });

    const lateEmail = uniqueEmail('late');
    const late = await api(ownerA, 'POST', '/accounting-firm/invite', { email: lateEmail, role: 'accountant' });
    expect(late.status).toBe(201);
    const lateToken = await inviteToken(lateEmail);
    const lateUser = await person('Late Co', lateEmail);
    // Its seven days have passed (identity's sessions would expire with a moved clock, so the row is aged instead).
    await system.databases
      .firm!.adminDb('firm_invites')
      .where({ id: late.body.invite.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    expect(await api(lateUser, 'POST', '/accounting-firm/accept-invite/', { token: lateToken })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'token', message: 'This invite link is invalid or has expired' }] },
    });
    expect(await api(ownerA, 'GET', `/accounting-firm/invite/${late.body.invite.id}`)).toMatchObject({
      status: 200,
      body: { status: 'pending', isExpired: true },
    });
    expect((await api(lateUser, 'GET', '/accounting-firm/me')).status).toBe(404);
  });

  it("removes a member: their very next request is refused; removes an organization with everyone's access to it", async () => {
    expect(await api(ownerA, 'DELETE', `/accounting-firm/member/${ownerA.userId}`)).toMatchObject({ status: 403 });
    expect(await api(ownerA, 'DELETE', `/accounting-firm/member/${accountant.userId}`)).toMatchObject({ status: 200, body: { message: 'Member removed' } });
    expect(await api(accountant, 'GET', '/accounting-firm/organizations')).toMatchObject({
      status: 404,
      body: { message: 'You do not belong to an accounting firm' },
    });
    expect((await api(accountant, 'GET', '/accounting-firm/me')).status).toBe(404);
    expect((await api(ownerA, 'GET', `/accounting-firm/member/${accountant.userId}`)).status).toBe(404);

    expect(await api(ownerA, 'DELETE', `/accounting-firm/organization/${ownerA.organizationId}`)).toMatchObject({
      status: 200,
      body: { message: 'Organization removed' },
    });
    expect((await api(ownerA, 'GET', '/accounting-firm/organizations')).body.organizations.map((o: { id: string }) => o.id)).toEqual([newClient]);
    expect((await api(ownerB, 'GET', '/accounting-firm/organizations')).body.organizations).toHaveLength(1);
  });
});
