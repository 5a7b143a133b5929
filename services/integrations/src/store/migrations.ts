import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

/** The integrations database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const integrationsMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128171941_integrations_records',
    async up(knex) {
      await knex.schema.createTable('integrations_records', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('title').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'created_at']);
      });
      await enableTenantRls(knex, 'integrations_records');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('integrations_records');
    },
  },
];
