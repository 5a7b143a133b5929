export { firm as service, createFirmService, type FirmService, type FirmOverrides } from './service.js';
export { firmConfigSchema, type FirmConfig } from './config.js';
export { firmMigrations } from './store/migrations.js';
export { migrateFirm } from './migrate.js';
