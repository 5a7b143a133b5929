export { banking as service, createBankingService, type BankingService, type BankingOverrides } from './service.js';
export { bankingConfigSchema, type BankingConfig } from './config.js';
export { bankingMigrations } from './store/migrations.js';
export { migrateBanking } from './migrate.js';
