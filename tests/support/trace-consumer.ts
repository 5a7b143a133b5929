// A consumer process of its own (run with the platform's instrumentation): prints the id of every
// user.signed_up it handles, so a test can see the trace reach a consumer across NATS.
import { baseConfigSchema, connectBus, createDb, createLogger, EventType, loadConfig, startConsumer } from '@ledgerline/platform';

const config = loadConfig(baseConfigSchema);
const databaseUrl = process.env.CONSUMER_DATABASE_URL;
if (!databaseUrl) throw new Error('CONSUMER_DATABASE_URL is required');
const logger = createLogger('trace-consumer', 'warn');
const db = createDb({ url: databaseUrl });
const bus = await connectBus({ kind: 'nats', url: config.NATS_URL, name: 'trace-consumer', logger, namespace: config.NATS_NAMESPACE });
await startConsumer({
  name: 'trace-consumer',
  types: [EventType.UserSignedUp],
  db,
  bus,
  logger,
  handle: async (_trx, event) => {
    process.stdout.write(`consumed ${event.id}\n`);
  },
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void bus
    .close()
    .then(() => db.destroy())
    .then(() => process.exit(0));
});
