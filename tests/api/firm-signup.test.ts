// Issue #16 items 3–4 through the gateway with the real identity and firm services: signing up as a firm
// (validation naming the field, no business workspace, the firm there from the first sign-in, never twice,
// nothing lost when the firm service is down at that moment), onboarding naming the firm, and a new user
// accepting a firm invite by setting a password (password-required, signed in, once; expired, revoked and
// concurrent accepts), an existing user accepting signed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;

const firmSignUp = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  middleName: 'B',
  lastName: 'Hopper',
  email,
  password: PASSWORD,
  userType: 'firm',
  firmName: 'Hopper & Partners',
  country: 'US',
  ...extra,
});

interface Owner {
  email: string;
  token: string;
  deviceToken: string;
  userId: string;
}

/** Signs up as a firm and enters the mailed code. */
async function firmOwner(firmName = 'Hopper & Partners', email = uniqueEmail('partner')): Promise<Owner> {
  const signup = await system.api('POST', '/signup', { body: firmSignUp(email, { firmName }) });
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  const code = await system.codeFor(email);
  const verified = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, code, sessionToken: signup.body.sessionToken } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { email, token: verified.body.sessionToken, deviceToken: verified.body.deviceToken, userId: verified.body.user.id };
}

const firmDb = () => system.databases.firm!.adminDb;
const firmsOwnedBy = async (userId: string) =>
  (await firmDb()('firms').where({ owner_user_id: userId }).select('id', 'name', 'country')) as { id: string; name: string; country: string }[];
const usersWithEmail = async (email: string) =>
  (await system.db.adminDb('users').where({ email }).select('id', 'user_type', 'is_verified')) as { id: string; user_type: string; is_verified: boolean }[];

/** The token of the newest firm invite mail to `email`. */
async function inviteToken(email: string): Promise<string> {
  const mail = await system.mailTo(email, /^Join .* on Ledgerline$/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
  return new URL(link).searchParams.get('token') ?? '';
}

async function invite(owner: Owner, email: string, role = 'accountant'): Promise<{ id: string; token: string }> {
  const sent = await system.api('POST', '/accounting-firm/invite', {
    token: owner.token,
    body: { email, role, firstName: 'Alan', middleName: 'M', lastName: 'Turing' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return { id: sent.body.invite.id, token: await inviteToken(email) };
}

const verify = (body: Record<string, unknown>, token?: string) => system.api('POST', '/verify-invite', { body: { kind: 'firm', ...body }, token });

beforeAll(async () => {
  system = await startSystem({ firm: true, gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000', RATE_LIMIT_CODE_MAX: '100000' } });
}, 180_000);
afterAll(async () => system?.stop());

describe('signing up as a firm', () => {
  it('needs firmName and country (a 400 naming each field, nothing created); a bad userType is refused', async () => {
    const email = uniqueEmail('partner');
    const noName = await system.api('POST', '/signup', { body: firmSignUp(email, { firmName: '  ' }) });
    expect(noName).toMatchObject({
      status: 400,
      body: { message: 'Firm name is required', errors: [{ field: 'firmName', message: 'Firm name is required' }] },
    });
    const noCountry = await system.api('POST', '/signup', { body: firmSignUp(email, { country: undefined }) });
    expect(noCountry).toMatchObject({ status: 400, body: { errors: [{ field: 'country', message: 'Country is required' }] } });
    const neither = await system.api('POST', '/signup', { body: firmSignUp(email, { firmName: undefined, country: '' }) });
    expect(neither.body.errors.map((e: { field: string }) => e.field)).toEqual(['firmName', 'country']);
    expect(await system.api('POST', '/signup', { body: firmSignUp(email, { userType: 'partner' }) })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'userType' }] },
    });
    // The spec's sign-up rules still hold for a firm: names, email, password.
    expect(await system.api('POST', '/signup', { body: firmSignUp(email, { middleName: '' }) })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'middleName', message: 'Middle Name is required' }] },
    });
    expect(await system.api('POST', '/signup', { body: firmSignUp(email, { password: 'short' }) })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'password', message: 'Must be 8 or more characters' }] },
    });
    // A business sign-up (the default) still needs its company name and team size.
    expect(await system.api('POST', '/signup', { body: firmSignUp(email, { userType: undefined }) })).toMatchObject({
      status: 400,
      body: {
        errors: [
          { field: 'companyName', message: 'Company name is required' },
          { field: 'maxTeamSize', message: 'Team size field is required' },
        ],
      },
    });
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('makes a firm user without a workspace whose firm exists, with them as owner, once they are signed in', async () => {
    const owner = await firmOwner('Hopper & Partners');
    const me = await system.api('GET', '/users/me', { token: owner.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: owner.userId,
      userType: 'firm',
      isVerified: true,
      isOnboarded: false,
      workspace: null,
      workspaces: [],
      profile: { companyName: 'Hopper & Partners', firmName: 'Hopper & Partners', country: 'US' },
    });
    const firm = await system.api('GET', '/accounting-firm/me', { token: owner.token });
    expect(firm.status, JSON.stringify(firm.body)).toBe(200);
    expect(firm.body).toMatchObject({
      firm: { name: 'Hopper & Partners', country: 'US', ownerUserId: owner.userId },
      owner: { id: owner.userId, role: 'owner', email: owner.email },
      member: { role: 'owner' },
      user: { userType: 'firm' },
    });
    // No business organization of their own: nothing to show until they keep a client's.
    expect((await system.api('GET', '/accounting-firm/organizations', { token: owner.token })).body.organizations).toEqual([]);

    // Signing in again, twice at once, ensures the same firm: never a second one.
    const logins = await Promise.all(
      [0, 1].map(() => system.api('POST', '/login', { body: { email: owner.email, password: PASSWORD, deviceToken: owner.deviceToken } })),
    );
    for (const l of logins) expect(l.status, JSON.stringify(l.body)).toBe(200);
    expect(logins.map((l) => l.body.user?.userType)).toEqual(['firm', 'firm']);
    expect(await firmsOwnedBy(owner.userId)).toHaveLength(1);
  });

  it("onboards a firm owner with the firm as the company: the confirmed name and country are the firm's, and a later sign-in keeps them", async () => {
    const owner = await firmOwner('Babbage Accounting');
    const onboarded = await system.api('POST', '/onboard-user', {
      token: owner.token,
      body: { ...onboardBody, companyName: 'Babbage & Lovelace CPAs', country: 'GB' },
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
    expect(onboarded.body.user).toMatchObject({
      userType: 'firm',
      isOnboarded: true,
      workspaces: [],
      profile: { companyName: 'Babbage & Lovelace CPAs', firmName: 'Babbage & Lovelace CPAs', country: 'GB' },
    });
    expect((await system.api('GET', '/accounting-firm/me', { token: owner.token })).body.firm).toMatchObject({
      name: 'Babbage & Lovelace CPAs',
      country: 'GB',
    });
    // A rename through the firm's own settings stays: the sign-in's ensure changes nothing of an existing firm.
    expect((await system.api('PATCH', '/accounting-firm', { token: owner.token, body: { firmName: 'B&L CPAs' } })).status).toBe(200);
    expect((await system.api('POST', '/login', { body: { email: owner.email, password: PASSWORD, deviceToken: owner.deviceToken } })).status).toBe(200);
    expect(await firmsOwnedBy(owner.userId)).toEqual([expect.objectContaining({ name: 'B&L CPAs', country: 'GB' })]);
  });

  it('loses nothing when the firm service is down at the verification: that sign-in is refused, the next one makes the firm', async () => {
    const email = uniqueEmail('partner');
    const signup = await system.api('POST', '/signup', { body: firmSignUp(email, { firmName: 'Downtime LLP' }) });
    expect(signup.status).toBe(201);
    const code = await system.codeFor(email);
    await system.stopService('firm');
    try {
      const refused = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, code, sessionToken: signup.body.sessionToken } });
      expect(refused.status).toBe(503);
    } finally {
      await system.startService('firm');
    }
    const [user] = await usersWithEmail(email);
    expect(user).toMatchObject({ user_type: 'firm', is_verified: true });
    expect(await firmsOwnedBy(user!.id)).toEqual([]);
    // The next sign-in (a new code: this browser never got its device token) ensures the firm.
    const login = await system.api('POST', '/login', { body: { email, password: PASSWORD } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const next = await system.api('POST', '/authenticate-otp', {
      body: { methodId: login.body.methodId, code: await system.codeFor(email), sessionToken: login.body.sessionToken },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(await firmsOwnedBy(user!.id)).toEqual([expect.objectContaining({ name: 'Downtime LLP', country: 'US' })]);
    expect((await system.api('GET', '/accounting-firm/me', { token: next.body.sessionToken })).body.owner).toMatchObject({ id: user!.id, role: 'owner' });
  });
});

describe('a new user accepting a firm invite', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await firmOwner('Turing Associates');
  });

  it("answers password-required with the invite's email and names; then sets the password, is signed in and is a member; the link works once", async () => {
    const email = uniqueEmail('accountant');
    const { id, token } = await invite(owner, email);
    const asked = await verify({ token });
    expect(asked).toMatchObject({ status: 200, body: { status: 'password-required', email, firstName: 'Alan', middleName: 'M', lastName: 'Turing' } });
    expect(asked.body.sessionToken).toBeUndefined();

    // The spec's password rules and messages; nothing changes on a refusal.
    expect(await verify({ token, password: 'short', confirmPassword: 'short' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'password', message: 'Must be 8 or more characters' }] },
    });
    expect(await verify({ token, password: 'alllowercase1', confirmPassword: 'alllowercase1' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'password', message: 'Must contain at least one uppercase letter, one lowercase letter, and one number' }] },
    });
    expect(await verify({ token, password: PASSWORD, confirmPassword: 'Different1' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'confirmPassword', message: 'Password must match' }] },
    });
    expect(await usersWithEmail(email)).toEqual([]);

    const accepted = await verify({ token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({
      status: 'accepted',
      message: 'Your password has been set.',
      email,
      user: { email, userType: 'firm', isVerified: true, isOnboarded: true, firstName: 'Alan', lastName: 'Turing', workspaces: [] },
    });
    const session = accepted.body.sessionToken as string;
    const firmMe = await system.api('GET', '/accounting-firm/me', { token: session });
    expect(firmMe).toMatchObject({
      status: 200,
      body: { firm: { name: 'Turing Associates' }, member: { role: 'accountant', email }, owner: { id: owner.userId } },
    });
    expect((await system.api('GET', '/users/me', { token: session })).body).toMatchObject({ email, userType: 'firm' });
    expect(await system.api('GET', `/accounting-firm/invite/${id}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { status: 'verified', statusLabel: 'Active', vendorUserId: accepted.body.user.id },
    });

    // Single use: with or without a password, signed in or not.
    for (const again of [await verify({ token }), await verify({ token, password: PASSWORD, confirmPassword: PASSWORD }), await verify({ token }, session)]) {
      expect(again).toMatchObject({ status: 400, body: { message: 'This invite link is invalid or has expired', errors: [{ field: 'token' }] } });
    }
    // The password they set signs them in; an invited member never gets a firm of their own.
    const login = await system.api('POST', '/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(await firmsOwnedBy(accepted.body.user.id)).toEqual([]);
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  it('refuses an expired or revoked invite, or an unknown token, with nothing changed', async () => {
    const late = uniqueEmail('late');
    const expired = await invite(owner, late);
    await firmDb()('firm_invites')
      .where({ id: expired.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    const gone = uniqueEmail('gone');
    const revoked = await invite(owner, gone);
    expect((await system.api('DELETE', `/accounting-firm/invite/${revoked.id}`, { token: owner.token })).status).toBe(200);
    for (const [token, email] of [
      [expired.token, late],
      [revoked.token, gone],
      ['not-a-token', late],
    ] as const) {
      for (const body of [{ token }, { token, password: PASSWORD, confirmPassword: PASSWORD }]) {
        expect(await verify(body)).toMatchObject({
          status: 400,
          body: { message: 'This invite link is invalid or has expired', errors: [{ field: 'token', message: 'This invite link is invalid or has expired' }] },
        });
      }
      expect(await usersWithEmail(email)).toEqual([]);
    }
    expect(await verify({})).toMatchObject({ status: 400, body: { errors: [{ field: 'token' }] } });
    expect((await firmDb()('firm_invites').whereIn('id', [expired.id, revoked.id]).select('status')).map((r: { status: string }) => r.status).sort()).toEqual([
      'pending',
      'revoked',
    ]);
  });

  it('works for 7 days by the service clock, and not a minute more', async () => {
    const email = uniqueEmail('week');
    const { token } = await invite(owner, email);
    try {
      system.clock.offsetMs = 7 * 86_400_000 - 60_000;
      expect(await verify({ token })).toMatchObject({ status: 200, body: { status: 'password-required', email } });
      system.clock.offsetMs = 7 * 86_400_000 + 60_000;
      expect(await verify({ token, password: PASSWORD, confirmPassword: PASSWORD })).toMatchObject({
        status: 400,
        body: { message: 'This invite link is invalid or has expired' },
      });
    } finally {
      system.clock.offsetMs = 0;
    }
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('accepts once when two accepts race: one is signed in, the other refused; one user, one membership', async () => {
    const email = uniqueEmail('racer');
    const { id, token } = await invite(owner, email);
    const answers = await Promise.all([0, 1, 2].map(() => verify({ token, password: PASSWORD, confirmPassword: PASSWORD })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400, 400]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(winner.body).toMatchObject({ status: 'accepted', message: 'Your password has been set.' });
    for (const loser of answers.filter((a) => a.status === 400)) expect(loser.body.message).toBe('This invite link is invalid or has expired');
    const users = await usersWithEmail(email);
    expect(users).toHaveLength(1);
    expect(await firmDb()('firm_members').where({ email }).select('user_id')).toEqual([{ user_id: users[0]!.id }]);
    expect((await firmDb()('firm_invites').where({ id }).first('status')).status).toBe('verified');
    // Only the winner's session works: the ones made for refused accepts were ended.
    const active = (await system.db.adminDb('sessions').where({ user_id: users[0]!.id, kind: 'active' }).whereNull('revoked_at').count({ n: '*' }))[0] as {
      n: string | number;
    };
    expect(Number(active.n)).toBe(1);
    expect((await system.api('GET', '/accounting-firm/me', { token: winner.body.sessionToken })).status).toBe(200);
  });

  it('loses nothing when the firm fails after identity made the user: the session is ended, and a retry with the same password accepts', async () => {
    const email = uniqueEmail('retry');
    const { id, token } = await invite(owner, email);
    // The firm's accept fails after identity has made the user (a crash between the two services, as far as the user can tell).
    await firmDb().raw(`create or replace function fail_member() returns trigger language plpgsql as $$ begin raise exception 'firm store down'; end $$`);
    await firmDb().raw('create trigger fail_member before insert on firm_members for each row execute function fail_member()');
    try {
      expect((await verify({ token, password: PASSWORD, confirmPassword: PASSWORD })).status).toBe(500);
    } finally {
      await firmDb().raw('drop trigger fail_member on firm_members');
    }
    const [made] = await usersWithEmail(email);
    expect(made).toMatchObject({ user_type: 'firm', is_verified: true });
    const live = async () =>
      Number(
        (
          (await system.db.adminDb('sessions').where({ user_id: made!.id, kind: 'active' }).whereNull('revoked_at').count({ n: '*' }))[0] as {
            n: string | number;
          }
        ).n,
      );
    expect(await live()).toBe(0);
    expect((await firmDb()('firm_invites').where({ id }).first('status')).status).toBe('pending');
    // Another password cannot claim the user made for this invite; the same one signs in again and accepts.
    expect(await verify({ token, password: 'Other1password', confirmPassword: 'Other1password' })).toMatchObject({
      status: 200,
      body: { status: 'sign-in-required' },
    });
    const retried = await verify({ token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(retried).toMatchObject({ status: 200, body: { status: 'accepted', message: 'Your password has been set.', user: { id: made!.id } } });
    expect((await system.api('GET', '/accounting-firm/me', { token: retried.body.sessionToken })).body.member).toMatchObject({
      id: made!.id,
      role: 'accountant',
    });
    expect(await usersWithEmail(email)).toHaveLength(1);
    expect(await live()).toBe(1);
  });

  it('asks an address that has an account to sign in, and accepts for it signed in as the invited email', async () => {
    const existing = await signedUpUser(system, uniqueEmail('existing'));
    const { token } = await invite(owner, existing.email);
    const asked = await verify({ token });
    expect(asked).toMatchObject({ status: 200, body: { status: 'sign-in-required', email: existing.email } });
    // A password cannot take over an account that exists.
    expect(await verify({ token, password: 'Another1pass', confirmPassword: 'Another1pass' })).toMatchObject({
      status: 200,
      body: { status: 'sign-in-required' },
    });
    expect((await system.api('POST', '/login', { body: { email: existing.email, password: 'Another1pass' } })).status).toBe(401);
    // Someone else signed in is refused; the invited email signed in accepts.
    expect(await verify({ token }, owner.token)).toMatchObject({ status: 403, body: { errors: [{ field: 'token' }] } });
    const accepted = await verify({ token }, existing.token);
    expect(accepted).toMatchObject({ status: 200, body: { status: 'accepted', message: 'You have joined the firm', email: existing.email } });
    expect((await system.api('GET', '/accounting-firm/me', { token: existing.token })).body.member).toMatchObject({ id: existing.user.id, role: 'accountant' });
    // A stale bearer counts as none (never a 401 on this public route).
    expect(await verify({ token: 'x'.repeat(43) }, 'stale-token')).toMatchObject({ status: 400 });
  });
});
