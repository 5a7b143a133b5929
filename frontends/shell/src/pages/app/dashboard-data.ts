import { dashboardQueries, parseStoredFilters, type ReportQuery, type SpendingQuery } from '@ledgerline/api';
import { defaultReportPeriod, readStoredFilterSet } from '@ledgerline/ui';

/**
 * What the dashboard's charts ask GET /dashboard for when it opens: the reports' default period and the dashboard's
 * stored filter set, as the reports remote draws them (the same key, so the shell's early request is the remote's).
 */
export function dashboardWidgetQueries(): { query: ReportQuery; spending: SpendingQuery } {
  return dashboardQueries(defaultReportPeriod(), parseStoredFilters(readStoredFilterSet('dashboard')));
}
