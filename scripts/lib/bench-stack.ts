// The product for a benchmark, as deployed: identity, the ledger, reporting and the gateway each in its
// own Node process, on named databases and a NATS namespace of their own that outlive the run, so a data
// set that took long to generate is generated once and reused. The mailbox (sign-up codes) runs here.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  createDb,
  createLogger,
  dropDatabase,
  GATEWAY,
  NatsEventBus,
  SERVICES as REGISTRY,
  serviceEnvNames,
  urlSetting,
  withDatabase,
  withUser,
} from '@ledgerline/platform';
import { startMailbox, type Mailbox, type MailMessage } from '@ledgerline/mailbox';
import { startServiceProcess, type ServiceProcess } from './processes.js';
import { freePort, loadService } from './stack.js';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// Local-only credentials of the application roles (trust auth ignores them), as `npm start` uses.
const APP_PASSWORD = 'ledgerline-dev';
/** The registry's services a benchmark runs (banking's Plaid feed is benchmarked on its own). */
const SERVICES = ['identity', 'ledger', 'reporting'] as const;
type Service = (typeof SERVICES)[number];
const entryOf = (s: Service) => REGISTRY.find((e) => e.name === s)!;

export interface BenchDatabases {
  /** Runtime (application role) and owner URLs per service. */
  appUrl: Record<Service, string>;
  adminUrl: Record<Service, string>;
  namespace: string;
}

/** `ledgerline_bench_<name>_<service>` and the NATS namespace `bench<name>` (letters and digits only). */
export function benchDatabases(name: string): BenchDatabases {
  const db = (s: Service) => `ledgerline_bench_${name}_${s}`;
  const appUrl = Object.fromEntries(SERVICES.map((s) => [s, withDatabase(withUser(ADMIN_URL, `${entryOf(s).database}_app`, APP_PASSWORD), db(s))])) as Record<
    Service,
    string
  >;
  const adminUrl = Object.fromEntries(SERVICES.map((s) => [s, withDatabase(ADMIN_URL, db(s))])) as Record<Service, string>;
  return { appUrl, adminUrl, namespace: `bench${name.replace(/[^a-z0-9]/g, '')}` };
}

/** The marker a finished generation leaves on the reporting database (a JSON comment); null when absent. */
export async function readMarker<T>(dbs: BenchDatabases): Promise<T | null> {
  const admin = createDb({ url: ADMIN_URL, pool: { max: 1 } });
  try {
    const name = new URL(dbs.adminUrl.reporting).pathname.slice(1);
    const row = (await admin.raw("select shobj_description(oid, 'pg_database') as c from pg_database where datname = ?", [name])).rows[0] as
      { c: string | null } | undefined;
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
  for (const s of SERVICES) {
    const names = serviceEnvNames(s);
    await (await loadService(entryOf(s))).migrate({ ...process.env, LOG_LEVEL: 'warn', [names.databaseUrl]: dbs.appUrl[s], [names.adminUrl]: dbs.adminUrl[s] });
  }
}

export interface BenchStack {
  gatewayUrl: string;
  mailbox: Mailbox;
  processes: Map<string, ServiceProcess>;
  /** The run's SERVICE_TOKEN_KEY, for another process that calls a service (reporting's check command). */
  serviceTokenKey: string;
  /** Starts (again) one of the services; a no-op when it runs. */
  start(name: 'identity' | 'ledger' | 'reporting' | 'gateway'): Promise<void>;
  stopService(name: 'identity' | 'ledger' | 'reporting' | 'gateway'): Promise<void>;
  /** Signs up through the gateway and verifies the mailed code; answers the session and the workspace. */
  signUp(email: string, password: string): Promise<{ token: string; workspaceId: string }>;
  /** Password sign-in (with the mailed code when identity asks for one). */
  logIn(email: string, password: string): Promise<{ token: string; workspaceId: string }>;
  close(): Promise<void>;
}

export async function startBenchStack(
  dbs: BenchDatabases,
  options: { logDir: string; gatewayEnv?: Record<string, string>; reportingEnv?: Record<string, string> },
): Promise<BenchStack> {
  const mailbox = await startMailbox({ smtpPort: 0, httpPort: 0, host: '127.0.0.1' });
  const port: Record<Service | 'gateway', number> = {
    identity: await freePort(),
    ledger: await freePort(),
    reporting: await freePort(),
    gateway: await freePort(),
  };
  const url = (p: number) => `http://127.0.0.1:${p}`;
  // Production refuses the development service token key: each run shares a random one.
  const serviceTokenKey = randomBytes(32).toString('base64url');
  const common = { NODE_ENV: 'production', LOG_LEVEL: 'warn', NATS_URL, NATS_NAMESPACE: dbs.namespace, HOST: '127.0.0.1', SERVICE_TOKEN_KEY: serviceTokenKey };
  // Each service from its registry entry: its main, port, databases and the URLs of what it calls (among those running).
  const serviceSpec = (s: Service, env: Record<string, string> = {}) => {
    const names = serviceEnvNames(s);
    const calls = (entryOf(s).calls as readonly string[]).filter((c): c is Service => (SERVICES as readonly string[]).includes(c));
    return {
      entry: `${entryOf(s).dir}/src/main.ts`,
      env: {
        [names.port]: String(port[s]),
        [names.databaseUrl]: dbs.appUrl[s],
        [names.adminUrl]: dbs.adminUrl[s],
        ...Object.fromEntries(calls.map((c) => [urlSetting(c), url(port[c])])),
        ...env,
      },
    };
  };
  const specs = {
    identity: serviceSpec('identity', {
      SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}`,
      OTP_PEPPER: 'bench-only-otp-pepper-local',
      SUPPORT_HASH_SECRET: 'bench-only-support-secret-local',
      OTP_RESEND_SECONDS: '0',
    }),
    ledger: serviceSpec('ledger'),
    reporting: serviceSpec('reporting', options.reportingEnv),
    gateway: {
      entry: `${GATEWAY.dir}/src/main.ts`,
      env: { GATEWAY_PORT: String(port.gateway), ...Object.fromEntries(SERVICES.map((s) => [urlSetting(s), url(port[s])])), ...options.gatewayEnv },
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
    const res = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    // The documented session shapes, read field by field.
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> & { user?: { workspace?: { id: string } } } };
  };
  const mailTo = async (email: string) => (await (await fetch(`${mailbox.url}/api/messages?to=${encodeURIComponent(email)}`)).json()) as MailMessage[];
  // Mail leaves identity's outbox after the answer: the code is in the first mail beyond those counted before the call
  // (a time window could pick the sign-up code for a login made right after).
  const codeFor = async (email: string, seen: number): Promise<string> => {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const messages = await mailTo(email);
      if (messages.length > seen) {
        const newest = [...messages].sort((a, b) => new Date(b.date).getTime() - new Date(a.date).getTime())[0];
        const code = newest ? /^(\d{6}) /.exec(newest.subject)?.[1] : undefined;
        if (code) return code;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no code mailed to ${email}`);
  };
  const verify = async (email: string, answer: Record<string, unknown>, seen: number) => {
    const code = await codeFor(email, seen);
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
    gatewayUrl,
    mailbox,
    processes,
    serviceTokenKey,
    start,
    stopService,
    async signUp(email, password) {
      const seen = (await mailTo(email)).length;
      const r = await post('/signup', {
        firstName: 'Ada',
        middleName: 'K',
        lastName: 'Lovelace',
        companyName: 'Analytical Co',
        maxTeamSize: 5,
        email,
        password,
      });
      if (r.status !== 201) throw new Error(`signup answered ${r.status}: ${JSON.stringify(r.body)}`);
      return session(await verify(email, r.body, seen));
    },
    async logIn(email, password) {
      const seen = (await mailTo(email)).length;
      const r = await post('/login', { email, password });
      if (r.status !== 200) throw new Error(`login answered ${r.status}: ${JSON.stringify(r.body)}`);
      return session(r.body.user ? r.body : await verify(email, r.body, seen));
    },
    async close() {
      for (const name of ['gateway', 'reporting', 'ledger', 'identity'] as const) await stopService(name);
      await mailbox.close();
    },
  };
}

export const benchLogDir = (name: string) => join('.data', 'bench', name);
