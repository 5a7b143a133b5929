import { describe, expect, it } from 'vitest';
import { defaultSpendingsPeriod, drillDownLink, spendingsPeriodOf, spendingsSearch } from '../src/expenses/spendings';

describe('Expenses → Spendings', () => {
  it('opens on the current month so far; a period in the URL wins when both dates are real and in order', () => {
    expect(defaultSpendingsPeriod('2026-11-28')).toEqual({ startDate: '2026-11-01', endDate: '2026-11-28' });
    expect(spendingsPeriodOf(new URLSearchParams('startDate=2026-01-01&endDate=2026-03-31'), '2026-11-28')).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-03-31',
    });
    expect(spendingsPeriodOf(new URLSearchParams('startDate=2026-04-01&endDate=2026-03-31'), '2026-11-28')).toEqual({
      startDate: '2026-11-01',
      endDate: '2026-11-28',
    });
    expect(spendingsPeriodOf(new URLSearchParams('startDate=2026-04-01'), '2026-11-28')).toEqual({ startDate: '2026-11-01', endDate: '2026-11-28' });
    expect(spendingsSearch({ startDate: '2026-01-01', endDate: '2026-03-31' }).toString()).toBe('tab=spendings&startDate=2026-01-01&endDate=2026-03-31');
  });

  it('drills down to the All tab of the period filtered by the category or the merchant', () => {
    const period = { startDate: '2026-01-01', endDate: '2026-03-31' };
    expect(drillDownLink('category', 'cat-1', period)).toBe('/transactions?tab=all&startDate=2026-01-01&endDate=2026-03-31&categories=cat-1');
    expect(drillDownLink('merchant', 'b-9', period)).toBe('/transactions?tab=all&startDate=2026-01-01&endDate=2026-03-31&billers=b-9');
    // Others and No merchant name no single category or merchant
    expect(drillDownLink('category', null, period)).toBeNull();
    expect(drillDownLink('merchant', '', period)).toBeNull();
  });
});
