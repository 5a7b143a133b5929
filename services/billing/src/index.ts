export { billing as service, createBillingService, type BillingService, type BillingOverrides } from './service.js';
export { billingConfigSchema, type BillingConfig } from './config.js';
export { billingMigrations } from './store/migrations.js';
export { migrateBilling } from './migrate.js';
