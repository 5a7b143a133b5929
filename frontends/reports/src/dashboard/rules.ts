// The dashboard's series and wording (spec §3 cash flow and runway): burn from the cash flow, the runway as a person
// reads it. Moved from @ledgerline/api (issue #14 item 8, decision 0034).
import type { CashFlowResponse, RunwayResponse } from '@ledgerline/api';

const seriesOf = (cashFlow: CashFlowResponse, name: string): number[] => cashFlow.data.find((s) => s.name === name)?.data ?? cashFlow.labels.map(() => 0);

/** The dashboard's burn from the cash flow: money out each period (gross burn) and what went out beyond what came in (net burn). */
export function burnSeries(cashFlow: CashFlowResponse): { labels: string[]; gross: number[]; net: number[] } {
  const net = seriesOf(cashFlow, 'Net Cash Flow').map((n) => (n < 0 ? Math.round(-n * 100) / 100 : 0));
  return { labels: cashFlow.labels, gross: seriesOf(cashFlow, 'Cash Out'), net };
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 'YYYY-MM' as 'October 2026' (the string itself when it is not a month). */
export function monthLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  return m ? monthName.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))) : month;
}

/** Beyond this many months a runway reads as "More than 8 years": a small burn against a large balance gives figures
 *  such as 3100.5 months, which say nothing more precise than that (as Xero and QuickBooks round a long runway). */
export const RUNWAY_LONG_MONTHS = 96;

/** A runway in months as a person reads it: '8.5 months', 'Less than a month', 'More than 8 years', 'Not burning cash'. */
export function runwayHeadline(months: number | null): string {
  if (months === null || !Number.isFinite(months)) return 'Not burning cash';
  if (months > RUNWAY_LONG_MONTHS) return `More than ${RUNWAY_LONG_MONTHS / 12} years`;
  if (months < 0.95) return 'Less than a month';
  const shown = months.toFixed(1);
  return `${shown} month${shown === '1.0' ? '' : 's'}`;
}

/** Spec §3 runway, as the dashboard says it: months left at the average net burn, or that cash did not go down. */
export function runwaySummary(runway: RunwayResponse): { headline: string; detail: string } {
  const months = runway.runwayInMonths;
  const headline = runwayHeadline(months);
  const window = `${runway.avgMonths} month${runway.avgMonths === 1 ? '' : 's'} to ${monthLabel(runway.month)}`;
  const burn = months === null ? `Cash did not go down over the ${window}.` : `Average net burn over the ${window}.`;
  return { headline, detail: burn };
}
