import { EventType, newId, writeEvents, type Knex } from '@ledgerline/platform';
import { CLASS_GROUPS, DEFAULT_CHART, SYSTEM, type ChartNode, type ClassGroup } from '../domain/chart.js';
import { DEFAULT_FISCAL_YEAR_START_MONTH } from '../domain/fiscal-year.js';

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
    rows.push({
      id,
      workspace_id: workspaceId,
      name: node.name,
      coa_id: node.coaId,
      class_group: classGroup,
      level,
      parent_id: parentId,
      group_name: level === 1 ? '' : groupName,
      tag: '',
      is_user_created: false,
      system_key: node.systemKey ?? null,
    });
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

/** The ledger accounts of bank accounts and the accounts of system keys, in one query. */
export async function bankAndSystemAccounts(
  trx: Knex.Transaction,
  bankAccountIds: readonly string[],
  systemKeys: readonly string[],
): Promise<Pick<AccountRow, 'id' | 'bank_account_id' | 'system_key'>[]> {
  return (
    await trx.raw('select id, bank_account_id, system_key from accounts where bank_account_id = any(?::uuid[]) or system_key = any(?::text[])', [
      [...bankAccountIds],
      [...systemKeys],
    ])
  ).rows as Pick<AccountRow, 'id' | 'bank_account_id' | 'system_key'>[];
}

/** The accounts of these ids (those that exist in the workspace). */
export async function accountsByIds(trx: Knex.Transaction, ids: readonly string[]): Promise<AccountRow[]> {
  return (await trx('accounts').whereIn('id', [...ids])) as AccountRow[];
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
    id: newId(),
    workspace_id: workspaceId,
    name,
    coa_id: await nextCoaId(trx, parent),
    class_group: parent.class_group,
    level: 4,
    parent_id: parent.id,
    group_name: parent.group_name,
    tag: '',
    is_user_created: false,
    system_key: null,
    bank_account_id: bank.accountId,
    qbo_synced: false,
  };
  await trx('accounts').insert(row);
  return row;
}

/** The first month (1–12) of the workspace's fiscal year; January until a user changes it. */
export async function fiscalYearStartMonth(trx: Knex.Transaction): Promise<number> {
  const row = (await trx('ledger_workspaces').first('fiscal_year_start_month')) as { fiscal_year_start_month: number } | undefined;
  return row?.fiscal_year_start_month ?? DEFAULT_FISCAL_YEAR_START_MONTH;
}

export async function setFiscalYearStartMonth(trx: Knex.Transaction, workspaceId: string, month: number): Promise<void> {
  await trx('ledger_workspaces').where({ workspace_id: workspaceId }).update({ fiscal_year_start_month: month });
}

export type ChartChange = 'created' | 'updated' | 'moved' | 'deleted' | 'fiscal_year';

/**
 * `chart.changed` in the outbox, in the change's own transaction, numbered from the entries' sequence
 * (`journal_entries.seq`): a report read that names the returned seq waits until reporting has applied
 * this event, exactly as after a posting (reads after writes). The number is this change's own, so two
 * users changing one workspace at once each get the seq of their own change.
 */
export async function writeChartChanged(trx: Knex.Transaction, workspaceId: string, change: ChartChange, accountIds: readonly string[]): Promise<number> {
  const r = (await trx.raw("select nextval(pg_get_serial_sequence('journal_entries', 'seq'))::bigint as seq")).rows as { seq: string }[];
  const seq = Number(r[0]?.seq);
  await writeEvents(trx, 'ledger', [{ type: EventType.ChartChanged, workspaceId, payload: { seq: BigInt(seq), change, accountIds: [...accountIds] } }]);
  return seq;
}

/** The ledger account of a linked bank or card account; undefined before `bank_account.linked` arrived. */
export async function accountOfBankAccount(trx: Knex.Transaction, bankAccountId: string): Promise<AccountRow | undefined> {
  return (await trx('accounts').where({ bank_account_id: bankAccountId }).first()) as AccountRow | undefined;
}

/** Whether an account of the chart already has this coaId. */
export async function coaIdTaken(trx: Knex.Transaction, coaId: number): Promise<boolean> {
  return !!(await trx('accounts').where({ coa_id: coaId }).first());
}

export async function insertAccount(trx: Knex.Transaction, row: AccountRow): Promise<void> {
  await trx('accounts').insert(row);
}

/** The distinct non-empty values of `group_name` or `tag` in the chart, sorted. */
export async function distinctAccountValues(trx: Knex.Transaction, column: 'group_name' | 'tag'): Promise<string[]> {
  return ((await trx('accounts').distinct(column).whereNot(column, '').orderBy(column)) as Record<string, string>[]).map((r) => r[column] as string);
}

export type AccountPatch = Partial<Pick<AccountRow, 'name' | 'coa_id' | 'group_name' | 'tag'>>;

export async function updateAccount(trx: Knex.Transaction, id: string, patch: AccountPatch): Promise<void> {
  await trx('accounts').where({ id }).update(patch);
}

/** Hangs an account under a new parent and shifts the level of its subtree (the account included) by `shift`. */
export async function moveAccount(trx: Knex.Transaction, id: string, parentId: string, subtree: readonly string[], shift: number): Promise<void> {
  await trx('accounts').where({ id }).update({ parent_id: parentId });
  if (shift !== 0)
    await trx('accounts')
      .whereIn('id', [...subtree])
      .update({ level: trx.raw('level + ?', [shift]) });
}

/** The accounts of these ids, locked for a removal. */
export async function lockAccounts(trx: Knex.Transaction, ids: readonly string[]): Promise<AccountRow[]> {
  return (await trx('accounts')
    .whereIn('id', [...ids])
    .forUpdate()) as AccountRow[];
}

/** Whether any account outside `ids` has its parent among them. */
export async function hasChildrenOutside(trx: Knex.Transaction, ids: readonly string[]): Promise<boolean> {
  return !!(await trx('accounts')
    .whereIn('parent_id', [...ids])
    .whereNotIn('id', [...ids])
    .first());
}

/** Whether a journal line or a workspace transaction is booked to any of these accounts. */
export async function isBookedTo(trx: Knex.Transaction, ids: readonly string[]): Promise<boolean> {
  return (
    !!(await trx('journal_lines')
      .whereIn('account_id', [...ids])
      .first()) ||
    !!(await trx('workspace_transactions')
      .whereIn('category_id', [...ids])
      .first())
  );
}

/**
 * Removes accounts nobody booked to: billers that pointed at them point nowhere, their (empty) month balances
 * go, then the accounts, children first (a parent and its children may be removed together).
 */
export async function deleteAccounts(trx: Knex.Transaction, accounts: readonly AccountRow[]): Promise<void> {
  const ids = accounts.map((a) => a.id);
  await trx('billers').whereIn('category_id', ids).update({ category_id: null });
  await trx('account_balances').whereIn('account_id', ids).delete();
  const ordered = [...accounts].sort((a, b) => b.level - a.level);
  for (const a of ordered) await trx('accounts').where({ id: a.id }).delete();
}

/** An account of a system key, or undefined when the chart has none yet (see `accountBySystemKey`). */
export async function findAccountBySystemKey(trx: Knex.Transaction, key: string): Promise<AccountRow | undefined> {
  return (await trx('accounts').where({ system_key: key }).first()) as AccountRow | undefined;
}

/** A class's level-1 account and its first level-2 group (by coaId). */
export async function classAndFirstGroup(trx: Knex.Transaction, classGroup: ClassGroup): Promise<{ cls?: AccountRow; group?: AccountRow }> {
  const cls = (await trx('accounts').where({ class_group: classGroup, level: 1 }).first()) as AccountRow | undefined;
  const group = cls ? ((await trx('accounts').where({ parent_id: cls.id, level: 2 }).orderBy('coa_id').first()) as AccountRow | undefined) : undefined;
  return { cls, group };
}

/** The level of each of these accounts that exists. */
export async function accountLevels(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, { id: string; level: number }>> {
  return new Map(
    (
      (await trx('accounts')
        .whereIn('id', [...ids])
        .select('id', 'level')) as { id: string; level: number }[]
    ).map((a) => [a.id, a]),
  );
}
