import { AppError, newId, type Knex } from '@ledgerline/platform';
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
}
