import { defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { partiesConfigSchema, type PartiesConfig } from './config.js';
import { partiesRoutes } from './rpc/handlers.js';
import { partiesMigrations } from './store/migrations.js';
import { createUseCases, type PartiesUseCases } from './usecases/index.js';

export type PartiesOverrides = BaseOverrides;

/** The parties service: publishes parties.record_created through its outbox; consumes nothing yet. */
export const parties = defineService({
  name: 'parties',
  config: partiesConfigSchema,
  migrations: partiesMigrations,
  publishes: true,
  build: ({ db, logger }: ServiceContext<PartiesConfig, PartiesOverrides>) => {
    const useCases = createUseCases({ db, logger });
    return { routes: partiesRoutes(useCases), expose: { useCases } };
  },
});

export type PartiesService = Running<{ useCases: PartiesUseCases }, true>;
export const createPartiesService = (config: PartiesConfig, overrides: PartiesOverrides = {}): Promise<PartiesService> => parties.create(config, overrides);
