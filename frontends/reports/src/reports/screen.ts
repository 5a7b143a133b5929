// The reports screens' own rules (spec §2 reports URL, §3 screen keys, §5 breakdown fallbacks, §7 exports): moved from
// @ledgerline/api (issue #14 item 8, decision 0034), which keeps the queries and paths.
import { PERIODICITY_OF, type DateBreakdown, type ExportFormat, type MoneyType, type ReportHeader, type ReportTab } from '@ledgerline/api';

/** Spec §3: the screen keys whose filter sets the reports remote keeps. */
export type ReportScreenKey = 'profitLoss' | 'balanceSheet' | 'cashflowStatement' | 'dashboard';

/** The statements whose cells drill down. */
export type DrillReport = 'pnl' | 'balancesheet' | 'cashflow';

/** The money types as the filter names them. */
export const MONEY_TYPE_LABELS: Record<MoneyType, string> = { ALL: 'All', 'non-bank': 'Non-bank', unadjusted: 'Unadjusted', adjusted: 'Adjusted' };

const BREAKDOWN_OF: Record<string, DateBreakdown> = Object.fromEntries(Object.entries(PERIODICITY_OF).map(([b, p]) => [p, b as DateBreakdown]));

/** The breakdown a periodicity stands for ('monthly' → 'Monthly'); unknown values as they are. */
export function breakdownLabel(periodicity: string): string {
  return BREAKDOWN_OF[periodicity] ?? periodicity;
}

/**
 * Why the columns differ from the breakdown asked for (spec §5 fallbacks, applied by the server and reported in
 * the header), or null when they do not.
 */
export function breakdownFallbackNote(header: Pick<ReportHeader, 'requestedPeriodicity' | 'periodicity'>): string | null {
  const { requestedPeriodicity: asked, periodicity: used } = header;
  if (asked === '' || asked === used) return null;
  if (used === 'totals_only') return 'Periods shorter than a month show totals only.';
  if (asked === 'yearly' && used === 'monthly') return 'Yearly columns need a period of 11 months or more, so this period is shown by month.';
  if (asked === 'quarterly' && used === 'monthly') return 'Quarterly columns need a period of 2 months or more, so this period is shown by month.';
  return `Shown ${breakdownLabel(used).toLowerCase()} instead of ${breakdownLabel(asked).toLowerCase()}.`;
}

/** What the /reports screen keeps in its URL (spec §2: start date, end date and tab). */
export interface ReportsLocation {
  tab: ReportTab;
  startDate: string;
  endDate: string;
}

export function reportsSearch(location: ReportsLocation): string {
  return `?${new URLSearchParams({ tab: location.tab, startDate: location.startDate, endDate: location.endDate }).toString()}`;
}

/** The day before an ISO date (UTC calendar arithmetic, no time zones). */
export function dayBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

/** The file name to save when the server names none (spec §5: the header's name wins). */
export function fallbackExportName(tab: ReportTab, format: ExportFormat, period: { startDate: string; endDate: string }): string {
  const name = { pnl: 'profit-and-loss', balancesheet: 'balance-sheet', cashflow: 'cash-flow-statement' }[tab];
  return `${name}_${period.startDate}_${period.endDate}.${format}`;
}
