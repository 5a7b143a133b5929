import { connectBus, createDb, createLogger, createServiceClient, createServiceServer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance } from 'fastify';
import type { ReportingConfig } from './config.js';
import { BalanceProjector } from './events/projector.js';
import { reportingRoutes } from './rpc/handlers.js';
import { AccountDirectory, type LedgerClient } from './usecases/accounts.js';
import { checkAll, currentGeneration, resetForRebuild, type CheckResult } from './usecases/maintenance.js';
import { ReportUseCases } from './usecases/reports.js';
import { SpendingUseCases } from './usecases/spending.js';

export interface ReportingService {
  server: FastifyInstance;
  reports: ReportUseCases;
  db: Knex;
  bus: EventBus;
  ledger: LedgerClient;
  /** The running consumer of entry.posted (null before `listen`/`startProjector`). */
  readonly projector: BalanceProjector | null;
  /** Starts the consumer and listens on the configured port; returns the base URL. */
  listen(): Promise<string>;
  /** Starts only the consumer (the rebuild command). */
  startProjector(): Promise<void>;
  /** Empties the read model and replays entry.posted from the start of the stream under a new consumer. */
  rebuild(): Promise<number>;
  /** Compares the read model with the ledger's balances (all workspaces it knows, or the given ones). */
  check(workspaceIds?: string[]): Promise<CheckResult[]>;
  /** Resolves once no event has arrived or been applied for `quietMs`. */
  idle(quietMs?: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ReportingOverrides {
  db?: Knex;
  bus?: EventBus;
  logger?: Logger;
  ledger?: LedgerClient;
  maxDeliver?: number;
}

/** Wires reporting: database, bus, the entry.posted projector, the ledger client, Connect server. */
export async function createReportingService(config: ReportingConfig, overrides: ReportingOverrides = {}): Promise<ReportingService> {
  const logger = overrides.logger ?? createLogger('reporting', config.LOG_LEVEL);
  const db = overrides.db ?? createDb({ url: config.REPORTING_DATABASE_URL, applicationName: 'reporting' });
  const bus = overrides.bus ?? (await connectBus({ kind: config.EVENT_BUS, url: config.NATS_URL, name: 'reporting', logger, namespace: config.NATS_NAMESPACE }));
  const ledger = overrides.ledger ?? createServiceClient(LedgerService, { baseUrl: config.LEDGER_URL, timeoutMs: config.REPORTING_LEDGER_TIMEOUT_MS });
  const reports = new ReportUseCases({ db, logger, accounts: new AccountDirectory(ledger, config.REPORTING_ACCOUNTS_CACHE_MS), catchUpTimeoutMs: config.REPORTING_CATCH_UP_TIMEOUT_MS, cacheEntries: config.REPORTING_REPORT_CACHE_ENTRIES });
  const server = await createServiceServer({ name: 'reporting', logger, routes: reportingRoutes(reports, new SpendingUseCases({ db, reports })), readiness: { database: () => db.raw('select 1') } });
  let projector: BalanceProjector | null = null;
  const startProjector = async () => {
    if (projector) return;
    const p = new BalanceProjector({ db, bus, logger, generation: await currentGeneration(db), batchSize: config.REPORTING_BATCH_SIZE, maxDeliver: overrides.maxDeliver });
    await p.start();
    projector = p;
  };
  const stopProjector = async () => {
    const p = projector;
    projector = null;
    await p?.stop();
  };
  return {
    server, reports, db, bus, ledger,
    get projector() {
      return projector;
    },
    startProjector,
    async listen() {
      await startProjector();
      return server.listen({ port: config.REPORTING_PORT, host: config.HOST });
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
    async stop() {
      await server.close();
      await stopProjector();
      if (!overrides.bus) await bus.close();
      if (!overrides.db) await db.destroy();
    },
  };
}
