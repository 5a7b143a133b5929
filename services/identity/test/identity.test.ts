import { fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { errorInfoOf, tablesMissingRls } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { UserSignedUpSchema } from '@ledgerline/proto/events/v1/identity_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, rows, signUpBody, startIdentity, uniqueEmail, type IdentityHarness } from './support.js';

let h: IdentityHarness;
let bus: Awaited<ReturnType<typeof createTestBus>>;

beforeAll(async () => {
  bus = await createTestBus('identity-test');
  h = await startIdentity(bus);
});
afterAll(async () => {
  await h?.close();
  await bus?.close();
});

async function rpcError(p: Promise<unknown>): Promise<{ code: Code; message: string; appErrorCode?: string; fields: { field: string; message: string }[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    const info = errorInfoOf(e);
    return { code: e.code, message: e.rawMessage, appErrorCode: info?.appErrorCode, fields: info?.fields ?? [] };
  }
  throw new Error('expected the call to fail');
}

/** Signs up and verifies the emailed code: an active session. */
async function signedUpUser(email = uniqueEmail()) {
  const s = await h.client.signUp(signUpBody(email));
  const r = await h.client.authenticateOtp({ methodId: s.methodId, code: await h.mailer.lastCodeFor(email), sessionToken: s.sessionToken });
  return { email, token: r.sessionToken, user: r.user!, deviceToken: r.deviceToken };
}

describe('sign-up', () => {
  it('creates an unverified user with an organization and an Owner workspace, and mails a code', async () => {
    const email = uniqueEmail('Mixed.Case').replace('mixed', 'MIXED');
    const s = await h.client.signUp({ ...signUpBody(email), email: `  ${email.toUpperCase()} ` });
    expect(s.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const lower = email.toLowerCase();
    const code = await h.mailer.lastCodeFor(lower);
    expect(code).toMatch(/^\d{6}$/);
    const r = await h.client.authenticateOtp({ methodId: s.methodId, code, sessionToken: s.sessionToken });
    expect(r.user).toMatchObject({
      email: lower,
      isVerified: true,
      isOnboarded: false,
      role: 'Owner',
      userType: 'business',
      firstName: 'Ada',
      middleName: 'K',
    });
    expect(r.user?.workspace?.name).toBe('Analytical Co');
    expect(r.sessionToken).not.toBe(s.sessionToken);
  });

  it('answers every missing field with the spec message and changes nothing', async () => {
    const before = await rows<{ n: number }>(h.db.adminDb, 'select count(*)::int as n from users');
    const e = await rpcError(h.client.signUp({}));
    expect(e.code).toBe(Code.InvalidArgument);
    expect(e.fields).toEqual([
      { field: 'firstName', message: 'First Name is required' },
      { field: 'middleName', message: 'Middle Name is required' },
      { field: 'lastName', message: 'Last Name is required' },
      { field: 'companyName', message: 'Company name is required' },
      { field: 'maxTeamSize', message: 'Team size field is required' },
      { field: 'email', message: 'Email cannot be empty' },
      { field: 'password', message: 'Password is required' },
    ]);
    expect(e.message).toBe('First Name is required');
    expect(await rows(h.db.adminDb, 'select count(*)::int as n from users')).toEqual(before);
  });

  it('checks email and password rules', async () => {
    const bad = await rpcError(h.client.signUp({ ...signUpBody('not-an-email'), password: 'short' }));
    expect(bad.fields).toEqual([
      { field: 'email', message: 'Please enter a valid email' },
      { field: 'password', message: 'Must be 8 or more characters' },
    ]);
    const weak = await rpcError(h.client.signUp({ ...signUpBody(uniqueEmail()), password: 'alllowercase1' }));
    expect(weak.fields).toEqual([{ field: 'password', message: 'Must contain at least one uppercase letter, one lowercase letter, and one number' }]);
  });

  it('answers a sign-up for a taken email like a new one, creates nothing, and tells the owner by mail', async () => {
    const { email } = await signedUpUser();
    const before = await rows<{ n: number }>(h.db.adminDb, 'select count(*)::int as n from users');
    const again = await h.client.signUp(signUpBody(email.toUpperCase()));
    expect(again).toMatchObject({
      message: 'Account created. We sent a 6-digit code to your email.',
      sessionToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(await rows(h.db.adminDb, 'select count(*)::int as n from users')).toEqual(before);
    await expectEventually(() => expect(h.mailer.sent.some((m) => m.to === email && m.subject === 'You already have a Ledgerline account')).toBe(true));
    // Its code step behaves as a real one would with a wrong code; a resend answers as usual.
    const e = await rpcError(h.client.authenticateOtp({ methodId: again.methodId, code: '123456', sessionToken: again.sessionToken }));
    expect(e).toMatchObject({ code: Code.InvalidArgument, message: 'Invalid code', appErrorCode: 'CODE_INVALID' });
    expect((await h.client.resendOtp({ email, sessionToken: again.sessionToken })).message).toBe('We sent a 6-digit code to your email.');
  });

  it('stores no password, code or token in plain text', async () => {
    const email = uniqueEmail();
    const s = await h.client.signUp(signUpBody(email));
    const code = await h.mailer.lastCodeFor(email);
    const dump = JSON.stringify(
      await rows(
        h.db.adminDb,
        'select u.*, s.token_hash::text as t, c.code_hash::text as c from users u join sessions s on s.user_id = u.id join one_time_codes c on c.user_id = u.id where u.email = ?',
        [email],
      ),
    );
    expect(dump).not.toContain(GOOD_PASSWORD);
    expect(dump).not.toContain(s.sessionToken);
    expect(dump).not.toContain(code);
    const [u] = await rows<{ password_hash: string }>(h.db.adminDb, 'select password_hash from users where email = ?', [email]);
    expect(u?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('publishes user.signed_up through the outbox', async () => {
    const received: string[] = [];
    const sub = await bus.subscribe({ durable: 'signup-watch', subjects: ['events.user.signed_up'] }, async (msg) => {
      const env = fromBinary(EventEnvelopeSchema, msg.data);
      received.push(fromBinary(UserSignedUpSchema, env.payload).email);
      await msg.ack();
    });
    const email = uniqueEmail('event');
    await h.client.signUp(signUpBody(email));
    await expectEventually(() => expect(received.filter((e) => e === email)).toHaveLength(1));
    await sub.stop();
  });
});

describe('one-time codes', () => {
  it('rejects a wrong code, then locks the attempt after 5 tries even for the right code', async () => {
    const email = uniqueEmail();
    const s = await h.client.signUp(signUpBody(email));
    const code = await h.mailer.lastCodeFor(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const first = await rpcError(h.client.authenticateOtp({ methodId: s.methodId, code: wrongCode, sessionToken: s.sessionToken }));
    expect(first).toMatchObject({ code: Code.InvalidArgument, message: 'Invalid code', fields: [{ field: 'code', message: 'Invalid code' }] });
    for (let i = 0; i < 4; i++) await rpcError(h.client.authenticateOtp({ methodId: s.methodId, code: wrongCode, sessionToken: s.sessionToken }));
    const locked = await rpcError(h.client.authenticateOtp({ methodId: s.methodId, code, sessionToken: s.sessionToken }));
    expect(locked.message).toBe('Too many wrong codes. Request a new one.');
  });

  it('expires after 10 minutes and is single use', async () => {
    const email = uniqueEmail();
    const s = await h.client.signUp(signUpBody(email));
    const code = await h.mailer.lastCodeFor(email);
    h.clock.offsetMs = 10 * 60_000 + 1_000;
    try {
      const e = await rpcError(h.client.authenticateOtp({ methodId: s.methodId, code, sessionToken: s.sessionToken }));
      expect(e.message).toBe('The code has expired. Request a new one.');
    } finally {
      h.clock.offsetMs = 0;
    }
    const resent = await h.client.resendOtp({ email, sessionToken: s.sessionToken });
    const fresh = await h.mailer.lastCodeFor(email);
    await h.client.authenticateOtp({ methodId: resent.methodId, code: fresh, sessionToken: s.sessionToken });
    // Used once: the pending attempt is over.
    const again = await rpcError(h.client.authenticateOtp({ methodId: resent.methodId, code: fresh, sessionToken: s.sessionToken }));
    expect(again.code).toBe(Code.Unauthenticated);
  });

  it('binds a code to the sign-in attempt that created it', async () => {
    const a = uniqueEmail();
    const b = uniqueEmail();
    const sa = await h.client.signUp(signUpBody(a));
    const sb = await h.client.signUp(signUpBody(b));
    const e = await rpcError(h.client.authenticateOtp({ methodId: sa.methodId, code: await h.mailer.lastCodeFor(a), sessionToken: sb.sessionToken }));
    expect(e.message).toBe('Invalid code');
  });

  it('validates the code request fields', async () => {
    const e = await rpcError(h.client.authenticateOtp({ methodId: 'nope', code: '12', sessionToken: '' }));
    expect(e.fields).toEqual([
      { field: 'methodId', message: 'methodId must be a UUID' },
      { field: 'code', message: 'Code must be 6 digits' },
      { field: 'sessionToken', message: 'sessionToken is required' },
    ]);
  });
});

describe('login', () => {
  it('signs a user straight in on a device that passed a code check, and asks a new device or an unverified user for a code', async () => {
    const { email, deviceToken } = await signedUpUser();
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const r = await h.client.login({ email: email.toUpperCase(), password: GOOD_PASSWORD, deviceToken });
    expect(r.user?.email).toBe(email);
    expect(r.methodId).toBe('');

    const elsewhere = await h.client.login({ email, password: GOOD_PASSWORD });
    expect(elsewhere.user).toBeUndefined();
    expect(elsewhere.methodId).not.toBe('');
    const other = await h.client.login({ email, password: GOOD_PASSWORD, deviceToken: 'x'.repeat(43) });
    expect(other.user).toBeUndefined();

    const unverified = uniqueEmail();
    await h.client.signUp(signUpBody(unverified));
    const c = await h.client.login({ email: unverified, password: GOOD_PASSWORD });
    expect(c.user).toBeUndefined();
    expect(c.methodId).not.toBe('');
    expect(c.sessionToken).not.toBe('');
  });

  it('answers unknown email and wrong password alike', async () => {
    const { email } = await signedUpUser();
    const unknown = await rpcError(h.client.login({ email: uniqueEmail('nobody'), password: GOOD_PASSWORD }));
    const wrong = await rpcError(h.client.login({ email, password: 'Wrong-passw0rd' }));
    expect(unknown).toEqual(wrong);
    expect(wrong).toMatchObject({ code: Code.Unauthenticated, message: 'Invalid email or password' });
  });

  it('locks the account after 10 failed logins in a row', async () => {
    const { email } = await signedUpUser();
    for (let i = 0; i < 10; i++) await rpcError(h.client.login({ email, password: 'Wrong-passw0rd' }));
    const locked = await rpcError(h.client.login({ email, password: GOOD_PASSWORD }));
    expect(locked).toMatchObject({ code: Code.ResourceExhausted, appErrorCode: 'ACCOUNT_LOCKED' });
    // An address without an account is locked the same way (no account enumeration by lockout).
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 10; i++) await rpcError(h.client.login({ email: nobody, password: 'Wrong-passw0rd' }));
    expect(await rpcError(h.client.login({ email: nobody, password: GOOD_PASSWORD }))).toEqual(locked);
    h.clock.offsetMs = 16 * 60_000;
    try {
      expect((await h.client.login({ email, password: GOOD_PASSWORD })).methodId).not.toBe('');
    } finally {
      h.clock.offsetMs = 0;
    }
  }, 180_000);

  it('upgrades a weaker password hash at the next sign-in', async () => {
    const { email } = await signedUpUser();
    const { hash } = await import('@node-rs/argon2');
    const weak = await hash(GOOD_PASSWORD, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await h.db.adminDb('users').where({ email }).update({ password_hash: weak });
    await h.client.login({ email, password: GOOD_PASSWORD });
    const [u] = await rows<{ password_hash: string }>(h.db.adminDb, 'select password_hash from users where email = ?', [email]);
    expect(u?.password_hash).toMatch(/m=19456,t=2,p=1/);
  });
});

describe('sessions', () => {
  it('resolves a live session, and answers 401 once it is idle too long or logged out', async () => {
    const { token } = await signedUpUser();
    const r = await h.client.resolveSession({ sessionToken: token });
    expect(r.workspaces[0]?.role).toBe('Owner');
    h.clock.offsetMs = (h.config.SESSION_IDLE_MINUTES + 1) * 60_000;
    try {
      expect((await rpcError(h.client.resolveSession({ sessionToken: token }))).code).toBe(Code.Unauthenticated);
    } finally {
      h.clock.offsetMs = 0;
    }
    await h.client.logout({ sessionToken: token });
    const e = await rpcError(h.client.getMe({ sessionToken: token }));
    expect(e).toMatchObject({ code: Code.Unauthenticated, message: 'Session expired', appErrorCode: 'SESSION_EXPIRED' });
  });
});

describe('limits by the clock (injectable: identity reads time through deps.now)', () => {
  it('ends a session at its absolute expiry (30 days) however busy it kept', async () => {
    const { token } = await signedUpUser();
    const hour = 3_600_000;
    try {
      // Used every 11 hours, it never goes idle (12 h)…
      for (let at = 11 * hour; at < h.config.SESSION_ABSOLUTE_DAYS * 24 * hour - hour; at += 11 * hour) {
        h.clock.offsetMs = at;
        await h.client.resolveSession({ sessionToken: token });
      }
      h.clock.offsetMs = h.config.SESSION_ABSOLUTE_DAYS * 24 * hour - 2 * 60_000;
      expect((await h.client.resolveSession({ sessionToken: token })).workspaces).toHaveLength(1);
      // …but 30 days after sign-in it ends.
      h.clock.offsetMs = h.config.SESSION_ABSOLUTE_DAYS * 24 * hour + 60_000;
      expect(await rpcError(h.client.resolveSession({ sessionToken: token }))).toMatchObject({ code: Code.Unauthenticated, message: 'Session expired' });
    } finally {
      h.clock.offsetMs = 0;
    }
  }, 180_000);

  it('caps failed logins at 100 an hour per address even when a success resets the streak', async () => {
    const { email, deviceToken } = await signedUpUser();
    try {
      for (let round = 0; round < 11; round++) {
        for (let i = 0; i < 9; i++) await rpcError(h.client.login({ email, password: 'Wrong-passw0rd' }));
        expect((await h.client.login({ email, password: GOOD_PASSWORD, deviceToken })).user?.email).toBe(email);
      }
      // 99 failures in the hour; one more reaches the cap: the right password is refused too.
      await rpcError(h.client.login({ email, password: 'Wrong-passw0rd' }));
      expect(await rpcError(h.client.login({ email, password: GOOD_PASSWORD, deviceToken }))).toMatchObject({
        code: Code.ResourceExhausted,
        appErrorCode: 'ACCOUNT_LOCKED',
      });
      // An hour later the window has moved on.
      h.clock.offsetMs = 61 * 60_000;
      expect((await h.client.login({ email, password: GOOD_PASSWORD, deviceToken })).user?.email).toBe(email);
    } finally {
      h.clock.offsetMs = 0;
    }
  }, 240_000);

  it('refuses a reset link after 30 minutes, and accepts a fresh one before', async () => {
    const { email } = await signedUpUser();
    await h.client.forgotPassword({ email });
    const stale = await h.mailer.lastResetTokenFor(email);
    try {
      h.clock.offsetMs = 31 * 60_000;
      expect((await rpcError(h.client.resetPassword({ token: stale, password: 'N3wPassword', confirmPassword: 'N3wPassword' }))).message).toBe(
        'This reset link is invalid or has expired',
      );
      await h.client.forgotPassword({ email });
      let fresh = stale;
      await expectEventually(async () => {
        fresh = await h.mailer.lastResetTokenFor(email);
        expect(fresh).not.toBe(stale);
      });
      h.clock.offsetMs = (31 + 29) * 60_000;
      expect((await h.client.resetPassword({ token: fresh, password: 'N3wPassword', confirmPassword: 'N3wPassword' })).message).toBe(
        'Your password has been set.',
      );
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});

describe('passwords', () => {
  it('resets by an emailed link once, ending every session, and sends a notice', async () => {
    const { email, token } = await signedUpUser();
    const f = await h.client.forgotPassword({ email });
    const unknown = await h.client.forgotPassword({ email: uniqueEmail('ghost') });
    expect(unknown.message).toBe(f.message);
    const resetToken = await h.mailer.lastResetTokenFor(email);
    const r = await h.client.resetPassword({ token: resetToken, password: 'N3wPassword', confirmPassword: 'N3wPassword' });
    expect(r.message).toBe('Your password has been set.');
    expect(r.user?.email).toBe(email);
    expect((await rpcError(h.client.getMe({ sessionToken: token }))).code).toBe(Code.Unauthenticated);
    expect((await h.client.getMe({ sessionToken: r.sessionToken })).user?.email).toBe(email);
    expect((await rpcError(h.client.resetPassword({ token: resetToken, password: 'An0therOne' }))).message).toBe('This reset link is invalid or has expired');
    await h.mailer.settle();
    expect(h.mailer.sent.some((m) => m.to === email && m.subject === 'Your Ledgerline password was changed')).toBe(true);
  });

  it('checks the confirmation', async () => {
    const e = await rpcError(h.client.resetPassword({ token: 'x', password: 'N3wPassword', confirmPassword: 'different' }));
    expect(e.fields).toEqual([{ field: 'confirmPassword', message: 'Password must match' }]);
  });

  it('changes the password with the existing one, optionally ending other sessions', async () => {
    const { email, token, deviceToken } = await signedUpUser();
    const other = (await h.client.login({ email, password: GOOD_PASSWORD, deviceToken })).sessionToken;
    const wrong = await rpcError(h.client.updatePasswordByExistingPassword({ sessionToken: token, existingPassword: 'nope', newPassword: 'N3wPassword' }));
    expect(wrong.fields).toEqual([{ field: 'existingPassword', message: 'Existing password is incorrect' }]);
    const short = await rpcError(h.client.updatePasswordByExistingPassword({ sessionToken: token, existingPassword: GOOD_PASSWORD, newPassword: 'short' }));
    expect(short.fields).toEqual([{ field: 'newPassword', message: 'Password must have atleast 8 characters' }]);
    const ok = await h.client.updatePasswordByExistingPassword({
      sessionToken: token,
      existingPassword: GOOD_PASSWORD,
      newPassword: 'N3wPassword',
      endOtherSessions: true,
    });
    expect(ok.endedSessions).toBe(1);
    expect((await rpcError(h.client.getMe({ sessionToken: other }))).code).toBe(Code.Unauthenticated);
    expect((await h.client.login({ email, password: 'N3wPassword', deviceToken })).user?.email).toBe(email);
  });
});

describe('Google sign-in', () => {
  it('creates a verified user on first sign-in and signs the same user in afterwards', async () => {
    const email = uniqueEmail('google');
    const token = await h.google.idToken({ sub: `g-${email}`, email, given_name: 'Grace', family_name: 'Hopper' });
    const first = await h.client.signupOauth({ token });
    expect(first.userCreated).toBe(true);
    expect(first.user).toMatchObject({ email, firstName: 'Grace', isVerified: true, hasPassword: false, role: 'Owner' });
    const second = await h.client.loginOauth({ token });
    expect(second.userCreated).toBe(false);
    expect(second.user?.id).toBe(first.user?.id);
    // A Google account then sets a password of its own.
    const set = await h.client.updateCredentials({ sessionToken: second.sessionToken, password: 'Passw0rdSet' });
    expect(set.message).toBe('Your password has been set.');
    // Google vouched for the address, not for this password: the first password sign-in asks for a code.
    const challenge = await h.client.login({ email, password: 'Passw0rdSet' });
    expect(challenge.user).toBeUndefined();
    const done = await h.client.authenticateOtp({
      methodId: challenge.methodId,
      code: await h.mailer.lastCodeFor(email),
      sessionToken: challenge.sessionToken,
    });
    expect(done.user?.id).toBe(first.user?.id);
  });

  it('refuses tokens for another audience or with a bad signature', async () => {
    const email = uniqueEmail('google');
    const foreign = await h.google.idToken({ sub: 'x', email }, { audience: 'someone-else' });
    expect((await rpcError(h.client.loginOauth({ token: foreign }))).appErrorCode).toBe('OAUTH_TOKEN_INVALID');
    const good = await h.google.idToken({ sub: 'x', email });
    const tampered = `${good.slice(0, -4)}AAAA`;
    expect((await rpcError(h.client.loginOauth({ token: tampered }))).code).toBe(Code.Unauthenticated);
    expect((await rpcError(h.client.loginOauth({}))).fields).toEqual([{ field: 'token', message: 'token is required' }]);
  });
});

describe('onboarding and profile', () => {
  it('validates the onboarding profile with the spec messages', async () => {
    const { token } = await signedUpUser();
    const e = await rpcError(h.client.onboardUser({ sessionToken: token, phoneNumber: '12ab' }));
    expect(e.fields).toEqual([
      { field: 'companyName', message: 'Company name is required' },
      { field: 'maxTeamSize', message: 'Team size field is required' },
      { field: 'phoneNumber', message: 'Phone number must contain only digits' },
      { field: 'city', message: 'City is required' },
      { field: 'country', message: 'Country is required' },
      { field: 'heardAboutUs', message: 'Please tell us how you heard about us' },
    ]);
    const short = await rpcError(
      h.client.onboardUser({ sessionToken: token, companyName: 'X', maxTeamSize: 3, phoneNumber: '12345', city: 'Oslo', country: 'NO', heardAboutUs: 'YC' }),
    );
    expect(short.fields).toEqual([{ field: 'phoneNumber', message: 'Phone number must be 10 digits' }]);
  });

  it('onboards, then edits the names', async () => {
    const { token } = await signedUpUser();
    const u = (
      await h.client.onboardUser({
        sessionToken: token,
        companyName: 'Renamed Inc',
        maxTeamSize: 12,
        role: 'Founder',
        phoneNumber: '5551234567',
        city: 'Austin',
        country: 'US',
        heardAboutUs: 'Product Hunt',
      })
    ).user;
    expect(u).toMatchObject({ isOnboarded: true, profile: { city: 'Austin', heardAboutUs: 'Product Hunt', maxTeamSize: 12 } });
    expect(u?.workspace?.name).toBe('Renamed Inc');
    const blank = await rpcError(h.client.updateMe({ sessionToken: token, firstName: '  ' }));
    expect(blank.fields).toEqual([{ field: 'firstName', message: 'First Name is required' }]);
    const me = await h.client.updateMe({ sessionToken: token, firstName: 'Augusta', lastName: 'King' });
    expect(me.user).toMatchObject({ firstName: 'Augusta', middleName: 'K', lastName: 'King' });
  });
});

describe('tenancy and timing', () => {
  it('has row-level security on every table with a workspace column, and the service role cannot bypass it', async () => {
    expect(await tablesMissingRls(h.db.adminDb)).toEqual([]);
    await signedUpUser();
    const count = async (db: typeof h.db.appDb) => (await rows<{ n: number }>(db, 'select count(*)::int as n from memberships'))[0]!.n;
    expect(await count(h.db.adminDb)).toBeGreaterThan(0);
    // The service's own role, with no tenant set in the transaction, sees none of them.
    expect(await count(h.db.appDb)).toBe(0);
  });

  it('takes about as long to refuse an unknown email as a wrong password (no account enumeration by timing)', async () => {
    const { email } = await signedUpUser();
    const time = async (attempt: () => Promise<unknown>) => {
      const t0 = performance.now();
      await attempt().catch(() => undefined);
      return performance.now() - t0;
    };
    // Interleaved, so a busy machine slows both kinds alike; compared by their medians.
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 9; i++) {
      knownTimes.push(await time(() => h.client.login({ email, password: 'Wr0ngPassword' })));
      unknownTimes.push(await time(() => h.client.login({ email: uniqueEmail('nobody'), password: 'Wr0ngPassword' })));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[4]!;
    const known = median(knownTimes);
    const unknown = median(unknownTimes);
    // Both pay one argon2id verification; without it an unknown email answers many times faster.
    expect(unknown / known).toBeGreaterThan(0.4);
    expect(unknown / known).toBeLessThan(2.5);
  }, 180_000);
});
