import { newId, type Knex } from '@ledgerline/platform';
import { recognitionLines, type AccrualCategory } from '../domain/accrual.js';
import { audit } from './audit.js';
import { postEntry, reverseEntry } from './journal.js';
import type { TxnAccrualView, TxnRow } from './rows.js';

export interface AccrualRow {
  transaction_id: string;
  workspace_id: string;
  accrual_category: AccrualCategory;
  start_date: string;
  end_date: string;
  recognise_category_id: string;
  original_category_id: string | null;
  status: 'active' | 'stopped';
  stopped_on: string | null;
}

export interface AccrualMonthRow {
  id: string;
  transaction_id: string;
  position: number;
  accrual_date: string;
  amount_cents: number;
  entry_id: string;
}

export async function accrualOf(trx: Knex.Transaction, transactionId: string): Promise<AccrualRow | undefined> {
  return (await trx('transaction_accruals').where({ transaction_id: transactionId }).first()) as AccrualRow | undefined;
}

export async function accrualMonths(trx: Knex.Transaction, transactionId: string): Promise<AccrualMonthRow[]> {
  return (await trx('accrual_months').where({ transaction_id: transactionId }).orderBy('position')) as AccrualMonthRow[];
}

/** Posts one month's recognition entry and records the month pointing at it. */
export async function postMonth(
  trx: Knex.Transaction,
  txn: Pick<TxnRow, 'id' | 'workspace_id' | 'name' | 'biller_id'>,
  a: { category: AccrualCategory; accrualAccountId: string; recogniseCategoryId: string },
  m: { id?: string; position: number; date: string; cents: number; label: string },
): Promise<AccrualMonthRow> {
  const id = m.id ?? newId();
  const entryId = await postEntry(trx, {
    workspaceId: txn.workspace_id,
    date: m.date,
    sourceType: 'WorkspaceTransaction',
    sourceId: id,
    description: `${txn.name} (${m.label})`,
    lines: recognitionLines(a.category, a.accrualAccountId, a.recogniseCategoryId, m.cents),
    transactionId: txn.id,
    billerId: txn.biller_id,
  });
  const row: AccrualMonthRow = { id, transaction_id: txn.id, position: m.position, accrual_date: m.date, amount_cents: m.cents, entry_id: entryId };
  await trx('accrual_months').insert({ ...row, workspace_id: txn.workspace_id });
  return row;
}

/** Reverses the months' recognition entries and forgets the months (the entries stay, reversed). */
export async function dropMonths(trx: Knex.Transaction, txn: Pick<TxnRow, 'name'>, months: readonly AccrualMonthRow[]): Promise<void> {
  for (const m of months) await reverseEntry(trx, m.entry_id, `Reversal: ${txn.name} (accrual ${m.accrual_date})`);
  if (months.length)
    await trx('accrual_months')
      .whereIn(
        'id',
        months.map((m) => m.id),
      )
      .delete();
}

/**
 * Un-accrues a transaction inside the caller's transaction: every recognition entry is reversed, the
 * schedule forgotten, and the row is pointed back at the category it had before it was accrued. The
 * caller re-books the bank entry (a reversal + new entry through `repost`, or a plain reversal when the
 * bank removed the transaction). The trail records it as the bank feed's doing unless the caller records
 * it itself (`audited`: a user's delete). Returns the row in its new state.
 */
export async function dropAccrual(trx: Knex.Transaction, row: TxnRow, { audited = false } = {}): Promise<TxnRow> {
  const accrual = await accrualOf(trx, row.id);
  if (!accrual) return row;
  await dropMonths(trx, row, await accrualMonths(trx, row.id));
  await trx('transaction_accruals').where({ transaction_id: row.id }).delete();
  const categoryId = accrual.original_category_id ?? row.category_id;
  await trx('workspace_transactions').where({ id: row.id }).update({ is_accrued_parent: false, category_id: categoryId, updated_at: trx.fn.now() });
  if (!audited) {
    await audit(trx, {
      workspaceId: row.workspace_id,
      transactionId: row.id,
      event: 'unaccrued',
      details: { byBank: true, accrualCategory: accrual.accrual_category, recogniseCategoryId: accrual.recognise_category_id, toCategoryId: categoryId },
    });
  }
  return { ...row, is_accrued_parent: false, category_id: categoryId };
}

/** Attaches the accrual of each accrued transaction among `rows` (two queries for a page, none without accruals). */
export async function withAccruals<R extends Pick<TxnRow, 'id' | 'amount_cents' | 'is_accrued_parent'>>(
  trx: Knex.Transaction,
  rows: R[],
  today = new Date().toISOString().slice(0, 10),
): Promise<(R & { accrual?: TxnAccrualView })[]> {
  const ids = rows.filter((r) => r.is_accrued_parent).map((r) => r.id);
  if (ids.length === 0) return rows;
  const heads = (await trx('transaction_accruals').whereIn('transaction_id', ids)) as AccrualRow[];
  const months = (await trx('accrual_months').whereIn('transaction_id', ids).orderBy(['transaction_id', 'position'])) as AccrualMonthRow[];
  return rows.map((r) => {
    const a = heads.find((h) => h.transaction_id === r.id);
    if (!a) return r;
    let left = Math.abs(r.amount_cents);
    const own = months
      .filter((m) => m.transaction_id === r.id)
      .map((m) => {
        left -= m.amount_cents;
        return {
          id: m.id,
          date: m.accrual_date,
          amountCents: m.amount_cents,
          runningBalanceCents: left,
          isTransactionAdded: m.accrual_date <= today,
          journalEntryId: m.entry_id,
        };
      });
    return { ...r, accrual: { startDate: a.start_date, endDate: a.end_date, status: a.status, category: a.accrual_category, months: own } };
  });
}

/** Records a transaction's accrual schedule and marks the transaction accrued. */
export async function insertAccrual(
  trx: Knex.Transaction,
  row: Pick<TxnRow, 'id' | 'workspace_id' | 'category_id'>,
  a: { category: AccrualCategory; start: string; end: string; recogniseCategoryId: string },
): Promise<void> {
  await trx('transaction_accruals').insert({
    transaction_id: row.id,
    workspace_id: row.workspace_id,
    accrual_category: a.category,
    start_date: a.start,
    end_date: a.end,
    recognise_category_id: a.recogniseCategoryId,
    original_category_id: row.category_id,
  });
  await trx('workspace_transactions').where({ id: row.id }).update({ is_accrued_parent: true });
}

/** A schedule's new dates and recognition category. */
export async function updateAccrual(
  trx: Knex.Transaction,
  transactionId: string,
  a: { start: string; end: string; recogniseCategoryId: string },
): Promise<void> {
  await trx('transaction_accruals')
    .where({ transaction_id: transactionId })
    .update({ start_date: a.start, end_date: a.end, recognise_category_id: a.recogniseCategoryId, updated_at: trx.fn.now() });
}

/** A schedule stopped on a date (its remaining months were dropped by the caller). */
export async function stopAccrual(trx: Knex.Transaction, transactionId: string, stoppedOn: string): Promise<void> {
  await trx('transaction_accruals').where({ transaction_id: transactionId }).update({ status: 'stopped', stopped_on: stoppedOn, updated_at: trx.fn.now() });
}
