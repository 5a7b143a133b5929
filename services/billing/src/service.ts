import { defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { billingConfigSchema, type BillingConfig } from './config.js';
import { billingRoutes } from './rpc/handlers.js';
import { billingMigrations } from './store/migrations.js';
import { createUseCases, type BillingUseCases } from './usecases/index.js';

export type BillingOverrides = BaseOverrides;

/** The billing service: publishes billing.record_created through its outbox; consumes nothing yet. */
export const billing = defineService({
  name: 'billing',
  config: billingConfigSchema,
  migrations: billingMigrations,
  publishes: true,
  build: ({ db, logger }: ServiceContext<BillingConfig, BillingOverrides>) => {
    const useCases = createUseCases({ db, logger });
    return { routes: billingRoutes(useCases), expose: { useCases } };
  },
});

export type BillingService = Running<{ useCases: BillingUseCases }, true>;
export const createBillingService = (config: BillingConfig, overrides: BillingOverrides = {}): Promise<BillingService> => billing.create(config, overrides);
