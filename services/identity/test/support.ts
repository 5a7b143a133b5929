import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createLogger, createServiceClient, type EventBus, type Knex } from '@ledgerline/platform';
import { createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { IdentityService as IdentityRpc } from '@ledgerline/proto/identity/v1/identity_pb';
import { identityConfigSchema, type IdentityConfig } from '../src/config.js';
import type { Mailer, MailMessage } from '../src/mail/mailer.js';
import { createIdentityService, type IdentityService } from '../src/service.js';
import { identityMigrations } from '../src/store/migrations.js';

/**
 * Outgoing mail kept in memory for the test to read (the SMTP path itself is tested with the mailbox).
 * Mail leaves through the mail outbox after the answer: the readers first wait until the outbox holds no
 * unsent row (`settle`, set by the harness).
 */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  settle: () => Promise<void> = async () => {};
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  async lastCodeFor(email: string): Promise<string> {
    await this.settle();
    const m = [...this.sent].reverse().find((x) => x.to === email && /verification code/.test(x.subject));
    const code = m?.subject.match(/^(\d{6}) /)?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }
  async lastResetTokenFor(email: string): Promise<string> {
    await this.settle();
    const m = [...this.sent].reverse().find((x) => x.to === email && /Reset your/.test(x.subject));
    const token = m?.text.match(/token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error(`no reset link mailed to ${email}`);
    return token;
  }
}

/** Waits until the mail outbox of `db` holds no row still to be sent (due, leased or waiting for a retry). */
export async function mailSettled(db: Knex, timeoutMs = 10_000): Promise<void> {
  await expectEventually(
    async () => {
      const [row] = await rows<{ n: number }>(db, 'select count(*)::int as n from mail_outbox where sent_at is null and next_attempt_at is not null');
      if (row?.n !== 0) throw new Error(`${row?.n} mail(s) not sent yet`);
    },
    { timeoutMs, intervalMs: 20 },
  );
}

/** A local stand-in for Google's JWKS endpoint, and ID tokens signed with its key. */
export async function startFakeGoogle(clientId: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    jwksUrl: `http://127.0.0.1:${port}/certs`,
    async idToken(
      claims: { sub: string; email: string; email_verified?: boolean; given_name?: string; family_name?: string },
      opts: { audience?: string; issuer?: string } = {},
    ) {
      return new SignJWT({ email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(opts.issuer ?? 'https://accounts.google.com')
        .setAudience(opts.audience ?? clientId)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface IdentityHarness {
  db: TestDatabase;
  service: IdentityService;
  client: ReturnType<typeof createServiceClient<typeof IdentityRpc>>;
  mailer: RecordingMailer;
  google: Awaited<ReturnType<typeof startFakeGoogle>>;
  clock: { offsetMs: number };
  config: IdentityConfig;
  close(): Promise<void>;
}

/** A real identity service on a fresh database, listening on a free port. */
export async function startIdentity(bus: EventBus, env: Record<string, string> = {}): Promise<IdentityHarness> {
  const db = await createTestDatabase('identity', identityMigrations);
  const google = await startFakeGoogle('test-client-id');
  const config = identityConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    IDENTITY_PORT: '0',
    IDENTITY_DATABASE_URL: db.appUrl,
    GOOGLE_CLIENT_ID: 'test-client-id',
    GOOGLE_JWKS_URL: google.jwksUrl,
    OTP_RESEND_SECONDS: '0',
    ...env,
  });
  const mailer = new RecordingMailer();
  mailer.settle = () => mailSettled(db.adminDb);
  const clock = { offsetMs: 0 };
  const service = await createIdentityService(config, {
    db: db.appDb,
    bus,
    mailer,
    logger: createLogger('identity-test', 'silent'),
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  const url = await service.listen();
  const client = createServiceClient(IdentityRpc, { baseUrl: url, trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'identity-test', audience: 'identity' } });
  return {
    db,
    service,
    client,
    mailer,
    google,
    clock,
    config,
    async close() {
      await service.stop();
      await google.close();
      await db.drop();
    },
  };
}

export async function rows<T>(db: Knex, sql: string, bindings: readonly unknown[] = []): Promise<T[]> {
  return (await db.raw(sql, bindings as Knex.RawBinding[])).rows as T[];
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const GOOD_PASSWORD = 'Sup3rSecret';

export const signUpBody = (email: string) => ({
  firstName: 'Ada',
  middleName: 'K',
  lastName: 'Lovelace',
  companyName: 'Analytical Co',
  maxTeamSize: 5,
  email,
  password: GOOD_PASSWORD,
});
