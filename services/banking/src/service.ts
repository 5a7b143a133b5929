import {
  ConfigError,
  createWorkQueue,
  defineService,
  type BaseOverrides,
  type EventBus,
  type Job,
  type Running,
  type ServiceContext,
  type Subscription,
  type WorkQueue,
} from '@ledgerline/platform';
import { bankingConfigSchema, type BankingConfig } from './config.js';
import { startPlanConsumer } from './events/plan-consumer.js';
import { createPlaidClient, type PlaidClient } from './plaid/client.js';
import { PlaidWebhookVerifier } from './plaid/webhook.js';
import { bankingRoutes } from './rpc/handlers.js';
import { bankingMigrations } from './store/migrations.js';
import { TokenCipher } from './store/token-cipher.js';
import { AccountUseCases } from './usecases/accounts.js';
import type { BankingDeps } from './usecases/context.js';
import { JobScheduler } from './usecases/jobs.js';
import { SyncWorker } from './usecases/sync.js';
import { resealTokens } from './usecases/tokens.js';
import { WebhookUseCases } from './usecases/webhooks.js';

export interface BankingOverrides extends BaseOverrides {
  plaid?: PlaidClient;
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

/** Refuses settings production must not start with: the development key for Plaid tokens at rest. */
export function assertBankingConfig(config: BankingConfig): void {
  if (config.NODE_ENV === 'production' && new TokenCipher(config.PLAID_TOKEN_KEYS).usesDevelopmentKey()) {
    throw new ConfigError('PLAID_TOKEN_KEYS: the development key cannot be used in production; set id:base64 of 32 random bytes');
  }
}

/** Banking: the Plaid client, sync work queue and workers, webhooks; publishes bank events through its outbox. */
export const banking = defineService({
  name: 'banking',
  config: bankingConfigSchema,
  migrations: bankingMigrations,
  publishes: true,
  // A delivery is remembered so a replayed signed webhook is a no-op; Plaid's verification already refuses a
  // token older than 5 minutes, so a day is ample (issue #23 item 5).
  retention: [{ name: 'webhook_deliveries', table: 'webhook_deliveries', where: "received_at < now() - interval '1 day'" }],
  describe: (config) => ({ plaid: config.PLAID_BASE_URL }),
  assertConfig: assertBankingConfig,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<BankingConfig, BankingOverrides>) => {
    const plaid =
      overrides.plaid ??
      createPlaidClient({ baseUrl: config.PLAID_BASE_URL, clientId: config.PLAID_CLIENT_ID, secret: config.PLAID_SECRET, timeoutMs: config.PLAID_TIMEOUT_MS });
    let queue: WorkQueue | undefined;
    const tokens = new TokenCipher(config.PLAID_TOKEN_KEYS);
    const deps: BankingDeps = { db, config, plaid, tokens, logger, queue: () => queue, now: overrides.now };
    const scheduler = new JobScheduler(deps);
    const accounts = new AccountUseCases(deps, scheduler);
    const worker = new SyncWorker(deps);
    const webhooks = new WebhookUseCases(
      deps,
      scheduler,
      new PlaidWebhookVerifier(plaid, { keyCacheMs: config.WEBHOOK_KEY_CACHE_MS, now: overrides.now ? () => overrides.now!().getTime() : undefined }),
    );
    let subscription: Subscription | undefined;
    let sweeper: NodeJS.Timeout | undefined;
    // Tokens stored in plain text before encryption, or under a key being retired, are sealed under the current key.
    const reseal: Job = {
      async start() {
        await resealTokens(deps);
      },
      async stop() {},
    };
    const sync: Job = {
      async start() {
        queue = await createWorkQueue(bus, {
          name: 'transaction-sync',
          ackWaitMs: config.SYNC_ACK_WAIT_MS,
          concurrency: config.SYNC_CONCURRENCY,
          namespace: queueNamespace(bus, config.NATS_NAMESPACE),
          logger,
        });
        if (overrides.workers !== false) subscription = await queue.process((item) => worker.handle(item));
        await scheduler.sweep();
        sweeper = setInterval(() => void scheduler.sweep().catch((err: unknown) => logger.warn({ err }, 'sync job sweep failed')), SWEEP_MS);
        sweeper.unref();
      },
      async stop() {
        if (sweeper) clearInterval(sweeper);
        await subscription?.stop();
        await queue?.close();
      },
    };
    return {
      routes: bankingRoutes({ accounts, scheduler, webhooks }),
      consumers: [() => startPlanConsumer({ db, bus, logger })],
      jobs: [reseal, sync],
      expose: { accounts, scheduler, worker },
    };
  },
});

export type BankingService = Running<{ accounts: AccountUseCases; scheduler: JobScheduler; worker: SyncWorker }, true>;
export const createBankingService = (config: BankingConfig, overrides: BankingOverrides = {}): Promise<BankingService> => banking.create(config, overrides);
