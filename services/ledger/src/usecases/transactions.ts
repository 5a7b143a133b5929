import { AppError, ErrorKind, newId } from '@ledgerline/platform';
import { MSG, SUCCESS } from '../domain/messages.js';
import { signedParts } from '../domain/posting.js';
import { editRestriction } from '../domain/restrictions.js';
import { pageMeta, paging, Problems } from '../domain/validation.js';
import { audit } from '../store/audit.js';
import { allBillers, lockBiller, setBillerCategory } from '../store/billers.js';
import { accountById } from '../store/chart-store.js';
import { auditLogPage, listViews, views, type ViewFilters } from '../store/transaction-views.js';
import { lockBillerTransactionsNotIn, replaceSplitParts, splitParts, transactionExists, updateTransaction } from '../store/workspace-transactions.js';
import { markManual } from './categorisation.js';
import { assertEditable, categoryForBooking, lockRow, repost, viewById } from './booking.js';
import { bulkUpdateOneByOne, bulkUpdateSetBased, type UpdateItem } from './bulk-update.js';
import { assertCanEdit, changeInWorkspace, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { assertReferences } from './references.js';

// The row → message mapping (rpc) reads a transaction's transfer status from here.
export { transferStatusOf } from '../domain/transfers.js';
export type { UpdateItem } from './bulk-update.js';

/** GET /transactions/v2's filters as received (checked by `list`). */
export interface ListFilters extends Omit<ViewFilters, 'flow' | 'finalization' | 'order' | 'transferStatus'> {
  flow: string;
  finalization: string;
  order: string;
  /** 'review' (one-sided transfers: the "Transfers to review" list) or 'paired'; empty for all. */
  transferStatus?: string;
  page?: number;
  take?: number;
}

const FLOWS = ['all', 'inflow', 'outflow'] as const;
const FINALIZATIONS = ['all', 'finalized', 'nonFinalized'] as const;
const ORDERS = ['ASC', 'DESC'] as const;
const TRANSFER_STATUSES = ['review', 'paired'] as const;

export class TransactionUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async list(tenant: Tenant, f: ListFilters) {
    const p = new Problems();
    p.uuids('accountId', f.accountIds);
    p.uuids('billers', f.billerIds);
    p.uuids('categories', f.categoryIds);
    p.date('startDate', f.startDate);
    p.date('endDate', f.endDate);
    if (f.startDate && f.endDate && f.startDate > f.endDate && !p.fields.some((x) => x.field.endsWith('Date'))) p.add('startDate', MSG.dateOrder);
    for (const [field, v] of [
      ['amount', f.amountCents],
      ['minAmount', f.minAmountCents],
      ['maxAmount', f.maxAmountCents],
    ] as const) {
      if (v !== undefined && v < 0n) p.add(field, MSG.amountNonNegative(field));
    }
    const flow = f.flow || 'all';
    const finalization = f.finalization || 'all';
    const order = (f.order || 'DESC').toUpperCase();
    if (!(FLOWS as readonly string[]).includes(flow)) p.add('flow', MSG.oneOf('flow', FLOWS));
    if (!(FINALIZATIONS as readonly string[]).includes(finalization)) p.add('finalization', MSG.oneOf('finalization', FINALIZATIONS));
    if (!(ORDERS as readonly string[]).includes(order)) p.add('order', MSG.oneOf('order', ORDERS));
    const transferStatus = f.transferStatus ?? '';
    if (transferStatus && !(TRANSFER_STATUSES as readonly string[]).includes(transferStatus))
      p.add('transferStatus', MSG.oneOf('transferStatus', TRANSFER_STATUSES));
    const pg = paging(p, f.page, f.take);
    p.throwIfAny();

    const filters = { ...f, flow, finalization, order, transferStatus } as ViewFilters;
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, [
        { field: 'accountId', kind: 'bankAccount', ids: f.accountIds },
        { field: 'billers', kind: 'biller', ids: f.billerIds },
        { field: 'categories', kind: 'category', ids: f.categoryIds },
      ]);
      const { data, itemCount } = await listViews(trx, filters, { skip: (pg.page - 1) * pg.take, take: pg.take });
      return { data, meta: pageMeta(pg, itemCount) };
    });
  }

  async get(tenant: Tenant, id: string) {
    const p = new Problems();
    p.uuid('id', id, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, (trx) => viewById(trx, id));
  }

  async updateCategory(tenant: Tenant, id: string, categoryId: string | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', id, { required: true });
    p.uuid('categoryId', categoryId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, [{ field: 'categoryId', kind: 'category', ids: [categoryId] }]);
      const row = await lockRow(trx, id);
      const category = await categoryForBooking(trx, categoryId as string);
      await assertEditable(trx, row);
      if (row.category_id !== category.id) {
        await repost(trx, row, { categoryId: category.id });
        await audit(trx, {
          workspaceId: tenant.workspaceId,
          transactionId: id,
          userId: tenant.userId,
          event: 'categorised',
          details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name },
        });
      }
      await markManual(trx, tenant.workspaceId, [id]);
      return { transaction: await viewById(trx, id), message: SUCCESS.transactionUpdated };
    });
  }

  /** PATCH /transactions: all items or none (one transaction; the first refusal names its item). */
  async bulkUpdate(tenant: Tenant, items: UpdateItem[]) {
    assertCanEdit(tenant);
    const p = new Problems();
    if (items.length === 0) p.add('transactions', MSG.transactionsEmpty);
    items.forEach((it, i) => {
      p.uuid(`transactions.${i}.id`, it.id, { required: true });
      p.uuid(`transactions.${i}.categoryId`, it.categoryId);
      p.uuid(`transactions.${i}.vendorId`, it.vendorId);
      p.uuid(`transactions.${i}.appliedRuleId`, it.appliedRuleId);
      if (it.billerName !== undefined && it.billerName.length > 200) p.add(`transactions.${i}.billerName`, 'billerName must be at most 200 characters');
    });
    p.throwIfAny();
    const ids = items.map((it) => it.id as string);
    const references = items.flatMap((it, i) => [
      { field: `transactions.${i}.categoryId`, kind: 'category' as const, ids: [it.categoryId] },
      { field: `transactions.${i}.vendorId`, kind: 'vendor' as const, ids: [it.vendorId] },
      { field: `transactions.${i}.appliedRuleId`, kind: 'appliedRule' as const, ids: [it.appliedRuleId] },
    ]);
    // A request naming a transaction twice applies its items one after another (each sees the one before).
    const apply = new Set(ids).size !== ids.length ? bulkUpdateOneByOne : bulkUpdateSetBased;
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, references);
      return apply(trx, tenant, items);
    });
  }

  async finalize(tenant: Tenant, transactionIds: string[], isTxnFinalized: boolean | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    if (transactionIds.length === 0) p.add('transactionIds', 'transactionIds cannot be empty');
    p.uuids('transactionIds', transactionIds);
    p.throwIfAny();
    const finalized = isTxnFinalized ?? true;
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      for (const id of transactionIds) {
        const row = await lockRow(trx, id);
        if (row.is_finalized === finalized) continue;
        await updateTransaction(trx, id, { is_finalized: finalized });
        await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: finalized ? 'finalized' : 'unfinalized' });
      }
      const transactions = await views(trx, transactionIds);
      return { transactions, message: SUCCESS.transactionsUpdated };
    });
  }

  async auditLogs(tenant: Tenant, transactionId: string, page: number | undefined, take: number | undefined) {
    const p = new Problems();
    p.uuid('transactionId', transactionId);
    const pg = paging(p, page, take);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (transactionId && !(await transactionExists(trx, transactionId))) throw AppError.notFound('Transaction');
      const { data, itemCount } = await auditLogPage(trx, transactionId, { skip: (pg.page - 1) * pg.take, take: pg.take });
      return { data, meta: pageMeta(pg, itemCount) };
    });
  }

  async listBillers(tenant: Tenant) {
    return inWorkspace(this.deps.db, tenant, (trx) => allBillers(trx));
  }

  /**
   * PATCH /billers/{id}: the biller's category, applied to its open (editable) transactions. A person chose it, so
   * the transactions it re-books are creation mode manual and taught to the model (`markManual`), as a
   * categorisation by hand.
   */
  async updateBiller(tenant: Tenant, id: string, categoryId: string | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', id, { required: true });
    p.uuid('categoryId', categoryId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const biller = await lockBiller(trx, id);
      if (!biller) throw AppError.notFound('Biller');
      await assertReferences(trx, [{ field: 'categoryId', kind: 'category', ids: [categoryId] }]);
      const category = await categoryForBooking(trx, categoryId as string);
      await setBillerCategory(trx, id, category.id);
      const rows = await lockBillerTransactionsNotIn(trx, id, category.id);
      const updated: string[] = [];
      for (const row of rows) {
        const cat = row.category_id ? await accountById(trx, row.category_id) : undefined;
        const r = editRestriction({
          entityType: row.entity_type,
          isFinalized: row.is_finalized,
          categoryClass: cat?.class_group ?? null,
          qboSynced: row.qbo_synced,
          isAccruedParent: row.is_accrued_parent,
          isSplitParent: row.is_split_parent,
          isSplitChild: row.is_split_child,
          isAccrualChild: row.is_accrual_child,
          isOpeningBalance: row.is_opening_balance,
          isRemoved: row.is_removed,
          isoCurrencyCode: row.iso_currency_code,
        });
        if (r) continue;
        await repost(trx, row, { categoryId: category.id });
        await audit(trx, {
          workspaceId: tenant.workspaceId,
          transactionId: row.id,
          userId: tenant.userId,
          event: 'categorised',
          details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name, billerId: id },
        });
        updated.push(row.id);
      }
      await markManual(trx, tenant.workspaceId, updated);
      return { biller: { ...biller, category_id: category.id }, updatedTransactions: updated.length, message: SUCCESS.categoryUpdated };
    });
  }

  /** POST /transactions/split: the parent keeps its part; the entry gets one category line per part. */
  async split(tenant: Tenant, input: { parent?: SplitItem; parts: SplitItem[] }) {
    assertCanEdit(tenant);
    const p = new Problems();
    checkParent(p, input.parent);
    if (input.parts.length === 0) p.add('splitTransactions', MSG.splitEmpty);
    input.parts.forEach((it, i) => checkPart(p, `splitTransactions.${i}`, it));
    p.throwIfAny();
    const parent = input.parent as Required<Pick<SplitItem, 'id' | 'amountCents' | 'categoryId'>>;
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, [
        { field: 'parentTransaction.categoryId', kind: 'category', ids: [parent.categoryId] },
        ...input.parts.map((it, i) => ({ field: `splitTransactions.${i}.categoryId`, kind: 'category' as const, ids: [it.categoryId] })),
      ]);
      const row = await lockRow(trx, parent.id);
      await assertEditable(trx, row);
      for (const it of [parent, ...input.parts]) await categoryForBooking(trx, it.categoryId as string);
      const signed = signedParts(
        row.amount_cents,
        [parent, ...input.parts].map((it) => Number(it.amountCents)),
      );
      if (!signed) throw AppError.invalid([{ field: 'splitTransactions', message: MSG.splitSum }]);
      await replaceSplitParts(
        trx,
        row,
        signed.map((cents, i) => ({ id: newId(), categoryId: (i === 0 ? parent.categoryId : input.parts[i - 1]?.categoryId) as string, cents })),
      );
      await updateTransaction(trx, row.id, { is_split_parent: true, category_id: parent.categoryId });
      await repost(trx, { ...row, is_split_parent: true }, { categoryId: parent.categoryId });
      await audit(trx, { workspaceId: tenant.workspaceId, transactionId: row.id, userId: tenant.userId, event: 'split', details: { parts: signed } });
      return { transaction: await viewById(trx, row.id), message: SUCCESS.transactionSplit };
    });
  }

  /** POST /transactions/update-split: change, add and delete parts; no part left un-splits the transaction. */
  async updateSplit(tenant: Tenant, input: { parent?: SplitItem; updates: SplitItem[]; additions: SplitItem[]; deleteIds: string[] }) {
    assertCanEdit(tenant);
    const p = new Problems();
    checkParent(p, input.parent);
    input.updates.forEach((it, i) => {
      p.uuid(`updateTransactions.${i}.id`, it.id, { required: true });
      checkPart(p, `updateTransactions.${i}`, it);
    });
    input.additions.forEach((it, i) => checkPart(p, `splitTransactions.${i}`, it));
    p.uuids('deleteTransactionIds', input.deleteIds);
    p.throwIfAny();
    const parent = input.parent as Required<Pick<SplitItem, 'id' | 'amountCents' | 'categoryId'>>;
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, [
        { field: 'parentTransaction.categoryId', kind: 'category', ids: [parent.categoryId] },
        ...input.updates.map((it, i) => ({ field: `updateTransactions.${i}.categoryId`, kind: 'category' as const, ids: [it.categoryId] })),
        ...input.additions.map((it, i) => ({ field: `splitTransactions.${i}.categoryId`, kind: 'category' as const, ids: [it.categoryId] })),
      ]);
      const row = await lockRow(trx, parent.id);
      if (!row.is_split_parent) throw new AppError(ErrorKind.FailedPrecondition, MSG.notSplit, { appErrorCode: 'TRANSACTION_NOT_SPLIT' });
      await assertEditable(trx, row, { splitting: true });
      const children = (await splitParts(trx, row.id)).filter((part) => !part.is_parent_part);
      const known = new Set(children.map((c) => c.id));
      for (const id of [...input.deleteIds, ...input.updates.map((u) => u.id as string)]) if (!known.has(id)) throw AppError.notFound('Split part');
      for (const it of [parent, ...input.updates, ...input.additions]) await categoryForBooking(trx, it.categoryId as string);
      const updates = new Map(input.updates.map((u) => [u.id as string, u]));
      const kept = children
        .filter((c) => !input.deleteIds.includes(c.id))
        .map((c) => {
          const u = updates.get(c.id);
          return { id: c.id, categoryId: u?.categoryId ?? c.category_id, abs: u ? Number(u.amountCents) : Math.abs(c.amount_cents) };
        });
      const all = [
        { id: newId(), categoryId: parent.categoryId, abs: Number(parent.amountCents) },
        ...kept,
        ...input.additions.map((a) => ({ id: newId(), categoryId: a.categoryId as string, abs: Number(a.amountCents) })),
      ];
      const signed = signedParts(
        row.amount_cents,
        all.map((a) => a.abs),
      );
      if (!signed) throw AppError.invalid([{ field: 'splitTransactions', message: MSG.splitSum }]);
      const stillSplit = all.length > 1;
      await replaceSplitParts(trx, row, stillSplit ? all.map((a, i) => ({ id: a.id, categoryId: a.categoryId, cents: signed[i] as number })) : []);
      await updateTransaction(trx, row.id, { is_split_parent: stillSplit, category_id: parent.categoryId });
      await repost(trx, { ...row, is_split_parent: stillSplit }, { categoryId: parent.categoryId });
      await audit(trx, {
        workspaceId: tenant.workspaceId,
        transactionId: row.id,
        userId: tenant.userId,
        event: stillSplit ? 'split_updated' : 'unsplit',
        details: { parts: stillSplit ? signed : [] },
      });
      return { transaction: await viewById(trx, row.id), message: SUCCESS.transactionUpdated };
    });
  }
}

export interface SplitItem {
  id?: string;
  amountCents?: bigint;
  categoryId?: string;
}

function checkPart(p: Problems, field: string, it: SplitItem): void {
  if (it.amountCents === undefined) p.add(`${field}.amount`, MSG.required(`${field}.amount`));
  else if (it.amountCents <= 0n) p.add(`${field}.amount`, MSG.splitAmount(`${field}.amount`));
  p.uuid(`${field}.categoryId`, it.categoryId, { required: true });
}

function checkParent(p: Problems, parent: SplitItem | undefined): void {
  if (!parent) {
    p.add('parentTransaction', MSG.required('parentTransaction'));
    return;
  }
  p.uuid('parentTransaction.id', parent.id, { required: true });
  checkPart(p, 'parentTransaction', parent);
}
