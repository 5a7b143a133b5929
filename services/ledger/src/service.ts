import { defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { startQuickBooksSyncedConsumer } from './events/quickbooks-synced.js';
import { ledgerConfigSchema, type LedgerConfig } from './config.js';
import { startMembersConsumer } from './events/members.js';
import { startPostingRequestConsumer } from './events/posting-requests.js';
import { ledgerRoutes } from './rpc/handlers.js';
import { fixedAssetPostingRoutes } from './rpc/fixed-assets.js';
import { ledgerMigrations } from './store/migrations.js';
import { startLedgerConsumer } from './usecases/bank-events.js';
import { applySuggestions, startCategorisationConsumer, type ApplySuggestions } from './usecases/categorisation.js';
import { createUseCases, type LedgerUseCases } from './usecases/index.js';

export interface LedgerOverrides extends BaseOverrides {
  /** Deliveries before a failing event is dead-lettered (tests lower it). */
  maxDeliver?: number;
  /** Wraps the application of categorisation answers (fault tests make it fail). */
  applySuggestions?: (real: ApplySuggestions) => ApplySuggestions;
}

/** The ledger: publishes entry events through its outbox; consumes identity (workspaces, members) and banking events, the owners' posting requests (decision 0012) and the parties service's categorisation suggestions. */
export const ledger = defineService({
  name: 'ledger',
  config: ledgerConfigSchema,
  migrations: ledgerMigrations,
  publishes: true,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<LedgerConfig, LedgerOverrides>) => {
    const useCases = createUseCases({ db, logger });
    return {
      routes: (router) => {
        ledgerRoutes(useCases)(router);
        fixedAssetPostingRoutes({ db, logger })(router);
      },
      consumers: [
        () =>
          startLedgerConsumer({
            db,
            bus,
            logger,
            maxDeliver: overrides.maxDeliver,
            concurrency: config.LEDGER_CONSUMER_CONCURRENCY,
            batchSize: config.LEDGER_INGEST_BATCH,
          }),
        () => startPostingRequestConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver }),
        () => startMembersConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver }),
        () => startQuickBooksSyncedConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver }),
        () =>
          startCategorisationConsumer({
            db,
            bus,
            logger,
            maxDeliver: overrides.maxDeliver,
            apply: (overrides.applySuggestions ?? ((real) => real))(applySuggestions),
          }),
      ],
      expose: { useCases },
    };
  },
});

export type LedgerService = Running<{ useCases: LedgerUseCases }, true>;
export const createLedgerService = (config: LedgerConfig, overrides: LedgerOverrides = {}): Promise<LedgerService> => ledger.create(config, overrides);
