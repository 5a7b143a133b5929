import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Learned categorisation (issue #17 item 7, decision 0013-learned-categorisation): how a transaction got its
 * category (`creation_mode`: manual = a user, auto = the model applied its suggestion; null = on import, by a
 * merchant's category or a vendor rule), the model's suggestion when it was not sure enough to apply it, and the
 * categorisation jobs (one per import batch the model was asked about: waiting until the parties service's
 * suggestions arrive, then completed).
 */
export const categorisationMigration: Migration = {
  name: '20261128140000_ledger_categorisation',
  async up(knex) {
    await knex.schema.alterTable('workspace_transactions', (t) => {
      t.text('creation_mode');
      t.uuid('suggested_category_id');
      t.uuid('suggested_vendor_id');
      t.double('suggestion_confidence');
      t.uuid('categorization_job_id');
    });
    await knex.raw("alter table workspace_transactions add constraint workspace_transactions_creation_mode check (creation_mode in ('manual', 'auto'))");
    await knex.schema.createTable('categorization_jobs', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.text('status').notNullable().defaultTo('waiting');
      t.bigIncrements('job_order', { primaryKey: false });
      t.integer('total_transactions').notNullable();
      t.integer('applied').notNullable().defaultTo(0);
      t.integer('suggested').notNullable().defaultTo(0);
      t.text('failed_reason');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('finished_at', { useTz: true });
      t.index(['workspace_id', 'status']);
    });
    await knex.raw("alter table categorization_jobs add constraint categorization_jobs_status check (status in ('waiting', 'active', 'completed', 'failed'))");
    await enableTenantRls(knex, 'categorization_jobs');
    await knex.raw(
      'create index workspace_transactions_categorization_job on workspace_transactions (categorization_job_id) where categorization_job_id is not null',
    );
  },
  async down(knex) {
    await knex.raw('drop index if exists workspace_transactions_categorization_job');
    await knex.schema.dropTableIfExists('categorization_jobs');
    await knex.raw('alter table workspace_transactions drop constraint if exists workspace_transactions_creation_mode');
    await knex.schema.alterTable('workspace_transactions', (t) => {
      t.dropColumns('creation_mode', 'suggested_category_id', 'suggested_vendor_id', 'suggestion_confidence', 'categorization_job_id');
    });
  },
};
