export { documents as service, createDocumentsService, type DocumentsService, type DocumentsOverrides } from './service.js';
export { documentsConfigSchema, type DocumentsConfig } from './config.js';
export { documentsMigrations } from './store/migrations.js';
export { migrateDocuments } from './migrate.js';
