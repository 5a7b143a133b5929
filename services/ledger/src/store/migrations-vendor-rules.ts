import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The parties service's vendor rules as the ledger evaluates them (issue #17 item 4): a copy of each rule's
 * conditions, written by ApplyVendorRule and removed by ForgetVendorRule, so a new bank transaction is
 * categorised on import without the ledger calling another service. The rule's name and the rest stay in the
 * parties service. `workspace_transactions.applied_rule_id` (from the first migration) names the rule that
 * categorised a transaction; an index serves "the transactions of this rule".
 */
export const vendorRulesMigration: Migration = {
  name: '20261128120000_ledger_vendor_rules',
  async up(knex) {
    await knex.schema.createTable('ledger_rules', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.text('name').notNullable().defaultTo('');
      t.uuid('category_id').notNullable();
      t.uuid('vendor_id');
      t.date('apply_from').notNullable();
      t.timestamp('rule_apply_date_time', { useTz: true }).notNullable();
      t.text('description_sign');
      t.text('description_value');
      t.text('amount_sign');
      t.bigInteger('amount_cents');
      t.bigInteger('upper_amount_cents');
      t.uuid('source_bank_account_id');
      // How many of the three conditions (description, amount, source) the rule has: the first tie-break.
      t.integer('condition_count').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['workspace_id']);
    });
    await knex.raw("alter table ledger_rules add constraint ledger_rules_description_sign check (description_sign in ('equals', 'contains'))");
    await knex.raw(
      "alter table ledger_rules add constraint ledger_rules_amount_sign check (amount_sign in ('equals', 'greater_than', 'less_than', 'between'))",
    );
    await knex.raw('alter table ledger_rules add constraint ledger_rules_some_condition check (condition_count between 1 and 3)');
    await enableTenantRls(knex, 'ledger_rules');
    await knex.raw(
      'create index workspace_transactions_applied_rule on workspace_transactions (workspace_id, applied_rule_id) where applied_rule_id is not null',
    );
  },
  async down(knex) {
    await knex.raw('drop index if exists workspace_transactions_applied_rule');
    await knex.schema.dropTableIfExists('ledger_rules');
  },
};
