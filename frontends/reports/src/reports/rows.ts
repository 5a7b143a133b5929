// The report table's rows (issue #12 item 5): how a row is emphasised and where its cells drill to, from the drill
// links the server gives each row. Moved from @ledgerline/api (issue #14 item 8, decision 0034).
import type { ReportDrill, ReportRow } from '@ledgerline/api';

/** How a report row is emphasised: a section header, an account, a subtotal, or the bottom line. */
export type RowEmphasis = 'section' | 'account' | 'subtotal' | 'grand-total' | 'computed';

export function rowEmphasis(row: Pick<ReportRow, 'rowType' | 'name'>): RowEmphasis {
  if (row.rowType === 'section') return 'section';
  if (row.rowType === 'summary') return /^(net income|total liabilities and equity)\b/i.test(row.name) ? 'grand-total' : 'subtotal';
  if (row.rowType === 'computed') return 'computed';
  return 'account';
}

/** The drill link the server gave a row for a column (index) or the total (the last column's, a balance sheet's total). */
export function serverDrill(row: ReportRow, columnIndex: number | 'total', columnCount: number): ReportDrill | null {
  const drill = row.drill ?? null;
  if (drill === null) return null;
  const index = columnIndex === 'total' ? columnCount - 1 : columnIndex;
  return drill[index] ?? null;
}

/** The profit and loss a drill link opens. */
export function drillHref(drill: ReportDrill): string {
  return `/reports?${new URLSearchParams({ tab: drill.report, startDate: drill.startDate, endDate: drill.endDate }).toString()}`;
}

export function drillLabel(row: Pick<ReportRow, 'name'>, drill: ReportDrill): string {
  return `Open the profit and loss from ${drill.startDate} to ${drill.endDate} (${row.name})`;
}
