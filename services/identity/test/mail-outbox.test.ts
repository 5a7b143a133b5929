// The mail outbox (issue #15 item 6): mail is a row written in the flow's transaction and sent by a job,
// so a rolled-back flow sends nothing, a failing SMTP is retried, and a restart or a sender that dies
// mid-send loses nothing. Real PostgreSQL; the mailer is a stand-in here (tests/api/mail-outbox.test.ts
// sends to the mailbox sandbox over SMTP).
import { randomUUID } from 'node:crypto';
import { createLogger, createMailOutboxTable, type Knex } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { identityConfigSchema } from '../src/config.js';
import type { Mailer, MailMessage } from '../src/mail/mailer.js';
import { createIdentityService, type IdentityService } from '../src/service.js';
import { identityMigrations } from '../src/store/migrations.js';
import { rows, uniqueEmail } from './support.js';

interface OutboxRow {
  id: string;
  to: string;
  kind: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  last_error: string | null;
}

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
const services: IdentityService[] = [];

beforeAll(async () => {
  bus = await createTestBus('identity-mail');
  db = await createTestDatabase('identity', identityMigrations);
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  await db.adminDb.raw('delete from mail_outbox');
});
afterAll(async () => {
  await db?.drop();
  await bus?.close();
});

/** An identity service on the shared test database; its mail job is started only when asked. */
async function identityWith(mailer: Mailer, env: Record<string, string> = {}, destination?: { write(line: string): void }): Promise<IdentityService> {
  const config = identityConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    IDENTITY_PORT: '0',
    IDENTITY_DATABASE_URL: db.appUrl,
    MAIL_RETRY_BASE_MS: '20',
    MAIL_POLL_MS: '20',
    ...env,
  });
  const logger = createLogger('identity-mail-test', destination ? 'warn' : 'silent', destination);
  const service = await createIdentityService(config, { db: db.appDb, bus, mailer, logger });
  services.push(service);
  return service;
}

class Recording implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

/** Fails its first `failures` sends (as an SMTP server that refuses), then records. */
class Flaky extends Recording {
  tries = 0;
  constructor(private failures: number) {
    super();
  }
  override async send(message: MailMessage): Promise<void> {
    this.tries++;
    if (this.failures > 0) {
      this.failures--;
      throw Object.assign(new Error('Connection refused'), { code: 'ECONNREFUSED' });
    }
    await super.send(message);
  }
}

async function aUser(): Promise<string> {
  const email = uniqueEmail('mail');
  await db.adminDb('users').insert({ id: randomUUID(), email, is_verified: true });
  return email;
}

const outbox = (k: Knex = db.adminDb) => rows<OutboxRow>(k, 'select * from mail_outbox order by created_at');

describe('mail outbox', () => {
  it("writes the mail in the flow's transaction: a flow that rolls back leaves no mail", async () => {
    const service = await identityWith(new Recording());
    const email = await aUser();
    await service.useCases.forgotPassword({ email });
    // The job is not running: the committed mail waits in the outbox, body and all.
    const [reset] = await outbox();
    expect(reset).toMatchObject({ to: email, kind: 'reset', subject: 'Reset your Ledgerline password', attempts: 0, sent_at: null });
    const token = /token=([A-Za-z0-9_-]+)/.exec(reset!.text)?.[1];
    expect(token).toBeTruthy();

    // A reset writes its "password changed" mail and then fails later in the same transaction.
    await db.adminDb.raw(`create or replace function fail_session() returns trigger language plpgsql as $$ begin raise exception 'session store down'; end $$`);
    await db.adminDb.raw('create trigger fail_session before insert on sessions for each row execute function fail_session()');
    try {
      await expect(service.useCases.resetPassword({ token, password: 'N3wPassword', confirmPassword: 'N3wPassword' })).rejects.toThrow(/session store down/);
    } finally {
      await db.adminDb.raw('drop trigger fail_session on sessions');
    }
    expect((await outbox()).map((r) => r.kind)).toEqual(['reset']);
    const [user] = await rows<{ password_hash: string | null }>(db.adminDb, 'select password_hash from users where email = ?', [email]);
    expect(user?.password_hash).toBeNull();
  });

  it('sends due mail, wipes the body once sent, and retries a failing SMTP until it delivers', async () => {
    const mailer = new Flaky(2);
    const service = await identityWith(mailer, { MAIL_MAX_ATTEMPTS: '5' });
    await service.mailOutbox.start();
    const email = await aUser();
    await service.useCases.forgotPassword({ email });
    await expectEventually(() => expect(mailer.sent.map((m) => m.to)).toEqual([email]));
    expect(mailer.tries).toBe(3);
    expect(mailer.sent[0]?.subject).toBe('Reset your Ledgerline password');
    await expectEventually(async () => expect((await outbox())[0]?.sent_at).not.toBeNull());
    // Nothing of the mail (the reset link) stays in the table once it left.
    expect((await outbox())[0]).toMatchObject({
      to: email,
      kind: 'reset',
      attempts: 3,
      subject: '',
      text: '',
      html: '',
      next_attempt_at: null,
      last_error: null,
    });
  });

  it('gives up after the last attempt with an error log that holds no mail body', async () => {
    const lines: string[] = [];
    const mailer = new Flaky(1_000);
    const service = await identityWith(mailer, { MAIL_MAX_ATTEMPTS: '3' }, { write: (line) => void lines.push(line) });
    await service.mailOutbox.start();
    const email = await aUser();
    await service.useCases.forgotPassword({ email });
    await expectEventually(async () => expect((await outbox())[0]?.next_attempt_at).toBeNull());
    const [row] = await outbox();
    expect(row).toMatchObject({ attempts: 3, sent_at: null, subject: '', text: '', html: '' });
    expect(row?.last_error).toMatch(/ECONNREFUSED/);
    expect(mailer.tries).toBe(3);
    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; mailId?: string; kind?: string });
    expect(logged.filter((l) => l.msg === 'mail not sent; retrying later')).toHaveLength(2);
    expect(logged.filter((l) => l.msg === 'mail given up after its last attempt')).toEqual([
      expect.objectContaining({ level: 50, mailId: row?.id, kind: 'reset' }),
    ]);
    expect(lines.join('\n')).not.toMatch(/token=|reset-password|Reset your/);
  });

  it('loses nothing when the service stops with mail pending: the next start sends each mail once', async () => {
    const down = new Flaky(1_000);
    const first = await identityWith(down, { MAIL_RETRY_BASE_MS: '60000' });
    await first.mailOutbox.start();
    const emails = [await aUser(), await aUser(), await aUser()];
    for (const email of emails) await first.useCases.forgotPassword({ email });
    // Each tried once and waiting a minute for its retry when the process goes.
    await expectEventually(async () => expect((await outbox()).map((r) => r.attempts)).toEqual([1, 1, 1]));
    await first.stop();
    services.splice(services.indexOf(first), 1);
    // The minute passes while the service is down.
    await db.adminDb.raw('update mail_outbox set next_attempt_at = now()');

    const mailer = new Recording();
    const second = await identityWith(mailer);
    await second.mailOutbox.start();
    await expectEventually(() => expect(mailer.sent.map((m) => m.to).sort()).toEqual([...emails].sort()));
    await expectEventually(async () => expect((await outbox()).every((r) => r.sent_at !== null)).toBe(true));
    // A few more polls: nothing is sent twice.
    await new Promise((r) => setTimeout(r, 200));
    expect(mailer.sent).toHaveLength(3);
  });

  it('a sender that dies mid-send leaves its mail to another once the lease ends (at least once)', async () => {
    // The first process's SMTP never answers: its claim holds the row until the lease ends (4 × 100 ms).
    const hung = { sends: 0, send: () => new Promise<void>(() => void hung.sends++) };
    const first = await identityWith(hung, { MAIL_SMTP_TIMEOUT_MS: '100' });
    await first.mailOutbox.start();
    const email = await aUser();
    await first.useCases.forgotPassword({ email });
    await expectEventually(() => expect(hung.sends).toBe(1));
    services.splice(services.indexOf(first), 1); // never stopped: it stands for a process that died

    const mailer = new Recording();
    const second = await identityWith(mailer, { MAIL_SMTP_TIMEOUT_MS: '100' });
    await second.mailOutbox.start();
    await expectEventually(() => expect(mailer.sent.map((m) => m.to)).toEqual([email]));
    await expectEventually(async () => expect((await outbox())[0]).toMatchObject({ attempts: 2, sent_at: expect.any(Date) }));
  });

  it('prunes sent mail after a day', async () => {
    const old = randomUUID();
    const recent = randomUUID();
    await db.adminDb('mail_outbox').insert([
      {
        id: old,
        to: 'a@example.com',
        subject: '',
        text: '',
        html: '',
        kind: 'code',
        attempts: 1,
        next_attempt_at: null,
        sent_at: db.adminDb.raw("now() - interval '25 hours'"),
      },
      {
        id: recent,
        to: 'b@example.com',
        subject: '',
        text: '',
        html: '',
        kind: 'code',
        attempts: 1,
        next_attempt_at: null,
        sent_at: db.adminDb.raw("now() - interval '1 hour'"),
      },
    ]);
    const service = await identityWith(new Recording());
    await service.mailOutbox.start();
    await expectEventually(async () => expect((await outbox()).map((r) => r.id)).toEqual([recent]));
  });
});

describe("the chassis' mail outbox", () => {
  it("has the shape identity's mail_outbox migration made: identity and the firm service share one table definition", async () => {
    const shape = async (k: Knex) => ({
      columns: await rows(
        k,
        `select column_name, data_type, is_nullable, column_default from information_schema.columns where table_name = 'mail_outbox' order by column_name`,
      ),
      indexes: await rows(
        k,
        `select indexname, regexp_replace(indexdef, ' ON [^ ]+ ', ' ON ') as def from pg_indexes where tablename = 'mail_outbox' order by indexname`,
      ),
    });
    const fresh = await createTestDatabase('mailshape', [{ name: '20261128110000_mail_outbox', up: createMailOutboxTable, down: async () => {} }]);
    try {
      const identity = await shape(db.adminDb);
      expect(identity.columns.length).toBe(11);
      expect(await shape(fresh.adminDb)).toEqual(identity);
    } finally {
      await fresh.drop();
    }
  });
});
