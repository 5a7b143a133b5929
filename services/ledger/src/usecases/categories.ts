import { AppError, ErrorKind, newId, type Knex } from '@ledgerline/platform';
import { MIN_COA_ID, normalBalance } from '../domain/chart.js';
import { MAX_DATE } from '../domain/dates.js';
import { MSG, SUCCESS } from '../domain/messages.js';
import { Problems } from '../domain/validation.js';
import { sumRange, sumsOf } from '../store/balances.js';
import { accountById, allAccounts, type AccountRow } from '../store/chart-store.js';
import { assertCanEdit, inWorkspace, type LedgerDeps, type Tenant } from './context.js';

export interface CategoryView {
  account: AccountRow;
  balanceCents: number;
  path: { id: string; name: string }[];
}

export interface CreateCategoryInput {
  name?: string;
  coaId?: number;
  parentId?: string;
  group?: string;
  tag?: string;
}

/** Every account with its path from the class group and its balance (normal direction) up to `endDate`. */
export async function chartWithBalances(trx: Knex.Transaction, endDate = MAX_DATE): Promise<CategoryView[]> {
  const accounts = await allAccounts(trx);
  const sums = await sumRange(trx, '0001-01-01', endDate);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const pathOf = (a: AccountRow) => {
    const path: { id: string; name: string }[] = [];
    for (let cur: AccountRow | undefined = a; cur; cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) path.unshift({ id: cur.id, name: cur.name });
    return path;
  };
  return accounts.map((account) => {
    const s = sumsOf(sums, account.id);
    return { account, balanceCents: normalBalance(account.class_group, s.debit, s.credit), path: pathOf(account) };
  });
}

export interface UpdateCategoryInput {
  id?: string;
  name?: string;
  coaId?: number;
  group?: string;
  tag?: string;
}

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
      const all = await chartWithBalances(trx, endDate || MAX_DATE);
      return { chartOfAccounts: all, parentCategories: all.filter((c) => c.account.level <= 3 && !c.account.bank_account_id) };
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
      if (!parent) throw AppError.notFound('Category');
      if (parent.level >= 4) throw AppError.invalid([{ field: 'parentId', message: MSG.parentTooDeep }]);
      if (await trx('accounts').where({ coa_id: input.coaId }).first()) throw AppError.invalid([{ field: 'coaId', message: MSG.coaIdTaken }]);
      const row: AccountRow = {
        id: newId(), workspace_id: tenant.workspaceId, name, coa_id: input.coaId as number, class_group: parent.class_group, level: parent.level + 1, parent_id: parent.id,
        group_name: input.group?.trim() || (parent.level === 1 ? name : parent.group_name), tag: input.tag?.trim() ?? '', is_user_created: true, system_key: null, bank_account_id: null, qbo_synced: false,
      };
      await trx('accounts').insert(row);
      const view = (await chartWithBalances(trx)).find((c) => c.account.id === row.id);
      return { category: view as CategoryView, message: SUCCESS.categoryAdded };
    });
  }

  groupsAndTags(tenant: Tenant, type: string) {
    if (type && type !== 'groups' && type !== 'tags') throw AppError.invalid([{ field: 'groupsAndTagsType', message: MSG.groupsAndTagsType }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const distinct = async (column: string) => ((await trx('accounts').distinct(column).whereNot(column, '').orderBy(column)) as Record<string, string>[]).map((r) => r[column] as string);
      return { groups: type === 'tags' ? [] : await distinct('group_name'), tags: type === 'groups' ? [] : await distinct('tag') };
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
      if (input.coaId !== undefined && input.coaId !== account.coa_id && (await trx('accounts').where({ coa_id: input.coaId }).first())) throw AppError.invalid([{ field: 'coaId', message: MSG.coaIdTaken }]);
      const patch: Record<string, unknown> = {};
      if (name) patch.name = name;
      if (input.coaId !== undefined) patch.coa_id = input.coaId;
      if (input.group !== undefined) patch.group_name = input.group.trim();
      if (input.tag !== undefined) patch.tag = input.tag.trim();
      if (Object.keys(patch).length) await trx('accounts').where({ id: account.id }).update(patch);
      return { category: await viewOf(trx, account.id), message: SUCCESS.categoryUpdated };
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
      if (!account || !parent) throw AppError.notFound('Category');
      if (account.level === 1) throw conflict(MSG.categoryIsClass, 'CATEGORY_TYPE');
      if (parent.class_group !== account.class_group) throw conflict(MSG.moveAcrossClass, 'CATEGORY_MOVE_CLASS');
      const subtree = new Set([account.id]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const a of accounts) if (a.parent_id && subtree.has(a.parent_id) && !subtree.has(a.id)) { subtree.add(a.id); grew = true; }
      }
      if (subtree.has(parent.id)) throw conflict(MSG.moveIntoItself, 'CATEGORY_MOVE_CYCLE');
      const shift = parent.level + 1 - account.level;
      if (accounts.some((a) => subtree.has(a.id) && a.level + shift > 4)) throw conflict(MSG.moveTooDeep, 'CATEGORY_MOVE_DEPTH');
      await trx('accounts').where({ id: account.id }).update({ parent_id: parent.id });
      if (shift !== 0) await trx('accounts').whereIn('id', [...subtree]).update({ level: trx.raw('level + ?', [shift]) });
      return { category: await viewOf(trx, account.id), message: SUCCESS.categoryUpdated };
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
      const found = (await trx('accounts').whereIn('id', ids).forUpdate()) as AccountRow[];
      if (found.length !== ids.length) throw AppError.notFound('Category');
      for (const a of found) {
        if (a.level === 1) throw conflict(MSG.categoryIsClass, 'CATEGORY_TYPE');
        if (a.bank_account_id) throw conflict(MSG.categoryIsBank, 'CATEGORY_BANK_ACCOUNT');
        if (a.system_key) throw conflict(MSG.categoryIsSystem, 'CATEGORY_SYSTEM');
      }
      if (await trx('accounts').whereIn('parent_id', ids).whereNotIn('id', ids).first()) throw conflict(MSG.categoryHasChildren, 'CATEGORY_HAS_CHILDREN');
      if ((await trx('journal_lines').whereIn('account_id', ids).first()) || (await trx('workspace_transactions').whereIn('category_id', ids).first())) throw conflict(MSG.categoryHasLines, 'CATEGORY_HAS_LINES');
      await trx('billers').whereIn('category_id', ids).update({ category_id: null });
      await trx('account_balances').whereIn('account_id', ids).delete();
      // Children first (a parent and its children may be removed together).
      const ordered = [...found].sort((a, b) => b.level - a.level);
      for (const a of ordered) await trx('accounts').where({ id: a.id }).delete();
      return { message: SUCCESS.categoryRemoved };
    });
  }
}
