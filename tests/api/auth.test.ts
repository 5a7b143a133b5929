// Every identity endpoint through the REST gateway, as the web app calls it: real identity, PostgreSQL,
// NATS and mail over SMTP. Messages are spelled out here on purpose: they are the spec's (§5), verbatim.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_CLIENT_ID, onboardBody, PASSWORD, signedUpUser, signUpBody, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;

beforeAll(async () => {
  // Generous limits: this file signs up and in many times from one address; limits are tested on their own.
  system = await startSystem({ gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000' } });
});
afterAll(async () => system?.stop());

/** The error shape of ARCHITECTURE §4, with the field errors as { field: message }. */
function fieldErrors(body: { errors?: Array<{ field: string; message: string }> }): Record<string, string> {
  return Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));
}

function expectErrorShape(body: unknown, status: number): void {
  expect(body).toMatchObject({ message: expect.any(String), appErrorCode: expect.any(String), statusCode: status });
}

describe('POST /signup', () => {
  it('creates an unverified Owner with a workspace and mails a 6-digit code', async () => {
    const email = uniqueEmail('signup');
    const res = await system.api('POST', '/signup', { body: signUpBody(email) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      sessionToken: expect.any(String),
      methodId: expect.any(String),
      message: 'Account created. We sent a 6-digit code to your email.',
    });
    expect(await system.codeFor(email)).toMatch(/^\d{6}$/);
  });

  it('names every missing field with the spec message, and creates nothing', async () => {
    const res = await system.api('POST', '/signup', { body: {} });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 400);
    expect(fieldErrors(res.body)).toMatchObject({
      firstName: 'First Name is required',
      middleName: 'Middle Name is required',
      lastName: 'Last Name is required',
      companyName: 'Company name is required',
      maxTeamSize: 'Team size field is required',
      email: 'Email cannot be empty',
      password: 'Password is required',
    });
    const users = await system.db.adminDb('users').count<{ count: number }[]>('* as count');
    const before = Number(users[0]?.count);
    await system.api('POST', '/signup', { body: { ...signUpBody('x@example.com'), password: 'short' } });
    const after = await system.db.adminDb('users').count<{ count: number }[]>('* as count');
    expect(Number(after[0]?.count)).toBe(before);
  });

  it('checks the email and password rules', async () => {
    const bad = await system.api('POST', '/signup', { body: { ...signUpBody('not-an-email'), password: 'alllowercase1' } });
    expect(fieldErrors(bad.body)).toEqual({
      email: 'Please enter a valid email',
      password: 'Must contain at least one uppercase letter, one lowercase letter, and one number',
    });
    const short = await system.api('POST', '/signup', { body: { ...signUpBody(uniqueEmail()), password: 'Ab1' } });
    expect(fieldErrors(short.body)).toEqual({ password: 'Must be 8 or more characters' });
  });

  it('lowercases the email; a second sign-up for it answers as a new one, creates nothing and mails the owner instead', async () => {
    const email = uniqueEmail('Case');
    const first = await system.api('POST', '/signup', { body: signUpBody(email) });
    expect(first.status).toBe(201);
    const again = await system.api('POST', '/signup', { body: signUpBody(email.toUpperCase()) });
    expect(again.status).toBe(201);
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(first.body).sort());
    expect(again.body.message).toBe(first.body.message);
    const stored = await system.db.adminDb('users').where({ email: email.toLowerCase() });
    expect(stored).toHaveLength(1);
    const notice = await system.mailTo(email.toLowerCase(), /already have a Ledgerline account/);
    expect(notice.text).toContain('/forgot-password');
  });

  it('refuses a body of the wrong types with a 400 naming the field', async () => {
    const res = await system.api('POST', '/signup', { body: { ...signUpBody(uniqueEmail()), maxTeamSize: 'lots' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('maxTeamSize');
    const notJson = await system.api('POST', '/signup', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expectErrorShape(notJson.body, 400);
  });
});

describe('POST /authenticate-otp and /resend-otp', () => {
  it('verifies the mailed code once and answers the user with a session', async () => {
    const email = uniqueEmail('otp');
    const signup = await system.api('POST', '/signup', { body: signUpBody(email) });
    const code = await system.codeFor(email);
    const wrong = await system.api('POST', '/authenticate-otp', {
      body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Invalid code');
    const ok = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code } });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ email, isVerified: true, isOnboarded: false, role: 'Owner' });
    expect(ok.body.user.workspace).toMatchObject({ role: 'Owner', isDefault: true, organizationName: 'Analytical Co' });
    const again = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code } });
    expect(again.status).toBe(401);
  });

  it('validates the code fields', async () => {
    const res = await system.api('POST', '/authenticate-otp', { body: { methodId: 'nope', code: '12', sessionToken: '' } });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ methodId: 'methodId must be a UUID', code: 'Code must be 6 digits', sessionToken: 'sessionToken is required' });
  });

  it('locks a code after 5 wrong tries, even for the right code', async () => {
    const email = uniqueEmail('tries');
    const signup = await system.api('POST', '/signup', { body: signUpBody(email) });
    const code = await system.codeFor(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code: wrongCode } });
    const right = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code } });
    expect(right.status).toBe(400);
    expect(right.body.message).toBe('Too many wrong codes. Request a new one.');
  });

  it('mails a new code that replaces the old one; a code expires after 10 minutes', async () => {
    const email = uniqueEmail('resend');
    const signup = await system.api('POST', '/signup', { body: signUpBody(email) });
    const first = await system.codeFor(email);
    const resend = await system.api('POST', '/resend-otp', { body: { email, sessionToken: signup.body.sessionToken } });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ methodId: expect.any(String), message: 'We sent a 6-digit code to your email.' });
    expect(resend.body.methodId).not.toBe(signup.body.methodId);
    // The new code leaves through identity's mail outbox after the answer.
    await expectEventually(async () =>
      expect(await (await fetch(`${system.mailbox.url}/api/messages?to=${encodeURIComponent(email)}`)).json()).toHaveLength(2),
    );
    const second = await system.codeFor(email);
    const old = await system.api('POST', '/authenticate-otp', {
      body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code: first },
    });
    expect(old.status).toBe(400);

    system.clock.offsetMs = 11 * 60_000;
    try {
      const late = await system.api('POST', '/authenticate-otp', {
        body: { methodId: resend.body.methodId, sessionToken: signup.body.sessionToken, code: second },
      });
      expect(late.status).toBe(400);
      expect(late.body.message).toBe('The code has expired. Request a new one.');
    } finally {
      system.clock.offsetMs = 0;
    }
  });

  it('refuses a resend with a bad email', async () => {
    const res = await system.api('POST', '/resend-otp', { body: { email: 'bad', sessionToken: 'x' } });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ email: 'Please enter a valid email' });
  });
});

describe('POST /login', () => {
  it('signs a verified user in on a device that passed a code check, and answers wrong passwords and unknown emails alike', async () => {
    const { email, deviceToken } = await signedUpUser(system);
    const ok = await system.api('POST', '/login', { body: { email: email.toUpperCase(), password: PASSWORD, deviceToken } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ user: expect.objectContaining({ email }), sessionToken: expect.any(String) });
    // Another browser (no device token) gets the code step; its code check trusts that browser too.
    const elsewhere = await system.api('POST', '/login', { body: { email, password: PASSWORD } });
    expect(elsewhere.body).toEqual({ sessionToken: expect.any(String), methodId: expect.any(String), message: 'We sent a 6-digit code to your email.' });
    const code = await system.codeFor(email);
    const checked = await system.api('POST', '/authenticate-otp', {
      body: { methodId: elsewhere.body.methodId, sessionToken: elsewhere.body.sessionToken, code },
    });
    expect(checked.body.deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(checked.body.deviceToken).not.toBe(deviceToken);
    expect((await system.api('POST', '/login', { body: { email, password: PASSWORD, deviceToken: checked.body.deviceToken } })).body.user).toMatchObject({
      email,
    });
    const wrong = await system.api('POST', '/login', { body: { email, password: 'Wr0ngPassword' } });
    const unknown = await system.api('POST', '/login', { body: { email: uniqueEmail('nobody'), password: 'Wr0ngPassword' } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.message).toBe('Invalid email or password');
    expect(unknown.body.message).toBe(wrong.body.message);
  });

  it('asks a user who never verified for a code, and signs them in with it', async () => {
    const email = uniqueEmail('unverified');
    await system.api('POST', '/signup', { body: signUpBody(email) });
    await system.codeFor(email);
    const res = await system.api('POST', '/login', { body: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sessionToken: expect.any(String), methodId: expect.any(String), message: 'We sent a 6-digit code to your email.' });
    const code = await system.codeFor(email);
    const ok = await system.api('POST', '/authenticate-otp', { body: { methodId: res.body.methodId, sessionToken: res.body.sessionToken, code } });
    expect(ok.status).toBe(200);
  });

  it('names the empty fields', async () => {
    const res = await system.api('POST', '/login', { body: { email: '', password: '' } });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ email: 'Email cannot be empty', password: 'Password is required' });
  });

  it('locks the account after 10 failed logins in a row, even for the right password', async () => {
    const { email } = await signedUpUser(system);
    for (let i = 0; i < 10; i++) expect((await system.api('POST', '/login', { body: { email, password: 'Wr0ngPassword' } })).status).toBe(401);
    const locked = await system.api('POST', '/login', { body: { email, password: PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      message: 'Too many failed sign-in attempts. Try again in 15 minutes or reset your password.',
      appErrorCode: 'ACCOUNT_LOCKED',
      statusCode: 429,
    });
    system.clock.offsetMs = 16 * 60_000;
    try {
      expect((await system.api('POST', '/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    } finally {
      system.clock.offsetMs = 0;
    }
  });
});

describe('Settings → Security', () => {
  it('asks for the code at every sign-in once the user requires it, even on a trusted device', async () => {
    const { email, token, deviceToken } = await signedUpUser(system);
    expect((await system.api('GET', '/users/me/security', { token })).body).toEqual({ requireCodeAlways: false, trustedDevices: 1 });
    const on = await system.api('PATCH', '/users/me/security', { token, body: { requireCodeAlways: true } });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ requireCodeAlways: true, trustedDevices: 1 });
    const asked = await system.api('POST', '/login', { body: { email, password: PASSWORD, deviceToken } });
    expect(asked.body.user).toBeUndefined();
    expect(asked.body.methodId).toEqual(expect.any(String));
    await system.api('PATCH', '/users/me/security', { token, body: { requireCodeAlways: false } });
    expect((await system.api('POST', '/login', { body: { email, password: PASSWORD, deviceToken } })).body.user).toMatchObject({ email });
    expect((await system.api('PATCH', '/users/me/security', { body: { requireCodeAlways: true } })).status).toBe(401);
    expect((await system.api('PATCH', '/users/me/security', { token, body: { requireCodeAlways: 'yes' } })).status).toBe(400);
  });
});

describe('sessions', () => {
  it('answers 401 to no token, a made-up token, a logged-out session and an idle-expired one', async () => {
    expect((await system.api('GET', '/users/me')).status).toBe(401);
    const madeUp = await system.api('GET', '/users/me', { token: 'a'.repeat(43) });
    expect(madeUp.status).toBe(401);
    expectErrorShape(madeUp.body, 401);

    const { token } = await signedUpUser(system);
    expect((await system.api('GET', '/users/me', { token })).status).toBe(200);
    const logout = await system.api('POST', '/logout', { token });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ message: 'You have been logged out.' });
    expect((await system.api('GET', '/users/me', { token })).status).toBe(401);

    const other = await signedUpUser(system);
    system.clock.offsetMs = 13 * 60 * 60_000; // idle timeout is 12 hours
    try {
      const expired = await system.api('GET', '/users/me', { token: other.token });
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ message: 'Session expired', statusCode: 401 });
    } finally {
      system.clock.offsetMs = 0;
    }
  });

  it('stores no password, code or session token in plain text', async () => {
    const email = uniqueEmail('secret');
    const signup = await system.api('POST', '/signup', { body: signUpBody(email) });
    const code = await system.codeFor(email);
    const verified = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, sessionToken: signup.body.sessionToken, code } });
    const needles = [PASSWORD, code, signup.body.sessionToken, verified.body.sessionToken];
    const tables = ['users', 'sessions', 'one_time_codes', 'password_resets', 'oauth_identities'];
    for (const table of tables) {
      const rows = await system.db.adminDb(table).select('*');
      const dump = JSON.stringify(rows);
      for (const needle of needles) expect(dump.includes(needle), `${table} holds a secret in plain text`).toBe(false);
    }
    const user = await system.db.adminDb('users').where({ email }).first();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('passwords', () => {
  it('resets by the mailed link: one use, ends every session, new session returned', async () => {
    const { email, token } = await signedUpUser(system);
    const unknown = await system.api('POST', '/forgot-password', { body: { email: uniqueEmail('nobody') } });
    const known = await system.api('POST', '/forgot-password', { body: { email } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ message: 'If an account exists for that email, we sent a link to reset the password.' });
    expect(unknown.body).toEqual(known.body);
    const mail = await system.mailTo(email, /Reset your/);
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(resetToken).toBeTruthy();

    const mismatch = await system.api('POST', '/reset-password', { body: { token: resetToken, password: 'N3wPassword', confirmPassword: 'Other1234' } });
    expect(mismatch.status).toBe(400);
    expect(fieldErrors(mismatch.body)).toEqual({ confirmPassword: 'Password must match' });

    const reset = await system.api('POST', '/reset-password', { body: { token: resetToken, password: 'N3wPassword', confirmPassword: 'N3wPassword' } });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ user: expect.objectContaining({ email }), sessionToken: expect.any(String), message: 'Your password has been set.' });
    expect((await system.api('GET', '/users/me', { token })).status).toBe(401);
    const reuse = await system.api('POST', '/reset-password', { body: { token: resetToken, password: 'An0therPass', confirmPassword: 'An0therPass' } });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe('This reset link is invalid or has expired');
    expect((await system.api('POST', '/login', { body: { email, password: 'N3wPassword' } })).status).toBe(200);
  });

  it('changes the password with the existing one', async () => {
    const { email, token } = await signedUpUser(system);
    const short = await system.api('POST', '/update-password-by-existing-password', { token, body: { existingPassword: PASSWORD, newPassword: 'short' } });
    expect(fieldErrors(short.body)).toEqual({ newPassword: 'Password must have atleast 8 characters' });
    const wrong = await system.api('POST', '/update-password-by-existing-password', {
      token,
      body: { existingPassword: 'Wr0ngPassword', newPassword: 'N3wPassword' },
    });
    expect(wrong.status).toBe(400);
    expect(fieldErrors(wrong.body)).toEqual({ existingPassword: 'Existing password is incorrect' });
    const ok = await system.api('POST', '/update-password-by-existing-password', { token, body: { existingPassword: PASSWORD, newPassword: 'N3wPassword' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ message: 'Your password has been updated.' });
    expect((await system.api('POST', '/login', { body: { email, password: PASSWORD } })).status).toBe(401);
    expect((await system.api('POST', '/login', { body: { email, password: 'N3wPassword' } })).status).toBe(200);
  });
});

describe('Google sign-in and setting a first password', () => {
  it('signs up with a Google ID token, signs in again as the same user, then sets a password', async () => {
    const email = uniqueEmail('google');
    const idToken = await system.google.idToken({ email, givenName: 'Grace', familyName: 'Hopper' }, { audience: GOOGLE_CLIENT_ID });
    const first = await system.api('POST', '/signup-oauth', { body: { token: idToken } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      userCreated: true,
      sessionToken: expect.any(String),
      user: { email, firstName: 'Grace', isVerified: true, hasPassword: false },
    });
    const again = await system.api('POST', '/login-oauth', { body: { token: idToken } });
    expect(again.body).toMatchObject({ userCreated: false, user: { id: first.body.user.id } });

    const token = again.body.sessionToken as string;
    const short = await system.api('POST', '/update-credentials', { token, body: { password: 'short' } });
    expect(fieldErrors(short.body)).toEqual({ password: 'Password must have atleast 8 characters' });
    const set = await system.api('POST', '/update-credentials', { token, body: { password: 'Fr0mGoogle' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ message: 'Your password has been set.', user: { hasPassword: true } });
    const twice = await system.api('POST', '/update-credentials', { token, body: { password: 'Fr0mGoogle2' } });
    expect(twice.status).toBe(409);
  });

  it('refuses a token signed by someone else, or for another app', async () => {
    const forged = await system.api('POST', '/login-oauth', { body: { token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln' } });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe('Google sign-in could not be verified');
    const otherApp = await system.google.idToken({ email: uniqueEmail('other') }, { audience: 'someone-else' });
    expect((await system.api('POST', '/login-oauth', { body: { token: otherApp } })).status).toBe(401);
    const empty = await system.api('POST', '/signup-oauth', { body: {} });
    expect(fieldErrors(empty.body)).toEqual({ token: 'token is required' });
  });
});

describe('onboarding and the profile', () => {
  it('checks the onboarding profile with the spec messages, then onboards', async () => {
    const { token } = await signedUpUser(system);
    const letters = await system.api('POST', '/onboard-user', { token, body: { ...onboardBody, phoneNumber: '555-123-45', heardAboutUs: '' } });
    expect(letters.status).toBe(400);
    expect(fieldErrors(letters.body)).toEqual({ phoneNumber: 'Phone number must contain only digits', heardAboutUs: 'Please tell us how you heard about us' });
    const length = await system.api('POST', '/onboard-user', {
      token,
      body: { ...onboardBody, phoneNumber: '12345', companyName: ' ', maxTeamSize: undefined },
    });
    expect(fieldErrors(length.body)).toMatchObject({
      phoneNumber: 'Phone number must be 10 digits',
      companyName: 'Company name is required',
      maxTeamSize: 'Team size field is required',
    });
    expect((await system.api('GET', '/users/me', { token })).body.isOnboarded).toBe(false);

    const ok = await system.api('POST', '/onboard-user', { token, body: onboardBody });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ isOnboarded: true, profile: onboardBody });
  });

  it('reads and edits the names of the signed-in user', async () => {
    const { token, email } = await signedUpUser(system);
    const me = await system.api('GET', '/users/me', { token });
    expect(me.body).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', role: 'Owner' });
    const blank = await system.api('PATCH', '/users/me', { token, body: { firstName: '' } });
    expect(blank.status).toBe(400);
    expect(fieldErrors(blank.body)).toEqual({ firstName: 'First Name is required' });
    const changed = await system.api('PATCH', '/users/me', { token, body: { firstName: 'Augusta', lastName: 'King' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ firstName: 'Augusta', lastName: 'King', email });
    expect((await system.api('GET', '/users/me', { token })).body.firstName).toBe('Augusta');
  });
});
