// The whole product on one machine, in one process: mailbox, Plaid, QuickBooks, S3 and Stripe sandboxes, every service of the registry
// (services/platform/src/kit/registry.ts) whose database is given, the gateway and the built web app.
// `npm start` runs it on the usual ports; the API and browser tests run it on free ports against a fresh
// database, and stop and restart identity to check the gateway's behaviour when a service is down.
import { createServer } from 'node:net';
import {
  createLogger,
  DEFAULT_PORTS,
  REMOTES,
  SERVICES,
  urlSetting,
  serviceEnvNames,
  type BaseOverrides,
  type DefinedService,
  type EventBus,
  type PortName,
  type RemoteName,
  type RunningParts,
  type ServiceEntry,
  type ServiceName,
} from '@ledgerline/platform';
import { startMailbox, type Mailbox } from '@ledgerline/mailbox';
import { buildGateway, gatewayConfigSchema } from '@ledgerline/gateway';
import { startPlaidSandbox, type PlaidSandbox } from '@ledgerline/plaid-sandbox';
import { startQuickBooksSandbox, type QuickBooksSandbox } from '@ledgerline/quickbooks-sandbox';
import { startS3Sandbox, type S3Sandbox } from '@ledgerline/s3-sandbox';
import { startStripeSandbox, type StripeSandbox } from '@ledgerline/stripe-sandbox';
import { startOidcSandbox, type OidcSandbox } from '@ledgerline/oidc-sandbox';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { startRemoteServer, startWebServer, type RunningServer } from '../../frontends/shell/server/serve.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

export type StackPorts = Record<PortName, number>;

/** The Google OAuth client of development and tests (identity's default GOOGLE_CLIENT_ID). */
export const GOOGLE_DEVELOPMENT_CLIENT_ID = 'ledgerline-local.apps.googleusercontent.com';

/** The signing secret of the Connect webhook endpoint the stack registers in the Stripe sandbox (development only). */
export const STRIPE_DEVELOPMENT_WEBHOOK_SECRET = 'whsec_ledgerline_development_only';

/** The signing secret of the platform's billing webhook endpoint in the Stripe sandbox (billing's development default). */
export const BILLING_DEVELOPMENT_WEBHOOK_SECRET = 'whsec_ledgerline_billing_development_only';

/** The ports `npm start` uses (the registry's); documented in the README. */
export { DEFAULT_PORTS };

/** A service as its package exports it (`service`, a defineService declaration). */
// The stack hands each service settings and overrides by name; their exact types live in each package.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyService = DefinedService<any, BaseOverrides & Record<string, unknown>, object>;

/** Loads a registry service's declaration from its package. */
export async function loadService(entry: ServiceEntry): Promise<AnyService> {
  const module = (await import(entry.package)) as { service?: AnyService };
  if (!module.service) throw new Error(`${entry.package} exports no \`service\` (see docs/service-kit.md)`);
  return module.service;
}

export interface StackOptions {
  /**
   * Runtime connections (application role) of already migrated databases: a service runs when its database
   * is given. Identity always runs; banking brings the Plaid sandbox it talks to, integrations the QuickBooks and Stripe sandboxes.
   */
  databases: { identity: string } & Partial<Record<ServiceName, string>>;
  bus: EventBus;
  /** 0 for any port picks a free one. */
  ports?: Partial<StackPorts>;
  /** Serve the built shell and its remotes (frontends/shell/dist and each remote's dist). */
  web?: boolean;
  /** The Google OAuth client id the web app signs in with and identity accepts ID tokens for (identity's default when unset). */
  googleClientId?: string;
  /** Settings of a service or the gateway beyond the stack's (e.g. identity's OTP_RESEND_SECONDS). */
  env?: Partial<Record<ServiceName | 'gateway', Record<string, string>>>;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'silent';
  /** Where every service's and the gateway's log lines go (tests capture them); stdout when unset. */
  logDestination?: DestinationStream;
  nodeEnv?: 'development' | 'test';
  /** Browsers open the app on this host name (localhost keeps the shell's and gateway's origins alike). */
  publicHost?: string;
  /** Identity's clock (tests move it forward to expire codes and sessions). */
  now?: () => Date;
  /** The key of service-to-service tokens shared by the gateway and every service (SERVICE_TOKEN_KEY); the development key when unset. */
  serviceTokenKey?: string;
  /**
   * Run every service and the gateway from its built `dist/` as a separate Node process, as the images run them,
   * calling each other over the network (the `dist` test layer). Needs `npm run build:services` first, and
   * `namespace` (the bus's NATS_NAMESPACE) so the processes' streams are the test's. Overrides (`now`) do not
   * reach another process. `natsUrl`: the NATS server of the processes (the machine's when unset).
   */
  processes?: { namespace: string; natsUrl?: string };
}

export interface Stack {
  gatewayUrl: string;
  identityUrl: string;
  /** Each running service's internal (Connect) URL, by name. */
  serviceUrls: Partial<Record<ServiceName, string>>;
  webUrl: string | null;
  /** The web app's origin, which the gateway's CORS allows (also when the web app is not served). */
  webOrigin: string;
  /** Each remote's base URL (null when the web app is not served). */
  remoteUrls: Record<RemoteName, string | null>;
  settingsUrl: string | null;
  accountingUrl: string | null;
  reportsUrl: string | null;
  mailbox: Mailbox;
  /** The Google sign-in (OpenID Connect) sandbox identity trusts and the web app's Google button goes to. */
  google: OidcSandbox;
  /** The Plaid sandbox banking talks to (null when banking does not run). */
  plaid: PlaidSandbox | null;
  /** The QuickBooks Online sandbox integrations talks to (null when integrations does not run). */
  quickbooks: QuickBooksSandbox | null;
  /** The S3 sandbox the documents service keeps uploads in (null when documents does not run). */
  s3: S3Sandbox | null;
  /** The Stripe sandbox integrations and billing talk to (null when neither runs). */
  stripe: StripeSandbox | null;
  /** Stops a running service (the gateway keeps running). */
  stopService(name: ServiceName): Promise<void>;
  /** Starts it again on the same port. */
  startService(name: ServiceName): Promise<void>;
  /**
   * Kills a service, or the gateway, with SIGKILL: no shutdown hook runs (the chaos tests). Only a stack of
   * `processes` can: an in-process service cannot be killed apart from the test.
   */
  killService(name: ServiceName | 'gateway'): Promise<void>;
  /** Starts the gateway again after killService('gateway'). */
  startGateway(): Promise<void>;
  stopIdentity(): Promise<void>;
  startIdentity(): Promise<void>;
  close(): Promise<void>;
}

/** A port nothing listens on now (for wiring URLs into each other before the servers start). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function resolvePorts(wanted: Partial<StackPorts>): Promise<StackPorts> {
  const merged = { ...DEFAULT_PORTS, ...wanted };
  const entries = await Promise.all(Object.entries(merged).map(async ([name, port]) => [name, port === 0 ? await freePort() : port] as const));
  return Object.fromEntries(entries) as unknown as StackPorts;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const ports = await resolvePorts(options.ports ?? {});
  const level = options.logLevel ?? 'info';
  const nodeEnv = options.nodeEnv ?? 'development';
  const publicHost = options.publicHost ?? 'localhost';
  const webUrl = `http://${publicHost}:${ports.web}`;
  const gatewayUrl = `http://${publicHost}:${ports.gateway}`;
  const internalUrl = (name: ServiceName) => `http://127.0.0.1:${ports[name]}`;
  const trust: Record<string, string> = options.serviceTokenKey ? { SERVICE_TOKEN_KEY: options.serviceTokenKey } : {};
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };

  try {
    const mailbox = await startMailbox({ smtpPort: ports.smtp, httpPort: ports.mailbox, host: '127.0.0.1' });
    closers.push(() => mailbox.close());
    // "Continue with Google": identity verifies the sandbox's ID tokens as it verifies Google's (its published keys, issuer, audience).
    const googleClientId = options.googleClientId ?? GOOGLE_DEVELOPMENT_CLIENT_ID;
    const google = await startOidcSandbox({ port: ports.google, host: '127.0.0.1', clientIds: [googleClientId] });
    closers.push(() => google.close());

    let plaid: PlaidSandbox | null = null;
    if (options.databases.banking) {
      plaid = await startPlaidSandbox({ port: ports.plaid, host: '127.0.0.1' });
      closers.push(() => plaid!.close());
    }
    let quickbooks: QuickBooksSandbox | null = null;
    if (options.databases.integrations) {
      quickbooks = await startQuickBooksSandbox({ port: ports.quickbooks, host: '127.0.0.1' });
      closers.push(() => quickbooks!.close());
    }
    let stripe: StripeSandbox | null = null;
    if (options.databases.integrations || options.databases.billing) {
      // Connect webhooks go to the gateway, signed with the development secret the service is given below; the
      // platform's own (the plans billing sells) to the gateway's billing webhook, signed with billing's.
      stripe = await startStripeSandbox({
        port: ports.stripe,
        host: '127.0.0.1',
        webhooks: [
          ...(options.databases.integrations
            ? [{ url: `http://127.0.0.1:${ports.gateway}/stripe-integrate/webhook`, secret: STRIPE_DEVELOPMENT_WEBHOOK_SECRET, connect: true }]
            : []),
          ...(options.databases.billing
            ? [{ url: `http://127.0.0.1:${ports.gateway}/billing/webhook`, secret: BILLING_DEVELOPMENT_WEBHOOK_SECRET, connect: false }]
            : []),
        ],
      });
      closers.push(() => stripe!.close());
    }
    let s3: S3Sandbox | null = null;
    if (options.databases.documents) {
      s3 = await startS3Sandbox({ port: ports.s3, host: '127.0.0.1', buckets: ['ledgerline-documents'] });
      closers.push(() => s3!.close());
    }
    // What the stack adds to a service's settings and overrides beyond its port, database and the URLs of what it calls.
    const extras: Partial<Record<ServiceName, { env: Record<string, string>; overrides?: Record<string, unknown> }>> = {
      identity: {
        env: {
          SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}`,
          WEB_URL: webUrl,
          GOOGLE_CLIENT_ID: googleClientId,
          GOOGLE_JWKS_URL: google.jwksUrl,
          GOOGLE_ISSUERS: google.issuer,
        },
        overrides: { now: options.now },
      },
      firm: { env: { SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}`, WEB_URL: webUrl }, overrides: { now: options.now } },
      notifications: { env: { SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}`, WEB_URL: webUrl } },
      ...(s3
        ? {
            documents: {
              env: {
                DOCUMENTS_S3_ENDPOINT: s3.url,
                DOCUMENTS_S3_REGION: s3.region,
                DOCUMENTS_S3_ACCESS_KEY_ID: s3.accessKeyId,
                DOCUMENTS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
                DOCUMENTS_S3_BUCKET: 'ledgerline-documents',
              },
            },
          }
        : {}),
      ...(stripe && quickbooks
        ? {
            integrations: {
              env: {
                QUICKBOOKS_ENVIRONMENT: 'sandbox',
                QUICKBOOKS_CLIENT_ID: quickbooks.clientId,
                QUICKBOOKS_CLIENT_SECRET: quickbooks.clientSecret,
                QUICKBOOKS_AUTHORIZE_URL: quickbooks.endpoints.authorizeEndpoint,
                QUICKBOOKS_TOKEN_URL: quickbooks.endpoints.tokenEndpoint,
                QUICKBOOKS_REVOKE_URL: quickbooks.endpoints.revokeEndpoint,
                QUICKBOOKS_USERINFO_URL: quickbooks.endpoints.userInfoEndpoint,
                QUICKBOOKS_API_BASE_URL: quickbooks.endpoints.v3EndpointBaseUrl,
                STRIPE_API_URL: stripe.url,
                STRIPE_SECRET_KEY: stripe.secretKey,
                STRIPE_CLIENT_ID: stripe.clientId,
                STRIPE_CONNECT_URL: stripe.url,
                STRIPE_WEBHOOK_SECRET: STRIPE_DEVELOPMENT_WEBHOOK_SECRET,
              },
            },
          }
        : {}),
      ...(stripe && options.databases.billing
        ? {
            billing: {
              env: {
                STRIPE_API_URL: stripe.url,
                STRIPE_SECRET_KEY: stripe.secretKey,
                BILLING_WEBHOOK_SECRET: BILLING_DEVELOPMENT_WEBHOOK_SECRET,
                WEB_URL: webUrl,
              },
            },
          }
        : {}),
      ...(plaid
        ? {
            banking: {
              env: {
                PLAID_BASE_URL: plaid.url,
                PLAID_CLIENT_ID: plaid.clientId,
                PLAID_SECRET: plaid.secret,
                PLAID_WEBHOOK_URL: `http://127.0.0.1:${ports.gateway}/plaid/webhook`,
              },
            },
          }
        : {}),
    };

    const running = new Map<ServiceName, RunningParts | ServiceProcess>();
    const starters = new Map<ServiceName, () => Promise<void>>();
    const starting: Promise<void>[] = [];
    for (const entry of SERVICES) {
      const databaseUrl = options.databases[entry.name];
      if (!databaseUrl) continue;
      const service = await loadService(entry);
      const names = serviceEnvNames(entry.name);
      const settings: Record<string, string> = {
        NODE_ENV: nodeEnv,
        LOG_LEVEL: level,
        ...trust,
        [names.port]: String(ports[entry.name]),
        [names.databaseUrl]: databaseUrl,
        ...Object.fromEntries((entry.calls as readonly ServiceName[]).map((called) => [urlSetting(called), internalUrl(called)])),
        ...extras[entry.name]?.env,
        ...options.env?.[entry.name],
      };
      const config = service.config.parse(settings);
      const logger = createLogger(entry.name, level, options.logDestination);
      const start = async () => {
        if (running.has(entry.name)) return;
        if (options.processes) {
          running.set(
            entry.name,
            await startServiceProcess({
              name: entry.name,
              dir: entry.dir,
              env: { ...settings, NATS_NAMESPACE: options.processes.namespace, ...(options.processes.natsUrl ? { NATS_URL: options.processes.natsUrl } : {}) },
              port: ports[entry.name],
            }),
          );
          return;
        }
        const instance = await service.create(config, { bus: options.bus, logger, ...extras[entry.name]?.overrides });
        await instance.listen();
        running.set(entry.name, instance);
      };
      starters.set(entry.name, start);
      closers.push(() => stopService(entry.name));
      // Processes start side by side (each waits for its own /readyz); in-process services one after another.
      if (options.processes) starting.push(start());
      else await start();
    }
    // Every start settles before a failure is thrown, so close() stops each process that did start.
    const failed = (await Promise.allSettled(starting)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    async function stopService(name: ServiceName): Promise<void> {
      const instance = running.get(name);
      running.delete(name);
      await instance?.stop();
    }
    const startService = async (name: ServiceName) => {
      const start = starters.get(name);
      if (!start) throw new Error(`${name} does not run in this stack (no database given)`);
      await start();
    };

    const gatewaySettings: Record<string, string> = {
      NODE_ENV: nodeEnv,
      LOG_LEVEL: level,
      ...trust,
      GATEWAY_PORT: String(ports.gateway),
      ...Object.fromEntries(SERVICES.map((s) => [urlSetting(s.name), internalUrl(s.name)])),
      CORS_ORIGINS: [webUrl, `http://127.0.0.1:${ports.web}`].join(','),
      ...options.env?.gateway,
    };
    let gatewayProcess: ServiceProcess | null = null;
    const startGateway = async () => {
      if (!options.processes) throw new Error('only a stack of processes restarts its gateway');
      if (gatewayProcess) return;
      gatewayProcess = await startServiceProcess({
        name: 'gateway',
        dir: 'services/gateway',
        // The live notification stream tails the test's streams (decision 0040).
        env: {
          ...gatewaySettings,
          HOST: '127.0.0.1',
          NATS_NAMESPACE: options.processes.namespace,
          ...(options.processes.natsUrl ? { NATS_URL: options.processes.natsUrl } : {}),
        },
        port: ports.gateway,
      });
    };
    const killService = async (name: ServiceName | 'gateway') => {
      if (!options.processes) throw new Error('only a stack of processes can kill a service (options.processes)');
      if (name === 'gateway') {
        await gatewayProcess?.kill();
        gatewayProcess = null;
        return;
      }
      const instance = running.get(name);
      running.delete(name);
      if (instance && 'kill' in instance) await instance.kill();
    };
    if (options.processes) {
      await startGateway();
      closers.push(async () => {
        await gatewayProcess?.stop();
        gatewayProcess = null;
      });
    } else {
      const gatewayConfig = gatewayConfigSchema.parse(gatewaySettings);
      const gateway: FastifyInstance = await buildGateway({
        config: gatewayConfig,
        logger: createLogger('gateway', level, options.logDestination),
        bus: options.bus,
      });
      await gateway.listen({ port: ports.gateway, host: '127.0.0.1' });
      closers.push(() => gateway.close());
    }

    const remoteUrls = Object.fromEntries(REMOTES.map((r) => [r.name, null])) as Record<RemoteName, string | null>;
    let web: RunningServer | null = null;
    if (options.web) {
      for (const remote of REMOTES) {
        const server = await startRemoteServer({
          port: ports[remote.name],
          dir: new URL(`../../${remote.dir}/dist/`, import.meta.url).pathname,
          host: '127.0.0.1',
        });
        closers.push(() => server.close());
        remoteUrls[remote.name] = `http://${publicHost}:${ports[remote.name]}`;
      }
      web = await startWebServer({
        port: ports.web,
        host: '127.0.0.1',
        apiUrl: gatewayUrl,
        remoteUrls: remoteUrls as Record<RemoteName, string>,
        ...(plaid ? { plaid: { mode: 'sandbox' as const, sandboxUrl: `http://${publicHost}:${ports.plaid}` } } : {}),
        google: { clientId: googleClientId, authorizationUrl: `http://${publicHost}:${ports.google}${new URL(google.authorizationUrl).pathname}` },
      });
      closers.push(() => web!.close());
    }

    return {
      gatewayUrl,
      identityUrl: internalUrl('identity'),
      serviceUrls: Object.fromEntries(SERVICES.filter((s) => options.databases[s.name]).map((s) => [s.name, internalUrl(s.name)])),
      webUrl: web ? webUrl : null,
      webOrigin: webUrl,
      remoteUrls,
      settingsUrl: remoteUrls.settings,
      accountingUrl: remoteUrls.accounting,
      reportsUrl: remoteUrls.reports,
      mailbox,
      google,
      plaid,
      quickbooks,
      s3,
      stripe,
      stopService,
      startService,
      killService,
      startGateway,
      stopIdentity: () => stopService('identity'),
      startIdentity: () => startService('identity'),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
