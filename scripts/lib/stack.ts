// The whole product on one machine, in one process: mailbox, Plaid sandbox, identity, banking, ledger,
// gateway and the built web app.
// `npm start` runs it on the usual ports; the API and browser tests run it on free ports against a fresh
// database, and stop and restart identity to check the gateway's behaviour when a service is down.
import { createServer } from 'node:net';
import { createLogger, type EventBus, type Logger } from '@ledgerline/platform';
import { startMailbox, type Mailbox } from '@ledgerline/mailbox';
import { buildGateway, gatewayConfigSchema } from '@ledgerline/gateway';
import { createIdentityService, identityConfigSchema, type IdentityService } from '@ledgerline/identity';
import { bankingConfigSchema, createBankingService } from '@ledgerline/banking';
import { createLedgerService, ledgerConfigSchema } from '@ledgerline/ledger';
import { createReportingService, reportingConfigSchema } from '@ledgerline/reporting';
import { startPlaidSandbox, type PlaidSandbox } from '@ledgerline/plaid-sandbox';
import type { FastifyInstance } from 'fastify';
import { startRemoteServer, startWebServer, type RunningServer } from '../../frontends/shell/server/serve.js';

export interface StackPorts {
  gateway: number;
  identity: number;
  web: number;
  settings: number;
  accounting: number;
  reports: number;
  smtp: number;
  mailbox: number;
  banking: number;
  ledger: number;
  reporting: number;
  plaid: number;
}

/** The ports `npm start` uses; documented in the README. */
export const DEFAULT_PORTS: StackPorts = { gateway: 4000, identity: 4101, web: 3000, settings: 3001, accounting: 3002, reports: 3003, smtp: 1025, mailbox: 8025, banking: 4102, ledger: 4103, reporting: 4104, plaid: 8090 };

export interface StackOptions {
  /** Identity's runtime connection (application role), on an already migrated database. */
  identityDatabaseUrl: string;
  /** Banking (with the Plaid sandbox it talks to) and the ledger run when their migrated databases are given. */
  bankingDatabaseUrl?: string;
  ledgerDatabaseUrl?: string;
  /** Reporting (balances from the ledger's events; asks the ledger for the chart) runs when its migrated database is given. */
  reportingDatabaseUrl?: string;
  bus: EventBus;
  /** 0 for any port picks a free one. */
  ports?: Partial<StackPorts>;
  /** Serve the built shell and its remotes (frontends/shell/dist, frontends/{settings,accounting,reports}/dist). */
  web?: boolean;
  /** Settings for identity beyond the stack's (e.g. GOOGLE_JWKS_URL, OTP_RESEND_SECONDS). */
  identityEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  bankingEnv?: Record<string, string>;
  logLevel?: 'info' | 'warn' | 'silent';
  nodeEnv?: 'development' | 'test';
  /** Browsers open the app on this host name (localhost keeps the shell's and gateway's origins alike). */
  publicHost?: string;
  /** Identity's clock (tests move it forward to expire codes and sessions). */
  now?: () => Date;
}

export interface Stack {
  gatewayUrl: string;
  identityUrl: string;
  webUrl: string | null;
  /** The web app's origin, which the gateway's CORS allows (also when the web app is not served). */
  webOrigin: string;
  settingsUrl: string | null;
  accountingUrl: string | null;
  reportsUrl: string | null;
  mailbox: Mailbox;
  /** The Plaid sandbox banking talks to (null when banking does not run). */
  plaid: PlaidSandbox | null;
  /** Stops identity (the gateway keeps running). */
  stopIdentity(): Promise<void>;
  /** Starts identity again on the same port. */
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
  const identityUrl = `http://127.0.0.1:${ports.identity}`;
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };

  try {
    const mailbox = await startMailbox({ smtpPort: ports.smtp, httpPort: ports.mailbox, host: '127.0.0.1' });
    closers.push(() => mailbox.close());

    const identityConfig = identityConfigSchema.parse({
      NODE_ENV: nodeEnv,
      LOG_LEVEL: level,
      IDENTITY_PORT: String(ports.identity),
      IDENTITY_DATABASE_URL: options.identityDatabaseUrl,
      SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}`,
      WEB_URL: webUrl,
      ...options.identityEnv,
    });
    const identityLogger: Logger = createLogger('identity', level);
    let identity: IdentityService | null = null;
    const startIdentity = async () => {
      if (identity) return;
      const service = await createIdentityService(identityConfig, { bus: options.bus, logger: identityLogger, now: options.now });
      await service.listen();
      identity = service;
    };
    const stopIdentity = async () => {
      const service = identity;
      identity = null;
      await service?.stop();
    };
    await startIdentity();
    closers.push(stopIdentity);

    let plaid: PlaidSandbox | null = null;
    if (options.bankingDatabaseUrl) {
      plaid = await startPlaidSandbox({ port: ports.plaid, host: '127.0.0.1' });
      closers.push(() => plaid!.close());
      const bankingConfig = bankingConfigSchema.parse({
        NODE_ENV: nodeEnv,
        LOG_LEVEL: level,
        BANKING_PORT: String(ports.banking),
        BANKING_DATABASE_URL: options.bankingDatabaseUrl,
        PLAID_BASE_URL: plaid.url,
        PLAID_CLIENT_ID: plaid.clientId,
        PLAID_SECRET: plaid.secret,
        PLAID_WEBHOOK_URL: `http://127.0.0.1:${ports.gateway}/plaid/webhook`,
        ...options.bankingEnv,
      });
      const banking = await createBankingService(bankingConfig, { bus: options.bus, logger: createLogger('banking', level) });
      await banking.listen();
      closers.push(() => banking.stop());
    }
    if (options.ledgerDatabaseUrl) {
      const ledgerConfig = ledgerConfigSchema.parse({ NODE_ENV: nodeEnv, LOG_LEVEL: level, LEDGER_PORT: String(ports.ledger), LEDGER_DATABASE_URL: options.ledgerDatabaseUrl });
      const ledger = await createLedgerService(ledgerConfig, { bus: options.bus, logger: createLogger('ledger', level) });
      await ledger.listen();
      closers.push(() => ledger.stop());
    }
    if (options.reportingDatabaseUrl) {
      const reportingConfig = reportingConfigSchema.parse({ NODE_ENV: nodeEnv, LOG_LEVEL: level, REPORTING_PORT: String(ports.reporting), REPORTING_DATABASE_URL: options.reportingDatabaseUrl, LEDGER_URL: `http://127.0.0.1:${ports.ledger}` });
      const reporting = await createReportingService(reportingConfig, { bus: options.bus, logger: createLogger('reporting', level) });
      await reporting.listen();
      closers.push(() => reporting.stop());
    }

    const gatewayConfig = gatewayConfigSchema.parse({
      NODE_ENV: nodeEnv,
      LOG_LEVEL: level,
      GATEWAY_PORT: String(ports.gateway),
      IDENTITY_URL: identityUrl,
      BANKING_URL: `http://127.0.0.1:${ports.banking}`,
      LEDGER_URL: `http://127.0.0.1:${ports.ledger}`,
      REPORTING_URL: `http://127.0.0.1:${ports.reporting}`,
      CORS_ORIGINS: [webUrl, `http://127.0.0.1:${ports.web}`].join(','),
      ...options.gatewayEnv,
    });
    const gateway: FastifyInstance = await buildGateway({ config: gatewayConfig, logger: createLogger('gateway', level) });
    await gateway.listen({ port: ports.gateway, host: '127.0.0.1' });
    closers.push(() => gateway.close());

    let web: RunningServer | null = null;
    let settings: RunningServer | null = null;
    let accounting: RunningServer | null = null;
    let reports: RunningServer | null = null;
    if (options.web) {
      settings = await startRemoteServer({ port: ports.settings, dir: new URL('../../frontends/settings/dist/', import.meta.url).pathname, host: '127.0.0.1' });
      closers.push(() => settings!.close());
      accounting = await startRemoteServer({ port: ports.accounting, dir: new URL('../../frontends/accounting/dist/', import.meta.url).pathname, host: '127.0.0.1' });
      closers.push(() => accounting!.close());
      reports = await startRemoteServer({ port: ports.reports, dir: new URL('../../frontends/reports/dist/', import.meta.url).pathname, host: '127.0.0.1' });
      closers.push(() => reports!.close());
      web = await startWebServer({
        port: ports.web,
        host: '127.0.0.1',
        apiUrl: gatewayUrl,
        settingsRemoteUrl: `http://${publicHost}:${ports.settings}`,
        accountingRemoteUrl: `http://${publicHost}:${ports.accounting}`,
        reportsRemoteUrl: `http://${publicHost}:${ports.reports}`,
        ...(plaid ? { plaid: { mode: 'sandbox' as const, sandboxUrl: `http://${publicHost}:${ports.plaid}` } } : {}),
      });
      closers.push(() => web!.close());
    }

    return {
      gatewayUrl,
      identityUrl,
      webUrl: web ? webUrl : null,
      webOrigin: webUrl,
      settingsUrl: settings ? `http://${publicHost}:${ports.settings}` : null,
      accountingUrl: accounting ? `http://${publicHost}:${ports.accounting}` : null,
      reportsUrl: reports ? `http://${publicHost}:${ports.reports}` : null,
      mailbox,
      plaid,
      stopIdentity,
      startIdentity,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
