import { AppError, ErrorKind, newId, type Knex } from '@ledgerline/platform';
import { MIN_COA_ID, normalBalance, SYSTEM } from '../domain/chart.js';
import { MAX_DATE, MIN_DATE } from '../domain/dates.js';
import { isFiscalYearStartMonth, isProfitAndLoss } from '../domain/fiscal-year.js';
import { MSG, SUCCESS } from '../domain/messages.js';
import { Problems } from '../domain/validation.js';
import { sumRange, sumsOf } from '../store/balances.js';
import {
  accountById,
  allAccounts,
  coaIdTaken,
  deleteAccounts,
  distinctAccountValues,
  fiscalYearStartMonth,
  hasChildrenOutside,
  insertAccount,
  isBookedTo,
  lockAccounts,
  moveAccount,
  setFiscalYearStartMonth,
  updateAccount,
  writeChartChanged,
  type AccountPatch,
  type AccountRow,
} from '../store/chart-store.js';
import { assertCanEdit, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { referenceNotFound } from './references.js';
import { fiscalContext } from './year-end.js';

export interface CategoryView {
  account: AccountRow;
  /** The account's balance with its sub-accounts'. */
  balanceCents: number;
  /** Its own lines only (plus the closed years' net income for Retained Earnings). */
  ownBalanceCents: number;
  path: { id: string; name: string }[];
}

export interface CreateCategoryInput {
  name?: string;
  coaId?: number;
  parentId?: string;
  group?: string;
  tag?: string;
}

/**
 * Every account with its path from the class group and its balance (normal direction) as of `endDate`
 * (empty: every line, in the fiscal year of today), rolled up: a parent's balance is its own lines plus
 * its sub-accounts'. Income and expense accounts count only the current fiscal year (from the first day
 * of the fiscal year of `endDate`); Retained Earnings is its own lines plus the net income of every
 * earlier fiscal year (the year-end close, computed, never posted).
 */
export async function chartWithBalances(trx: Knex.Transaction, endDate = ''): Promise<CategoryView[]> {
  const accounts = await allAccounts(trx);
  const end = endDate || MAX_DATE;
  const fiscal = await fiscalContext(trx, endDate);
  const sums = await sumRange(trx, MIN_DATE, end);
  const currentYear = await sumRange(trx, fiscal.currentStart, end);
  const closed = fiscal.closes.reduce((t, c) => t + c.netCents, 0);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const own = new Map<string, number>();
  for (const a of accounts) {
    const s = sumsOf(isProfitAndLoss(a.class_group) ? currentYear : sums, a.id);
    own.set(a.id, normalBalance(a.class_group, s.debit, s.credit) + (a.system_key === SYSTEM.retainedEarnings ? closed : 0));
  }
  // Roll up: add each account's own balance to itself and every ancestor (a parent has its child's class group).
  const rolled = new Map<string, number>(accounts.map((a) => [a.id, 0]));
  for (const a of accounts) {
    const v = own.get(a.id) ?? 0;
    for (let cur: AccountRow | undefined = a; cur; cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) rolled.set(cur.id, (rolled.get(cur.id) ?? 0) + v);
  }
  const pathOf = (a: AccountRow) => {
    const path: { id: string; name: string }[] = [];
    for (let cur: AccountRow | undefined = a; cur; cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) path.unshift({ id: cur.id, name: cur.name });
    return path;
  };
  return accounts.map((account) => ({ account, balanceCents: rolled.get(account.id) ?? 0, ownBalanceCents: own.get(account.id) ?? 0, path: pathOf(account) }));
}

export interface UpdateCategoryInput {
  id?: string;
  name?: string;
  coaId?: number;
  group?: string;
  tag?: string;
}

export const FISCAL_YEAR_MONTH_MESSAGE = 'fiscalYearStartMonth must be a whole number from 1 (January) to 12 (December)';

const conflict = (message: string, appErrorCode: string) => new AppError(ErrorKind.FailedPrecondition, message, { appErrorCode });

async function viewOf(trx: Knex.Transaction, id: string): Promise<CategoryView> {
  return (await chartWithBalances(trx)).find((c) => c.account.id === id) as CategoryView;
}

export class CategoryUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  list(tenant: Tenant) {
    return inWorkspace(this.deps.db, tenant, async (trx) => (await chartWithBalances(trx)).filter((c) => c.account.level >= 3));
  }

  chart(tenant: Tenant, endDate: string) {
    const p = new Problems();
    p.date('endDate', endDate);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const all = await chartWithBalances(trx, endDate);
      return {
        chartOfAccounts: all,
        parentCategories: all.filter((c) => c.account.level <= 3 && !c.account.bank_account_id),
        fiscalYearStartMonth: await fiscalYearStartMonth(trx),
      };
    });
  }

  async create(tenant: Tenant, input: CreateCategoryInput) {
    assertCanEdit(tenant);
    const p = new Problems();
    const name = input.name?.trim() ?? '';
    if (!name) p.add('name', MSG.nameRequired);
    else if (name.length > 200) p.add('name', 'name must be at most 200 characters');
    if (input.coaId === undefined) p.add('coaId', MSG.required('coaId'));
    else if (!Number.isInteger(input.coaId) || input.coaId < MIN_COA_ID) p.add('coaId', MSG.coaIdMinimum);
    if (!input.parentId) p.add('parentId', MSG.parentRequired);
    else p.uuid('parentId', input.parentId);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const parent = await accountById(trx, input.parentId as string);
      if (!parent) throw referenceNotFound('parentId', 'category');
      if (parent.level >= 4) throw AppError.invalid([{ field: 'parentId', message: MSG.parentTooDeep }]);
      if (await coaIdTaken(trx, input.coaId as number)) throw AppError.invalid([{ field: 'coaId', message: MSG.coaIdTaken }]);
      const row: AccountRow = {
        id: newId(),
        workspace_id: tenant.workspaceId,
        name,
        coa_id: input.coaId as number,
        class_group: parent.class_group,
        level: parent.level + 1,
        parent_id: parent.id,
        group_name: input.group?.trim() || (parent.level === 1 ? name : parent.group_name),
        tag: input.tag?.trim() ?? '',
        is_user_created: true,
        system_key: null,
        bank_account_id: null,
        qbo_synced: false,
      };
      await insertAccount(trx, row);
      const seq = await writeChartChanged(trx, tenant.workspaceId, 'created', [row.id]);
      return { category: await viewOf(trx, row.id), message: SUCCESS.categoryAdded, seq };
    });
  }

  groupsAndTags(tenant: Tenant, type: string) {
    if (type && type !== 'groups' && type !== 'tags') throw AppError.invalid([{ field: 'groupsAndTagsType', message: MSG.groupsAndTagsType }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      return {
        groups: type === 'tags' ? [] : await distinctAccountValues(trx, 'group_name'),
        tags: type === 'groups' ? [] : await distinctAccountValues(trx, 'tag'),
      };
    });
  }

  async update(tenant: Tenant, input: UpdateCategoryInput) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', input.id, { required: true });
    const name = input.name?.trim();
    if (input.name !== undefined && !name) p.add('name', MSG.nameRequired);
    if (input.coaId !== undefined && (!Number.isInteger(input.coaId) || input.coaId < MIN_COA_ID)) p.add('coaId', MSG.coaIdMinimum);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const account = await accountById(trx, input.id as string);
      if (!account) throw AppError.notFound('Category');
      if (account.level === 1) throw conflict(MSG.categoryIsClass, 'CATEGORY_TYPE');
      if (input.coaId !== undefined && input.coaId !== account.coa_id && (await coaIdTaken(trx, input.coaId)))
        throw AppError.invalid([{ field: 'coaId', message: MSG.coaIdTaken }]);
      const patch: AccountPatch = {};
      if (name) patch.name = name;
      if (input.coaId !== undefined) patch.coa_id = input.coaId;
      if (input.group !== undefined) patch.group_name = input.group.trim();
      if (input.tag !== undefined) patch.tag = input.tag.trim();
      if (Object.keys(patch).length) await updateAccount(trx, account.id, patch);
      const seq = await writeChartChanged(trx, tenant.workspaceId, 'updated', [account.id]);
      return { category: await viewOf(trx, account.id), message: SUCCESS.categoryUpdated, seq };
    });
  }

  /** Moves a category (and its sub-categories) under another parent of the same category type. */
  async move(tenant: Tenant, categoryId: string | undefined, parentId: string | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('categoryId', categoryId, { required: true });
    p.uuid('parentId', parentId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const accounts = await allAccounts(trx);
      const byId = new Map(accounts.map((a) => [a.id, a]));
      const account = byId.get(categoryId as string);
      const parent = byId.get(parentId as string);
      if (!account) throw referenceNotFound('categoryId', 'category');
      if (!parent) throw referenceNotFound('parentId', 'category');
      if (account.level === 1) throw conflict(MSG.categoryIsClass, 'CATEGORY_TYPE');
      if (parent.class_group !== account.class_group) throw conflict(MSG.moveAcrossClass, 'CATEGORY_MOVE_CLASS');
      const subtree = new Set([account.id]);
      for (let grew = true; grew;) {
        grew = false;
        for (const a of accounts)
          if (a.parent_id && subtree.has(a.parent_id) && !subtree.has(a.id)) {
            subtree.add(a.id);
            grew = true;
          }
      }
      if (subtree.has(parent.id)) throw conflict(MSG.moveIntoItself, 'CATEGORY_MOVE_CYCLE');
      const shift = parent.level + 1 - account.level;
      if (accounts.some((a) => subtree.has(a.id) && a.level + shift > 4)) throw conflict(MSG.moveTooDeep, 'CATEGORY_MOVE_DEPTH');
      await moveAccount(trx, account.id, parent.id, [...subtree], shift);
      const seq = await writeChartChanged(trx, tenant.workspaceId, 'moved', [...subtree]);
      return { category: await viewOf(trx, account.id), message: SUCCESS.categoryUpdated, seq };
    });
  }

  /** Removes accounts nobody booked to: never one with lines, sub-categories, a bank link or a ledger purpose. */
  async remove(tenant: Tenant, categoryIds: string[]) {
    assertCanEdit(tenant);
    const p = new Problems();
    if (categoryIds.length === 0) p.add('categoryIds', MSG.categoryIdsEmpty);
    p.uuids('categoryIds', categoryIds);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const ids = [...new Set(categoryIds)];
      const found = await lockAccounts(trx, ids);
      if (found.length !== ids.length) throw referenceNotFound('categoryIds', 'category');
      for (const a of found) {
        if (a.level === 1) throw conflict(MSG.categoryIsClass, 'CATEGORY_TYPE');
        if (a.bank_account_id) throw conflict(MSG.categoryIsBank, 'CATEGORY_BANK_ACCOUNT');
        if (a.system_key) throw conflict(MSG.categoryIsSystem, 'CATEGORY_SYSTEM');
      }
      if (await hasChildrenOutside(trx, ids)) throw conflict(MSG.categoryHasChildren, 'CATEGORY_HAS_CHILDREN');
      if (await isBookedTo(trx, ids)) throw conflict(MSG.categoryHasLines, 'CATEGORY_HAS_LINES');
      await deleteAccounts(trx, found);
      const seq = await writeChartChanged(trx, tenant.workspaceId, 'deleted', ids);
      return { message: SUCCESS.categoryRemoved, seq };
    });
  }

  fiscalYear(tenant: Tenant) {
    return inWorkspace(this.deps.db, tenant, async (trx) => ({ fiscalYearStartMonth: await fiscalYearStartMonth(trx) }));
  }

  /** Changes the first month of the fiscal year (1–12): the year-end close moves with it; nothing is posted. */
  async setFiscalYear(tenant: Tenant, month: number | undefined) {
    assertCanEdit(tenant);
    if (month === undefined) throw AppError.invalid([{ field: 'fiscalYearStartMonth', message: MSG.required('fiscalYearStartMonth') }]);
    if (!isFiscalYearStartMonth(month)) throw AppError.invalid([{ field: 'fiscalYearStartMonth', message: FISCAL_YEAR_MONTH_MESSAGE }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      await setFiscalYearStartMonth(trx, tenant.workspaceId, month);
      const seq = await writeChartChanged(trx, tenant.workspaceId, 'fiscal_year', []);
      return { fiscalYearStartMonth: month, message: 'Fiscal year has been updated successfully.', seq };
    });
  }
}
