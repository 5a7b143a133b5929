export { reporting as service, createReportingService, type ReportingService, type ReportingOverrides } from './service.js';
export { reportingConfigSchema, type ReportingConfig } from './config.js';
export { reportingMigrations } from './store/migrations.js';
export { migrateReporting } from './migrate.js';
