import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import { SUCCESS } from '../domain/messages.js';
import { bankTransactionLines } from '../domain/posting.js';
import { editRestriction } from '../domain/restrictions.js';
import { audit, auditMany, type AuditEvent } from '../store/audit.js';
import { billerFor } from '../store/billers.js';
import { accountsByIds } from '../store/chart-store.js';
import { postEntries, reversalsOf, type NewEntry } from '../store/journal.js';
import type { TxnRow } from '../store/rows.js';
import { views } from '../store/transaction-views.js';
import { lockLiveTransactions, updateBookings, updateTransaction, type TxnPatch } from '../store/workspace-transactions.js';
import { markManual } from './categorisation.js';
import { categoryForBooking, checkBookable, lockRow, repost, assertEditable } from './booking.js';
import type { Tenant } from './context.js';
import { refuseOpeningBalanceEntry } from './opening-balances.js';

/** One item of PATCH /transactions. */
export interface UpdateItem {
  id?: string;
  categoryId?: string;
  vendorId?: string;
  billerName?: string;
  appliedRuleId?: string;
  isTxnFinalized?: boolean;
}

/** PATCH /transactions item by item (~12 round trips each): a request that names a transaction twice. */
export async function bulkUpdateOneByOne(trx: Knex.Transaction, tenant: Tenant, items: UpdateItem[]) {
  const ids: string[] = [];
  for (const it of items) {
    const id = it.id as string;
    let row = await lockRow(trx, id);
    if (it.isTxnFinalized === false && row.is_finalized) {
      await updateTransaction(trx, id, { is_finalized: false });
      await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'unfinalized' });
      row = { ...row, is_finalized: false };
    }
    const edits = it.categoryId !== undefined || it.billerName !== undefined || it.vendorId !== undefined || it.appliedRuleId !== undefined;
    if (edits) {
      const category = it.categoryId ? await categoryForBooking(trx, it.categoryId) : undefined;
      await assertEditable(trx, row);
      const patch: TxnPatch = {};
      if (it.billerName !== undefined) patch.biller_id = (await billerFor(trx, tenant.workspaceId, it.billerName))?.id ?? null;
      if (it.vendorId !== undefined) patch.vendor_id = it.vendorId || null;
      if (it.appliedRuleId !== undefined) patch.applied_rule_id = it.appliedRuleId || null;
      if (Object.keys(patch).length) await updateTransaction(trx, id, patch);
      if (it.billerName !== undefined)
        await audit(trx, {
          workspaceId: tenant.workspaceId,
          transactionId: id,
          userId: tenant.userId,
          event: 'biller_changed',
          details: { billerName: it.billerName },
        });
      const billerChanged = patch.biller_id !== undefined && patch.biller_id !== row.biller_id;
      row = { ...row, ...patch } as TxnRow;
      if (category && category.id !== row.category_id) {
        await audit(trx, {
          workspaceId: tenant.workspaceId,
          transactionId: id,
          userId: tenant.userId,
          event: 'categorised',
          details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name },
        });
        row = await repost(trx, row, { categoryId: category.id });
      } else if (billerChanged && row.current_entry_id && row.category_id) {
        // The merchant is part of the entry (reports by merchant read it): a new merchant re-books the transaction.
        row = await repost(trx, row, {});
      }
    }
    if (it.isTxnFinalized === true && !row.is_finalized) {
      await updateTransaction(trx, id, { is_finalized: true });
      await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'finalized' });
    }
    ids.push(id);
  }
  await markManual(
    trx,
    tenant.workspaceId,
    items.filter((it) => it.categoryId).map((it) => it.id as string),
  );
  return { transactions: await views(trx, ids), message: SUCCESS.transactionsUpdated };
}

/**
 * PATCH /transactions set-based, with the same outcome as the items applied one after another
 * (distinct ids): the rows locked in id order in one statement, every item checked first (the first
 * refusal in item order, with the same wording), then the reversals and new entries in the order the
 * items would have posted them (`postEntries`: one statement, places and balances exact), the rows in
 * one UPDATE and the trail in one INSERT.
 */
export async function bulkUpdateSetBased(trx: Knex.Transaction, tenant: Tenant, items: UpdateItem[]) {
  const ids = items.map((it) => it.id as string);
  const locked = await lockLiveTransactions(trx, ids);
  const rowById = new Map(locked.map((r) => [r.id, r]));
  const categoryIds = [
    ...new Set([...items.map((it) => it.categoryId).filter((c): c is string => !!c), ...locked.map((r) => r.category_id).filter((c): c is string => !!c)]),
  ];
  const accounts = new Map((await accountsByIds(trx, categoryIds)).map((a) => [a.id, a]));

  // Checks, in item order and in each item's order (row, category, restriction), before any write.
  for (const it of items) {
    const id = it.id as string;
    const row = rowById.get(id);
    if (!row) {
      await refuseOpeningBalanceEntry(trx, id);
      throw AppError.notFound('Transaction');
    }
    const edits = it.categoryId !== undefined || it.billerName !== undefined || it.vendorId !== undefined || it.appliedRuleId !== undefined;
    if (!edits) continue;
    if (it.categoryId) checkBookable(accounts.get(it.categoryId));
    const isFinalized = row.is_finalized && it.isTxnFinalized !== false;
    const r = editRestriction({
      entityType: row.entity_type,
      isFinalized,
      categoryClass: (row.category_id ? accounts.get(row.category_id)?.class_group : null) ?? null,
      qboSynced: row.qbo_synced,
      isAccruedParent: row.is_accrued_parent,
      isSplitParent: row.is_split_parent,
      isSplitChild: row.is_split_child,
      isAccrualChild: row.is_accrual_child,
      isOpeningBalance: row.is_opening_balance,
      isRemoved: row.is_removed,
      isoCurrencyCode: row.iso_currency_code,
    });
    if (r) throw new AppError(ErrorKind.FailedPrecondition, r.message, { appErrorCode: r.code });
  }

  const billers = new Map<string, string | null>();
  for (const name of new Set(items.map((it) => it.billerName).filter((n): n is string => n !== undefined)))
    billers.set(name, (await billerFor(trx, tenant.workspaceId, name))?.id ?? null);

  type Trail = { transactionId: string; event: AuditEvent; details?: Record<string, unknown> };
  const trail: Trail[] = [];
  const updates: TxnRow[] = [];
  const rebook: { row: TxnRow; categoryId: string }[] = [];
  for (const it of items) {
    const before = rowById.get(it.id as string) as TxnRow;
    const row = { ...before };
    if (it.isTxnFinalized === false && row.is_finalized) {
      row.is_finalized = false;
      trail.push({ transactionId: row.id, event: 'unfinalized' });
    }
    const edits = it.categoryId !== undefined || it.billerName !== undefined || it.vendorId !== undefined || it.appliedRuleId !== undefined;
    if (edits) {
      if (it.billerName !== undefined) row.biller_id = billers.get(it.billerName) ?? null;
      const billerChanged = row.biller_id !== before.biller_id;
      if (it.vendorId !== undefined) row.vendor_id = it.vendorId || null;
      if (it.appliedRuleId !== undefined) row.applied_rule_id = it.appliedRuleId || null;
      if (it.billerName !== undefined) trail.push({ transactionId: row.id, event: 'biller_changed', details: { billerName: it.billerName } });
      const category = it.categoryId ? accounts.get(it.categoryId) : undefined;
      if (category && category.id !== row.category_id) {
        trail.push({
          transactionId: row.id,
          event: 'categorised',
          details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name },
        });
        rebook.push({ row, categoryId: category.id });
        row.category_id = category.id;
      } else if (billerChanged && row.current_entry_id && row.category_id) {
        rebook.push({ row, categoryId: row.category_id });
      }
    }
    if (it.isTxnFinalized === true && !row.is_finalized) {
      row.is_finalized = true;
      trail.push({ transactionId: row.id, event: 'finalized' });
    }
    const changed =
      row.is_finalized !== before.is_finalized ||
      row.category_id !== before.category_id ||
      it.billerName !== undefined ||
      it.vendorId !== undefined ||
      it.appliedRuleId !== undefined;
    if (changed) updates.push(row);
  }

  // What `repost` does for each, in the same order: the reversal, then the entry of the new category.
  // (A split parent is refused above, so every new entry is the bank line against the category.)
  const reversals = await reversalsOf(
    trx,
    rebook.filter((b) => b.row.current_entry_id).map((b) => ({ entryId: b.row.current_entry_id as string, description: `Reversal: ${b.row.name}` })),
  );
  const entries: NewEntry[] = [];
  const newEntryOf: (number | null)[] = [];
  let nextReversal = 0;
  for (const { row, categoryId } of rebook) {
    if (row.current_entry_id) entries.push(reversals[nextReversal++] as NewEntry);
    if (row.ledger_account_id && row.txn_date && row.amount_cents !== 0) {
      newEntryOf.push(entries.length);
      entries.push({
        workspaceId: row.workspace_id,
        date: row.txn_date,
        sourceType: 'WorkspaceTransaction',
        sourceId: row.id,
        description: row.name,
        lines: bankTransactionLines(row.ledger_account_id, categoryId, row.amount_cents),
        transactionId: row.id,
        billerId: row.biller_id,
      });
    } else newEntryOf.push(null);
  }
  const posted = await postEntries(trx, entries);
  rebook.forEach((b, i) => {
    const at = newEntryOf[i];
    b.row.current_entry_id = at === null || at === undefined ? null : (posted[at] as string);
  });

  await updateBookings(trx, updates);
  await auditMany(
    trx,
    trail.map((t) => ({ ...t, workspaceId: tenant.workspaceId, userId: tenant.userId })),
  );
  await markManual(
    trx,
    tenant.workspaceId,
    items.filter((it) => it.categoryId).map((it) => it.id as string),
  );
  return { transactions: await views(trx, ids), message: SUCCESS.transactionsUpdated };
}
