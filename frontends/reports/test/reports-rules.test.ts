import { describe, expect, it } from 'vitest';
import { defaultReportPeriod, parseStoredFilters } from '../src/filters';
import { formatAmount } from '../src/format';

describe('amounts (spec §9: USD, en-US, 2 decimals)', () => {
  it('formats to the cent with grouping, minus for negatives and never a negative zero', () => {
    expect(formatAmount(1234.5)).toBe('$1,234.50');
    expect(formatAmount(-1234.567)).toBe('-$1,234.57');
    expect(formatAmount(0.1 + 0.2)).toBe('$0.30');
    expect(formatAmount(-0.001)).toBe('$0.00');
    expect(formatAmount(1_000_000)).toBe('$1,000,000.00');
  });
});

describe('stored filter sets (spec §3 defaults)', () => {
  it('falls back to breakdown Monthly and zero amounts hidden for anything missing or malformed', () => {
    expect(parseStoredFilters(undefined)).toEqual({
      dateBreakdown: 'Monthly',
      isZeroAmountHidden: true,
      groups: [],
      tags: [],
      moneyType: 'ALL',
      workspaces: [],
    });
    expect(parseStoredFilters({ dateBreakdown: 'Fortnightly', isZeroAmountHidden: 'no', groups: [1], tags: 'x', moneyType: 'out', workspaces: 'w1' })).toEqual({
      dateBreakdown: 'Monthly',
      isZeroAmountHidden: true,
      groups: [],
      tags: [],
      moneyType: 'ALL',
      workspaces: [],
    });
    expect(
      parseStoredFilters({
        dateBreakdown: 'Yearly',
        isZeroAmountHidden: false,
        groups: ['Payroll'],
        tags: ['ops'],
        moneyType: 'non-bank',
        workspaces: ['w1', 'w2'],
      }),
    ).toEqual({ dateBreakdown: 'Yearly', isZeroAmountHidden: false, groups: ['Payroll'], tags: ['ops'], moneyType: 'non-bank', workspaces: ['w1', 'w2'] });
  });

  it('defaults the period to the year so far', () => {
    expect(defaultReportPeriod('2026-11-23')).toEqual({ startDate: '2026-01-01', endDate: '2026-11-23' });
  });
});
