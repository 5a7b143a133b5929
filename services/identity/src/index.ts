export { identity as service, createIdentityService, type IdentityService, type IdentityOverrides } from './service.js';
export { identityConfigSchema, type IdentityConfig } from './config.js';
export { identityMigrations } from './store/migrations.js';
export { migrateIdentity } from './migrate.js';
export { createMailer, type Mailer, type MailMessage } from './mail/mailer.js';
