export { integrations as service, createIntegrationsService, type IntegrationsService, type IntegrationsOverrides } from './service.js';
export { integrationsConfigSchema, type IntegrationsConfig } from './config.js';
export { integrationsMigrations } from './store/migrations.js';
export { migrateIntegrations } from './migrate.js';
