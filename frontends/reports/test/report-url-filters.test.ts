import type { AccountTreeNode } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import {
  BALANCE_SHEET_CLASSES,
  PNL_CLASSES,
  groupsAndTagsOfClasses,
  parseStoredFilters,
  reportFiltersFromSearch,
  reportFiltersSearch,
  type StoredFilters,
} from '../src/filters';

const DEFAULTS = parseStoredFilters(undefined);
const WS = '5e0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('report filters in the URL (issue #13)', () => {
  it('round-trips every filter with the spec §7 names, keeping tab and period', () => {
    const filters: StoredFilters = {
      dateBreakdown: 'Totals only',
      isZeroAmountHidden: false,
      groups: ['Operating Expenses', 'Revenue'],
      tags: ['ops'],
      moneyType: 'non-bank',
      workspaces: [WS],
    };
    const search = reportFiltersSearch(filters, new URLSearchParams({ tab: 'pnl', startDate: '2026-01-01', endDate: '2026-06-30', groups: 'old' }));
    expect(Object.fromEntries(search)).toEqual({
      tab: 'pnl',
      startDate: '2026-01-01',
      endDate: '2026-06-30',
      breakdown: 'totals_only',
      groups: 'Operating Expenses,Revenue',
      tags: 'ops',
      excludeZeroes: 'false',
      moneyType: 'non-bank',
      workspaces: WS,
    });
    expect(reportFiltersFromSearch(new URLSearchParams(search.toString()), DEFAULTS)).toEqual(filters);
    for (const dateBreakdown of ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly'] as const) {
      expect(reportFiltersFromSearch(reportFiltersSearch({ ...DEFAULTS, dateBreakdown }), DEFAULTS).dateBreakdown).toBe(dateBreakdown);
    }
  });

  it('writes the whole set, so a link shows the same report whatever the opener has stored', () => {
    const search = reportFiltersSearch(DEFAULTS);
    expect(search.toString()).toBe('breakdown=monthly&excludeZeroes=true');
    const someoneElses: StoredFilters = { ...DEFAULTS, dateBreakdown: 'Yearly', groups: ['Payroll'], isZeroAmountHidden: false };
    expect(reportFiltersFromSearch(search, someoneElses)).toEqual(DEFAULTS);
  });

  it('uses the stored filter set when the URL names no filter', () => {
    const stored: StoredFilters = { ...DEFAULTS, dateBreakdown: 'Quarterly', tags: ['ops'] };
    expect(reportFiltersFromSearch(new URLSearchParams({ tab: 'pnl', startDate: '2026-01-01', endDate: '2026-01-31' }), stored)).toBe(stored);
  });

  it('ignores malformed values: each takes the spec §3 default', () => {
    const params = new URLSearchParams({
      breakdown: 'fortnightly',
      groups: ' , Payroll,,Payroll ',
      tags: '',
      excludeZeroes: 'maybe',
      moneyType: 'gold',
      workspaces: `<x>,${WS}`,
    });
    expect(reportFiltersFromSearch(params, { ...DEFAULTS, dateBreakdown: 'Yearly' })).toEqual({ ...DEFAULTS, groups: ['Payroll'], workspaces: [WS] });
  });
});

const node = (name: string, type: AccountTreeNode['type'], group: string, tag: string, children: AccountTreeNode[] = []): AccountTreeNode => ({
  id: name,
  name,
  coaId: 1,
  type,
  level: 1,
  balance: 0,
  group,
  tag,
  parentId: null,
  isUserCreated: false,
  qboSynced: false,
  bankAccountId: null,
  systemKey: null,
  path: { ids: [name], names: [name] },
  children,
});

describe('groups and tags a statement offers', () => {
  const chart = [
    node('Assets', 'Assets', 'Assets', '', [node('Current Assets', 'Assets', 'Current Assets', 'bank', [node('Checking', 'Assets', 'Current Assets', 'ops')])]),
    node('Liability', 'Liability', 'Liability', '', [node('Credit Cards', 'Liability', 'Credit Cards', '')]),
    node('Income', 'Income', 'Income', '', [node('Revenue', 'Income', 'Revenue', 'sales')]),
    node('Expenses', 'Expenses', 'Expenses', '', [node('Operating Expenses', 'Expenses', 'Operating Expenses', 'ops')]),
  ];
  const served = {
    groups: ['Assets', 'Credit Cards', 'Current Assets', 'Expenses', 'Income', 'Liability', 'Operating Expenses', 'Revenue', 'Unused'],
    tags: ['bank', 'ops', 'sales'],
  };

  it('offers the P&L only income and expense groups and tags', () => {
    expect(groupsAndTagsOfClasses(chart, PNL_CLASSES, served)).toEqual({
      groups: ['Expenses', 'Income', 'Operating Expenses', 'Revenue'],
      tags: ['ops', 'sales'],
    });
  });

  it('offers the balance sheet only its own classes', () => {
    expect(groupsAndTagsOfClasses(chart, BALANCE_SHEET_CLASSES, served)).toEqual({
      groups: ['Assets', 'Credit Cards', 'Current Assets', 'Liability'],
      tags: ['bank', 'ops'],
    });
  });
});
