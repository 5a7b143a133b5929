import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Accruals (spec §3 "Accrual"): an accrued bank transaction is booked to Prepaid Expenses or Deferred
 * Revenue and recognised month by month into the category the user chose. `transaction_accruals` is the
 * schedule's head (one per accrued transaction), `accrual_months` its months, each pointing at the
 * recognition entry that books it. Both are mutable bookkeeping state; the entries they produce are not
 * (a change reverses the month's entry and posts a new one).
 */
export const accrualsMigration: Migration = {
  name: '20261123150000_ledger_accruals',
  async up(knex) {
    await knex.schema.createTable('transaction_accruals', (t) => {
      t.uuid('transaction_id').primary().references('workspace_transactions.id');
      t.uuid('workspace_id').notNullable();
      t.text('accrual_category').notNullable();
      t.date('start_date').notNullable();
      t.date('end_date').notNullable();
      t.uuid('recognise_category_id').notNullable().references('accounts.id');
      // The category the transaction had before it was accrued: un-accruing books it there again.
      t.uuid('original_category_id').references('accounts.id');
      t.text('status').notNullable().defaultTo('active');
      t.date('stopped_on');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw(
      "alter table transaction_accruals add constraint transaction_accruals_category check (accrual_category in ('Prepaid Expenses', 'Deferred Revenue'))",
    );
    await knex.raw("alter table transaction_accruals add constraint transaction_accruals_status check (status in ('active', 'stopped'))");
    await knex.raw('alter table transaction_accruals add constraint transaction_accruals_dates check (end_date >= start_date)');

    await knex.schema.createTable('accrual_months', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.uuid('transaction_id').notNullable().references('transaction_accruals.transaction_id');
      t.integer('position').notNullable();
      // The recognition date (the month's last day, the accrual's end date for its last month, or the stop date).
      t.date('accrual_date').notNullable();
      // Absolute cents recognised that month.
      t.bigInteger('amount_cents').notNullable();
      t.uuid('entry_id').notNullable().references('journal_entries.id');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['transaction_id', 'position']);
    });
    await knex.raw('alter table accrual_months add constraint accrual_months_positive check (amount_cents > 0)');
    await enableTenantRls(knex, 'transaction_accruals');
    await enableTenantRls(knex, 'accrual_months');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('accrual_months');
    await knex.schema.dropTableIfExists('transaction_accruals');
  },
};
