export { parties as service, createPartiesService, type PartiesService, type PartiesOverrides } from './service.js';
export { partiesConfigSchema, type PartiesConfig } from './config.js';
export { partiesMigrations } from './store/migrations.js';
export { migrateParties } from './migrate.js';
