// The one list of what runs: backend services, the gateway, the web shell and its remotes, and the local
// helpers, each with its port under `npm start`, its package and folder, its database and its chart.
// `npm start`, the test and bench stacks, the gateway's upstream settings, the shell's remotes and the chart
// checks read it; adding a service or a remote starts here (docs/service-kit.md). Plain data, no imports:
// browser code and scripts read it as well as services.

export interface ServiceEntry {
  /** Lower-case letters; settings are named after it (LEDGER_PORT, LEDGER_DATABASE_URL, LEDGER_URL). */
  name: string;
  /** Its Connect port under `npm start` (and its settings' default). */
  port: number;
  /** The npm workspace; its index exports `service` (a defineService declaration). */
  package: string;
  dir: string;
  /** Its own PostgreSQL database; the application role is `<database>_app`, the owner runs migrations. */
  database: string;
  /** Its Helm chart (a dependency of charts/ledgerline). */
  chart: string;
  /** Services it calls (their `<NAME>_URL` setting is wired by the stacks). */
  calls: readonly string[];
}

export interface RemoteEntry {
  /** The Module Federation remote name and the key under the shell's config.json `remotes`. */
  name: string;
  port: number;
  package: string;
  dir: string;
}

export const SERVICES = [
  {
    name: 'identity',
    port: 4101,
    package: '@ledgerline/identity',
    dir: 'services/identity',
    database: 'ledgerline_identity',
    chart: 'charts/identity',
    calls: [],
  },
  { name: 'banking', port: 4102, package: '@ledgerline/banking', dir: 'services/banking', database: 'ledgerline_banking', chart: 'charts/banking', calls: [] },
  { name: 'ledger', port: 4103, package: '@ledgerline/ledger', dir: 'services/ledger', database: 'ledgerline_ledger', chart: 'charts/ledger', calls: [] },
  {
    name: 'reporting',
    port: 4104,
    package: '@ledgerline/reporting',
    dir: 'services/reporting',
    database: 'ledgerline_reporting',
    chart: 'charts/reporting',
    calls: ['ledger'],
  },
  { name: 'firm', port: 4105, package: '@ledgerline/firm', dir: 'services/firm', database: 'ledgerline_firm', chart: 'charts/firm', calls: [] },
  {
    name: 'parties',
    port: 4106,
    package: '@ledgerline/parties',
    dir: 'services/parties',
    database: 'ledgerline_parties',
    chart: 'charts/parties',
    calls: ['ledger'],
  },
  {
    name: 'documents',
    port: 4107,
    package: '@ledgerline/documents',
    dir: 'services/documents',
    database: 'ledgerline_documents',
    chart: 'charts/documents',
    calls: ['ledger', 'parties'],
  },
  {
    name: 'integrations',
    port: 4108,
    package: '@ledgerline/integrations',
    dir: 'services/integrations',
    database: 'ledgerline_integrations',
    chart: 'charts/integrations',
    calls: ['ledger', 'parties'],
  },
  {
    name: 'notifications',
    port: 4109,
    package: '@ledgerline/notifications',
    dir: 'services/notifications',
    database: 'ledgerline_notifications',
    chart: 'charts/notifications',
    calls: [],
  },
  { name: 'billing', port: 4110, package: '@ledgerline/billing', dir: 'services/billing', database: 'ledgerline_billing', chart: 'charts/billing', calls: [] },
] as const satisfies readonly ServiceEntry[];

export const REMOTES = [
  { name: 'settings', port: 3001, package: '@ledgerline/settings', dir: 'frontends/settings' },
  { name: 'accounting', port: 3002, package: '@ledgerline/accounting', dir: 'frontends/accounting' },
  { name: 'reports', port: 3003, package: '@ledgerline/reports', dir: 'frontends/reports' },
] as const satisfies readonly RemoteEntry[];

/** The REST gateway (calls every service) and the web shell. */
export const GATEWAY = { name: 'gateway', port: 4000, package: '@ledgerline/gateway', dir: 'services/gateway', chart: 'charts/gateway' } as const;
export const SHELL = { name: 'web', port: 3000, package: '@ledgerline/shell', dir: 'frontends/shell' } as const;

/** Local stand-ins of outside systems: the mailbox (SMTP in, JSON/HTML out), the Plaid, QuickBooks, S3 and Stripe sandboxes. */
export const HELPER_PORTS = { smtp: 1025, mailbox: 8025, plaid: 8090, quickbooks: 8092, s3: 9000, google: 9010, stripe: 12111 } as const;

export type ServiceName = (typeof SERVICES)[number]['name'];
export type RemoteName = (typeof REMOTES)[number]['name'];

/** Every port `npm start` takes, by name. */
export type PortName = ServiceName | RemoteName | 'gateway' | 'web' | keyof typeof HELPER_PORTS;
export const DEFAULT_PORTS = Object.fromEntries([
  ...SERVICES.map((s) => [s.name, s.port]),
  ...REMOTES.map((r) => [r.name, r.port]),
  [GATEWAY.name, GATEWAY.port],
  [SHELL.name, SHELL.port],
  ...Object.entries(HELPER_PORTS),
]) as Record<PortName, number>;

export const serviceNames = (): ServiceName[] => SERVICES.map((s) => s.name);
export const remoteNames = (): RemoteName[] => REMOTES.map((r) => r.name);

/** The setting that holds the URL of a service for its callers: `LEDGER_URL`. */
export const urlSetting = (name: string): string => `${name.toUpperCase()}_URL`;

/** A service's address on this machine under `npm start`. */
export function localUrl(name: ServiceName | 'gateway'): string {
  const port = name === 'gateway' ? GATEWAY.port : SERVICES.find((s) => s.name === name)!.port;
  return `http://127.0.0.1:${port}`;
}
