import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';
import { vendorRulesMigration } from './migrations-vendor-rules.js';
import { creditsMigration } from './migrations-credits.js';
import { categorisationMigration } from './migrations-categorisation.js';
import { partyDocumentsMigration } from './migrations-party-documents.js';

/** The parties database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const partiesMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261127214611_parties_vendors_customers',
    async up(knex) {
      await knex.schema.createTable('vendors', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('name').notNullable();
        // vendorNameKey(name) (src/domain/vendor-name.ts): what a bank merchant is matched by (not unique: "Vendor 01"
        // and "Vendor 02" share one; a merchant goes to the vendor of its exact name, else the oldest of its key).
        t.text('name_key').notNullable();
        t.text('description').notNullable().defaultTo('');
        t.text('address').notNullable().defaultTo('');
        t.text('bank_details').notNullable().defaultTo('');
        t.text('email').notNullable().defaultTo('');
        t.boolean('is_1099_eligible').notNullable().defaultTo(false);
        t.text('ein').notNullable().defaultTo('');
        t.text('status').notNullable().defaultTo('active');
        t.jsonb('meta_data').notNullable().defaultTo('{}');
        // Made or edited by a user (the Added filter); false while it is only a bank merchant's.
        t.boolean('is_added').notNullable().defaultTo(true);
        t.boolean('qbo_synced').notNullable().defaultTo(false);
        t.uuid('merged_into');
        t.timestamp('deleted_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw("alter table vendors add constraint vendors_status check (status in ('active', 'inactive'))");
      // Two live vendors of a workspace never share a name (case-insensitive), as in QuickBooks Online.
      await knex.raw('create unique index vendors_name on vendors (workspace_id, lower(name)) where deleted_at is null');
      await knex.raw('create index vendors_name_key on vendors (workspace_id, name_key, created_at) where deleted_at is null');
      await knex.raw('create index vendors_list on vendors (workspace_id, lower(name), id) where deleted_at is null');
      await enableTenantRls(knex, 'vendors');

      // The ledger's merchants (billers) each vendor stands for.
      await knex.schema.createTable('vendor_merchants', (t) => {
        t.uuid('biller_id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('vendor_id').notNullable().references('vendors.id');
        t.text('merchant_name').notNullable();
        t.index(['workspace_id', 'vendor_id']);
      });
      await enableTenantRls(knex, 'vendor_merchants');

      await knex.schema.createTable('customers', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('name').notNullable();
        t.text('company_name').notNullable().defaultTo('');
        t.text('email').notNullable().defaultTo('');
        t.text('description').notNullable().defaultTo('');
        t.text('address').notNullable().defaultTo('');
        t.text('bank_details').notNullable().defaultTo('');
        t.text('status').notNullable().defaultTo('active');
        t.jsonb('meta_data').notNullable().defaultTo('{}');
        t.boolean('qbo_synced').notNullable().defaultTo(false);
        t.timestamp('deleted_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw("alter table customers add constraint customers_status check (status in ('active', 'inactive'))");
      await knex.raw('create unique index customers_name on customers (workspace_id, lower(name)) where deleted_at is null');
      await enableTenantRls(knex, 'customers');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('customers');
      await knex.schema.dropTableIfExists('vendor_merchants');
      await knex.schema.dropTableIfExists('vendors');
    },
  },
  vendorRulesMigration,
  creditsMigration,
  categorisationMigration,
  partyDocumentsMigration,
];
