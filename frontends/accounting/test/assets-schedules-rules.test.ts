import { describe, expect, it } from 'vitest';
import {
  assetAccountOptions,
  defaultAssetAccount,
  emptyFixedAssetDraft,
  fixedAssetBody,
  fixedAssetFieldOf,
  isAssetPurchaseCandidate,
  validateFixedAssetDraft,
  withPurchase,
} from '../src/assets/rules';
import { calendarMonths, monthTitle, scheduleAccountOptions, schedulesSearch, schedulesStateFromSearch } from '../src/schedules/rules';

const node = (
  over: Partial<{
    id: string;
    name: string;
    coaId: number;
    type: string;
    level: number;
    bankAccountId: string | null;
    systemKey: string | null;
    children: never[];
  }>,
) => ({
  id: 'x',
  name: 'x',
  coaId: 0,
  type: 'Assets',
  level: 3,
  bankAccountId: null,
  systemKey: null,
  children: [] as never[],
  ...over,
});

describe('assetAccountOptions', () => {
  it('offers postable asset accounts only: not banks, system accounts, accumulated depreciation or parents', () => {
    const chart = [
      {
        ...node({ id: 'g', name: 'Fixed Assets', level: 2, coaId: 15000 }),
        children: [
          node({ id: 'pe', name: 'Property and Equipment', coaId: 15100 }),
          node({ id: 'ce', name: 'Computer Equipment', coaId: 15200 }),
          node({ id: 'ad', name: 'Accumulated Depreciation', coaId: 15300 }),
          node({ id: 'ad2', name: 'Accumulated Depreciation', coaId: 15301, systemKey: 'accumulated_depreciation' }),
          node({ id: 'bank', name: 'Checking', coaId: 10100, bankAccountId: 'b1' }),
          node({ id: 'pp', name: 'Prepaid Expenses', coaId: 13000, systemKey: 'prepaid_expenses' }),
          node({ id: 'exp', name: 'Office Supplies', coaId: 64000, type: 'Expenses' }),
        ],
      },
    ];
    const options = assetAccountOptions(chart as never);
    expect(options.map((o) => o.id)).toEqual(['pe', 'ce']);
    expect(defaultAssetAccount(options)).toBe('pe');
    expect(defaultAssetAccount(options.slice(1))).toBe('ce');
    expect(defaultAssetAccount([])).toBeNull();
  });
});

describe('isAssetPurchaseCandidate', () => {
  const plain = {
    amount: -1200,
    entityType: null,
    isAccruedParent: false,
    isAccruedChildren: false,
    isSplittedParent: false,
    isSplittedChildren: false,
    isOpeningBalance: false,
    pending: false,
    transferStatus: null,
  };
  it('takes money going out that nothing else claims', () => {
    expect(isAssetPurchaseCandidate(plain)).toBe(true);
    expect(isAssetPurchaseCandidate({ ...plain, amount: 1200 })).toBe(false);
    expect(isAssetPurchaseCandidate({ ...plain, entityType: 'FixedAsset' })).toBe(false);
    expect(isAssetPurchaseCandidate({ ...plain, isAccruedParent: true })).toBe(false);
    expect(isAssetPurchaseCandidate({ ...plain, isSplittedParent: true })).toBe(false);
    expect(isAssetPurchaseCandidate({ ...plain, pending: true })).toBe(false);
    expect(isAssetPurchaseCandidate({ ...plain, transferStatus: 'paired' })).toBe(false);
  });
});

describe('the create draft', () => {
  it('takes cost, dates and a name from the purchase; keeps a typed name', () => {
    const d = withPurchase(emptyFixedAssetDraft('pe'), { id: 't1', amount: -2400, dateTime: '2026-04-15T00:00:00.000Z' }, 'Apple Store');
    expect(d).toMatchObject({
      transactionId: 't1',
      cost: '2400.00',
      purchaseDate: '2026-04-15',
      depreciationStartDate: '2026-04-15',
      description: 'Apple Store',
    });
    expect(
      withPurchase({ ...emptyFixedAssetDraft(), description: 'Laptop' }, { id: 't1', amount: -5, dateTime: '2026-04-15' }, 'Apple Store').description,
    ).toBe('Laptop');
  });

  it("names what is missing or negative in the server's words, per method", () => {
    expect(validateFixedAssetDraft(emptyFixedAssetDraft())).toEqual({
      transactionId: 'Pick the purchase transaction',
      description: 'Name the asset',
      assetTypeId: 'assetTypeId is required',
      purchaseDate: 'purchaseDate is required',
      depreciationStartDate: 'depreciationStartDate is required',
      usefulLife: 'usefulLife is required',
    });
    const ready = { ...withPurchase(emptyFixedAssetDraft('pe'), { id: 't1', amount: -2400, dateTime: '2026-04-15' }, 'Laptop'), usefulLife: '3' };
    expect(validateFixedAssetDraft(ready)).toEqual({});
    expect(validateFixedAssetDraft({ ...ready, usefulLife: '-1' })).toEqual({ usefulLife: 'usefulLife cannot be negative' });
    expect(validateFixedAssetDraft({ ...ready, method: 'UNITS_OF_PRODUCTION', usefulLife: '' })).toEqual({
      totalEstimatedUnits: 'totalEstimatedUnits is required',
      unitProducedPerYear: 'unitProducedPerYear is required',
    });
    expect(fixedAssetBody(ready)).toEqual({
      transactionId: 't1',
      description: 'Laptop',
      assetTypeId: 'pe',
      method: 'STRAIGHT_LINE',
      purchaseDate: '2026-04-15',
      depreciationStartDate: '2026-04-15',
      cost: 2400,
      salvageValue: 0,
      usefulLife: 3,
    });
    expect(fixedAssetBody({ ...ready, method: 'UNITS_OF_PRODUCTION', totalEstimatedUnits: '10000', unitProducedPerYear: '2500' })).toMatchObject({
      totalEstimatedUnits: 10000,
      unitProducedPerYear: 2500,
    });
    expect(fixedAssetBody({ ...ready, method: 'UNITS_OF_PRODUCTION' })).not.toHaveProperty('usefulLife');
  });

  it('puts a server refusal on the field it names, else none', () => {
    expect(fixedAssetFieldOf('salvageValue')).toBe('salvageValue');
    expect(fixedAssetFieldOf('id')).toBeNull();
    expect(fixedAssetFieldOf(undefined)).toBeNull();
  });
});

describe('the schedules URL', () => {
  const today = '2026-11-28';
  it("reads the drill-down's account and range, else the stored range, else the calendar year", () => {
    const drilled = new URLSearchParams('tab=schedules&ledgerAccount=a1&startDate=2026-01-01&endDate=2026-01-31');
    expect(schedulesStateFromSearch(drilled, { startDate: '2025-01-01', endDate: '2025-12-31' }, today)).toEqual({
      ledgerAccount: 'a1',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      view: 'list',
    });
    expect(schedulesStateFromSearch(new URLSearchParams('tab=schedules&view=calendar'), { startDate: '2025-01-01', endDate: '2025-12-31' }, today)).toEqual({
      ledgerAccount: null,
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      view: 'calendar',
    });
    expect(schedulesStateFromSearch(new URLSearchParams('tab=schedules'), 'junk', today)).toMatchObject({ startDate: '2026-01-01', endDate: '2026-12-31' });
    expect(
      schedulesStateFromSearch(new URLSearchParams('startDate=2026-05-01&endDate=2026-01-01'), { startDate: '2026-12-31', endDate: '2026-01-01' }, today),
    ).toMatchObject({ startDate: '2026-01-01', endDate: '2026-12-31' });
  });

  it('writes what it read', () => {
    const state = { ledgerAccount: 'a1', startDate: '2026-01-01', endDate: '2026-03-31', view: 'calendar' as const };
    const search = schedulesSearch(state);
    expect(search).toBe('?tab=schedules&ledgerAccount=a1&startDate=2026-01-01&endDate=2026-03-31&view=calendar');
    expect(schedulesStateFromSearch(new URLSearchParams(search), undefined, today)).toEqual(state);
    expect(schedulesSearch({ ...state, ledgerAccount: null, view: 'list' })).toBe('?tab=schedules&startDate=2026-01-01&endDate=2026-03-31');
  });
});

describe('the calendar view', () => {
  const account = { id: 'pp', name: 'Prepaid Expenses', coaId: 13000 };
  const dep = { id: 'ad', name: 'Accumulated Depreciation', coaId: 15300 };
  const line = (date: string, amount: number, scheduled = false) => ({
    date,
    description: '',
    amount,
    runningBalance: 0,
    journalEntryId: '',
    transactionId: '',
    sourceType: '',
    scheduled,
  });
  it('splits a month into what was recognised and what was added; depreciation posted and to come', () => {
    const schedules = {
      startDate: '2026-01-01',
      endDate: '2026-02-28',
      data: [
        {
          ledgerAccount: account,
          kind: 'Prepaid Expenses' as const,
          txnCount: 3,
          openingBalance: 0,
          runningBalance: 600,
          lines: [line('2026-01-05', 1200), line('2026-01-31', -300), line('2026-02-28', -300)],
        },
        {
          ledgerAccount: dep,
          kind: 'Accumulated Depreciation' as const,
          txnCount: 1,
          openingBalance: 0,
          runningBalance: 200,
          lines: [line('2026-01-31', 200), line('2026-02-28', 200, true)],
        },
      ],
    };
    const calendar = {
      startDate: '2026-01-01',
      endDate: '2026-02-28',
      months: [
        {
          month: '2026-01',
          schedules: [
            { ledgerAccount: account, kind: 'Prepaid Expenses' as const, amount: 900, scheduledAmount: 0, txnCount: 2, runningBalance: 900 },
            { ledgerAccount: dep, kind: 'Accumulated Depreciation' as const, amount: 200, scheduledAmount: 0, txnCount: 1, runningBalance: 200 },
          ],
        },
        {
          month: '2026-02',
          schedules: [
            { ledgerAccount: account, kind: 'Prepaid Expenses' as const, amount: -300, scheduledAmount: 0, txnCount: 1, runningBalance: 600 },
            { ledgerAccount: dep, kind: 'Accumulated Depreciation' as const, amount: 0, scheduledAmount: 200, txnCount: 0, runningBalance: 400 },
          ],
        },
      ],
    };
    const months = calendarMonths(calendar, schedules);
    expect(months.map((m) => m.month)).toEqual(['2026-01', '2026-02']);
    expect(months[0]!.cells[0]).toMatchObject({ recognised: 300, added: 1200, scheduled: 0, balance: 900, txnCount: 2 });
    expect(months[0]!.cells[1]).toMatchObject({ recognised: 200, added: 0, balance: 200 });
    expect(months[1]!.cells[0]).toMatchObject({ recognised: 300, added: 0, balance: 600 });
    expect(months[1]!.cells[1]).toMatchObject({ recognised: 0, scheduled: 200, balance: 400 });
    // Nothing released in a month is 0, not -0 ('-$0.00' on screen).
    expect(Object.is(months[1]!.cells[1]!.recognised, 0)).toBe(true);
    const quiet = calendarMonths({ ...calendar, months: [{ month: '2026-03', schedules: [calendar.months[0]!.schedules[0]!] }] }, schedules);
    expect(Object.is(quiet[0]!.cells[0]!.recognised, 0)).toBe(true);
    expect(Object.is(quiet[0]!.cells[0]!.added, 0)).toBe(true);
    expect(monthTitle('2026-02')).toBe('February 2026');
  });

  it("lists the schedule accounts of a chart; a keyed Accumulated Depreciation hides the default chart's unkeyed one", () => {
    const chart = [
      node({ id: 'pp', name: 'Prepaid Expenses', coaId: 13000, systemKey: 'prepaid_expenses' }),
      node({ id: 'dr', name: 'Deferred Revenue', coaId: 24000, type: 'Liability', systemKey: 'deferred_revenue' }),
      node({ id: 'ad0', name: 'Accumulated Depreciation', coaId: 15300 }),
      node({ id: 'pe', name: 'Property and Equipment', coaId: 15100 }),
    ];
    expect(scheduleAccountOptions(chart as never).map((a) => a.id)).toEqual(['pp', 'ad0', 'dr']);
    const keyed = [...chart, node({ id: 'ad1', name: 'Accumulated Depreciation', coaId: 15301, systemKey: 'accumulated_depreciation' })];
    expect(scheduleAccountOptions(keyed as never).map((a) => a.id)).toEqual(['pp', 'ad1', 'dr']);
  });
});
