// The product as a user reaches it, for API and browser tests: a fresh identity database, real NATS, the
// mailbox over SMTP, identity, the gateway and (optionally) the built web app, all on free ports.
import { createTestBus, createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { identityMigrations } from '@ledgerline/identity';
import { bankingMigrations } from '@ledgerline/banking';
import { ledgerMigrations } from '@ledgerline/ledger';
import { reportingMigrations } from '@ledgerline/reporting';
import type { MailMessage } from '@ledgerline/mailbox';
import { startStack, type Stack } from '../../scripts/lib/stack.js';
import { startFakeGoogle } from '../../services/identity/test/support.js';

export const GOOGLE_CLIENT_ID = 'system-test-client';

export interface System extends Stack {
  db: TestDatabase;
  bankingDb: TestDatabase | null;
  ledgerDb: TestDatabase | null;
  reportingDb: TestDatabase | null;
  /** The bus the services share: tests publish events of services that do not run (e.g. banking's) on it. */
  bus: Awaited<ReturnType<typeof createTestBus>>;
  google: Awaited<ReturnType<typeof startFakeGoogle>>;
  /** Moves identity's clock forward (codes and sessions expire by it). */
  clock: { offsetMs: number };
  /** Calls the gateway like the web app does. */
  api(method: string, path: string, options?: { body?: unknown; token?: string; workspace?: string; headers?: Record<string, string> }): Promise<ApiAnswer>;
  /** The newest mail to `email` whose subject matches, read from the mailbox's JSON API. */
  mailTo(email: string, subject: RegExp): Promise<MailMessage>;
  /** The 6-digit code of the newest verification mail to `email`. */
  codeFor(email: string): Promise<string>;
  stop(): Promise<void>;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  // Tests read the documented JSON shapes field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

export interface SystemOptions {
  web?: boolean;
  /** Also run banking with the Plaid sandbox, and the ledger (each on a fresh database). */
  banking?: boolean;
  ledger?: boolean;
  /** Also run reporting (on a fresh database); it needs the ledger. */
  reporting?: boolean;
  identityEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  bankingEnv?: Record<string, string>;
}

export async function startSystem(options: SystemOptions = {}): Promise<System> {
  const db = await createTestDatabase('identity', identityMigrations);
  const bankingDb = options.banking ? await createTestDatabase('banking', bankingMigrations) : null;
  const ledgerDb = options.ledger ? await createTestDatabase('ledger', ledgerMigrations) : null;
  const reportingDb = options.reporting ? await createTestDatabase('reporting', reportingMigrations) : null;
  const bus = await createTestBus('system');
  const google = await startFakeGoogle(GOOGLE_CLIENT_ID);
  const clock = { offsetMs: 0 };
  const stack = await startStack({
    identityDatabaseUrl: db.appUrl,
    bankingDatabaseUrl: bankingDb?.appUrl,
    ledgerDatabaseUrl: ledgerDb?.appUrl,
    reportingDatabaseUrl: reportingDb?.appUrl,
    bus,
    ports: { gateway: 0, identity: 0, web: 0, settings: 0, accounting: 0, reports: 0, smtp: 0, mailbox: 0, banking: 0, ledger: 0, reporting: 0, plaid: 0 },
    web: options.web,
    // SYSTEM_LOG_LEVEL=warn shows the services' logs when a test needs explaining.
    logLevel: (process.env.SYSTEM_LOG_LEVEL as 'warn' | undefined) ?? 'silent',
    nodeEnv: 'test',
    now: () => new Date(Date.now() + clock.offsetMs),
    identityEnv: { GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl, OTP_RESEND_SECONDS: '0', ...options.identityEnv },
    // argon2id on a busy 2-core machine can take longer than the production deadline (1.5 s); tests that
    // check the deadline itself set it back (tests/api/gateway.test.ts).
    gatewayEnv: { SESSION_CACHE_TTL_MS: '0', IDENTITY_TIMEOUT_MS: '10000', SERVICE_TIMEOUT_MS: '15000', ...options.gatewayEnv },
    // Webhook bursts are coalesced over 2 s in production; tests wait less.
    // A lease of 5 s hands a job whose worker stalled to another one quickly.
    bankingEnv: { WEBHOOK_SYNC_DELAY_MS: '200', SYNC_RETRY_BASE_MS: '200', SYNC_ACK_WAIT_MS: '5000', ...options.bankingEnv },
  });

  const api: System['api'] = async (method, path, { body, token, workspace, headers = {} } = {}) => {
    const started = performance.now();
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(workspace ? { 'x-workspace-id': workspace } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed, ms };
  };

  const mailTo: System['mailTo'] = async (email, subject) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const res = await fetch(`${stack.mailbox.url}/api/messages?to=${encodeURIComponent(email)}`);
      const messages = (await res.json()) as MailMessage[];
      const found = messages.find((m) => subject.test(m.subject));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${email} matching ${subject} (have: ${messages.map((m) => m.subject).join('; ') || 'none'})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  return {
    ...stack,
    db,
    bankingDb,
    ledgerDb,
    reportingDb,
    bus,
    google,
    clock,
    api,
    mailTo,
    async codeFor(email) {
      const mail = await mailTo(email, /verification code/);
      const code = /^(\d{6}) /.exec(mail.subject)?.[1];
      if (!code) throw new Error(`no code in "${mail.subject}"`);
      return code;
    },
    async stop() {
      await stack.close();
      await google.close();
      await bus.close();
      await db.drop();
      await bankingDb?.drop();
      await ledgerDb?.drop();
      await reportingDb?.drop();
    },
  };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const PASSWORD = 'Sup3rSecret';

export const signUpBody = (email: string) => ({ firstName: 'Ada', middleName: 'K', lastName: 'Lovelace', companyName: 'Analytical Co', maxTeamSize: 5, email, password: PASSWORD });

export const onboardBody = { companyName: 'Analytical Co', maxTeamSize: 5, role: 'CFO', phoneNumber: '5551234567', city: 'Austin', country: 'US', heardAboutUs: 'Google' };

/** Signs up through the gateway and verifies the mailed code: an active, verified, not-yet-onboarded user. */
export async function signedUpUser(system: System, email = uniqueEmail()): Promise<{ email: string; token: string; user: { id: string; workspace: { id: string } } & Record<string, unknown> }> {
  const signup = await system.api('POST', '/signup', { body: signUpBody(email) });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const code = await system.codeFor(email);
  const verified = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, code, sessionToken: signup.body.sessionToken } });
  if (verified.status !== 200) throw new Error(`authenticate-otp answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  return { email, token: verified.body.sessionToken, user: verified.body.user };
}
