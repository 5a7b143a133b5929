import type { Migration } from './migrations.js';
import { TENANCY_FUNCTIONS_SQL, enableTenantRls, disableTenantRls } from './tenancy.js';
import { createOutboxAndInbox, dropOutboxAndInbox } from '../events/outbox.js';
import { idempotencyMigration } from './idempotency.js';

/** Migrations every service database starts with: tenancy functions, outbox and inbox, idempotency keys. */
export const platformMigrations: Migration[] = [
  {
    name: '20261123000000_platform_tenancy_functions',
    async up(knex) {
      await knex.raw(TENANCY_FUNCTIONS_SQL);
    },
    async down(knex) {
      await knex.raw('drop function if exists app_workspace_id(); drop function if exists app_user_id(); drop function if exists app_is_system();');
    },
  },
  {
    name: '20261123000001_platform_outbox_inbox',
    async up(knex) {
      await createOutboxAndInbox(knex);
      await enableTenantRls(knex, 'outbox');
      await enableTenantRls(knex, 'inbox');
    },
    async down(knex) {
      await disableTenantRls(knex, 'inbox');
      await disableTenantRls(knex, 'outbox');
      await dropOutboxAndInbox(knex);
    },
  },
  idempotencyMigration,
];
