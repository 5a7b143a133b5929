// Identity's mail outbox through the product: mail leaves over SMTP to the mailbox sandbox after the
// answer; with the mail server down it is retried, and it survives identity stopping and starting again,
// arriving once. Real PostgreSQL, NATS, gateway, identity and mailbox.
import { startMailbox, type Mailbox } from '@ledgerline/mailbox';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;
let replacement: Mailbox | undefined;

beforeAll(async () => {
  // Retries every 100 ms and more (doubling) instead of 30 s, so the test sees several.
  system = await startSystem({ identityEnv: { MAIL_RETRY_BASE_MS: '100', MAIL_POLL_MS: '50' } });
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

const rowsTo = async (email: string) => (await system.db.adminDb.raw('select * from mail_outbox where "to" = ? order by created_at', [email])).rows as OutboxRow[];

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
    await expectEventually(async () => expect((await rowsTo(email)).filter((r) => r.kind === 'reset')).toEqual([expect.objectContaining({ sent_at: expect.any(Date), subject: '', text: '', attempts: 1 })]));
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
