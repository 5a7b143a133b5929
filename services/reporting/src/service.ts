import { createServiceClient, defineService, type BaseOverrides, type Running, type ServiceContext, type Subscription } from '@ledgerline/platform';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { reportingConfigSchema, type ReportingConfig } from './config.js';
import { startChartConsumer } from './events/chart-consumer.js';
import { BalanceProjector } from './events/projector.js';
import { reportingRoutes } from './rpc/handlers.js';
import { reportingMigrations } from './store/migrations.js';
import { AccountDirectory, type LedgerClient } from './usecases/accounts.js';
import { checkAll, currentGeneration, resetForRebuild, type CheckResult } from './usecases/maintenance.js';
import { ReportUseCases } from './usecases/reports.js';
import { SpendingUseCases } from './usecases/spending.js';

export interface ReportingParts {
  reports: ReportUseCases;
  ledger: LedgerClient;
  /** The running consumer of entry.posted (null before `listen`/`startProjector`). */
  readonly projector: BalanceProjector | null;
  /** Starts only the consumer (the rebuild command). */
  startProjector(): Promise<void>;
  /** Empties the read model and replays entry.posted from the start of the stream under a new consumer. */
  rebuild(): Promise<number>;
  /** Compares the read model with the ledger's balances (all workspaces it knows, or the given ones). */
  check(workspaceIds?: string[]): Promise<CheckResult[]>;
  /** Resolves once no event has arrived or been applied for `quietMs`. */
  idle(quietMs?: number, timeoutMs?: number): Promise<void>;
}

export interface ReportingOverrides extends BaseOverrides {
  ledger?: LedgerClient;
  maxDeliver?: number;
}

/** Reporting: the entry.posted projector and the chart consumer feed its read model; asks the ledger for the chart. Publishes nothing. */
export const reporting = defineService({
  name: 'reporting',
  config: reportingConfigSchema,
  migrations: reportingMigrations,
  publishes: false,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<ReportingConfig, ReportingOverrides>) => {
    const ledger =
      overrides.ledger ??
      createServiceClient(LedgerService, {
        baseUrl: config.LEDGER_URL,
        timeoutMs: config.REPORTING_LEDGER_TIMEOUT_MS,
        trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'reporting', audience: 'ledger' },
      });
    const reports = new ReportUseCases({
      db,
      logger,
      accounts: new AccountDirectory(ledger, config.REPORTING_ACCOUNTS_CACHE_MS, db),
      catchUpTimeoutMs: config.REPORTING_CATCH_UP_TIMEOUT_MS,
      cacheEntries: config.REPORTING_REPORT_CACHE_ENTRIES,
    });
    let projector: BalanceProjector | null = null;
    let chartConsumer: Subscription | null = null;
    const startProjector = async () => {
      chartConsumer ??= await startChartConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver });
      if (projector) return;
      const p = new BalanceProjector({
        db,
        bus,
        logger,
        generation: await currentGeneration(db),
        batchSize: config.REPORTING_BATCH_SIZE,
        maxDeliver: overrides.maxDeliver,
      });
      await p.start();
      projector = p;
    };
    const stopProjector = async () => {
      const p = projector;
      projector = null;
      await p?.stop();
    };
    const expose: ReportingParts = {
      reports,
      ledger,
      startProjector,
      get projector() {
        return projector;
      },
      async rebuild() {
        await stopProjector();
        const generation = await resetForRebuild(db);
        logger.info({ generation }, 'read model emptied; replaying entry.posted');
        await startProjector();
        return generation;
      },
      check: (workspaceIds) => checkAll({ db, ledger, logger }, workspaceIds),
      async idle(quietMs = 1_000, timeoutMs = 600_000) {
        const deadline = Date.now() + timeoutMs;
        while ((projector?.idleMs ?? quietMs) < quietMs) {
          if (Date.now() > deadline) throw new Error('the read model kept receiving events');
          await new Promise((r) => setTimeout(r, 100));
        }
      },
    };
    const readModel = {
      start: startProjector,
      async stop() {
        await stopProjector();
        await chartConsumer?.stop();
        chartConsumer = null;
      },
    };
    return { routes: reportingRoutes(reports, new SpendingUseCases({ db, reports })), jobs: [readModel], expose };
  },
});

export type ReportingService = Running<ReportingParts, false>;
export const createReportingService = (config: ReportingConfig, overrides: ReportingOverrides = {}): Promise<ReportingService> =>
  reporting.create(config, overrides);
