import { TRANSACTIONS_PAGE_SIZE, buildUrl, type Category, type Transaction } from '@ledgerline/api';
import { DEFAULT_TRANSACTION_FILTERS, transactionsQuery } from '../src/transactions/filters';
import { newCategoryPlacement, recognisableCategories } from '../src/transactions/category-options';
import { transactionRestriction } from '../src/transactions/restrictions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCRUAL_MONTHS_SUM_MESSAGE,
  SPLIT_SUM_MESSAGE,
  formatTxnDate,
  shouldFetchNextPage,
  splitRemainder,
  throttle,
  validateAccrual,
  validateAccrualMonths,
  validateSplit,
} from '../src/transactions/rules';

describe('infinite scroll (spec §9)', () => {
  it('asks for the next page once the rest of the page is within 2.2 viewports, not before', () => {
    const viewportHeight = 800;
    // 2.2 × 800 = 1760 px left below the viewport is the edge.
    expect(shouldFetchNextPage({ scrollHeight: 5000, scrollTop: 5000 - 800 - 1760, viewportHeight })).toBe(true);
    expect(shouldFetchNextPage({ scrollHeight: 5000, scrollTop: 5000 - 800 - 1761, viewportHeight })).toBe(false);
    expect(shouldFetchNextPage({ scrollHeight: 5000, scrollTop: 0, viewportHeight })).toBe(false);
    // A list shorter than the viewport cannot be scrolled at all: it needs the next page at once.
    expect(shouldFetchNextPage({ scrollHeight: 600, scrollTop: 0, viewportHeight })).toBe(true);
  });

  describe('throttle', () => {
    afterEach(() => vi.useRealTimers());

    it('runs at once, folds the calls of the next 200 ms into one trailing run, then runs at once again', () => {
      vi.useFakeTimers();
      const fn = vi.fn();
      const throttled = throttle(fn, 200);
      throttled();
      expect(fn).toHaveBeenCalledTimes(1);
      throttled();
      throttled();
      vi.advanceTimersByTime(199);
      expect(fn).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(500);
      throttled();
      expect(fn).toHaveBeenCalledTimes(3);
    });

    it('runs nothing after cancel', () => {
      vi.useFakeTimers();
      const fn = vi.fn();
      const throttled = throttle(fn, 200);
      throttled();
      throttled();
      throttled.cancel();
      vi.advanceTimersByTime(1000);
      expect(fn).toHaveBeenCalledTimes(1);
    });
  });
});

describe('split', () => {
  const part = (amount: string, categoryId: string | null = 'c1') => ({ id: null, amount, categoryId });

  it('shows what is left to assign, in cents, for money out and money in alike', () => {
    expect(splitRemainder(-100, [part('60'), part('')])).toBe(40);
    expect(splitRemainder(-100, [part('60'), part('40.01')])).toBe(-0.01);
    expect(splitRemainder(250.1, [part('0.1'), part('250')])).toBe(0);
    // 0.1 + 0.2 in floating point is 0.30000000000000004; in cents it is exact.
    expect(splitRemainder(0.3, [part('0.1'), part('0.2')])).toBe(0);
  });

  it('accepts parts that add up within 0.01 and refuses the rest with the sum message', () => {
    expect(validateSplit(-100, [part('60'), part('40')])).toBeNull();
    expect(validateSplit(-100, [part('60'), part('39.99')])).toBeNull();
    expect(validateSplit(-100, [part('60'), part('39.98')])?.sum).toBe(SPLIT_SUM_MESSAGE);
    expect(validateSplit(-100, [part('60'), part('50')])?.sum).toBe(SPLIT_SUM_MESSAGE);
  });

  it('names a part without an amount above zero or without a category, and a split of one part', () => {
    const problems = validateSplit(-100, [part('100'), part('0', null)]);
    expect(problems?.parts[0]).toEqual({});
    expect(problems?.parts[1]).toEqual({ amount: 'Amount must be greater than 0', categoryId: 'Category cannot be empty' });
    expect(validateSplit(-100, [part('100')])?.sum).toBe('A split needs at least two parts');
  });
});

describe('accrual form', () => {
  const draft = { startDate: '2026-01-01', endDate: '2026-12-31', accrualCategory: 'Prepaid Expenses' as const, recogniseCategoryId: 'c1' };

  it('needs both dates, an end not before the start, and a category to recognise into', () => {
    expect(validateAccrual(draft)).toEqual({});
    expect(validateAccrual({ ...draft, endDate: '2026-01-01' })).toEqual({});
    expect(validateAccrual({ ...draft, endDate: '2025-12-31' })).toEqual({ endDate: 'End date cannot be less than Start date' });
    expect(validateAccrual({ ...draft, startDate: '', endDate: '', recogniseCategoryId: null })).toEqual({
      startDate: 'Start date is required',
      endDate: 'End date is required',
      recogniseCategoryId: 'Category cannot be empty',
    });
  });
});

describe('accrual month amounts', () => {
  const month = (id: string, amount: string) => ({ id, date: '2026-01-31', amount });

  it('accepts months that add up to the transaction within 0.01, and names a month at zero or the sum', () => {
    expect(validateAccrualMonths(-100, [month('a', '33.33'), month('b', '33.33'), month('c', '33.34')])).toBeNull();
    expect(validateAccrualMonths(-100, [month('a', '33.33'), month('b', '33.33'), month('c', '33.33')])).toBeNull();
    expect(validateAccrualMonths(-100, [month('a', '50'), month('b', '50.02')])).toEqual({ months: [undefined, undefined], sum: ACCRUAL_MONTHS_SUM_MESSAGE });
    expect(validateAccrualMonths(100, [month('a', '100'), month('b', '0')])).toEqual({ months: [undefined, 'Amount must be greater than 0'] });
  });
});

describe('filters → GET /transactions/v2', () => {
  // The query as the list hook sends it: the filters, then the page and 20 a page.
  const url = (tab: Parameters<typeof transactionsQuery>[0], filters: Parameters<typeof transactionsQuery>[1], page: number) =>
    buildUrl('/transactions/v2', { ...transactionsQuery(tab, filters), page, take: TRANSACTIONS_PAGE_SIZE });

  it('sends only the filters set, with the tab deciding finalization and 20 a page', () => {
    expect(url('all', DEFAULT_TRANSACTION_FILTERS, 1)).toBe('/transactions/v2?order=DESC&page=1&take=20');
    expect(url('review', DEFAULT_TRANSACTION_FILTERS, 2)).toBe('/transactions/v2?finalization=nonFinalized&order=DESC&page=2&take=20');
    // The finalization filter applies on 'all' only; the finalized tab always asks for finalized ones.
    expect(url('finalized', { ...DEFAULT_TRANSACTION_FILTERS, finalization: 'nonFinalized' }, 1)).toBe(
      '/transactions/v2?finalization=finalized&order=DESC&page=1&take=20',
    );
    expect(url('all', { ...DEFAULT_TRANSACTION_FILTERS, finalization: 'nonFinalized' }, 1)).toContain('finalization=nonFinalized');
  });

  it('joins lists with commas, trims the description and sends amounts as numbers', () => {
    const query = new URLSearchParams(
      url(
        'all',
        {
          ...DEFAULT_TRANSACTION_FILTERS,
          accountIds: ['a1', 'a2'],
          billerIds: ['b1'],
          categoryIds: ['c1', 'c2'],
          startDate: '2026-01-01',
          endDate: '2026-03-31',
          description: '  coffee ',
          amount: '$1,200.50',
          minAmount: '10',
          maxAmount: '',
          flow: 'outflow',
          order: 'ASC',
        },
        3,
      ).split('?')[1],
    );
    expect(Object.fromEntries(query)).toEqual({
      accountId: 'a1,a2',
      billers: 'b1',
      categories: 'c1,c2',
      startDate: '2026-01-01',
      endDate: '2026-03-31',
      description: 'coffee',
      amount: '1200.5',
      minAmount: '10',
      flow: 'outflow',
      order: 'ASC',
      page: '3',
      take: '20',
    });
  });

  it('leaves out an amount that is not a non-negative number', () => {
    expect(url('all', { ...DEFAULT_TRANSACTION_FILTERS, amount: '-5', minAmount: '.' }, 1)).toBe('/transactions/v2?order=DESC&page=1&take=20');
  });
});

const txn = (over: Partial<Transaction> = {}): Transaction => ({
  id: 't1',
  vendorTransactionId: 'v1',
  biller: null,
  memo: 'Coffee',
  amount: -4.5,
  dateTime: '2026-10-05',
  isoCurrencyCode: 'USD',
  accountId: 'b1',
  ledgerAccountId: 'l1',
  runningBalance: null,
  category: { id: 'c1', name: 'Meals and Entertainment', coaId: 60300, type: 'Expenses', level: 3, parentId: 'g1' },
  debit: 4.5,
  credit: 4.5,
  debitJournalId: null,
  creditJournalId: null,
  debitAccount: { id: 'c1', name: 'Meals and Entertainment' },
  creditAccount: { id: 'l1', name: 'Checking' },
  isTransactionFinalized: false,
  isAccruedParent: false,
  isAccruedChildren: false,
  isSplittedParent: false,
  isSplittedChildren: false,
  isOpeningBalance: false,
  entityType: null,
  entityId: null,
  qboSynced: false,
  pending: false,
  vendorId: null,
  appliedRuleId: null,
  splittedChildren: [],
  transferPair: null,
  transferStatus: null,
  creationMode: null,
  suggestion: null,
  ...over,
});

describe('spec §4 restrictions, first match wins', () => {
  it('lets an ordinary transaction be edited', () => {
    expect(transactionRestriction(txn())).toBeNull();
  });

  it('checks linked, finalized, Transfer, synced, accrued, split in that order', () => {
    const everything = txn({
      entityType: 'Bill',
      isTransactionFinalized: true,
      category: { id: 'x', name: 'Internal Transfers', coaId: 81100, type: 'Transfer', level: 3, parentId: null },
      qboSynced: true,
      isAccruedParent: true,
      isSplittedParent: true,
    });
    expect(transactionRestriction(everything)?.message).toBe('This transaction is linked to a bill and cannot be edited here');
    expect(transactionRestriction({ ...everything, entityType: null })?.code).toBe('TRANSACTION_FINALIZED');
    expect(transactionRestriction({ ...everything, entityType: null, isTransactionFinalized: false })?.code).toBe('TRANSACTION_TRANSFER');
    expect(transactionRestriction({ ...everything, entityType: null, isTransactionFinalized: false, category: null })?.code).toBe('TRANSACTION_SYNCED');
    expect(transactionRestriction({ ...everything, entityType: null, isTransactionFinalized: false, category: null, qboSynced: false })?.code).toBe(
      'TRANSACTION_ACCRUED',
    );
    expect(transactionRestriction(txn({ isSplittedParent: true }))?.message).toBe('This transaction is split. Edit its split instead');
  });

  it("refuses to edit a transfer except by un-pairing, in the server's wording; earlier rules still apply to un-pairing", () => {
    const transfer = txn({
      category: { id: 'x', name: 'Internal Transfers', coaId: 81100, type: 'Transfer', level: 3, parentId: null },
      transferStatus: 'review',
    });
    expect(transactionRestriction(transfer)).toEqual({
      code: 'TRANSACTION_TRANSFER',
      message: 'Transfer transactions cannot be edited. Unpair the transfer first.',
    });
    expect(transactionRestriction(transfer, { transferring: true })).toBeNull();
    expect(transactionRestriction({ ...transfer, isTransactionFinalized: true }, { transferring: true })?.code).toBe('TRANSACTION_FINALIZED');
  });

  it("lets an accrued transaction's accrual be edited, stopped or deleted, but nothing else of it", () => {
    const accrued = txn({ isAccruedParent: true });
    expect(transactionRestriction(accrued)?.code).toBe('TRANSACTION_ACCRUED');
    expect(transactionRestriction(accrued, { splitting: true })?.code).toBe('TRANSACTION_ACCRUED');
    expect(transactionRestriction(accrued, { accrual: true })).toBeNull();
    // Earlier rules still apply to the accrual itself: un-finalize first.
    expect(transactionRestriction({ ...accrued, isTransactionFinalized: true }, { accrual: true })?.code).toBe('TRANSACTION_FINALIZED');
  });

  it('lets a split transaction edit its split, but never a part, an accrual entry or an opening balance', () => {
    expect(transactionRestriction(txn({ isSplittedParent: true }), { splitting: true })).toBeNull();
    expect(transactionRestriction(txn({ isSplittedChildren: true }))?.code).toBe('TRANSACTION_SPLIT_CHILD');
    expect(transactionRestriction(txn({ isAccruedChildren: true }))?.code).toBe('TRANSACTION_ACCRUAL_CHILD');
    expect(transactionRestriction(txn({ isOpeningBalance: true }))?.code).toBe('TRANSACTION_OPENING_BALANCE');
  });
});

describe('\'Add: "{text}"\' places the new category', () => {
  const cat = (id: string, name: string, coaId: number, level: number, parentId: string | null, type: Category['type']): Category => ({
    id,
    name,
    coaId,
    level,
    parentId,
    type,
    balance: 0,
    group: '',
    tag: '',
    isUserCreated: false,
    qboSynced: false,
    bankAccountId: null,
    systemKey: null,
    path: { ids: [], names: [] },
  });
  // GET /categories lists categories and sub-categories only (levels 3 and 4); groups are known by parentId.
  const chart = [
    cat('hosting', 'Hosting and Infrastructure', 51200, 3, 'cogs', 'Expenses'),
    cat('hosting-eu', 'Hosting EU', 51210, 4, 'hosting', 'Expenses'),
    cat('rent', 'Rent', 60900, 3, 'opex', 'Expenses'),
    cat('unexp', 'Uncategorised Expense', 69900, 3, 'opex', 'Expenses'),
    cat('taken', 'Someone else', 69901, 3, 'other', 'Expenses'),
    cat('uninc', 'Uncategorised Income', 41900, 3, 'opinc', 'Income'),
    cat('transfers', 'Internal Transfers', 81100, 3, 'xfer', 'Transfer'),
  ];

  it("goes beside the transaction's current category, with the next free coaId of that group", () => {
    expect(newCategoryPlacement(chart, { categoryId: 'hosting', flow: 'outflow' })).toEqual({ parentId: 'cogs', coaId: 51201 });
    // A sub-category's new sibling goes beside its category, in the group.
    expect(newCategoryPlacement(chart, { categoryId: 'hosting-eu', flow: 'outflow' })?.parentId).toBe('cogs');
    // 69901 is used elsewhere in the chart: the next free one is taken.
    expect(newCategoryPlacement(chart, { categoryId: 'unexp', flow: 'outflow' })).toEqual({ parentId: 'opex', coaId: 69902 });
  });

  it('goes under the group of Uncategorised Income or Expense by direction otherwise', () => {
    expect(newCategoryPlacement(chart, { flow: 'inflow' })).toEqual({ parentId: 'opinc', coaId: 41901 });
    expect(newCategoryPlacement(chart, { categoryId: 'transfers', flow: 'outflow' })?.parentId).toBe('opex');
  });

  it('offers an accrual only categories it can be recognised into', () => {
    const bank = { ...cat('card', 'Plaid Credit Card', 21201, 4, 'cards', 'Liability'), bankAccountId: 'b1' };
    const names = recognisableCategories([...chart, bank, cat('prepaid', 'Prepaid Expenses', 11300, 3, 'ca', 'Assets')]).map((c) => c.name);
    expect(names).toEqual(['Hosting and Infrastructure', 'Hosting EU', 'Internal Transfers', 'Rent', 'Someone else']);
  });

  it('has no place when the chart has no category of the class', () => {
    expect(newCategoryPlacement([], { flow: 'inflow' })).toBeNull();
  });
});

it('shows business dates as MM/dd/yy without time-zone drift', () => {
  expect(formatTxnDate('2026-01-01')).toBe('01/01/26');
  expect(formatTxnDate('2025-12-31T23:30:00.000Z')).toBe('12/31/25');
});
