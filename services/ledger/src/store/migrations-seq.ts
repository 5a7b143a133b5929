import type { Migration } from '@ledgerline/platform';

/**
 * Reads after writes (ARCHITECTURE §3): every change answers the workspace's highest commit sequence,
 * also when it posted nothing, so a client can always hand it to reporting. This index makes that one
 * backward index step instead of a scan of the workspace's entries.
 */
export const seqMigration: Migration = {
  name: '20261123160000_ledger_entries_by_seq',
  async up(knex) {
    await knex.raw('create index journal_entries_workspace_seq on journal_entries (workspace_id, seq)');
  },
  async down(knex) {
    await knex.raw('drop index if exists journal_entries_workspace_seq');
  },
};
