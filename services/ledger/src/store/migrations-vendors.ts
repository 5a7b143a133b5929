import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The parties service's vendors as the ledger links transactions to them (issue #17): `ledger_vendors` holds
 * the vendor ids of the workspace the parties service registered (what a transaction's `vendorId` may name),
 * and `billers.vendor_id` the vendor a merchant stands for. A transaction's vendor is its own `vendor_id`,
 * else its biller's; the vendor's name and fields stay in the parties service.
 */
export const vendorsMigration: Migration = {
  name: '20261127220000_ledger_vendors',
  async up(knex) {
    await knex.schema.createTable('ledger_vendors', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.timestamp('registered_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['workspace_id']);
    });
    await enableTenantRls(knex, 'ledger_vendors');
    await knex.raw('alter table billers add column vendor_id uuid');
    await knex.raw('create index billers_vendor on billers (workspace_id, vendor_id) where vendor_id is not null');
    await knex.raw('create index workspace_transactions_vendor on workspace_transactions (workspace_id, vendor_id) where vendor_id is not null');
  },
  async down(knex) {
    await knex.raw('drop index if exists workspace_transactions_vendor');
    await knex.raw('drop index if exists billers_vendor');
    await knex.raw('alter table billers drop column vendor_id');
    await knex.schema.dropTableIfExists('ledger_vendors');
  },
};
