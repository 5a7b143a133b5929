// The ledger's REST shapes (generated from the gateway's OpenAPI) and the pure rules the transaction screens
// share: list filters → query, the spec §4 restrictions, category choices. No React here.
import type { QueryParams } from './url';
import type { OperationResult, Schemas } from './types';

export type Category = Schemas['Category'];
export type CategoryClass = Category['type'];
export type CategoriesResponse = Schemas['CategoriesResponse'];
export type CreateCategoryBody = Schemas['CreateCategoryBody'];
export type CategoryResponse = Schemas['CategoryResponse'];
export type Biller = Schemas['Biller'];
export type BillersResponse = Schemas['BillersResponse'];
export type PageMeta = Schemas['PageMeta'];
export type Transaction = Schemas['Transaction'];
export type SplitChild = Transaction['splittedChildren'][number];
export type TransactionsPage = Schemas['TransactionsPage'];
export type TransactionUpdatedResponse = Schemas['TransactionUpdatedResponse'];
export type TransactionsUpdatedResponse = Schemas['TransactionsUpdatedResponse'];
export type BulkUpdateTransactionsBody = Schemas['BulkUpdateTransactionsBody'];
export type TransactionUpdateItem = NonNullable<BulkUpdateTransactionsBody['transactions']>[number];
export type FinalizeTransactionsBody = Schemas['FinalizeTransactionsBody'];
export type SplitTransactionBody = Schemas['SplitTransactionBody'];
export type UpdateSplitBody = Schemas['UpdateSplitBody'];
export type TransactionAuditLogsResponse = Schemas['TransactionAuditLogsResponse'];
export type TransactionAuditLog = TransactionAuditLogsResponse['data'][number];
export type FinalizeTransactionsResponse = OperationResult<'finalizeTransactions'>;
export type AccrualSchedule = Schemas['AccrualSchedule'];
export type AccrualMonth = AccrualSchedule['accruedChildren'][number];
export type AccrualCategory = AccrualSchedule['accrualCategory'];
export type CreateAccrualBody = Schemas['CreateAccrualBody'];
export type UpdateAccrualBody = Schemas['UpdateAccrualBody'];
export type AccrualResponse = Schemas['AccrualResponse'];

/** Spec §3 Accrual: where an accrued transaction waits before it is recognised month by month. */
export const ACCRUAL_CATEGORIES = ['Prepaid Expenses', 'Deferred Revenue'] as const satisfies readonly AccrualCategory[];

/** Money out is prepaid (an asset used up over the months), money in is deferred revenue (earned over the months). */
export const accrualCategoryFor = (amount: number): AccrualCategory => (amount > 0 ? 'Deferred Revenue' : 'Prepaid Expenses');

/** Spec §9: paging default 20, maximum 100. */
export const TRANSACTIONS_PAGE_SIZE = 20;

/** Spec §2 tabs of /transactions this remote builds. */
export const TRANSACTION_TABS = ['review', 'finalized', 'all'] as const;
export type TransactionTab = (typeof TRANSACTION_TABS)[number];

export const FLOWS = ['all', 'inflow', 'outflow'] as const;
export type Flow = (typeof FLOWS)[number];
/** Spec §2 list filter: All, Finalized, Not finalized. */
export const FINALIZATIONS = [
  { value: 'all', label: 'All' },
  { value: 'finalized', label: 'Finalized' },
  { value: 'nonFinalized', label: 'Not finalized' },
] as const;
export type Finalization = (typeof FINALIZATIONS)[number]['value'];
export type SortOrder = 'ASC' | 'DESC';

/** What the list filter bar holds. Amounts are the text the user typed (dollars). */
export interface TransactionFilters {
  accountIds: readonly string[];
  /** YYYY-MM-DD or empty. */
  startDate: string;
  endDate: string;
  billerIds: readonly string[];
  categoryIds: readonly string[];
  description: string;
  amount: string;
  minAmount: string;
  maxAmount: string;
  flow: Flow;
  /** Applies on the 'all' tab only; review and finalized fix it. */
  finalization: Finalization;
  order: SortOrder;
}

/** Spec §9: default order DESC. */
export const DEFAULT_TRANSACTION_FILTERS: TransactionFilters = {
  accountIds: [],
  startDate: '',
  endDate: '',
  billerIds: [],
  categoryIds: [],
  description: '',
  amount: '',
  minAmount: '',
  maxAmount: '',
  flow: 'all',
  finalization: 'all',
  order: 'DESC',
};

/** The finalization a tab shows: review is what is not finalized yet, finalized what is, all what the filter says. */
export function tabFinalization(tab: TransactionTab, filters: Pick<TransactionFilters, 'finalization'>): Finalization {
  if (tab === 'review') return 'nonFinalized';
  if (tab === 'finalized') return 'finalized';
  return filters.finalization;
}

/** A typed amount as a number, or undefined when empty or not a non-negative amount (spec §5: filter amounts are non-negative). */
export function filterAmount(text: string): number | undefined {
  const clean = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (clean === '' || !/^\d*\.?\d*$/.test(clean) || clean === '.') return undefined;
  return Number(clean);
}

/** GET /transactions/v2's query for a tab, its filters and a page (empty values are left out by buildUrl). */
export function transactionsQuery(tab: TransactionTab, filters: TransactionFilters, page: number, take: number = TRANSACTIONS_PAGE_SIZE): QueryParams {
  const finalization = tabFinalization(tab, filters);
  return {
    accountId: filters.accountIds,
    startDate: filters.startDate,
    endDate: filters.endDate,
    billers: filters.billerIds,
    categories: filters.categoryIds,
    description: filters.description.trim(),
    amount: filterAmount(filters.amount),
    minAmount: filterAmount(filters.minAmount),
    maxAmount: filterAmount(filters.maxAmount),
    flow: filters.flow === 'all' ? undefined : filters.flow,
    finalization: finalization === 'all' ? undefined : finalization,
    order: filters.order,
    page,
    take,
  };
}

/** How many filters differ from the defaults (the filter button's badge). */
export function activeFilterCount(filters: TransactionFilters, tab: TransactionTab): number {
  const d = DEFAULT_TRANSACTION_FILTERS;
  let count = 0;
  if (filters.accountIds.length > 0) count++;
  if (filters.startDate !== d.startDate || filters.endDate !== d.endDate) count++;
  if (filters.billerIds.length > 0) count++;
  if (filters.categoryIds.length > 0) count++;
  if (filters.description.trim() !== '') count++;
  if (filters.amount.trim() !== '') count++;
  if (filters.minAmount.trim() !== '' || filters.maxAmount.trim() !== '') count++;
  if (filters.flow !== d.flow) count++;
  if (tab === 'all' && filters.finalization !== d.finalization) count++;
  return count;
}

export interface TransactionRestriction {
  code: string;
  message: string;
}

const ENTITY_NAMES: Readonly<Record<string, string>> = {
  ManualEntry: 'manual journal',
  ManualJournal: 'manual journal',
  Bill: 'bill',
  Invoice: 'invoice',
  FixedAsset: 'fixed asset',
};

/**
 * Spec §4, checked in this order, the first match applies: linked to a manual journal, bill, invoice or fixed
 * asset; finalized; category Transfer; synced to the accounting package; accrued; split. Then the edit rules:
 * not a split or accrual child, not an opening balance. The same order and wording as the ledger's refusals
 * (services/ledger/src/domain/restrictions.ts), so the screen says before a click what the server would answer.
 * `splitting` asks about editing the split itself, which a split transaction allows; `accrual` about editing,
 * stopping or deleting the accrual of an accrued transaction; `transferring` about pairing or un-pairing a
 * transfer (POST /transactions/pair-transfer, /unpair-transfer), which the Transfer rule does not stop.
 */
export function transactionRestriction(
  t: Transaction,
  options: { splitting?: boolean; accrual?: boolean; transferring?: boolean } = {},
): TransactionRestriction | null {
  // Ours, before the spec's order (as on the server): the books are kept in USD; another currency is recorded, not booked.
  if (t.isoCurrencyCode && t.isoCurrencyCode !== 'USD')
    return {
      code: 'TRANSACTION_CURRENCY',
      message: `This transaction is in ${t.isoCurrencyCode}. The books are kept in USD, so it is recorded but not booked and cannot be categorised`,
    };
  if (t.entityType)
    return { code: 'TRANSACTION_LINKED', message: `This transaction is linked to a ${ENTITY_NAMES[t.entityType] ?? t.entityType} and cannot be edited here` };
  if (t.isTransactionFinalized) return { code: 'TRANSACTION_FINALIZED', message: 'This transaction is finalized. Un-finalize it before editing' };
  if (t.category?.type === 'Transfer' && !options.transferring)
    return { code: 'TRANSACTION_TRANSFER', message: 'Transfer transactions cannot be edited. Unpair the transfer first.' };
  if (t.qboSynced) return { code: 'TRANSACTION_SYNCED', message: 'This transaction is synced to the accounting package. Un-sync it before editing' };
  if (t.isAccruedParent && !options.accrual) return { code: 'TRANSACTION_ACCRUED', message: 'This transaction is accrued. Edit or stop its accrual instead' };
  if (t.isSplittedParent && !options.splitting) return { code: 'TRANSACTION_SPLIT', message: 'This transaction is split. Edit its split instead' };
  if (t.isSplittedChildren)
    return { code: 'TRANSACTION_SPLIT_CHILD', message: 'A part of a split transaction cannot be edited on its own. Edit the split instead' };
  if (t.isAccruedChildren) return { code: 'TRANSACTION_ACCRUAL_CHILD', message: 'An accrual entry cannot be edited on its own. Edit the accrual instead' };
  if (t.isOpeningBalance) return { code: 'TRANSACTION_OPENING_BALANCE', message: 'An opening balance cannot be edited' };
  return null;
}

/** Categories a transaction can be booked to: categories and sub-categories (levels 3 and 4), never a bank or card account. */
export function bookableCategories(categories: readonly Category[]): Category[] {
  return categories.filter((c) => c.level >= 3 && c.bankAccountId === null).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The accounts the ledger keeps itself (its default chart's system accounts): an accrual cannot be recognised
 * into them. The REST shape does not carry the ledger's purpose key, so they are known by their default names.
 */
export const LEDGER_KEPT_ACCOUNT_NAMES: readonly string[] = [
  'Cash and Cash Equivalents',
  'Credit Cards',
  'Prepaid Expenses',
  'Deferred Revenue',
  'Uncategorised Income',
  'Uncategorised Expense',
  'Retained Earnings',
  'Opening Balance Equity',
];

/** Categories an accrual can be recognised into: bookable ones other than the accounts the ledger keeps itself. */
export function recognisableCategories(categories: readonly Category[]): Category[] {
  return bookableCategories(categories).filter((c) => !LEDGER_KEPT_ACCOUNT_NAMES.includes(c.name));
}

/** A transaction's direction: money into the account is an inflow. */
export const flowOf = (amount: number): Exclude<Flow, 'all'> => (amount > 0 ? 'inflow' : 'outflow');

/**
 * Where 'Add: "{text}"' puts a new category: a sibling of the transaction's current category when that is an
 * income or expense category, else of Uncategorised Income/Expense for its direction, else of the first category
 * of that class — that is, under the same group (level 2). GET /categories lists only categories (levels 3 and
 * 4), so the group is known by the parentId of a level-3 category. The coaId is the next one free after the
 * siblings' highest (coaId ≥ 10000); the server still refuses one used by a group it did not list.
 */
export function newCategoryPlacement(
  categories: readonly Category[],
  context: { categoryId?: string | null | undefined; flow: Exclude<Flow, 'all'> },
): { parentId: string; coaId: number } | null {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const categoryLevel = (c: Category | undefined): Category | undefined => {
    let node = c;
    while (node && node.level > 3) node = node.parentId ? byId.get(node.parentId) : undefined;
    return node?.level === 3 && node.parentId ? node : undefined;
  };
  const wanted: CategoryClass = context.flow === 'inflow' ? 'Income' : 'Expenses';
  const current = context.categoryId ? byId.get(context.categoryId) : undefined;
  const uncategorised = categories.find((c) => c.name === (context.flow === 'inflow' ? 'Uncategorised Income' : 'Uncategorised Expense'));
  const anchor =
    (current && (current.type === 'Income' || current.type === 'Expenses') ? categoryLevel(current) : undefined) ??
    categoryLevel(uncategorised) ??
    categories.filter((c) => c.level === 3 && c.type === wanted && c.parentId && c.bankAccountId === null).sort((a, b) => a.coaId - b.coaId)[0];
  const parentId = anchor?.parentId;
  if (!anchor || !parentId) return null;
  const taken = new Set(categories.map((c) => c.coaId));
  const siblings = categories.filter((c) => c.parentId === parentId).map((c) => c.coaId);
  let coaId = Math.max(anchor.coaId, ...siblings) + 1;
  while (taken.has(coaId)) coaId++;
  return { parentId, coaId };
}

/** Dollars to integer cents (money is compared in cents, never in floating dollars). */
export const toCents = (amount: number): number => Math.round(amount * 100);
