// The product for a benchmark, as deployed: identity, the ledger, reporting and the gateway each in its
// own Node process, on named databases and a NATS namespace of their own that outlive the run, so a data
// set that took long to generate is generated once and reused. The mailbox (sign-up codes) runs here.
import { join } from 'node:path';
import { createDb, createLogger, dropDatabase, NatsEventBus, withDatabase, withUser } from '@ledgerline/platform';
import { migrateIdentity } from '@ledgerline/identity';
import { migrateLedger } from '@ledgerline/ledger';
import { migrateReporting } from '@ledgerline/reporting';
import { startMailbox, type Mailbox, type MailMessage } from '@ledgerline/mailbox';
import { startServiceProcess, type ServiceProcess } from './processes.js';
import { freePort } from './stack.js';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// Local-only credentials of the application roles (trust auth ignores them), as `npm start` uses.
const APP_PASSWORD = 'ledgerline-dev';
const SERVICES = ['identity', 'ledger', 'reporting'] as const;
type Service = (typeof SERVICES)[number];

export interface BenchDatabases {
  /** Runtime (application role) and owner URLs per service. */
  appUrl: Record<Service, string>;
  adminUrl: Record<Service, string>;
  namespace: string;
}

/** `ledgerline_bench_<name>_<service>` and the NATS namespace `bench<name>` (letters and digits only). */
export function benchDatabases(name: string): BenchDatabases {
  const db = (s: Service) => `ledgerline_bench_${name}_${s}`;
  const appUrl = Object.fromEntries(SERVICES.map((s) => [s, withDatabase(withUser(ADMIN_URL, `ledgerline_${s}_app`, APP_PASSWORD), db(s))])) as Record<Service, string>;
  const adminUrl = Object.fromEntries(SERVICES.map((s) => [s, withDatabase(ADMIN_URL, db(s))])) as Record<Service, string>;
  return { appUrl, adminUrl, namespace: `bench${name.replace(/[^a-z0-9]/g, '')}` };
}

/** The marker a finished generation leaves on the reporting database (a JSON comment); null when absent. */
export async function readMarker<T>(dbs: BenchDatabases): Promise<T | null> {
  const admin = createDb({ url: ADMIN_URL, pool: { max: 1 } });
  try {
    const name = new URL(dbs.adminUrl.reporting).pathname.slice(1);
    const row = (await admin.raw("select shobj_description(oid, 'pg_database') as c from pg_database where datname = ?", [name])).rows[0] as { c: string | null } | undefined;
    if (!row?.c) return null;
    try {
      return JSON.parse(row.c) as T;
    } catch {
      return null;
    }
  } finally {
    await admin.destroy();
  }
}

export async function writeMarker(dbs: BenchDatabases, marker: unknown): Promise<void> {
  const admin = createDb({ url: ADMIN_URL, pool: { max: 1 } });
  try {
    const name = new URL(dbs.adminUrl.reporting).pathname.slice(1);
    await admin.raw(`comment on database "${name}" is '${JSON.stringify(marker).replaceAll("'", "''")}'`);
  } finally {
    await admin.destroy();
  }
}

/** Drops the databases and the namespace's streams (a data set of another generator version or size). */
export async function dropBenchData(dbs: BenchDatabases): Promise<void> {
  for (const s of SERVICES) await dropDatabase(ADMIN_URL, new URL(dbs.adminUrl[s]).pathname.slice(1));
  const bus = await NatsEventBus.connect({ url: NATS_URL, name: 'bench-reset', logger: createLogger('bench', 'warn'), namespace: dbs.namespace });
  try {
    await bus.deleteStreams();
  } finally {
    await bus.close();
  }
}

/** Creates (once) and migrates the three databases. */
export async function migrateBenchData(dbs: BenchDatabases): Promise<void> {
  const env = (s: Service) => ({ ...process.env, LOG_LEVEL: 'warn', [`${s.toUpperCase()}_DATABASE_URL`]: dbs.appUrl[s], [`${s.toUpperCase()}_DATABASE_ADMIN_URL`]: dbs.adminUrl[s] });
  await migrateIdentity(env('identity'));
  await migrateLedger(env('ledger'));
  await migrateReporting(env('reporting'));
}

export interface BenchStack {
  gatewayUrl: string;
  mailbox: Mailbox;
  processes: Map<string, ServiceProcess>;
  /** Starts (again) one of the services; a no-op when it runs. */
  start(name: 'identity' | 'ledger' | 'reporting' | 'gateway'): Promise<void>;
  stopService(name: 'identity' | 'ledger' | 'reporting' | 'gateway'): Promise<void>;
  /** Signs up through the gateway and verifies the mailed code; answers the session and the workspace. */
  signUp(email: string, password: string): Promise<{ token: string; workspaceId: string }>;
  /** Password sign-in (with the mailed code when identity asks for one). */
  logIn(email: string, password: string): Promise<{ token: string; workspaceId: string }>;
  close(): Promise<void>;
}

export async function startBenchStack(dbs: BenchDatabases, options: { logDir: string; gatewayEnv?: Record<string, string>; reportingEnv?: Record<string, string> }): Promise<BenchStack> {
  const mailbox = await startMailbox({ smtpPort: 0, httpPort: 0, host: '127.0.0.1' });
  const port = { identity: await freePort(), ledger: await freePort(), reporting: await freePort(), gateway: await freePort() };
  const url = (p: number) => `http://127.0.0.1:${p}`;
  const common = { NODE_ENV: 'production', LOG_LEVEL: 'warn', NATS_URL, NATS_NAMESPACE: dbs.namespace, HOST: '127.0.0.1' };
  const specs = {
    identity: { entry: 'services/identity/src/main.ts', env: { IDENTITY_PORT: String(port.identity), IDENTITY_DATABASE_URL: dbs.appUrl.identity, IDENTITY_DATABASE_ADMIN_URL: dbs.adminUrl.identity, SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}`, OTP_PEPPER: 'bench-only-otp-pepper-local', SUPPORT_HASH_SECRET: 'bench-only-support-secret-local', OTP_RESEND_SECONDS: '0' } },
    ledger: { entry: 'services/ledger/src/main.ts', env: { LEDGER_PORT: String(port.ledger), LEDGER_DATABASE_URL: dbs.appUrl.ledger, LEDGER_DATABASE_ADMIN_URL: dbs.adminUrl.ledger } },
    reporting: { entry: 'services/reporting/src/main.ts', env: { REPORTING_PORT: String(port.reporting), REPORTING_DATABASE_URL: dbs.appUrl.reporting, REPORTING_DATABASE_ADMIN_URL: dbs.adminUrl.reporting, LEDGER_URL: url(port.ledger), ...options.reportingEnv } },
    gateway: {
      entry: 'services/gateway/src/main.ts',
      env: { GATEWAY_PORT: String(port.gateway), IDENTITY_URL: url(port.identity), LEDGER_URL: url(port.ledger), REPORTING_URL: url(port.reporting), ...options.gatewayEnv },
    },
  };
  const processes = new Map<string, ServiceProcess>();
  const start: BenchStack['start'] = async (name) => {
    if (processes.has(name)) return;
    const spec = specs[name];
    processes.set(name, await startServiceProcess({ name, entry: spec.entry, env: { ...common, ...spec.env }, url: url(port[name]), logDir: options.logDir }));
  };
  const stopService: BenchStack['stopService'] = async (name) => {
    await processes.get(name)?.stop();
    processes.delete(name);
  };
  const gatewayUrl = url(port.gateway);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    // The documented session shapes, read field by field.
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> & { user?: { workspace?: { id: string } } } };
  };
  const codeFor = async (email: string, after: number): Promise<string> => {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const messages = (await (await fetch(`${mailbox.url}/api/messages?to=${encodeURIComponent(email)}`)).json()) as MailMessage[];
      const code = messages.filter((m) => new Date(m.date).getTime() >= after).map((m) => /^(\d{6}) /.exec(m.subject)?.[1]).find(Boolean);
      if (code) return code;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no code mailed to ${email}`);
  };
  const verify = async (email: string, answer: Record<string, unknown>, after: number) => {
    const code = await codeFor(email, after);
    const r = await post('/authenticate-otp', { methodId: answer.methodId, code, sessionToken: answer.sessionToken });
    if (r.status !== 200) throw new Error(`authenticate-otp answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const session = (b: Record<string, unknown> & { user?: { workspace?: { id: string } } }) => {
    const workspaceId = b.user?.workspace?.id;
    if (typeof b.sessionToken !== 'string' || !workspaceId) throw new Error(`no session in ${JSON.stringify(b)}`);
    return { token: b.sessionToken, workspaceId };
  };
  try {
    for (const name of ['identity', 'ledger', 'reporting', 'gateway'] as const) await start(name);
  } catch (err) {
    for (const p of processes.values()) await p.stop();
    await mailbox.close();
    throw err;
  }
  return {
    gatewayUrl, mailbox, processes, start, stopService,
    async signUp(email, password) {
      const after = Date.now() - 1_000;
      const r = await post('/signup', { firstName: 'Ada', middleName: 'K', lastName: 'Lovelace', companyName: 'Analytical Co', maxTeamSize: 5, email, password });
      if (r.status !== 201) throw new Error(`signup answered ${r.status}: ${JSON.stringify(r.body)}`);
      return session(await verify(email, r.body, after));
    },
    async logIn(email, password) {
      const after = Date.now() - 1_000;
      const r = await post('/login', { email, password });
      if (r.status !== 200) throw new Error(`login answered ${r.status}: ${JSON.stringify(r.body)}`);
      return session(r.body.user ? r.body : await verify(email, r.body, after));
    },
    async close() {
      for (const name of ['gateway', 'reporting', 'ledger', 'identity'] as const) await stopService(name);
      await mailbox.close();
    },
  };
}

export const benchLogDir = (name: string) => join('.data', 'bench', name);
