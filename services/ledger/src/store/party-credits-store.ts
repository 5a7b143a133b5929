import type { Knex } from '@ledgerline/platform';
import type { AccountRow } from './chart-store.js';

/** Serialises the first credits of a workspace while one of them makes the party account (PostPartyCredit). */
export async function lockLedgerWorkspace(trx: Knex.Transaction, workspaceId: string): Promise<void> {
  await trx.raw('select 1 from ledger_workspaces where workspace_id = ? for update', [workspaceId]);
}

/** The default chart's account of that coaId, name and class, at level 3 and without a system key yet. */
export async function unkeyedDefaultAccount(trx: Knex.Transaction, spec: { coaId: number; name: string; classGroup: string }): Promise<AccountRow | undefined> {
  return (await trx('accounts').where({ coa_id: spec.coaId, name: spec.name, class_group: spec.classGroup, level: 3 }).whereNull('system_key').first()) as
    AccountRow | undefined;
}

export async function setSystemKey(trx: Knex.Transaction, accountId: string, key: string): Promise<void> {
  await trx('accounts').where({ id: accountId }).update({ system_key: key });
}
