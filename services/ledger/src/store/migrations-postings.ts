import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Idempotent postings from other services (bills, invoices, manual journals...) and opening balances
 * (RELIABILITY 3). `posting_sources` holds one row per source document: callers lock it, so the
 * versions of one source are applied one at a time. `source_postings` holds one row per applied
 * version; its primary key is the idempotency key (workspace, source type, source id, version), so a
 * second posting of a key is refused by the database even if the code's check were skipped.
 */
export const postingsMigration: Migration = {
  name: '20261123140000_ledger_source_postings',
  async up(knex) {
    await knex.schema.createTable('posting_sources', (t) => {
      t.uuid('workspace_id').notNullable();
      t.text('source_type').notNullable();
      t.uuid('source_id').notNullable();
      t.bigInteger('current_version').notNullable().defaultTo(0);
      // The entry that books the source now (null before the first version and after a void).
      t.uuid('current_entry_id').references('journal_entries.id');
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'source_type', 'source_id']);
    });
    await knex.raw(
      "alter table posting_sources add constraint posting_sources_type check (source_type in ('OpeningBalance', 'ManualEntry', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'))",
    );

    await knex.schema.createTable('source_postings', (t) => {
      t.uuid('workspace_id').notNullable();
      t.text('source_type').notNullable();
      t.uuid('source_id').notNullable();
      t.bigInteger('version').notNullable();
      // SHA-256 of the canonical request body: the same key with another body is refused.
      t.text('body_hash').notNullable();
      t.uuid('entry_id').references('journal_entries.id');
      t.uuid('reversed_entry_id').references('journal_entries.id');
      t.uuid('reversal_entry_id').references('journal_entries.id');
      t.bigInteger('seq').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'source_type', 'source_id', 'version']);
      t.foreign(['workspace_id', 'source_type', 'source_id']).references(['workspace_id', 'source_type', 'source_id']).inTable('posting_sources');
    });
    await knex.raw('alter table source_postings add constraint source_postings_version check (version >= 1)');
    // An applied version is history: it is never changed or removed.
    await knex.raw(`
      create trigger source_postings_immutable before update or delete on source_postings
        for each row execute function journal_is_immutable();`);
    await enableTenantRls(knex, 'posting_sources');
    await enableTenantRls(knex, 'source_postings');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('source_postings');
    await knex.schema.dropTableIfExists('posting_sources');
  },
};
