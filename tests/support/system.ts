// The product as a user reaches it, for API and browser tests: a fresh identity database, real NATS, the
// mailbox over SMTP, identity, the gateway and (optionally) the built web app, all on free ports.
import { createTestBus, createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { DEVELOPMENT_SERVICE_TOKEN_KEY, SERVICES, type ServiceName } from '@ledgerline/platform';
import type { MailMessage } from '@ledgerline/mailbox';
import type { DestinationStream } from 'pino';
import { startNatsProcess } from '../../scripts/lib/nats-process.js';
import { DEFAULT_PORTS, loadService, startStack, type Stack } from '../../scripts/lib/stack.js';

export const GOOGLE_CLIENT_ID = 'system-test-client';

export interface System extends Stack {
  db: TestDatabase;
  bankingDb: TestDatabase | null;
  ledgerDb: TestDatabase | null;
  reportingDb: TestDatabase | null;
  /** Each running service's test database, by name. */
  databases: Partial<Record<ServiceName, TestDatabase>>;
  /** The bus the services share: tests publish events of services that do not run (e.g. banking's) on it. */
  bus: Awaited<ReturnType<typeof createTestBus>>;
  /** The service-to-service token key handed to the gateway and every service of this system. */
  serviceTokenKey: string;
  /** Moves identity's clock forward (codes and sessions expire by it). */
  clock: { offsetMs: number };
  /** Calls the gateway like the web app does. */
  api(method: string, path: string, options?: { body?: unknown; token?: string; workspace?: string; headers?: Record<string, string> }): Promise<ApiAnswer>;
  /** The newest mail to `email` whose subject matches, read from the mailbox's JSON API. */
  mailTo(email: string, subject: RegExp): Promise<MailMessage>;
  /** Crashes (SIGKILL) and starts again the system's own NATS server (`ownNats`). */
  killNats(): Promise<void>;
  startNats(): Promise<void>;
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

/**
 * Identity always runs; `banking: true` (with the Plaid sandbox), `integrations: true` (with the QuickBooks sandbox), `ledger: true`, `reporting: true` (it needs
 * the ledger), and so on for every service of the registry, also run it, each on a fresh database.
 */
export type SystemOptions = Partial<Record<Exclude<ServiceName, 'identity'>, boolean>> & {
  web?: boolean;
  identityEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  bankingEnv?: Record<string, string>;
  /** Settings of the firm service (e.g. its mail outbox's retry timing). */
  firmEnv?: Record<string, string>;
  /** Settings of the documents service (e.g. its uploads sweeper's timing). */
  documentsEnv?: Record<string, string>;
  /**
   * The service-to-service token key (SERVICE_TOKEN_KEY) of the gateway and every service; the development
   * key when unset, so a test that builds another gateway or client with default settings can call in.
   */
  serviceTokenKey?: string;
  /**
   * A NATS server of this system's own (a separate process, dist layer only), which `killNats` and `startNats`
   * crash and restart (the chaos test); the machine's shared server otherwise.
   */
  ownNats?: boolean;
  /** Captures every service's and the gateway's log lines at `level` (the log-redaction test). */
  logs?: { level: 'trace' | 'debug' | 'info'; destination: DestinationStream };
};

/**
 * Every service of the registry: the tests that walk every documented route (bad input, two tenants, security
 * headers) start them all, so a service added later (e.g. by `npm run new:service`) is covered without an edit.
 */
export const EVERY_SERVICE = Object.fromEntries(SERVICES.filter((s) => s.name !== 'identity').map((s) => [s.name, true])) as Partial<
  Record<Exclude<ServiceName, 'identity'>, boolean>
>;

export async function startSystem(options: SystemOptions = {}): Promise<System> {
  const databases: Partial<Record<ServiceName, TestDatabase>> = {};
  await Promise.all(
    SERVICES.filter((entry) => entry.name === 'identity' || options[entry.name]).map(async (entry) => {
      databases[entry.name] = await createTestDatabase(entry.name, (await loadService(entry)).migrations);
    }),
  );
  const db = databases.identity!;
  const bankingDb = databases.banking ?? null;
  const ledgerDb = databases.ledger ?? null;
  const reportingDb = databases.reporting ?? null;
  const dist = process.env.LEDGERLINE_STACK === 'dist';
  if (options.ownNats && !dist) throw new Error('ownNats: the services must be processes to reach another NATS server (LEDGERLINE_STACK=dist)');
  const nats = options.ownNats ? await startNatsProcess() : null;
  const bus = await createTestBus('system', nats?.url);
  const clock = { offsetMs: 0 };
  const serviceTokenKey = options.serviceTokenKey ?? DEVELOPMENT_SERVICE_TOKEN_KEY;
  const stack = await startStack({
    serviceTokenKey,
    googleClientId: GOOGLE_CLIENT_ID,
    databases: { identity: db.appUrl, ...Object.fromEntries(Object.entries(databases).map(([name, d]) => [name, d.appUrl])) },
    bus,
    ports: Object.fromEntries(Object.keys(DEFAULT_PORTS).map((name) => [name, 0])),
    web: options.web,
    // SYSTEM_LOG_LEVEL=warn shows the services' logs when a test needs explaining.
    logLevel: options.logs?.level ?? (process.env.SYSTEM_LOG_LEVEL as 'warn' | undefined) ?? 'silent',
    logDestination: options.logs?.destination,
    nodeEnv: 'test',
    now: () => new Date(Date.now() + clock.offsetMs),
    // The dist layer (vitest.config.ts) runs the same tests against the built services, each its own process.
    processes: dist ? { namespace: bus.namespace, natsUrl: nats?.url } : undefined,
    env: {
      identity: { OTP_RESEND_SECONDS: '0', ...options.identityEnv },
      // argon2id on a busy 2-core machine can take longer than the production deadline (1.5 s); tests that
      // check the deadline itself set it back (tests/api/gateway.test.ts).
      gateway: { IDENTITY_TIMEOUT_MS: '10000', SERVICE_TIMEOUT_MS: '15000', ...options.gatewayEnv },
      // Webhook bursts are coalesced over 2 s in production; tests wait less.
      // A lease of 5 s hands a job whose worker stalled to another one quickly.
      banking: { WEBHOOK_SYNC_DELAY_MS: '200', SYNC_RETRY_BASE_MS: '200', SYNC_ACK_WAIT_MS: '5000', ...options.bankingEnv },
      firm: { ...options.firmEnv },
      documents: { ...options.documentsEnv },
    },
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

  currentMailboxUrl = stack.mailbox.url;
  const mailTo: System['mailTo'] = async (email, subject) => {
    const deadline = Date.now() + 5_000;
    // Identity sends mail through its mail outbox after the answer: first let the mail to this address that
    // is still to be sent leave, so "the newest mail" is the one the last request wrote.
    for (;;) {
      const [pending] = (
        await db.adminDb.raw('select count(*)::int as n from mail_outbox where "to" = ? and sent_at is null and next_attempt_at is not null', [
          email.toLowerCase(),
        ])
      ).rows as { n: number }[];
      if (!pending?.n || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 20));
    }
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
    databases,
    bus,
    clock,
    serviceTokenKey,
    api,
    mailTo,
    async killNats() {
      if (!nats) throw new Error('killNats: start the system with ownNats');
      await nats.kill();
    },
    async startNats() {
      if (!nats) throw new Error('startNats: start the system with ownNats');
      await nats.start();
    },
    async codeFor(email) {
      const mail = await mailTo(email, /verification code/);
      const code = /^(\d{6}) /.exec(mail.subject)?.[1];
      if (!code) throw new Error(`no code in "${mail.subject}"`);
      return code;
    },
    async stop() {
      await stack.close();
      await bus.close();
      await nats?.close();
      await Promise.all(Object.values(databases).map((d) => d.drop()));
    },
  };
}

let counter = 0;
/** The mailbox of the system this test file started last (browser helpers read sign-in codes from it). */
export let currentMailboxUrl: string | null = null;

export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const PASSWORD = 'Sup3rSecret';

export const signUpBody = (email: string) => ({
  firstName: 'Ada',
  middleName: 'K',
  lastName: 'Lovelace',
  companyName: 'Analytical Co',
  maxTeamSize: 5,
  email,
  password: PASSWORD,
});

export const onboardBody = {
  companyName: 'Analytical Co',
  maxTeamSize: 5,
  role: 'CFO',
  phoneNumber: '5551234567',
  city: 'Austin',
  country: 'US',
  heardAboutUs: 'Google',
};

/** Signs up through the gateway and verifies the mailed code: an active, verified, not-yet-onboarded user. */
export async function signedUpUser(
  system: System,
  email = uniqueEmail(),
): Promise<{ email: string; token: string; deviceToken: string; user: { id: string; workspace: { id: string } } & Record<string, unknown> }> {
  const signup = await system.api('POST', '/signup', { body: signUpBody(email) });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const code = await system.codeFor(email);
  const verified = await system.api('POST', '/authenticate-otp', { body: { methodId: signup.body.methodId, code, sessionToken: signup.body.sessionToken } });
  if (verified.status !== 200) throw new Error(`authenticate-otp answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  // deviceToken: this "device" passed a code check, so a /login sending it signs straight in for 30 days.
  return { email, token: verified.body.sessionToken, deviceToken: verified.body.deviceToken, user: verified.body.user };
}
