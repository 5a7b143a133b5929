import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Transfers and card payments (issue #12): a paired transaction names its counterpart
 * (`transfer_pair_id`, unique: one transaction is never the counterpart of two), the pairs a user
 * un-paired are remembered so detection never pairs them again, the (amount, date) index the matching
 * reads, and the system keys of the default chart's two Transfer accounts for the workspaces seeded
 * before they had them (only where the account is still the default one: coaId and name untouched).
 */
export const transfersMigration: Migration = {
  name: '20261201100000_ledger_transfers',
  async up(knex) {
    await knex.raw('alter table workspace_transactions add column transfer_pair_id uuid references workspace_transactions(id)');
    await knex.raw('create unique index workspace_transactions_transfer_pair on workspace_transactions (transfer_pair_id) where transfer_pair_id is not null');
    await knex.raw('create index workspace_transactions_transfer_match on workspace_transactions (workspace_id, amount_cents, txn_date)');
    await knex.raw(`create table transfer_dismissals (
      workspace_id uuid not null,
      transaction_id uuid not null references workspace_transactions(id),
      counterpart_id uuid not null references workspace_transactions(id),
      dismissed_by uuid,
      created_at timestamptz not null default now(),
      primary key (workspace_id, transaction_id, counterpart_id),
      check (transaction_id < counterpart_id)
    )`);
    await enableTenantRls(knex, 'transfer_dismissals');
    for (const [coaId, name, key] of [
      [81100, 'Internal Transfers', 'internal_transfers'],
      [81200, 'Credit Card Payments', 'credit_card_payments'],
    ] as const) {
      await knex.raw(
        `update accounts a set system_key = ? where a.coa_id = ? and a.name = ? and a.class_group = 'Transfer' and a.system_key is null and a.is_user_created = false
           and not exists (select 1 from accounts o where o.workspace_id = a.workspace_id and o.system_key = ?)`,
        [key, coaId, name, key],
      );
    }
  },
  async down(knex) {
    await knex.raw("update accounts set system_key = null where system_key in ('internal_transfers', 'credit_card_payments')");
    await knex.raw('drop table transfer_dismissals');
    await knex.raw('drop index if exists workspace_transactions_transfer_match');
    await knex.raw('alter table workspace_transactions drop column transfer_pair_id');
  },
};
