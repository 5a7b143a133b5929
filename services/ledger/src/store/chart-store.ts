import { newId, type Knex } from '@ledgerline/platform';
import { CLASS_GROUPS, DEFAULT_CHART, SYSTEM, type ChartNode, type ClassGroup } from '../domain/chart.js';

export interface AccountRow {
  id: string;
  workspace_id: string;
  name: string;
  coa_id: number;
  class_group: ClassGroup;
  level: number;
  parent_id: string | null;
  group_name: string;
  tag: string;
  is_user_created: boolean;
  system_key: string | null;
  bank_account_id: string | null;
  qbo_synced: boolean;
}

/**
 * Seeds the default chart into a workspace once. Safe to call from any handler: events about a
 * workspace may arrive before `workspace.created` (each event type has its own consumer), so every
 * entry point makes sure the chart exists. The `ledger_workspaces` row serialises concurrent seeders.
 */
export async function ensureChart(trx: Knex.Transaction, workspaceId: string, name = ''): Promise<boolean> {
  const inserted = await trx('ledger_workspaces').insert({ workspace_id: workspaceId, name }).onConflict('workspace_id').ignore().returning('workspace_id');
  if (inserted.length === 0) return false;
  const rows: Partial<AccountRow>[] = [];
  const walk = (node: ChartNode, classGroup: ClassGroup, level: number, parentId: string | null, groupName: string) => {
    const id = newId();
    rows.push({ id, workspace_id: workspaceId, name: node.name, coa_id: node.coaId, class_group: classGroup, level, parent_id: parentId, group_name: level === 1 ? '' : groupName, tag: '', is_user_created: false, system_key: node.systemKey ?? null });
    for (const child of node.children ?? []) walk(child, classGroup, level + 1, id, level === 1 ? child.name : groupName);
  };
  for (const cls of CLASS_GROUPS) walk(DEFAULT_CHART[cls], cls, 1, null, '');
  await trx('accounts').insert(rows);
  return true;
}

export async function accountBySystemKey(trx: Knex.Transaction, key: string): Promise<AccountRow> {
  const row = (await trx('accounts').where({ system_key: key }).first()) as AccountRow | undefined;
  if (!row) throw new Error(`the chart has no ${key} account`);
  return row;
}

export async function accountById(trx: Knex.Transaction, id: string): Promise<AccountRow | undefined> {
  return (await trx('accounts').where({ id }).first()) as AccountRow | undefined;
}

export async function allAccounts(trx: Knex.Transaction): Promise<AccountRow[]> {
  return (await trx('accounts').orderBy('coa_id')) as AccountRow[];
}

/** The next free coaId under a parent: parent + 1, + 2, ... skipping ids in use anywhere in the chart. */
export async function nextCoaId(trx: Knex.Transaction, parent: AccountRow): Promise<number> {
  const used = new Set(((await trx('accounts').select('coa_id')) as { coa_id: number }[]).map((r) => r.coa_id));
  const siblings = ((await trx('accounts').where({ parent_id: parent.id }).select('coa_id')) as { coa_id: number }[]).map((r) => r.coa_id);
  let candidate = Math.max(parent.coa_id, ...siblings) + 1;
  while (used.has(candidate)) candidate++;
  return candidate;
}

export interface LinkedBankAccount {
  accountId: string;
  name: string;
  mask: string;
  type: string;
  subtype: string;
  institutionName: string;
}

/** The ledger account of a linked bank or card account (created once; a relink renames it). */
export async function ensureBankLedgerAccount(trx: Knex.Transaction, workspaceId: string, bank: LinkedBankAccount): Promise<AccountRow> {
  const name = bank.mask ? `${bank.name} ••${bank.mask}` : bank.name || 'Bank account';
  const existing = (await trx('accounts').where({ bank_account_id: bank.accountId }).first()) as AccountRow | undefined;
  if (existing) {
    if (existing.name !== name) await trx('accounts').where({ id: existing.id }).update({ name });
    return { ...existing, name };
  }
  const isCard = bank.type === 'credit' || /credit/i.test(bank.subtype);
  const parent = await accountBySystemKey(trx, isCard ? SYSTEM.creditCards : SYSTEM.cash);
  const row: AccountRow = {
    id: newId(), workspace_id: workspaceId, name, coa_id: await nextCoaId(trx, parent), class_group: parent.class_group, level: 4, parent_id: parent.id,
    group_name: parent.group_name, tag: '', is_user_created: false, system_key: null, bank_account_id: bank.accountId, qbo_synced: false,
  };
  await trx('accounts').insert(row);
  return row;
}
