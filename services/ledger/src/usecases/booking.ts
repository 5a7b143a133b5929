import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import { isPostableLevel, SYSTEM } from '../domain/chart.js';
import { MSG } from '../domain/messages.js';
import { bankTransactionLines, splitTransactionLines } from '../domain/posting.js';
import { editRestriction } from '../domain/restrictions.js';
import { isBooksCurrency } from '../domain/tie-out.js';
import { accountById, accountBySystemKey, type AccountRow } from '../store/chart-store.js';
import { postEntries, postEntry, reversalsOf, reverseEntry, type NewEntry } from '../store/journal.js';
import type { BillerRow, TxnRow, TxnViewRow } from '../store/rows.js';
import { liveView } from '../store/transaction-views.js';
import { lockLiveTransaction, splitParts, updateBookings, updateTransaction } from '../store/workspace-transactions.js';
import { refuseOpeningBalanceEntry } from './opening-balances.js';

/*
 * The booking core of workspace transactions, shared by the transaction, bank, transfer and accrual use
 * cases: the category a new transaction takes, re-booking (reversal + new entry), the spec §4 checks
 * before a change and the lock of the row it changes.
 */

/** The category a new bank transaction is booked to: its biller's, else Uncategorised Income/Expense by sign. */
export async function defaultCategory(trx: Knex.Transaction, amountCents: number, biller: BillerRow | null): Promise<string> {
  if (biller?.category_id) return biller.category_id;
  return (await accountBySystemKey(trx, amountCents > 0 ? SYSTEM.uncategorisedIncome : SYSTEM.uncategorisedExpense)).id;
}

/**
 * Re-books a transaction: reverses the entry that represents it now and posts the entry of its new
 * state (category, amount, date). The row then points at the new entry.
 */
export async function repost(
  trx: Knex.Transaction,
  row: TxnRow,
  next: { categoryId?: string; amountCents?: number; date?: string; name?: string },
): Promise<TxnRow> {
  const categoryId = next.categoryId ?? row.category_id;
  const amountCents = next.amountCents ?? row.amount_cents;
  const date = next.date ?? row.txn_date;
  const name = next.name ?? row.name;
  if (row.current_entry_id) await reverseEntry(trx, row.current_entry_id, `Reversal: ${row.name}`);
  let entryId: string | null = null;
  if (categoryId && row.ledger_account_id && date && amountCents !== 0 && isBooksCurrency(row.iso_currency_code)) {
    const parts = row.is_split_parent ? await splitParts(trx, row.id) : [];
    const lines =
      parts.length > 0
        ? splitTransactionLines(
            row.ledger_account_id,
            amountCents,
            parts.map((p) => ({ categoryId: p.category_id, amountCents: p.amount_cents })),
          )
        : bankTransactionLines(row.ledger_account_id, categoryId, amountCents);
    entryId = await postEntry(trx, {
      workspaceId: row.workspace_id,
      date,
      sourceType: 'WorkspaceTransaction',
      sourceId: row.id,
      description: name,
      lines,
      transactionId: row.id,
      billerId: row.biller_id,
    });
  }
  await updateTransaction(trx, row.id, { category_id: categoryId, amount_cents: amountCents, txn_date: date, name, current_entry_id: entryId });
  return { ...row, category_id: categoryId, amount_cents: amountCents, txn_date: date, name, current_entry_id: entryId };
}

/**
 * `repost` to a new category for many locked transactions at once (issue #22: transfer detection over a page
 * books hundreds of pairs): the reversals read in one statement, every reversal and new entry posted in one
 * `postEntries` in the order reposting them one after another would (reversal, new entry, next transaction),
 * the rows in one UPDATE. A split transaction (its parts make the lines) goes through `repost` on its own.
 */
export async function repostMany(trx: Knex.Transaction, items: readonly { row: TxnRow; categoryId: string }[]): Promise<void> {
  const whole = items.filter((i) => !i.row.is_split_parent);
  for (const i of items) if (i.row.is_split_parent) await repost(trx, i.row, { categoryId: i.categoryId });
  if (whole.length === 0) return;
  const reversals = await reversalsOf(
    trx,
    whole.filter((i) => i.row.current_entry_id).map((i) => ({ entryId: i.row.current_entry_id as string, description: `Reversal: ${i.row.name}` })),
  );
  const entries: NewEntry[] = [];
  const newEntryOf: (number | null)[] = [];
  let nextReversal = 0;
  for (const { row, categoryId } of whole) {
    if (row.current_entry_id) entries.push(reversals[nextReversal++] as NewEntry);
    if (row.ledger_account_id && row.txn_date && Number(row.amount_cents) !== 0 && isBooksCurrency(row.iso_currency_code)) {
      newEntryOf.push(entries.length);
      entries.push({
        workspaceId: row.workspace_id,
        date: row.txn_date,
        sourceType: 'WorkspaceTransaction',
        sourceId: row.id,
        description: row.name,
        lines: bankTransactionLines(row.ledger_account_id, categoryId, Number(row.amount_cents)),
        transactionId: row.id,
        billerId: row.biller_id,
      });
    } else newEntryOf.push(null);
  }
  const posted = await postEntries(trx, entries);
  await updateBookings(
    trx,
    whole.map(({ row, categoryId }, i) => {
      const at = newEntryOf[i];
      return { ...row, category_id: categoryId, current_entry_id: at === null || at === undefined ? null : (posted[at] as string) };
    }),
  );
}

/** `categoryForBooking`'s checks on a category read beforehand. */
export function checkBookable(category: AccountRow | undefined): AccountRow {
  if (!category) throw AppError.notFound('Category');
  if (!isPostableLevel(category.level)) throw AppError.invalid([{ field: 'categoryId', message: MSG.categoryNotPostable }]);
  if (category.bank_account_id) throw AppError.invalid([{ field: 'categoryId', message: MSG.categoryIsBankAccount }]);
  return category;
}

/** A category a transaction may be booked to (postable level, not a bank account), else 404 / 400. */
export async function categoryForBooking(trx: Knex.Transaction, categoryId: string): Promise<AccountRow> {
  return checkBookable(await accountById(trx, categoryId));
}

/** Locks a live transaction for a change; 404 (or the opening-balance refusal for an opening balance's entry id). */
export async function lockRow(trx: Knex.Transaction, id: string): Promise<TxnRow> {
  const row = await lockLiveTransaction(trx, id);
  if (!row) {
    await refuseOpeningBalanceEntry(trx, id);
    throw AppError.notFound('Transaction');
  }
  return row;
}

/** Refuses a change the spec §4 restrictions forbid (409 with the rule's code). */
export async function assertEditable(trx: Knex.Transaction, row: TxnRow, options: { splitting?: boolean; transferring?: boolean } = {}): Promise<void> {
  const category = row.category_id ? await accountById(trx, row.category_id) : undefined;
  const r = editRestriction(
    {
      entityType: row.entity_type,
      isFinalized: row.is_finalized,
      categoryClass: category?.class_group ?? null,
      qboSynced: row.qbo_synced,
      isAccruedParent: row.is_accrued_parent,
      isSplitParent: row.is_split_parent,
      isSplitChild: row.is_split_child,
      isAccrualChild: row.is_accrual_child,
      isOpeningBalance: row.is_opening_balance,
      isRemoved: row.is_removed,
      isoCurrencyCode: row.iso_currency_code,
    },
    options,
  );
  if (r) throw new AppError(ErrorKind.FailedPrecondition, r.message, { appErrorCode: r.code });
}

/** The view of a live transaction, else 404. */
export async function viewById(trx: Knex.Transaction, id: string): Promise<TxnViewRow> {
  const view = await liveView(trx, id);
  if (!view) throw AppError.notFound('Transaction');
  return view;
}
