import { defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { integrationsConfigSchema, type IntegrationsConfig } from './config.js';
import { integrationsRoutes } from './rpc/handlers.js';
import { integrationsMigrations } from './store/migrations.js';
import { createUseCases, type IntegrationsUseCases } from './usecases/index.js';

export type IntegrationsOverrides = BaseOverrides;

/** The integrations service: publishes integrations.record_created through its outbox; consumes nothing yet. */
export const integrations = defineService({
  name: 'integrations',
  config: integrationsConfigSchema,
  migrations: integrationsMigrations,
  publishes: true,
  build: ({ db, logger }: ServiceContext<IntegrationsConfig, IntegrationsOverrides>) => {
    const useCases = createUseCases({ db, logger });
    return { routes: integrationsRoutes(useCases), expose: { useCases } };
  },
});

export type IntegrationsService = Running<{ useCases: IntegrationsUseCases }, true>;
export const createIntegrationsService = (config: IntegrationsConfig, overrides: IntegrationsOverrides = {}): Promise<IntegrationsService> =>
  integrations.create(config, overrides);
