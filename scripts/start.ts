// `npm start`: the whole product on this machine. Uses PostgreSQL and NATS where they answer on their
// usual ports, else starts an embedded PostgreSQL and Debian's nats-server (or, failing that, an
// in-process bus), creates and migrates each service's database, builds the web app, starts every
// service and prints the URL.
import { connectBus, createLogger, withDatabase, withUser } from '@ledgerline/platform';
import { migrateIdentity } from '@ledgerline/identity';
import { ensureNats, ensurePostgres, portOpen } from './lib/infra.js';
import { run } from './lib/run.js';
import { DEFAULT_PORTS, startStack } from './lib/stack.js';

const DATA_DIR = '.data';
// Development-only credentials of the local application role (trust auth ignores it; embedded PostgreSQL checks it).
const APP_PASSWORD = 'ledgerline-dev';
const log = createLogger('start', 'info');

const busy = (await Promise.all(Object.entries(DEFAULT_PORTS).map(async ([name, port]) => ((await portOpen(port)) ? `${name} (${port})` : null)))).filter(Boolean);
if (busy.length > 0) {
  console.error(`These ports are taken: ${busy.join(', ')}. Is Ledgerline already running? Stop it (or what holds the ports) and try again.`);
  process.exit(1);
}

const postgres = await ensurePostgres(DATA_DIR);
log.info({ source: postgres.source }, postgres.source === 'server' ? 'PostgreSQL: using the server on 127.0.0.1:5432' : 'PostgreSQL: started an embedded server (data in .data/postgres)');
const nats = await ensureNats(DATA_DIR);
if (nats.kind === 'memory') {
  log.warn('NATS: none on 127.0.0.1:4222 and no nats-server installed; using the in-process event bus (single-machine development only, events do not survive a restart). Install Debian\'s nats-server for the real thing.');
} else {
  log.info({ source: nats.source }, nats.source === 'server' ? 'NATS: using the server on 127.0.0.1:4222' : 'NATS: started nats-server with JetStream (data in .data/nats)');
}

const identityDatabaseUrl = withDatabase(withUser(postgres.adminUrl, 'ledgerline_identity_app', APP_PASSWORD), 'ledgerline_identity');
const applied = await migrateIdentity({
  ...process.env,
  LOG_LEVEL: 'warn',
  IDENTITY_DATABASE_URL: identityDatabaseUrl,
  IDENTITY_DATABASE_ADMIN_URL: withDatabase(postgres.adminUrl, 'ledgerline_identity'),
});
log.info({ applied: applied.length }, 'identity database ready');

log.info('building the web app (shell + settings remote)');
await run('npm', ['run', 'build', '--silent', '-w', '@ledgerline/settings', '-w', '@ledgerline/shell'], { env: { NODE_ENV: 'production' } });

const bus = await connectBus({ kind: nats.kind, url: nats.url, name: 'ledgerline-dev', logger: log });
const stack = await startStack({ identityDatabaseUrl, bus, web: true, logLevel: 'info', nodeEnv: 'development' });

console.log(`
  Ledgerline is running.

    Web app     ${stack.webUrl}
    REST API    ${stack.gatewayUrl}   (OpenAPI: ${stack.gatewayUrl}/docs/json)
    Mailbox     ${stack.mailbox.url}   (sign-up codes and reset links land here)

  Press Ctrl+C to stop.
`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) process.exit(1);
  stopping = true;
  await stack.close();
  await bus.close();
  await nats.stop();
  await postgres.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
