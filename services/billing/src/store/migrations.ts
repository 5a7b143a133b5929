import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

/** The billing database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const billingMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128172038_billing_records',
    async up(knex) {
      await knex.schema.createTable('billing_records', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('title').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'created_at']);
      });
      await enableTenantRls(knex, 'billing_records');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('billing_records');
    },
  },
];
