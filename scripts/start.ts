// `npm start`: the whole product on this machine. Uses PostgreSQL and NATS where they answer on their
// usual ports, else starts an embedded PostgreSQL and Debian's nats-server (or, failing that, an
// in-process bus), creates and migrates each service's database, builds the web app, starts every
// service and prints the URL.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connectBus, createLogger, REMOTES, SERVICES, SHELL, serviceEnvNames, withDatabase, withUser, type ServiceName } from '@ledgerline/platform';
import { ensureNats, ensurePostgres, portOpen } from './lib/infra.js';
import { run } from './lib/run.js';
import { DEFAULT_PORTS, loadService, startStack, type StackPorts } from './lib/stack.js';

const DATA_DIR = '.data';
// Development-only credentials of the local application role (trust auth ignores it; embedded PostgreSQL checks it).
const APP_PASSWORD = 'ledgerline-dev';
const log = createLogger('start', 'info');

// PORT_OFFSET moves every port (a second copy, or the start-up test next to a running one).
const offset = Number(process.env.PORT_OFFSET ?? 0);
const ports = Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([name, port]) => [name, port + offset])) as unknown as StackPorts;

const busy = (await Promise.all(Object.entries(ports).map(async ([name, port]) => ((await portOpen(port)) ? `${name} (${port})` : null)))).filter(Boolean);
if (busy.length > 0) {
  console.error(`These ports are taken: ${busy.join(', ')}. Is Ledgerline already running? Stop it (or what holds the ports) and try again.`);
  process.exit(1);
}

const postgres = await ensurePostgres(DATA_DIR);
log.info(
  { source: postgres.source },
  postgres.source === 'server' ? 'PostgreSQL: using the server on 127.0.0.1:5432' : 'PostgreSQL: started an embedded server (data in .data/postgres)',
);
const nats = await ensureNats(DATA_DIR);
if (nats.kind === 'memory') {
  log.warn(
    "NATS: none on 127.0.0.1:4222 and no nats-server installed; using the in-process event bus (single-machine development only, events do not survive a restart). Install Debian's nats-server for the real thing.",
  );
} else {
  log.info(
    { source: nats.source },
    nats.source === 'server' ? 'NATS: using the server on 127.0.0.1:4222' : 'NATS: started nats-server with JetStream (data in .data/nats)',
  );
}

/** Creates (once) and migrates each registry service's database; answers the runtime URLs (the application roles). */
const databases: Partial<Record<ServiceName, string>> = {};
for (const entry of SERVICES) {
  const names = serviceEnvNames(entry.name);
  const appUrl = withDatabase(withUser(postgres.adminUrl, `${entry.database}_app`, APP_PASSWORD), entry.database);
  const applied = await (
    await loadService(entry)
  ).migrate({ ...process.env, LOG_LEVEL: 'warn', [names.databaseUrl]: appUrl, [names.adminUrl]: withDatabase(postgres.adminUrl, entry.database) });
  log.info({ applied: applied.length }, `${entry.name} database ready`);
  databases[entry.name] = appUrl;
}

/** Newest modification time under `dir` (files only; node_modules and dist skipped). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
const outputs = [`${SHELL.dir}/dist/index.html`, ...REMOTES.map((r) => `${r.dir}/dist/mf-manifest.json`)];
const webIsCurrent = outputs.every(existsSync) && Math.min(...outputs.map((f) => statSync(f).mtimeMs)) > newest('frontends');
if (webIsCurrent) {
  log.info('web app build is current');
} else {
  log.info('building the web app (shell + remotes)');
  await run('npm', ['run', 'build', '--silent', ...[...REMOTES, SHELL].flatMap((p) => ['-w', p.package])], { env: { NODE_ENV: 'production' } });
}

const bus = await connectBus({ kind: nats.kind, url: nats.url, name: 'ledgerline-dev', logger: log });
const stack = await startStack({ databases: { identity: databases.identity!, ...databases }, bus, ports, web: true, logLevel: 'info', nodeEnv: 'development' });

console.log(`
  Ledgerline is running.

    Web app     ${stack.webUrl}
    REST API    ${stack.gatewayUrl}   (OpenAPI: ${stack.gatewayUrl}/docs/json)
    Mailbox     ${stack.mailbox.url}   (sign-up codes and reset links land here)
    Plaid       ${stack.plaid?.url ?? '-'}   (the local Plaid sandbox: link First Platypus Bank from /connect-accounts)
    QuickBooks  ${stack.quickbooks?.url ?? '-'}   (the local QuickBooks Online sandbox the integrations service connects to; default company ${stack.quickbooks?.defaultRealmId ?? '-'})
    S3          ${stack.s3?.url ?? '-'}   (the local S3 sandbox: uploads' files, bucket ledgerline-documents)
    Stripe      ${stack.stripe?.url ?? '-'}   (the local Stripe sandbox: connect a generated business from /connect-stripe)

  Press Ctrl+C to stop.
`);

// Ctrl+C reaches npm, tsx and this process at once (and tsx relays it again): one stop; a signal more
// than 2 s into stopping forces the exit.
let stoppingSince = 0;
async function stop(): Promise<void> {
  if (stoppingSince) {
    if (Date.now() - stoppingSince > 2_000) process.exit(1);
    return;
  }
  stoppingSince = Date.now();
  await stack.close();
  await bus.close();
  await nats.stop();
  await postgres.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
