import { connectBus, createDb, createLogger, createServiceServer, createWorkQueue, OutboxRelay, type EventBus, type Knex, type Logger, type Subscription, type WorkQueue } from '@ledgerline/platform';
import type { FastifyInstance } from 'fastify';
import type { BankingConfig } from './config.js';
import { createPlaidClient, type PlaidClient } from './plaid/client.js';
import { PlaidWebhookVerifier } from './plaid/webhook.js';
import { bankingRoutes } from './rpc/handlers.js';
import { AccountUseCases } from './usecases/accounts.js';
import type { BankingDeps } from './usecases/context.js';
import { JobScheduler } from './usecases/jobs.js';
import { SyncWorker } from './usecases/sync.js';
import { WebhookUseCases } from './usecases/webhooks.js';

export interface BankingService {
  server: FastifyInstance;
  accounts: AccountUseCases;
  scheduler: JobScheduler;
  worker: SyncWorker;
  relay: OutboxRelay;
  db: Knex;
  bus: EventBus;
  /** Starts the relay, the sync workers and the server; returns the base URL. */
  listen(): Promise<string>;
  stop(): Promise<void>;
}

export interface BankingOverrides {
  db?: Knex;
  bus?: EventBus;
  plaid?: PlaidClient;
  logger?: Logger;
  now?: () => Date;
  /** Run no sync workers in this process (the API only). */
  workers?: boolean;
}

/**
 * The namespace of the work queue: the bus's own when it has one (a test bus from createTestBus, handed in
 * as an override, carries it), else the configured NATS_NAMESPACE. Two deployments sharing a queue would
 * take each other's jobs.
 */
function queueNamespace(bus: EventBus, configured: string): string {
  const ns = 'namespace' in bus ? (bus as { namespace?: unknown }).namespace : undefined;
  return typeof ns === 'string' ? ns : configured;
}

/** Unfinished jobs are re-announced this often (a publish lost in a crash is not a lost job). */
const SWEEP_MS = 60_000;

/** Wires the banking service: database, bus, outbox relay, Plaid client, sync work queue and workers, Connect server. */
export async function createBankingService(config: BankingConfig, overrides: BankingOverrides = {}): Promise<BankingService> {
  const logger = overrides.logger ?? createLogger('banking', config.LOG_LEVEL);
  const db = overrides.db ?? createDb({ url: config.BANKING_DATABASE_URL, applicationName: 'banking' });
  const bus = overrides.bus ?? (await connectBus({ kind: config.EVENT_BUS, url: config.NATS_URL, name: 'banking', logger, namespace: config.NATS_NAMESPACE }));
  const plaid = overrides.plaid ?? createPlaidClient({ baseUrl: config.PLAID_BASE_URL, clientId: config.PLAID_CLIENT_ID, secret: config.PLAID_SECRET, timeoutMs: config.PLAID_TIMEOUT_MS });
  let queue: WorkQueue | undefined;
  const deps: BankingDeps = { db, config, plaid, logger, queue: () => queue, now: overrides.now };
  const scheduler = new JobScheduler(deps);
  const accounts = new AccountUseCases(deps, scheduler);
  const worker = new SyncWorker(deps);
  const webhooks = new WebhookUseCases(deps, scheduler, new PlaidWebhookVerifier(plaid, { keyCacheMs: config.WEBHOOK_KEY_CACHE_MS, now: overrides.now ? () => overrides.now!().getTime() : undefined }));
  const relay = new OutboxRelay({ db, bus, logger });
  const server = await createServiceServer({
    name: 'banking',
    logger,
    routes: bankingRoutes({ accounts, scheduler, webhooks }),
    readiness: { database: () => db.raw('select 1') },
  });
  let subscription: Subscription | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  return {
    server, accounts, scheduler, worker, relay, db, bus,
    async listen() {
      await relay.start();
      queue = await createWorkQueue(bus, { name: 'transaction-sync', ackWaitMs: config.SYNC_ACK_WAIT_MS, concurrency: config.SYNC_CONCURRENCY, namespace: queueNamespace(bus, config.NATS_NAMESPACE), logger });
      if (overrides.workers !== false) subscription = await queue.process((item) => worker.handle(item));
      await scheduler.sweep();
      sweeper = setInterval(() => void scheduler.sweep().catch((err: unknown) => logger.warn({ err }, 'sync job sweep failed')), SWEEP_MS);
      sweeper.unref();
      return server.listen({ port: config.BANKING_PORT, host: config.HOST });
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      await server.close();
      await subscription?.stop();
      await queue?.close();
      await relay.stop();
      if (!overrides.bus) await bus.close();
      if (!overrides.db) await db.destroy();
    },
  };
}
