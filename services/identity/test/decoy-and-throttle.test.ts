// Issue #15 leftovers: the code step of a sign-up for a taken email (a decoy) answers, locks and expires
// exactly like a real sign-up's with wrong codes; failed-login rows do not pile up forever.
import { Code, ConnectError } from '@connectrpc/connect';
import { errorInfoOf } from '@ledgerline/platform';
import { createTestBus } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, signUpBody, startIdentity, uniqueEmail, type IdentityHarness } from './support.js';

let h: IdentityHarness;
let bus: Awaited<ReturnType<typeof createTestBus>>;
beforeAll(async () => {
  bus = await createTestBus('identity-decoy');
  h = await startIdentity(bus);
});
afterAll(async () => {
  await h?.close();
  await bus?.close();
});

async function answer(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    const e = ConnectError.from(err);
    return `${Code[e.code]} ${errorInfoOf(e)?.appErrorCode ?? ''}`;
  }
}

/** A real sign-up and a sign-up for an email that already has an account. */
async function realAndDecoy() {
  const taken = uniqueEmail();
  const first = await h.client.signUp(signUpBody(taken));
  await h.client.authenticateOtp({ methodId: first.methodId, code: await h.mailer.lastCodeFor(taken), sessionToken: first.sessionToken });
  const fresh = uniqueEmail();
  return { real: { email: fresh, ...(await h.client.signUp(signUpBody(fresh))) }, decoy: { email: taken, ...(await h.client.signUp(signUpBody(taken))) } };
}

/** The answers of `n` wrong codes on one challenge. */
async function wrongCodes(c: { methodId: string; sessionToken: string }, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await answer(h.client.authenticateOtp({ methodId: c.methodId, code: '000000', sessionToken: c.sessionToken })));
  return out;
}

describe('the code step of a sign-up for a taken email', () => {
  it('locks after as many wrong codes as a real one, and a resent code starts over like a real one', async () => {
    const { real, decoy } = await realAndDecoy();
    const realAnswers = await wrongCodes(real, 7);
    expect(realAnswers.slice(-2)).toEqual(['InvalidArgument CODE_TOO_MANY_TRIES', 'InvalidArgument CODE_TOO_MANY_TRIES']);
    expect(await wrongCodes(decoy, 7)).toEqual(realAnswers);
    // Another methodId than the current one: wrong, not counted, for both.
    const otherMethod = (c: { sessionToken: string }) =>
      answer(h.client.authenticateOtp({ methodId: '00000000-0000-4000-8000-000000000000', code: '000000', sessionToken: c.sessionToken }));
    expect(await otherMethod(decoy)).toBe(await otherMethod(real));
    const realResent = await h.client.resendOtp({ email: real.email, sessionToken: real.sessionToken });
    const decoyResent = await h.client.resendOtp({ email: decoy.email, sessionToken: decoy.sessionToken });
    expect(await wrongCodes({ methodId: decoyResent.methodId, sessionToken: decoy.sessionToken }, 2)).toEqual(
      await wrongCodes({ methodId: realResent.methodId, sessionToken: real.sessionToken }, 2),
    );
  });

  it('expires its code and then its attempt when a real one would', async () => {
    const { real, decoy } = await realAndDecoy();
    try {
      h.clock.offsetMs = 11 * 60_000; // past the code's 10 minutes
      const [r] = await wrongCodes(real, 1);
      expect(r).toBe('InvalidArgument CODE_EXPIRED');
      expect(await wrongCodes(decoy, 1)).toEqual([r]);
      h.clock.offsetMs = 31 * 60_000; // past the attempt's 30 minutes
      const [r2] = await wrongCodes(real, 1);
      expect(r2).toBe('Unauthenticated LOGIN_ATTEMPT_EXPIRED');
      expect(await wrongCodes(decoy, 1)).toEqual([r2]);
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});

describe('failed-login rows', () => {
  it('are pruned once older than the hour anything reads, without lifting a running lock', async () => {
    const email = uniqueEmail();
    const fail = () => answer(h.client.login({ email, password: 'Wrong-password-1' }));
    try {
      h.clock.offsetMs = -3 * 3_600_000;
      for (let i = 0; i < 3; i++) expect(await fail()).toBe('Unauthenticated INVALID_CREDENTIALS');
      const old = await rows<{ n: number }>(h.db.adminDb, 'select count(*)::int as n from login_throttle_failures');
      expect(old[0]!.n).toBeGreaterThanOrEqual(3);
      h.clock.offsetMs = 0;
      await fail();
      const left = await rows<{ n: number }>(h.db.adminDb, "select count(*)::int as n from login_throttle_failures where at < now() - interval '1 hour'");
      expect(left).toEqual([{ n: 0 }]);
      // The address still locks after ten consecutive failures within the hour.
      let last = '';
      for (let i = 0; i < 12; i++) last = await fail();
      expect(last).toBe('ResourceExhausted ACCOUNT_LOCKED');
      await fail();
      expect(await rows(h.db.adminDb, 'select count(*)::int as n from login_throttle where locked_until > now()')).toEqual([{ n: 1 }]);
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});
