import { DEFAULT_TRANSACTION_FILTERS, type TransactionFilters } from '../src/transactions/filters';
import { describe, expect, it } from 'vitest';
import {
  arrivalSearch,
  clearedState,
  storedFilterParams,
  storedFilterSet,
  transactionsSearch,
  transactionsStateFromSearch,
} from '../src/transactions/url-state';

const ACC = '0b6f3c52-1c1e-4d8e-9f0a-2b7c6d5e4f31';
const ACC2 = '7d1e2f30-aaaa-4bbb-8ccc-123456789abc';
const BILLER = 'f2a1b0c9-8d7e-4f6a-9b5c-4d3e2f1a0b9c';
const CAT = '11111111-2222-4333-8444-555555555555';

const every: TransactionFilters = {
  accountIds: [ACC, ACC2],
  startDate: '2026-01-01',
  endDate: '2026-03-31',
  billerIds: [BILLER],
  categoryIds: [CAT],
  description: 'coffee & co',
  amount: '12.50',
  minAmount: '10',
  maxAmount: '1,000',
  flow: 'outflow',
  finalization: 'nonFinalized',
  order: 'ASC',
};

describe('/transactions state in the URL (issue #13)', () => {
  it('round-trips every filter and the transfer filter with the spec parameter names', () => {
    const search = transactionsSearch({ filters: every, transfer: 'review' });
    expect(Object.fromEntries(search)).toEqual({
      accountId: `${ACC},${ACC2}`,
      startDate: '2026-01-01',
      endDate: '2026-03-31',
      billers: BILLER,
      categories: CAT,
      description: 'coffee & co',
      amount: '12.50',
      minAmount: '10',
      maxAmount: '1,000',
      flow: 'outflow',
      finalization: 'nonFinalized',
      order: 'ASC',
      filter: 'transfers-review',
    });
    expect(transactionsStateFromSearch(new URLSearchParams(search.toString()))).toEqual({ filters: every, transfer: 'review' });
    const paired = transactionsSearch({ filters: DEFAULT_TRANSACTION_FILTERS, transfer: 'paired' });
    expect(paired.toString()).toBe('filter=transfers-paired');
    expect(transactionsStateFromSearch(paired).transfer).toBe('paired');
  });

  it('leaves defaults out, so the unfiltered list has a bare URL', () => {
    expect(transactionsSearch({ filters: DEFAULT_TRANSACTION_FILTERS, transfer: '' }).toString()).toBe('');
    expect(transactionsStateFromSearch(new URLSearchParams())).toEqual({ filters: DEFAULT_TRANSACTION_FILTERS, transfer: '' });
    // A blank description is no filter; one being typed keeps its trailing space.
    expect(transactionsSearch({ filters: { ...DEFAULT_TRANSACTION_FILTERS, description: '   ' }, transfer: '' }).toString()).toBe('');
    expect(transactionsSearch({ filters: { ...DEFAULT_TRANSACTION_FILTERS, description: 'uber ' }, transfer: '' }).get('description')).toBe('uber ');
  });

  it('keeps the tab, the open transaction and parameters it does not own, and drops filters taken off', () => {
    const current = new URLSearchParams({ tab: 'all', txn: 'abc', flow: 'inflow', description: 'old', other: 'x' });
    const next = transactionsSearch({ filters: { ...DEFAULT_TRANSACTION_FILTERS, accountIds: [ACC] }, transfer: '' }, current);
    expect(Object.fromEntries(next)).toEqual({ tab: 'all', txn: 'abc', other: 'x', accountId: ACC });
    expect(current.get('flow')).toBe('inflow');
  });

  it('ignores malformed values: each takes its default', () => {
    const state = transactionsStateFromSearch(
      new URLSearchParams({
        accountId: `<script>,${ACC},,${ACC}`,
        startDate: '2026-02-30',
        endDate: '2026-03-01',
        billers: 'a b',
        categories: '',
        amount: '-5',
        minAmount: 'ten',
        maxAmount: '20',
        flow: 'sideways',
        finalization: 'maybe',
        order: 'random',
        filter: 'transfers-everything',
      }),
    );
    expect(state).toEqual({ filters: { ...DEFAULT_TRANSACTION_FILTERS, accountIds: [ACC], maxAmount: '20' }, transfer: '' });
  });

  it('ignores half a date range, a reversed range and a reversed amount range', () => {
    expect(transactionsStateFromSearch(new URLSearchParams({ startDate: '2026-01-01' })).filters).toEqual(DEFAULT_TRANSACTION_FILTERS);
    expect(transactionsStateFromSearch(new URLSearchParams({ startDate: '2026-05-01', endDate: '2026-04-01' })).filters).toEqual(DEFAULT_TRANSACTION_FILTERS);
    expect(transactionsStateFromSearch(new URLSearchParams({ minAmount: '50', maxAmount: '5' })).filters).toEqual(DEFAULT_TRANSACTION_FILTERS);
    expect(transactionsStateFromSearch(new URLSearchParams({ startDate: '2026-02-28', endDate: '2026-02-28' })).filters).toMatchObject({
      startDate: '2026-02-28',
      endDate: '2026-02-28',
    });
  });

  it('clears every filter and the transfer filter, keeping the order and the tab', () => {
    const latest = new URLSearchParams({ tab: 'all', flow: 'inflow', description: 'coffee', order: 'ASC', filter: 'transfers-review', txn: ACC });
    const next = transactionsSearch(clearedState(transactionsStateFromSearch(latest)), latest);
    expect(next.toString()).toBe(new URLSearchParams({ tab: 'all', txn: ACC, order: 'ASC' }).toString());
  });
});

describe("a tab's stored filter set (spec §3)", () => {
  it('stores only the filters set, and nothing when every one is at its default', () => {
    const state = transactionsStateFromSearch(
      new URLSearchParams({ flow: 'outflow', description: 'coffee', filter: 'transfers-paired', tab: 'all', txn: ACC }),
    );
    expect(storedFilterSet(state)).toEqual({ description: 'coffee', flow: 'outflow', filter: 'transfers-paired' });
    expect(storedFilterSet(transactionsStateFromSearch(new URLSearchParams({ tab: 'all' })))).toBeUndefined();
  });

  it('reads back only well-formed filters from storage (storage is not trusted)', () => {
    expect(storedFilterParams({ flow: 'inflow', accountId: `${ACC},<img>`, minAmount: 'ten', tab: 'finalized', txn: ACC, order: 7 }).toString()).toBe(
      `accountId=${ACC}&flow=inflow`,
    );
    for (const raw of [undefined, null, 'flow=inflow', ['flow', 'inflow'], 42]) expect(storedFilterParams(raw).size).toBe(0);
  });

  it('opens a bare URL with the stored set, keeping the tab; a URL naming any filter wins', () => {
    expect(arrivalSearch(new URLSearchParams({ tab: 'all' }), { flow: 'inflow', description: 'rent' })?.toString()).toBe(
      'tab=all&description=rent&flow=inflow',
    );
    expect(arrivalSearch(new URLSearchParams({ tab: 'all', order: 'ASC' }), { flow: 'inflow' })).toBeNull();
    expect(arrivalSearch(new URLSearchParams({ tab: 'all' }), undefined)).toBeNull();
    expect(arrivalSearch(new URLSearchParams({ tab: 'all' }), { flow: 'sideways' })).toBeNull();
  });
});
