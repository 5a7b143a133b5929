import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Vendor rules (issue #17 item 4): the rule as the user made it. The ledger keeps a copy of its conditions
 * (ApplyVendorRule) to apply it; money in integer cents. A deleted rule is deleted here (its past
 * categorisations stay on the transactions, services/parties/README.md).
 */
export const vendorRulesMigration: Migration = {
  name: '20261128120000_parties_vendor_rules',
  async up(knex) {
    await knex.schema.createTable('vendor_rules', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.text('name').notNullable();
      t.uuid('vendor_id').references('vendors.id');
      t.uuid('category_id').notNullable();
      t.timestamp('rule_apply_date_time', { useTz: true }).notNullable();
      t.text('description_sign');
      t.text('description_value');
      t.text('amount_sign');
      t.bigInteger('amount_cents');
      t.bigInteger('upper_amount_cents');
      t.uuid('source_id');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['workspace_id', 'created_at']);
      t.index(['workspace_id', 'vendor_id']);
    });
    await enableTenantRls(knex, 'vendor_rules');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('vendor_rules');
  },
};
