// The transactions list's filters (spec §2 list filter, §7 GET /transactions/v2): the tabs, what the filter bar
// holds, the REST query it asks, and the badge count. Moved from @ledgerline/api (issue #14 item 8, decision 0034).
import type { TransactionsQuery } from '@ledgerline/api';
import { type TransferFilter } from './transfers';

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

/**
 * GET /transactions/v2's query (and GET /transactions/csv's) for a tab, its filters and the transfer filter (issue #12:
 * transfers to review, paired ones); empty values are left out of the URL, and the list hook adds the page.
 */
export function transactionsQuery(tab: TransactionTab, filters: TransactionFilters, transfer: TransferFilter = ''): TransactionsQuery {
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
    transferStatus: transfer === '' ? undefined : transfer,
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

/** A transaction's direction: money into the account is an inflow. */
export const flowOf = (amount: number): Exclude<Flow, 'all'> => (amount > 0 ? 'inflow' : 'outflow');
