import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

/** The parties database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const partiesMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261127214611_parties_records',
    async up(knex) {
      await knex.schema.createTable('parties_records', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('title').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'created_at']);
      });
      await enableTenantRls(knex, 'parties_records');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('parties_records');
    },
  },
];
