import { ConfigError, defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { billingConfigSchema, DEVELOPMENT_BILLING_WEBHOOK_SECRET, type BillingConfig } from './config.js';
import { billingRoutes } from './rpc/handlers.js';
import { billingMigrations } from './store/migrations.js';
import { createUseCases, type BillingUseCases } from './usecases/index.js';

export type BillingOverrides = BaseOverrides;

/** Production refuses the development webhook secret and test-mode prices. */
export function assertBillingConfig(config: BillingConfig): void {
  if (config.NODE_ENV !== 'production') return;
  if (config.BILLING_WEBHOOK_SECRET.split(',').some((s) => s.trim() === DEVELOPMENT_BILLING_WEBHOOK_SECRET))
    throw new ConfigError('BILLING_WEBHOOK_SECRET: the development secret cannot be used in production; set the endpoint secret from Stripe');
  if (config.BILLING_PRICE_MODE !== 'prod') throw new ConfigError('BILLING_PRICE_MODE: production sells the prod prices');
}

/** The billing service: plans, checkout and subscriptions on Stripe; publishes billing.plan_changed through its outbox. */
export const billing = defineService({
  name: 'billing',
  config: billingConfigSchema,
  migrations: billingMigrations,
  publishes: true,
  assertConfig: assertBillingConfig,
  build: ({ db, logger, config }: ServiceContext<BillingConfig, BillingOverrides>) => {
    const useCases = createUseCases({ db, logger, config });
    return { routes: billingRoutes(useCases), expose: { useCases } };
  },
});

export type BillingService = Running<{ useCases: BillingUseCases }, true>;
export const createBillingService = (config: BillingConfig, overrides: BillingOverrides = {}): Promise<BillingService> => billing.create(config, overrides);
