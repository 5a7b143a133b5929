// Expenses → Spendings (spec §2 `startDate`, `endDate`): the period in the URL and the drill-down from a number to
// the transactions behind it. Pure, tested in test/spendings.test.ts.
import { periodFromSearch } from '@ledgerline/api';
import { presetRange, todayIso, type DateRange } from '@ledgerline/ui';

/** The tab's period when the URL names none: the current month so far, where a QuickBooks or Xero user starts. */
export function defaultSpendingsPeriod(today: string = todayIso()): DateRange {
  return presetRange('Current Month', today);
}

export function spendingsPeriodOf(params: URLSearchParams, today: string = todayIso()): DateRange {
  return periodFromSearch(params, defaultSpendingsPeriod(today));
}

/** The tab's query: `tab=spendings` and the period. */
export function spendingsSearch(period: DateRange): URLSearchParams {
  return new URLSearchParams({ tab: 'spendings', startDate: period.startDate, endDate: period.endDate });
}

/**
 * The transactions behind a category's or a merchant's amount: every transaction (the All tab) of the period
 * booked to that category (`categories`) or with that merchant (`billers`); null for a row without an id (Others,
 * No merchant), which no filter can name.
 */
export function drillDownLink(by: 'category' | 'merchant', id: string | null, period: DateRange): string | null {
  if (id === null || id === '') return null;
  const p = new URLSearchParams({ tab: 'all', startDate: period.startDate, endDate: period.endDate });
  p.set(by === 'category' ? 'categories' : 'billers', id);
  return `/transactions?${p.toString()}`;
}
