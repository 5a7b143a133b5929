import { periodFromSearch } from '@ledgerline/api';
import { presetRange, todayIso, type DateRange } from '@ledgerline/ui';

/** The ledger's period when the URL names none: the year so far (the spec gives no default for this screen). */
export function defaultPeriod(today: string = todayIso()): DateRange {
  return presetRange('Year to date', today);
}

/** The period the URL holds (startDate, endDate), else the default. */
export function periodOf(params: URLSearchParams): DateRange {
  return periodFromSearch(params, defaultPeriod());
}
