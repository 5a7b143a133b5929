import type { ConnectRouter } from '@connectrpc/connect';
import {
  ConfigError,
  createWorkQueue,
  defineService,
  SecretCipher,
  type BaseOverrides,
  type EventBus,
  type Job,
  type Running,
  type ServiceContext,
  type Subscription,
  type WorkQueue,
} from '@ledgerline/platform';
import { integrationsConfigSchema, type IntegrationsConfig } from './config.js';
import { startBankDepositConsumer } from './events/bank-deposits.js';
import { integrationsRoutes } from './rpc/handlers.js';
import { QB_REVERSE_QUEUE, QB_SYNC_QUEUE } from './quickbooks/jobs.js';
import { quickBooksRoutes } from './quickbooks/rpc.js';
import type { QuickBooksImporter } from './quickbooks/reverse.js';
import type { QuickBooksSource } from './quickbooks/source.js';
import { integrationsMigrations } from './store/migrations.js';
import { stripeClient } from './stripe/client.js';
import { createUseCases, type IntegrationsUseCases } from './usecases/index.js';

export interface IntegrationsOverrides extends BaseOverrides {
  now?: () => Date;
  /** Failed deliveries of a bank event before it is dead-lettered (tests: fewer). */
  maxDeliver?: number;
  /** false: no sync workers in this process (tests drive the worker). */
  workers?: boolean;
  /** Tests: the worker stops dead after this many committed pages, as a killed process would. */
  crashAfterPages?: number;
  /** Tests: the QuickBooks worker stops dead after this many committed batches. */
  qbCrashAfterBatches?: number;
  /** Tests: where the QuickBooks sync reads entities (default: the ledger and parties services). */
  qbSource?: QuickBooksSource;
  /** Tests: where the reverse sync creates entities (default: the ledger and parties services). */
  qbImporter?: QuickBooksImporter;
}

/** Unfinished sync jobs are re-announced this often (a publish lost in a crash is not a lost job). */
const SWEEP_MS = 60_000;

function queueNamespace(bus: EventBus, configured: string): string {
  const ns = 'namespace' in bus ? (bus as { namespace?: unknown }).namespace : undefined;
  return typeof ns === 'string' ? ns : configured;
}

/** Refuses settings production must not start with: the development key for Stripe tokens at rest. */
export function assertIntegrationsConfig(config: IntegrationsConfig): void {
  if (config.NODE_ENV === 'production' && new SecretCipher(config.STRIPE_TOKEN_KEYS).usesDevelopmentKey()) {
    throw new ConfigError('STRIPE_TOKEN_KEYS: the development key cannot be used in production; set id:base64 of 32 random bytes');
  }
  if (config.NODE_ENV === 'production' && new SecretCipher(config.QUICKBOOKS_TOKEN_KEYS).usesDevelopmentKey()) {
    throw new ConfigError('QUICKBOOKS_TOKEN_KEYS: the development key cannot be used in production; set id:base64 of 32 random bytes');
  }
}

/** The integrations service: the Stripe connection, sync jobs on the `stripe-sync` work queue, Stripe webhooks. */
export const integrations = defineService({
  name: 'integrations',
  config: integrationsConfigSchema,
  migrations: integrationsMigrations,
  publishes: true,
  describe: (config) => ({ stripe: config.STRIPE_API_URL }),
  assertConfig: assertIntegrationsConfig,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<IntegrationsConfig, IntegrationsOverrides>) => {
    let queue: WorkQueue | undefined;
    let qbQueue: WorkQueue | undefined;
    let qbReverseQueue: WorkQueue | undefined;
    const useCases = createUseCases({
      db,
      config,
      logger,
      cipher: new SecretCipher(config.STRIPE_TOKEN_KEYS),
      qbCipher: new SecretCipher(config.QUICKBOOKS_TOKEN_KEYS),
      stripe: (key) => stripeClient(config, key),
      queue: () => queue,
      qbQueue: () => qbQueue,
      qbReverseQueue: () => qbReverseQueue,
      qbSource: overrides.qbSource,
      qbImporter: overrides.qbImporter,
      qbCrashAfterBatches: overrides.qbCrashAfterBatches,
      now: overrides.now,
      crashAfterPages: overrides.crashAfterPages,
    });
    let subscription: Subscription | undefined;
    let sweeper: NodeJS.Timeout | undefined;
    const sync: Job = {
      async start() {
        queue = await createWorkQueue(bus, {
          name: 'stripe-sync',
          ackWaitMs: config.STRIPE_SYNC_ACK_WAIT_MS,
          concurrency: 1,
          namespace: queueNamespace(bus, config.NATS_NAMESPACE),
          logger,
        });
        if (overrides.workers !== false) subscription = await queue.process((item) => useCases.worker.handle(item));
        await useCases.scheduler.sweep();
        sweeper = setInterval(() => void useCases.scheduler.sweep().catch((err: unknown) => logger.warn({ err }, 'Stripe sync sweep failed')), SWEEP_MS);
        sweeper.unref();
      },
      async stop() {
        if (sweeper) clearInterval(sweeper);
        await subscription?.stop();
        await queue?.close();
      },
    };
    // QuickBooks: the 'accounting-package sync' queue (decision 0045), its sweep re-announcing unfinished jobs.
    let qbSubscription: Subscription | undefined;
    let qbReverseSubscription: Subscription | undefined;
    let qbSweeper: NodeJS.Timeout | undefined;
    const qbSync: Job = {
      async start() {
        qbQueue = await createWorkQueue(bus, {
          name: QB_SYNC_QUEUE,
          ackWaitMs: config.QUICKBOOKS_SYNC_ACK_WAIT_MS,
          concurrency: 1,
          namespace: queueNamespace(bus, config.NATS_NAMESPACE),
          logger,
        });
        qbReverseQueue = await createWorkQueue(bus, {
          name: QB_REVERSE_QUEUE,
          ackWaitMs: config.QUICKBOOKS_SYNC_ACK_WAIT_MS,
          concurrency: 1,
          namespace: queueNamespace(bus, config.NATS_NAMESPACE),
          logger,
        });
        if (overrides.workers !== false) {
          qbSubscription = await qbQueue.process((item) => useCases.quickbooksJobs.handle(item));
          qbReverseSubscription = await qbReverseQueue.process((item) => useCases.quickbooksJobs.handle(item));
        }
        await useCases.quickbooksJobs.sweep();
        qbSweeper = setInterval(
          () => void useCases.quickbooksJobs.sweep().catch((err: unknown) => logger.warn({ err }, 'QuickBooks sync sweep failed')),
          SWEEP_MS,
        );
        qbSweeper.unref();
      },
      async stop() {
        if (qbSweeper) clearInterval(qbSweeper);
        await qbSubscription?.stop();
        await qbReverseSubscription?.stop();
        await qbQueue?.close();
        await qbReverseQueue?.close();
      },
    };
    const routes = (router: ConnectRouter): void => {
      integrationsRoutes(useCases)(router);
      quickBooksRoutes(useCases.quickbooks, useCases.quickbooksJobs)(router);
    };
    return {
      routes,
      consumers: [() => startBankDepositConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver })],
      jobs: [sync, qbSync],
      expose: { useCases },
    };
  },
});

export type IntegrationsService = Running<{ useCases: IntegrationsUseCases }, true>;
export const createIntegrationsService = (config: IntegrationsConfig, overrides: IntegrationsOverrides = {}): Promise<IntegrationsService> =>
  integrations.create(config, overrides);
