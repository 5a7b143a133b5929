import type { Knex } from '@ledgerline/platform';
import { SYSTEM } from '../domain/chart.js';
import type { TxnRow } from './rows.js';

/**
 * Pairing and un-pairing run one at a time per workspace (a transaction-scoped advisory lock taken before
 * any other write of the transaction): two consumers booking two sides at once cannot both pair with a
 * third, and a side booked while its counterpart's transaction is still open sees it once that commits
 * (READ COMMITTED: the detection query after the lock takes a new snapshot). Row locks and the unique
 * `transfer_pair_id` index guard against every other writer.
 */
export async function transferLock(trx: Knex.Transaction, workspaceId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtext('ledger.transfers'), hashtext(?))", [workspaceId]);
}

/** A side with what the rules and the booking need. */
export interface SideRow extends TxnRow {
  category_system_key: string | null;
  category_class: string | null;
  account_class: string | null;
  account_name: string | null;
}

const SIDE_SELECT = `select t.*, c.system_key as category_system_key, c.class_group as category_class, la.class_group as account_class, la.name as account_name
  from workspace_transactions t join accounts la on la.id = t.ledger_account_id left join accounts c on c.id = t.category_id`;

/** What can be one side of a transfer at all (live, booked, not finalized, split, accrued, linked, synced or an opening balance, not paired). */
const PAIRABLE = `t.is_removed = false and t.transfer_pair_id is null and t.current_entry_id is not null and t.amount_cents <> 0 and t.is_finalized = false
  and t.is_split_parent = false and t.is_split_child = false and t.is_accrued_parent = false and t.is_accrual_child = false and t.entity_type is null
  and t.qbo_synced = false and t.is_opening_balance = false`;
/** Detection leaves alone what a user categorised: only Uncategorised or a Transfer account (a one-sided transfer) is paired automatically. */
const AUTO_CATEGORY = `(c.system_key in ('${SYSTEM.uncategorisedIncome}', '${SYSTEM.uncategorisedExpense}') or c.class_group = 'Transfer')`;

/** Locks sides by id, in id order (any state: the caller checks them again). */
export async function lockSides(trx: Knex.Transaction, ids: readonly string[]): Promise<SideRow[]> {
  return (await trx.raw(`${SIDE_SELECT} where t.id = any(?::uuid[]) order by t.id for update of t`, [[...ids]])).rows as SideRow[];
}

/** Those of these transactions detection may pair automatically (pairable and Uncategorised or Transfer), unordered. */
export async function autoPairableSides(trx: Knex.Transaction, ids: readonly string[]): Promise<SideRow[]> {
  return (await trx.raw(`${SIDE_SELECT} where t.id = any(?::uuid[]) and ${PAIRABLE} and ${AUTO_CATEGORY}`, [[...ids]])).rows as SideRow[];
}

/** Detection's pool: the workspace's sides pairable automatically with one of these amounts, dated within `days` of [from, to], by date and id. */
export async function autoPairablePool(
  trx: Knex.Transaction,
  q: { workspaceId: string; amounts: readonly number[]; from: string; to: string; days: number },
): Promise<SideRow[]> {
  return (
    await trx.raw(
      `${SIDE_SELECT} where t.workspace_id = ? and t.amount_cents = any(?::bigint[]) and t.txn_date between ?::date - ?::int and ?::date + ?::int and ${PAIRABLE} and ${AUTO_CATEGORY}
     order by t.txn_date, t.id`,
      [q.workspaceId, [...q.amounts], q.from, q.days, q.to, q.days],
    )
  ).rows as SideRow[];
}

/** The candidates a user may pair by hand: any pairable side of this amount in another bank account, dated within `days`, by date and id. */
export async function pairablePool(
  trx: Knex.Transaction,
  q: { workspaceId: string; amountCents: number; date: string; days: number; otherThanBankAccountId: string },
): Promise<SideRow[]> {
  return (
    await trx.raw(
      `${SIDE_SELECT} where t.workspace_id = ? and t.amount_cents = ? and t.txn_date between ?::date - ?::int and ?::date + ?::int and t.bank_account_id <> ? and ${PAIRABLE} order by t.txn_date, t.id`,
      [q.workspaceId, q.amountCents, q.date, q.days, q.date, q.days, q.otherThanBankAccountId],
    )
  ).rows as SideRow[];
}

/** A live transaction as a side, unlocked. */
export async function liveSide(trx: Knex.Transaction, id: string): Promise<SideRow | undefined> {
  return (await trx.raw(`${SIDE_SELECT} where t.id = ? and t.is_removed = false`, [id])).rows[0] as SideRow | undefined;
}

/** The pair of a live transaction (null: not paired), or undefined when there is no live transaction of this id. */
export async function livePairOf(trx: Knex.Transaction, id: string): Promise<{ transfer_pair_id: string | null } | undefined> {
  return (await trx('workspace_transactions').where({ id, is_removed: false }).first('transfer_pair_id')) as { transfer_pair_id: string | null } | undefined;
}

/** The dismissed pairs (ids in order) that involve any of these transactions. */
export async function dismissalsAmong(trx: Knex.Transaction, ids: readonly string[]): Promise<{ transaction_id: string; counterpart_id: string }[]> {
  return (
    await trx.raw('select transaction_id, counterpart_id from transfer_dismissals where transaction_id = any(?::uuid[]) or counterpart_id = any(?::uuid[])', [
      [...ids],
      [...ids],
    ])
  ).rows as { transaction_id: string; counterpart_id: string }[];
}

/** Those of these transactions a user said are no one-sided transfer (a dismissal with itself). */
export async function dismissedAsOneSided(trx: Knex.Transaction, ids: readonly string[]): Promise<Set<string>> {
  return new Set(
    (
      (await trx.raw('select transaction_id from transfer_dismissals where transaction_id = any(?::uuid[]) and counterpart_id = transaction_id', [[...ids]]))
        .rows as { transaction_id: string }[]
    ).map((r) => r.transaction_id),
  );
}

/** Records a dismissal (a pair in id order, or a transaction with itself); once is enough. */
export async function insertDismissal(
  trx: Knex.Transaction,
  workspaceId: string,
  transactionId: string,
  counterpartId: string,
  userId: string | null,
): Promise<void> {
  await trx.raw('insert into transfer_dismissals (workspace_id, transaction_id, counterpart_id, dismissed_by) values (?, ?, ?, ?) on conflict do nothing', [
    workspaceId,
    transactionId,
    counterpartId,
    userId,
  ]);
}

/** Two transactions name each other as their transfer's other side; a dismissal of the pair (ids in order) is forgotten. */
export async function setPair(trx: Knex.Transaction, a: string, b: string, dismissal: readonly [string, string]): Promise<void> {
  await trx.raw('update workspace_transactions set transfer_pair_id = case when id = ? then ?::uuid else ?::uuid end, updated_at = now() where id in (?, ?)', [
    a,
    b,
    a,
    a,
    b,
  ]);
  await trx.raw('delete from transfer_dismissals where transaction_id = ? and counterpart_id = ?', [...dismissal]);
}

/** Two transactions stop naming each other. */
export async function clearPair(trx: Knex.Transaction, id: string, pairId: string): Promise<void> {
  await trx.raw('update workspace_transactions set transfer_pair_id = null, updated_at = now() where id in (?, ?)', [id, pairId]);
}

/** A biller's category with its class, or undefined when it has none. */
export async function billerCategory(trx: Knex.Transaction, billerId: string): Promise<{ id: string; class_group: string } | undefined> {
  return (await trx('billers as b').join('accounts as a', 'a.id', 'b.category_id').where('b.id', billerId).first('a.id', 'a.class_group')) as
    { id: string; class_group: string } | undefined;
}
