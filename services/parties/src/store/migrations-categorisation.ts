import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The categorisation model's memory (issue #17 item 7): one example per transaction a user categorised by hand
 * (the ledger's transaction.categorized), the latest choice replacing an earlier one of the same transaction.
 * `seq` orders examples by when they were learnt: the model's recency.
 */
export const categorisationMigration: Migration = {
  name: '20261128140000_parties_categorisation',
  async up(knex) {
    await knex.schema.createTable('categorisation_examples', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('transaction_id').notNullable();
      t.bigIncrements('seq', { primaryKey: false });
      t.text('merchant_name').notNullable();
      t.text('description').notNullable();
      t.bigInteger('amount_cents').notNullable();
      t.text('bank_account_id').notNullable();
      t.uuid('category_id').notNullable();
      t.uuid('vendor_id');
      t.timestamp('categorized_at', { useTz: true }).notNullable();
      t.primary(['workspace_id', 'transaction_id']);
      t.index(['workspace_id', 'seq']);
    });
    await enableTenantRls(knex, 'categorisation_examples');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('categorisation_examples');
  },
};
