// The chassis' mail outbox through the product, in identity and in the firm service: mail leaves over SMTP to
// the mailbox sandbox after the answer; with the mail server down it is retried, and it survives the service
// stopping and starting again, arriving once; a flow that rolls back mails nothing. Real PostgreSQL, NATS,
// gateway, identity, firm and mailbox.
import { startMailbox, type Mailbox } from '@ledgerline/mailbox';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;
let replacement: Mailbox | undefined;

beforeAll(async () => {
  // Retries every 100 ms and more (doubling) instead of 30 s, so the test sees several.
  system = await startSystem({
    firm: true,
    identityEnv: { MAIL_RETRY_BASE_MS: '100', MAIL_POLL_MS: '50' },
    firmEnv: { MAIL_RETRY_BASE_MS: '100', MAIL_POLL_MS: '50' },
  });
});
afterAll(async () => {
  await replacement?.close();
  await system?.stop();
});

interface OutboxRow {
  kind: string;
  attempts: number;
  sent_at: Date | null;
  subject: string;
  text: string;
  last_error: string | null;
}

const rowsTo = async (email: string) =>
  (await system.db.adminDb.raw('select * from mail_outbox where "to" = ? order by created_at', [email])).rows as OutboxRow[];

async function mailsTo(url: string, email: string): Promise<{ subject: string; text: string }[]> {
  return (await (await fetch(`${url}/api/messages?to=${encodeURIComponent(email)}`)).json()) as { subject: string; text: string }[];
}

describe('mail through the outbox', () => {
  it('delivers to the mailbox over SMTP and keeps no body once sent', async () => {
    const { email } = await signedUpUser(system);
    const res = await system.api('POST', '/forgot-password', { body: { email } });
    expect(res.status).toBe(200);
    const mail = await system.mailTo(email, /Reset your/);
    expect(mail.text).toMatch(/reset-password\?token=/);
    await expectEventually(async () =>
      expect((await rowsTo(email)).filter((r) => r.kind === 'reset')).toEqual([
        expect.objectContaining({ sent_at: expect.any(Date), subject: '', text: '', attempts: 1 }),
      ]),
    );
  });

  it('retries while the mail server is down and delivers once after identity restarts', async () => {
    const { email } = await signedUpUser(system);
    const { smtpPort, httpPort, url } = system.mailbox;
    await system.mailbox.close();
    expect((await system.api('POST', '/forgot-password', { body: { email } })).status).toBe(200);
    // Refused at least twice, still pending.
    await expectEventually(async () => {
      const [reset] = (await rowsTo(email)).filter((r) => r.kind === 'reset');
      expect(reset?.attempts).toBeGreaterThanOrEqual(2);
      expect(reset?.sent_at).toBeNull();
      expect(reset?.last_error).toMatch(/ECONNREFUSED|connect/i);
    });
    await system.stopIdentity();
    replacement = await startMailbox({ smtpPort, httpPort, host: '127.0.0.1' });
    expect(replacement.url).toBe(url);
    await system.startIdentity();
    await expectEventually(async () => expect((await mailsTo(url, email)).filter((m) => /Reset your/.test(m.subject))).toHaveLength(1));
    await expectEventually(async () => expect((await rowsTo(email)).find((r) => r.kind === 'reset')?.sent_at).toEqual(expect.any(Date)));
    // A few more polls of the job: still once.
    await new Promise((r) => setTimeout(r, 300));
    expect((await mailsTo(url, email)).filter((m) => /Reset your/.test(m.subject))).toHaveLength(1);
  });
});

describe('firm invite mail through the outbox', () => {
  const firmRowsTo = async (email: string) =>
    (await system.databases.firm!.adminDb.raw('select * from mail_outbox where "to" = ? order by created_at', [email])).rows as OutboxRow[];
  let owner: { token: string; email: string };

  beforeAll(async () => {
    const email = uniqueEmail('partner');
    const signup = await system.api('POST', '/signup', {
      body: {
        firstName: 'Grace',
        middleName: 'B',
        lastName: 'Hopper',
        email,
        password: PASSWORD,
        userType: 'firm',
        firmName: 'Outbox Partners',
        country: 'US',
      },
    });
    expect(signup.status).toBe(201);
    const verified = await system.api('POST', '/authenticate-otp', {
      body: { methodId: signup.body.methodId, code: await system.codeFor(email), sessionToken: signup.body.sessionToken },
    });
    expect(verified.status).toBe(200);
    owner = { token: verified.body.sessionToken, email };
  });

  it('writes the invite and its mail in one transaction: a refused invite mails nothing, a sent one arrives and keeps no body', async () => {
    // The owner's own address is a member already: the invite is refused after the firm was read, and rolls back whole.
    const refused = await system.api('POST', '/accounting-firm/invite', { token: owner.token, body: { email: owner.email, role: 'accountant' } });
    expect(refused.status).toBe(409);
    expect(await firmRowsTo(owner.email)).toEqual([]);

    const email = uniqueEmail('accountant');
    const sent = await system.api('POST', '/accounting-firm/invite', { token: owner.token, body: { email, role: 'admin' } });
    expect(sent.status).toBe(201);
    const mail = await system.mailTo(email, /^Join Outbox Partners on Ledgerline$/);
    expect(mail.text).toMatch(/\/verify-invite\?token=[\w-]+&kind=firm/);
    await expectEventually(async () =>
      expect(await firmRowsTo(email)).toEqual([
        expect.objectContaining({ kind: 'firm-invite', sent_at: expect.any(Date), subject: '', text: '', attempts: 1 }),
      ]),
    );
  });

  it('retries while the mail server is down and delivers once after the firm service restarts', async () => {
    const { smtpPort, httpPort, url } = system.mailbox;
    await (replacement ?? system.mailbox).close();
    replacement = undefined;
    const email = uniqueEmail('accountant');
    const sent = await system.api('POST', '/accounting-firm/invite', { token: owner.token, body: { email, role: 'accountant' } });
    // The answer never waits for SMTP: the invite is made while the mail server refuses.
    expect(sent.status).toBe(201);
    await expectEventually(async () => {
      const [row] = await firmRowsTo(email);
      expect(row?.attempts).toBeGreaterThanOrEqual(2);
      expect(row?.sent_at).toBeNull();
      expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(row?.text).toMatch(/verify-invite/);
    });
    await system.stopService('firm');
    replacement = await startMailbox({ smtpPort, httpPort, host: '127.0.0.1' });
    await system.startService('firm');
    const invites = async () => (await mailsTo(url, email)).filter((m) => /^Join Outbox Partners/.test(m.subject));
    await expectEventually(async () => expect(await invites()).toHaveLength(1));
    await expectEventually(async () => expect((await firmRowsTo(email))[0]).toMatchObject({ sent_at: expect.any(Date), text: '', subject: '' }));
    // A few more polls of the job: still once.
    await new Promise((r) => setTimeout(r, 300));
    expect(await invites()).toHaveLength(1);
    // The mailed link works: password-required for this new address.
    const token = new URL(/https?:\/\/\S+verify-invite\?\S+/.exec((await invites())[0]!.text)![0]).searchParams.get('token');
    expect(await system.api('POST', '/verify-invite', { body: { token, kind: 'firm' } })).toMatchObject({
      status: 200,
      body: { status: 'password-required', email },
    });
  });
});
