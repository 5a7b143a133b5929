import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

/** The notifications database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const notificationsMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128172013_notifications_records',
    async up(knex) {
      await knex.schema.createTable('notifications_records', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('title').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'created_at']);
      });
      await enableTenantRls(knex, 'notifications_records');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('notifications_records');
    },
  },
];
