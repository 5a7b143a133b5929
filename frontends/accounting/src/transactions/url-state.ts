import { type TransferFilter } from './transfers';
import {
  DEFAULT_TRANSACTION_FILTERS,
  filterAmount,
  type Finalization,
  type Flow,
  type SortOrder,
  type TransactionFilters,
  type TransactionTab,
} from './filters';

/**
 * The /transactions list in the query string (issue #13): the spec §2 parameters (tab, filter, startDate,
 * endDate, txn) and the spec §7 list filter names for the rest, lists comma-separated. Defaults are left out,
 * so an unfiltered list has a bare URL. Anything malformed is ignored (the default applies).
 */
export const TRANSACTION_FILTER_PARAMS = [
  'accountId',
  'startDate',
  'endDate',
  'billers',
  'categories',
  'description',
  'amount',
  'minAmount',
  'maxAmount',
  'flow',
  'finalization',
  'order',
  'filter',
] as const;

export interface TransactionsUrlState {
  filters: TransactionFilters;
  transfer: TransferFilter;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Ids the server hands out (UUIDs and the like): anything else in a link is dropped, not sent. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** What the description filter may hold from a link (the filter bar takes no more either). */
const MAX_DESCRIPTION = 200;

const TRANSFER_OF_PARAM: Readonly<Record<string, TransferFilter>> = { 'transfers-review': 'review', 'transfers-paired': 'paired' };
const PARAM_OF_TRANSFER: Readonly<Record<TransferFilter, string | null>> = { '': null, review: 'transfers-review', paired: 'transfers-paired' };

function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function ids(value: string | null): string[] {
  if (value === null) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => ID.test(s)),
    ),
  ];
}

function amount(value: string | null): string {
  return value !== null && filterAmount(value) !== undefined ? value.trim() : '';
}

/** The list's filters and transfer filter read from the query string. */
export function transactionsStateFromSearch(params: URLSearchParams): TransactionsUrlState {
  const d = DEFAULT_TRANSACTION_FILTERS;
  const start = params.get('startDate') ?? '';
  const end = params.get('endDate') ?? '';
  // A range needs both ends, in order; half a range or a reversed one is ignored whole.
  const range = isIsoDate(start) && isIsoDate(end) && start <= end ? { startDate: start, endDate: end } : { startDate: '', endDate: '' };
  const flow = params.get('flow');
  const finalization = params.get('finalization');
  const order = params.get('order');
  const minAmount = amount(params.get('minAmount'));
  const maxAmount = amount(params.get('maxAmount'));
  const amountsInOrder = minAmount === '' || maxAmount === '' || (filterAmount(minAmount) ?? 0) <= (filterAmount(maxAmount) ?? 0);
  return {
    filters: {
      accountIds: ids(params.get('accountId')),
      ...range,
      billerIds: ids(params.get('billers')),
      categoryIds: ids(params.get('categories')),
      description: (params.get('description') ?? '').slice(0, MAX_DESCRIPTION),
      amount: amount(params.get('amount')),
      minAmount: amountsInOrder ? minAmount : '',
      maxAmount: amountsInOrder ? maxAmount : '',
      flow: flow === 'inflow' || flow === 'outflow' ? (flow satisfies Flow) : d.flow,
      finalization: finalization === 'finalized' || finalization === 'nonFinalized' ? (finalization satisfies Finalization) : d.finalization,
      order: order === 'ASC' || order === 'DESC' ? (order satisfies SortOrder) : d.order,
    },
    transfer: TRANSFER_OF_PARAM[params.get('filter') ?? ''] ?? '',
  };
}

/**
 * The query string with the list's state written in: the filter parameters are replaced, every other one
 * (tab, txn, anything a later screen adds) is kept as it was.
 */
export function transactionsSearch(state: TransactionsUrlState, current: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const name of TRANSACTION_FILTER_PARAMS) next.delete(name);
  const { filters: f, transfer } = state;
  const d = DEFAULT_TRANSACTION_FILTERS;
  const set = (name: string, value: string) => {
    if (value !== '') next.set(name, value);
  };
  set('accountId', f.accountIds.join(','));
  if (f.startDate !== '' && f.endDate !== '') {
    set('startDate', f.startDate);
    set('endDate', f.endDate);
  }
  set('billers', f.billerIds.join(','));
  set('categories', f.categoryIds.join(','));
  // Written as typed (a trailing space is part of what is being typed); blank is no filter.
  if (f.description.trim() !== '') set('description', f.description);
  set('amount', f.amount.trim());
  set('minAmount', f.minAmount.trim());
  set('maxAmount', f.maxAmount.trim());
  if (f.flow !== d.flow) set('flow', f.flow);
  if (f.finalization !== d.finalization) set('finalization', f.finalization);
  if (f.order !== d.order) set('order', f.order);
  set('filter', PARAM_OF_TRANSFER[transfer] ?? '');
  return next;
}

/** Clear filters: every filter and the transfer filter back to their defaults; the list's order is a view setting and stays. */
export function clearedState(state: TransactionsUrlState): TransactionsUrlState {
  return { filters: { ...DEFAULT_TRANSACTION_FILTERS, order: state.filters.order }, transfer: '' };
}

/**
 * Each tab's default filter set (spec §3: a filter set per screen key; the spec's list names none for these tabs,
 * so they are named like its keys). The user's last filters of a tab, shown when the tab's URL names none.
 */
export const TRANSACTIONS_SCREEN_KEYS: Readonly<Record<TransactionTab, string>> = {
  review: 'transactionsReview',
  finalized: 'transactionsFinalized',
  all: 'transactionsAll',
};

/** Whether the query string names any of the list's filters (a link or a reload with filters wins over the stored set). */
export const hasFilterParams = (params: URLSearchParams): boolean => TRANSACTION_FILTER_PARAMS.some((name) => params.has(name));

/** A tab's filters as stored: their query parameters (the defaults left out), or nothing when every filter is at its default. */
export function storedFilterSet(state: TransactionsUrlState): Record<string, string> | undefined {
  const entries = [...transactionsSearch(state)];
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** A stored set read back as query parameters: only the list's filters, each checked as a link's would be (anything malformed is dropped). */
export function storedFilterParams(raw: unknown): URLSearchParams {
  const params = new URLSearchParams();
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const name of TRANSACTION_FILTER_PARAMS) {
      const value = (raw as Record<string, unknown>)[name];
      if (typeof value === 'string') params.set(name, value);
    }
  }
  return transactionsSearch(transactionsStateFromSearch(params));
}

/** The query string a bare URL opens with: the stored set written in, tab and anything else kept; null when nothing is stored or the URL names filters. */
export function arrivalSearch(current: URLSearchParams, stored: unknown): URLSearchParams | null {
  if (hasFilterParams(current)) return null;
  const params = storedFilterParams(stored);
  if (params.size === 0) return null;
  const next = new URLSearchParams(current);
  for (const [name, value] of params) next.set(name, value);
  return next;
}
