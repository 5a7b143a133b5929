import type { Migration } from '@ledgerline/platform';

/**
 * The merchant of each entry (issue #5: spending and top merchants by merchant): the biller of the
 * workspace transaction when the entry was posted. Kept on the entry because entries are immutable: a
 * reversal carries its entry's merchant, so a read model fed by entry.posted subtracts from the merchant
 * it once added to. Entries posted before this migration have none (reports show them without a
 * merchant).
 */
export const merchantsMigration: Migration = {
  name: '20261123170000_ledger_entry_biller',
  async up(knex) {
    await knex.raw('alter table journal_entries add column biller_id uuid references billers(id)');
  },
  async down(knex) {
    await knex.raw('alter table journal_entries drop column biller_id');
  },
};
