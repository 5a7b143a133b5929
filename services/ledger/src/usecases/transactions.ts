import { AppError, ErrorKind, newId, type Knex } from '@ledgerline/platform';
import { isPostableLevel, SYSTEM } from '../domain/chart.js';
import { MSG, SUCCESS } from '../domain/messages.js';
import { bankTransactionLines, signedParts, splitTransactionLines } from '../domain/posting.js';
import { editRestriction } from '../domain/restrictions.js';
import { pageMeta, paging, Problems } from '../domain/validation.js';
import { accountById, accountBySystemKey, type AccountRow } from '../store/chart-store.js';
import { withAccruals } from '../store/accrual-store.js';
import { audit, auditMany, type AuditEvent } from '../store/audit.js';
import { postEntries, postEntry, reversalsOf, reverseEntry, type NewEntry } from '../store/journal.js';
import type { BillerRow, SplitViewRow, TxnRow, TxnViewRow } from '../store/rows.js';
import { assertCanEdit, changeInWorkspace, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { refuseOpeningBalanceEntry } from './opening-balances.js';

export interface ListFilters {
  accountIds: string[];
  startDate: string;
  endDate: string;
  billerIds: string[];
  categoryIds: string[];
  description: string;
  amountCents?: bigint;
  minAmountCents?: bigint;
  maxAmountCents?: bigint;
  flow: string;
  finalization: string;
  order: string;
  page?: number;
  take?: number;
}

export interface UpdateItem {
  id?: string;
  categoryId?: string;
  vendorId?: string;
  billerName?: string;
  appliedRuleId?: string;
  isTxnFinalized?: boolean;
}

const FLOWS = ['all', 'inflow', 'outflow'] as const;
const FINALIZATIONS = ['all', 'finalized', 'nonFinalized'] as const;
const ORDERS = ['ASC', 'DESC'] as const;

function viewQuery(trx: Knex.Transaction) {
  return trx('workspace_transactions as t')
    .leftJoin('accounts as c', 'c.id', 't.category_id')
    .leftJoin('billers as b', 'b.id', 't.biller_id')
    .leftJoin('accounts as la', 'la.id', 't.ledger_account_id')
    .select('t.*', 'c.name as category_name', 'c.coa_id as category_coa_id', 'c.class_group as category_class', 'c.level as category_level', 'c.parent_id as category_parent_id', 'b.name as biller_name', 'b.category_id as biller_category_id', 'la.name as ledger_account_name');
}

/** Attaches the split parts to the split parents among `rows` (and its schedule to each accrued transaction). */
async function withSplits(trx: Knex.Transaction, viewRows: TxnViewRow[]): Promise<TxnViewRow[]> {
  const rows = await withAccruals(trx, viewRows);
  const parents = rows.filter((r) => r.is_split_parent).map((r) => r.id);
  if (parents.length === 0) return rows;
  const parts = (await trx('transaction_splits as s').join('accounts as a', 'a.id', 's.category_id').whereIn('s.transaction_id', parents).orderBy(['s.transaction_id', 's.position'])
    .select('s.id', 's.transaction_id', 's.amount_cents', 's.category_id', 'a.name as category_name', 's.is_parent_part', 's.position')) as SplitViewRow[];
  return rows.map((r) => (r.is_split_parent ? { ...r, splits: parts.filter((p) => p.transaction_id === r.id) } : r));
}

async function views(trx: Knex.Transaction, ids: string[]): Promise<TxnViewRow[]> {
  return withSplits(trx, (await viewQuery(trx).whereIn('t.id', ids)) as TxnViewRow[]);
}

export async function viewById(trx: Knex.Transaction, id: string): Promise<TxnViewRow> {
  const row = (await viewQuery(trx).where('t.id', id).where('t.is_removed', false).first()) as TxnViewRow | undefined;
  if (!row) throw AppError.notFound('Transaction');
  return (await withSplits(trx, [row]))[0] as TxnViewRow;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Finds or creates the biller of a name (case-insensitive). */
export async function billerFor(trx: Knex.Transaction, workspaceId: string, name: string): Promise<BillerRow | null> {
  const clean = name.trim().slice(0, 200);
  if (!clean) return null;
  const r = await trx.raw(
    `with ins as (insert into billers (id, workspace_id, name) values (?, ?, ?) on conflict (workspace_id, lower(name)) do nothing returning id, workspace_id, name, category_id)
     select * from ins union all select id, workspace_id, name, category_id from billers where lower(name) = lower(?) limit 1`,
    [newId(), workspaceId, clean, clean],
  );
  const found = r.rows[0] as BillerRow | undefined;
  if (found) return found;
  // Another transaction inserted it after this statement's snapshot: read it now.
  return ((await trx('billers').whereRaw('lower(name) = lower(?)', [clean]).first()) as BillerRow | undefined) ?? null;
}

/** The category a new bank transaction is booked to: its biller's, else Uncategorised Income/Expense by sign. */
export async function defaultCategory(trx: Knex.Transaction, amountCents: number, biller: BillerRow | null): Promise<string> {
  if (biller?.category_id) return biller.category_id;
  return (await accountBySystemKey(trx, amountCents > 0 ? SYSTEM.uncategorisedIncome : SYSTEM.uncategorisedExpense)).id;
}

/**
 * Re-books a transaction: reverses the entry that represents it now and posts the entry of its new
 * state (category, amount, date). The row then points at the new entry.
 */
export async function repost(trx: Knex.Transaction, row: TxnRow, next: { categoryId?: string; amountCents?: number; date?: string; name?: string }): Promise<TxnRow> {
  const categoryId = next.categoryId ?? row.category_id;
  const amountCents = next.amountCents ?? row.amount_cents;
  const date = next.date ?? row.txn_date;
  const name = next.name ?? row.name;
  if (row.current_entry_id) await reverseEntry(trx, row.current_entry_id, `Reversal: ${row.name}`);
  let entryId: string | null = null;
  if (categoryId && row.ledger_account_id && date && amountCents !== 0) {
    const parts = row.is_split_parent ? ((await trx('transaction_splits').where({ transaction_id: row.id }).orderBy('position')) as { category_id: string; amount_cents: number }[]) : [];
    const lines = parts.length > 0
      ? splitTransactionLines(row.ledger_account_id, amountCents, parts.map((p) => ({ categoryId: p.category_id, amountCents: p.amount_cents })))
      : bankTransactionLines(row.ledger_account_id, categoryId, amountCents);
    entryId = await postEntry(trx, { workspaceId: row.workspace_id, date, sourceType: 'WorkspaceTransaction', sourceId: row.id, description: name, lines, transactionId: row.id, billerId: row.biller_id });
  }
  const updated = { category_id: categoryId, amount_cents: amountCents, txn_date: date, name, current_entry_id: entryId, updated_at: trx.fn.now() };
  await trx('workspace_transactions').where({ id: row.id }).update(updated);
  return { ...row, category_id: categoryId, amount_cents: amountCents, txn_date: date, name, current_entry_id: entryId };
}

async function categoryForBooking(trx: Knex.Transaction, categoryId: string): Promise<AccountRow> {
  return checkBookable(await accountById(trx, categoryId));
}

export async function lockRow(trx: Knex.Transaction, id: string): Promise<TxnRow> {
  const row = (await trx('workspace_transactions').where({ id, is_removed: false }).forUpdate().first()) as TxnRow | undefined;
  if (!row) {
    await refuseOpeningBalanceEntry(trx, id);
    throw AppError.notFound('Transaction');
  }
  return row;
}

export async function assertEditable(trx: Knex.Transaction, row: TxnRow, options: { splitting?: boolean } = {}): Promise<void> {
  const category = row.category_id ? await accountById(trx, row.category_id) : undefined;
  const r = editRestriction({
    entityType: row.entity_type, isFinalized: row.is_finalized, categoryClass: category?.class_group ?? null, qboSynced: row.qbo_synced,
    isAccruedParent: row.is_accrued_parent, isSplitParent: row.is_split_parent, isSplitChild: row.is_split_child, isAccrualChild: row.is_accrual_child,
    isOpeningBalance: row.is_opening_balance, isRemoved: row.is_removed,
  }, options);
  if (r) throw new AppError(ErrorKind.FailedPrecondition, r.message, { appErrorCode: r.code });
}

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
    for (const [field, v] of [['amount', f.amountCents], ['minAmount', f.minAmountCents], ['maxAmount', f.maxAmountCents]] as const) {
      if (v !== undefined && v < 0n) p.add(field, MSG.amountNonNegative(field));
    }
    const flow = f.flow || 'all';
    const finalization = f.finalization || 'all';
    const order = (f.order || 'DESC').toUpperCase();
    if (!(FLOWS as readonly string[]).includes(flow)) p.add('flow', MSG.oneOf('flow', FLOWS));
    if (!(FINALIZATIONS as readonly string[]).includes(finalization)) p.add('finalization', MSG.oneOf('finalization', FINALIZATIONS));
    if (!(ORDERS as readonly string[]).includes(order)) p.add('order', MSG.oneOf('order', ORDERS));
    const pg = paging(p, f.page, f.take);
    p.throwIfAny();

    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const q = viewQuery(trx).where('t.is_removed', false);
      if (f.accountIds.length) q.whereIn('t.bank_account_id', f.accountIds);
      if (f.startDate) q.where('t.txn_date', '>=', f.startDate);
      if (f.endDate) q.where('t.txn_date', '<=', f.endDate);
      if (f.billerIds.length) q.whereIn('t.biller_id', f.billerIds);
      if (f.categoryIds.length) q.whereIn('t.category_id', f.categoryIds);
      if (f.description.trim()) {
        const like = `%${escapeLike(f.description.trim())}%`;
        q.where((w) => w.whereILike('t.name', like).orWhereILike('t.memo', like).orWhereILike('b.name', like));
      }
      if (f.amountCents !== undefined) q.whereRaw('abs(t.amount_cents) = ?', [f.amountCents.toString()]);
      if (f.minAmountCents !== undefined) q.whereRaw('abs(t.amount_cents) >= ?', [f.minAmountCents.toString()]);
      if (f.maxAmountCents !== undefined) q.whereRaw('abs(t.amount_cents) <= ?', [f.maxAmountCents.toString()]);
      if (flow === 'inflow') q.where('t.amount_cents', '>', 0);
      if (flow === 'outflow') q.where('t.amount_cents', '<', 0);
      if (finalization === 'finalized') q.where('t.is_finalized', true);
      if (finalization === 'nonFinalized') q.where('t.is_finalized', false);
      const countRow = (await q.clone().clearSelect().clearOrder().count<{ n: string }[]>({ n: '*' }).first()) as { n: string | number } | undefined;
      const itemCount = Number(countRow?.n ?? 0);
      const dir = order === 'ASC' ? 'asc' : 'desc';
      const data = await withSplits(trx, (await q.orderBy([{ column: 't.txn_date', order: dir }, { column: 't.id', order: dir }]).offset((pg.page - 1) * pg.take).limit(pg.take)) as TxnViewRow[]);
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
      const row = await lockRow(trx, id);
      const category = await categoryForBooking(trx, categoryId as string);
      await assertEditable(trx, row);
      if (row.category_id !== category.id) {
        await repost(trx, row, { categoryId: category.id });
        await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'categorised', details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name } });
      }
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
    // A request naming a transaction twice applies its items one after another (each sees the one before).
    if (new Set(ids).size !== ids.length) return changeInWorkspace(this.deps.db, tenant, (trx) => bulkUpdateOneByOne(trx, tenant, items));
    return changeInWorkspace(this.deps.db, tenant, (trx) => bulkUpdateSetBased(trx, tenant, items));
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
        await trx('workspace_transactions').where({ id }).update({ is_finalized: finalized, updated_at: trx.fn.now() });
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
      if (transactionId && !(await trx('workspace_transactions').where({ id: transactionId }).first())) throw AppError.notFound('Transaction');
      const q = trx('transaction_audit_logs');
      if (transactionId) q.where({ transaction_id: transactionId });
      const countRow = (await q.clone().count<{ n: number }[]>({ n: '*' }).first()) as { n: number | string } | undefined;
      const data = (await q.orderBy('id', 'desc').offset((pg.page - 1) * pg.take).limit(pg.take)) as AuditRow[];
      return { data, meta: pageMeta(pg, Number(countRow?.n ?? 0)) };
    });
  }

  async listBillers(tenant: Tenant) {
    return inWorkspace(this.deps.db, tenant, async (trx) => (await trx('billers').orderByRaw('lower(name)')) as BillerRow[]);
  }

  /** PATCH /billers/{id}: the biller's category, applied to its open (editable) transactions. */
  async updateBiller(tenant: Tenant, id: string, categoryId: string | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', id, { required: true });
    p.uuid('categoryId', categoryId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const biller = (await trx('billers').where({ id }).forUpdate().first()) as BillerRow | undefined;
      if (!biller) throw AppError.notFound('Biller');
      const category = await categoryForBooking(trx, categoryId as string);
      await trx('billers').where({ id }).update({ category_id: category.id });
      const rows = (await trx('workspace_transactions').where({ biller_id: id, is_removed: false }).whereNot('category_id', category.id).orderBy('id').forUpdate()) as TxnRow[];
      let updated = 0;
      for (const row of rows) {
        const cat = row.category_id ? await accountById(trx, row.category_id) : undefined;
        const r = editRestriction({
          entityType: row.entity_type, isFinalized: row.is_finalized, categoryClass: cat?.class_group ?? null, qboSynced: row.qbo_synced, isAccruedParent: row.is_accrued_parent,
          isSplitParent: row.is_split_parent, isSplitChild: row.is_split_child, isAccrualChild: row.is_accrual_child, isOpeningBalance: row.is_opening_balance, isRemoved: row.is_removed,
        });
        if (r) continue;
        await repost(trx, row, { categoryId: category.id });
        await audit(trx, { workspaceId: tenant.workspaceId, transactionId: row.id, userId: tenant.userId, event: 'categorised', details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name, billerId: id } });
        updated++;
      }
      return { biller: { ...biller, category_id: category.id }, updatedTransactions: updated, message: SUCCESS.categoryUpdated };
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
      const row = await lockRow(trx, parent.id);
      await assertEditable(trx, row);
      for (const it of [parent, ...input.parts]) await categoryForBooking(trx, it.categoryId as string);
      const signed = signedParts(row.amount_cents, [parent, ...input.parts].map((it) => Number(it.amountCents)));
      if (!signed) throw AppError.invalid([{ field: 'splitTransactions', message: MSG.splitSum }]);
      await writeParts(trx, row, signed.map((cents, i) => ({ id: newId(), categoryId: (i === 0 ? parent.categoryId : input.parts[i - 1]?.categoryId) as string, cents })));
      await trx('workspace_transactions').where({ id: row.id }).update({ is_split_parent: true, category_id: parent.categoryId });
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
      const row = await lockRow(trx, parent.id);
      if (!row.is_split_parent) throw new AppError(ErrorKind.FailedPrecondition, MSG.notSplit, { appErrorCode: 'TRANSACTION_NOT_SPLIT' });
      await assertEditable(trx, row, { splitting: true });
      const children = (await trx('transaction_splits').where({ transaction_id: row.id, is_parent_part: false }).orderBy('position')) as { id: string; amount_cents: number; category_id: string }[];
      const known = new Set(children.map((c) => c.id));
      for (const id of [...input.deleteIds, ...input.updates.map((u) => u.id as string)]) if (!known.has(id)) throw AppError.notFound('Split part');
      for (const it of [parent, ...input.updates, ...input.additions]) await categoryForBooking(trx, it.categoryId as string);
      const updates = new Map(input.updates.map((u) => [u.id as string, u]));
      const kept = children.filter((c) => !input.deleteIds.includes(c.id)).map((c) => {
        const u = updates.get(c.id);
        return { id: c.id, categoryId: u?.categoryId ?? c.category_id, abs: u ? Number(u.amountCents) : Math.abs(c.amount_cents) };
      });
      const all = [{ id: newId(), categoryId: parent.categoryId, abs: Number(parent.amountCents) }, ...kept, ...input.additions.map((a) => ({ id: newId(), categoryId: a.categoryId as string, abs: Number(a.amountCents) }))];
      const signed = signedParts(row.amount_cents, all.map((a) => a.abs));
      if (!signed) throw AppError.invalid([{ field: 'splitTransactions', message: MSG.splitSum }]);
      const stillSplit = all.length > 1;
      await writeParts(trx, row, stillSplit ? all.map((a, i) => ({ id: a.id, categoryId: a.categoryId, cents: signed[i] as number })) : []);
      await trx('workspace_transactions').where({ id: row.id }).update({ is_split_parent: stillSplit, category_id: parent.categoryId });
      await repost(trx, { ...row, is_split_parent: stillSplit }, { categoryId: parent.categoryId });
      await audit(trx, { workspaceId: tenant.workspaceId, transactionId: row.id, userId: tenant.userId, event: stillSplit ? 'split_updated' : 'unsplit', details: { parts: stillSplit ? signed : [] } });
      return { transaction: await viewById(trx, row.id), message: SUCCESS.transactionUpdated };
    });
  }
}

export interface AuditRow {
  id: string;
  transaction_id: string;
  user_id: string | null;
  event: string;
  details: Record<string, unknown>;
  created_at: Date;
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

/** Replaces a transaction's parts (the parent's part first). */
async function writeParts(trx: Knex.Transaction, row: TxnRow, parts: { id: string; categoryId: string; cents: number }[]): Promise<void> {
  await trx('transaction_splits').where({ transaction_id: row.id }).delete();
  if (parts.length === 0) return;
  await trx('transaction_splits').insert(parts.map((p, i) => ({ id: p.id, workspace_id: row.workspace_id, transaction_id: row.id, amount_cents: p.cents, category_id: p.categoryId, is_parent_part: i === 0, position: i })));
}

/** PATCH /transactions item by item (~12 round trips each): a request that names a transaction twice. */
export async function bulkUpdateOneByOne(trx: Knex.Transaction, tenant: Tenant, items: UpdateItem[]) {
  const ids: string[] = [];
  for (const it of items) {
    const id = it.id as string;
    let row = await lockRow(trx, id);
    if (it.isTxnFinalized === false && row.is_finalized) {
      await trx('workspace_transactions').where({ id }).update({ is_finalized: false, updated_at: trx.fn.now() });
      await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'unfinalized' });
      row = { ...row, is_finalized: false };
    }
    const edits = it.categoryId !== undefined || it.billerName !== undefined || it.vendorId !== undefined || it.appliedRuleId !== undefined;
    if (edits) {
      const category = it.categoryId ? await categoryForBooking(trx, it.categoryId) : undefined;
      await assertEditable(trx, row);
      const patch: Record<string, unknown> = {};
      if (it.billerName !== undefined) patch.biller_id = (await billerFor(trx, tenant.workspaceId, it.billerName))?.id ?? null;
      if (it.vendorId !== undefined) patch.vendor_id = it.vendorId || null;
      if (it.appliedRuleId !== undefined) patch.applied_rule_id = it.appliedRuleId || null;
      if (Object.keys(patch).length) await trx('workspace_transactions').where({ id }).update({ ...patch, updated_at: trx.fn.now() });
      if (it.billerName !== undefined) await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'biller_changed', details: { billerName: it.billerName } });
      const billerChanged = patch.biller_id !== undefined && patch.biller_id !== row.biller_id;
      row = { ...row, ...patch } as TxnRow;
      if (category && category.id !== row.category_id) {
        await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'categorised', details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name } });
        row = await repost(trx, row, { categoryId: category.id });
      } else if (billerChanged && row.current_entry_id && row.category_id) {
        // The merchant is part of the entry (reports by merchant read it): a new merchant re-books the transaction.
        row = await repost(trx, row, {});
      }
    }
    if (it.isTxnFinalized === true && !row.is_finalized) {
      await trx('workspace_transactions').where({ id }).update({ is_finalized: true, updated_at: trx.fn.now() });
      await audit(trx, { workspaceId: tenant.workspaceId, transactionId: id, userId: tenant.userId, event: 'finalized' });
    }
    ids.push(id);
  }
  return { transactions: await views(trx, ids), message: SUCCESS.transactionsUpdated };
}

/**
 * PATCH /transactions set-based, with the same outcome as the items applied one after another
 * (distinct ids): the rows locked in id order in one statement, every item checked first (the first
 * refusal in item order, with the same wording), then the reversals and new entries in the order the
 * items would have posted them (`postEntries`: one statement, places and balances exact), the rows in
 * one UPDATE and the trail in one INSERT.
 */
async function bulkUpdateSetBased(trx: Knex.Transaction, tenant: Tenant, items: UpdateItem[]) {
  const ids = items.map((it) => it.id as string);
  const locked = (await trx.raw('select * from workspace_transactions where id = any(?::uuid[]) and is_removed = false order by id for update', [ids])).rows as TxnRow[];
  const rowById = new Map(locked.map((r) => [r.id, r]));
  const categoryIds = [...new Set([...items.map((it) => it.categoryId).filter((c): c is string => !!c), ...locked.map((r) => r.category_id).filter((c): c is string => !!c)])];
  const accounts = new Map(((await trx('accounts').whereIn('id', categoryIds)) as AccountRow[]).map((a) => [a.id, a]));

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
      entityType: row.entity_type, isFinalized, categoryClass: (row.category_id ? accounts.get(row.category_id)?.class_group : null) ?? null, qboSynced: row.qbo_synced,
      isAccruedParent: row.is_accrued_parent, isSplitParent: row.is_split_parent, isSplitChild: row.is_split_child, isAccrualChild: row.is_accrual_child,
      isOpeningBalance: row.is_opening_balance, isRemoved: row.is_removed,
    });
    if (r) throw new AppError(ErrorKind.FailedPrecondition, r.message, { appErrorCode: r.code });
  }

  const billers = new Map<string, string | null>();
  for (const name of new Set(items.map((it) => it.billerName).filter((n): n is string => n !== undefined))) billers.set(name, (await billerFor(trx, tenant.workspaceId, name))?.id ?? null);

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
        trail.push({ transactionId: row.id, event: 'categorised', details: { fromCategoryId: row.category_id, toCategoryId: category.id, toCategoryName: category.name } });
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
    const changed = row.is_finalized !== before.is_finalized || row.category_id !== before.category_id || it.billerName !== undefined || it.vendorId !== undefined || it.appliedRuleId !== undefined;
    if (changed) updates.push(row);
  }

  // What `repost` does for each, in the same order: the reversal, then the entry of the new category.
  // (A split parent is refused above, so every new entry is the bank line against the category.)
  const reversals = await reversalsOf(trx, rebook.filter((b) => b.row.current_entry_id).map((b) => ({ entryId: b.row.current_entry_id as string, description: `Reversal: ${b.row.name}` })));
  const entries: NewEntry[] = [];
  const newEntryOf: (number | null)[] = [];
  let nextReversal = 0;
  for (const { row, categoryId } of rebook) {
    if (row.current_entry_id) entries.push(reversals[nextReversal++] as NewEntry);
    if (row.ledger_account_id && row.txn_date && row.amount_cents !== 0) {
      newEntryOf.push(entries.length);
      entries.push({ workspaceId: row.workspace_id, date: row.txn_date, sourceType: 'WorkspaceTransaction', sourceId: row.id, description: row.name, lines: bankTransactionLines(row.ledger_account_id, categoryId, row.amount_cents), transactionId: row.id, billerId: row.biller_id });
    } else newEntryOf.push(null);
  }
  const posted = await postEntries(trx, entries);
  rebook.forEach((b, i) => {
    const at = newEntryOf[i];
    b.row.current_entry_id = at === null || at === undefined ? null : (posted[at] as string);
  });

  if (updates.length > 0) {
    await trx.raw(
      `update workspace_transactions w set category_id = t.category_id, current_entry_id = t.current_entry_id, biller_id = t.biller_id, vendor_id = t.vendor_id,
         applied_rule_id = t.applied_rule_id, is_finalized = t.is_finalized, updated_at = now()
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::boolean[]) as t(id, category_id, current_entry_id, biller_id, vendor_id, applied_rule_id, is_finalized)
       where w.id = t.id`,
      [updates.map((r) => r.id), updates.map((r) => r.category_id), updates.map((r) => r.current_entry_id), updates.map((r) => r.biller_id), updates.map((r) => r.vendor_id), updates.map((r) => r.applied_rule_id), updates.map((r) => r.is_finalized)] as unknown as Knex.RawBinding[],
    );
  }
  await auditMany(trx, trail.map((t) => ({ ...t, workspaceId: tenant.workspaceId, userId: tenant.userId })));
  return { transactions: await views(trx, ids), message: SUCCESS.transactionsUpdated };
}

/** `categoryForBooking`'s checks on a category read beforehand. */
function checkBookable(category: AccountRow | undefined): AccountRow {
  if (!category) throw AppError.notFound('Category');
  if (!isPostableLevel(category.level)) throw AppError.invalid([{ field: 'categoryId', message: MSG.categoryNotPostable }]);
  if (category.bank_account_id) throw AppError.invalid([{ field: 'categoryId', message: MSG.categoryIsBankAccount }]);
  return category;
}
