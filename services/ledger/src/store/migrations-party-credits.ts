import type { Migration } from '@ledgerline/platform';

/**
 * Vendor credits and credit memos (issue #17): the default chart's Accounts Payable and Accounts Receivable get
 * their system keys in the workspaces seeded before (only where the account is still the default one: coaId,
 * name and class untouched, not made by a user, and no other account holds the key). Workspaces seeded later
 * and charts whose account was renamed get theirs at their first credit (`partyAccount`, found by coaId and
 * name, else created).
 */
export const partyCreditsMigration: Migration = {
  name: '20261128130000_ledger_party_credits',
  async up(knex) {
    for (const [coaId, name, classGroup, key] of [
      [21100, 'Accounts Payable', 'Liability', 'accounts_payable'],
      [11200, 'Accounts Receivable', 'Assets', 'accounts_receivable'],
    ] as const) {
      await knex.raw(
        `update accounts a set system_key = ? where a.coa_id = ? and a.name = ? and a.class_group = ? and a.system_key is null and a.is_user_created = false
           and not exists (select 1 from accounts o where o.workspace_id = a.workspace_id and o.system_key = ?)`,
        [key, coaId, name, classGroup, key],
      );
    }
  },
  async down(knex) {
    await knex.raw("update accounts set system_key = null where system_key in ('accounts_payable', 'accounts_receivable')");
  },
};
