import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The bank's side of the tie-out (issue #12). `bank_snapshots`: the latest `bank_account.synced` per bank
 * account (an older version is ignored), from which the opening balance is derived and the books are
 * compared with the bank. `opening_balance_pins`: bank ledger accounts whose opening balance a user set by
 * hand, which syncs then leave alone until the user removes it.
 */
export const tieOutMigration: Migration = {
  name: '20261201110000_ledger_bank_tieout',
  async up(knex) {
    await knex.schema.createTable('bank_snapshots', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('bank_account_id').notNullable();
      t.bigInteger('version').notNullable();
      t.text('account_type').notNullable();
      t.text('iso_currency_code').notNullable();
      // Null when the bank reported none.
      t.bigInteger('current_balance_cents');
      t.bigInteger('available_balance_cents');
      t.bigInteger('posted_total_cents').notNullable();
      t.bigInteger('posted_count').notNullable();
      t.bigInteger('pending_total_cents').notNullable();
      t.bigInteger('pending_count').notNullable();
      t.date('earliest_date');
      t.timestamp('synced_at', { useTz: true }).notNullable();
      t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'bank_account_id']);
    });
    await enableTenantRls(knex, 'bank_snapshots');

    await knex.schema.createTable('opening_balance_pins', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('account_id').notNullable().references('accounts.id');
      t.uuid('pinned_by');
      t.timestamp('pinned_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'account_id']);
    });
    await enableTenantRls(knex, 'opening_balance_pins');

    // The tie-out sums each bank account's live transactions on every GET /accounts.
    await knex.raw(
      'create index workspace_transactions_bank_ledger on workspace_transactions (ledger_account_id) include (amount_cents, pending) where not is_removed',
    );
  },
  async down(knex) {
    await knex.raw('drop index if exists workspace_transactions_bank_ledger');
    await knex.schema.dropTableIfExists('opening_balance_pins');
    await knex.schema.dropTableIfExists('bank_snapshots');
  },
};
