import type { Migration } from '@ledgerline/platform';

/**
 * Transfers to review (issue #12): a one-sided transfer the user says is "not a transfer" is dismissed on its
 * own, so detection never books it to a Transfer account again: a dismissal of a transaction with itself.
 */
export const oneSidedTransfersMigration: Migration = {
  name: '20261202130000_ledger_one_sided_transfers',
  async up(knex) {
    await knex.raw('alter table transfer_dismissals drop constraint transfer_dismissals_check');
    await knex.raw('alter table transfer_dismissals add constraint transfer_dismissals_check check (transaction_id <= counterpart_id)');
  },
  async down(knex) {
    await knex.raw('delete from transfer_dismissals where transaction_id = counterpart_id');
    await knex.raw('alter table transfer_dismissals drop constraint transfer_dismissals_check');
    await knex.raw('alter table transfer_dismissals add constraint transfer_dismissals_check check (transaction_id < counterpart_id)');
  },
};
