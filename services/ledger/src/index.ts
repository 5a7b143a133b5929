export { ledger as service, createLedgerService, type LedgerService, type LedgerOverrides } from './service.js';
export { ledgerConfigSchema, type LedgerConfig } from './config.js';
export { ledgerMigrations } from './store/migrations.js';
export { migrateLedger } from './migrate.js';
export { CONSUMED_TYPES } from './usecases/bank-events.js';
