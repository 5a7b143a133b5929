// The report table's rows (spec §2 drill-down, issue #12 item 5): which rows a table shows (a parent's own postings
// first), how a row is emphasised, and where each cell drills to. Moved from @ledgerline/api (issue #14 item 8, decision 0034).
import { ledgerSearch, type ReportColumn, type ReportDrill, type ReportHeader, type ReportRow } from '@ledgerline/api';
import { dayBefore, reportsSearch, type DrillReport } from './screen';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

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

/** Where a report cell leads (spec §2 drill-down). */
export interface DrillTarget {
  kind: 'ledger' | 'pnl' | 'schedules';
  /** A path with its search, for the app's router. */
  href: string;
  /** What the link says to a screen reader: "Open the ledger of Office Supplies for Jan-26". */
  label: string;
}

export interface DrillCell {
  report: DrillReport;
  row: ReportRow;
  /** The cell's column, or 'total' for the total column of the profit and loss or cash flow (the whole period). */
  column: ReportColumn | 'total';
  header: Pick<ReportHeader, 'startDate' | 'endDate'>;
  /** The earliest date a report may start (spec §9: four years before today): where "earlier periods" begin. */
  earliestDate: string;
}

const RETAINED_EARNINGS = /^retained earnings\b/i;
const NET_INCOME = /^net income\b/i;
/** Balance sheet rows that open the schedules (spec §2); Accumulated Depreciation too: its schedule is the assets' depreciation (decision 0030). */
const SCHEDULED = /^(deferred revenue|prepaid expenses?|accumulated depreciation)$/i;

/**
 * Spec §2: a report cell opens the ledger of its account for its period; on the balance sheet, retained earnings and
 * net income rows open the profit and loss (of the earlier periods and of the report's period up to the column),
 * and deferred revenue, prepaid expense and accumulated depreciation rows open the schedules. On the cash flow statement, Net Income opens the
 * profit and loss of the cell's period and each account's change its ledger. Totals and other computed rows lead nowhere.
 */
export function drillDownTarget({ report, row, column, header, earliestDate }: DrillCell): DrillTarget | null {
  const period =
    column === 'total'
      ? { startDate: header.startDate, endDate: header.endDate, label: 'the period' }
      : { startDate: column.startDate, endDate: column.endDate, label: column.label };
  if (!ISO_DATE.test(period.startDate) || !ISO_DATE.test(period.endDate)) return null;
  if (report === 'balancesheet' && RETAINED_EARNINGS.test(row.name)) {
    if (!(earliestDate < header.startDate)) return null;
    const endDate = dayBefore(header.startDate);
    return {
      kind: 'pnl',
      href: `/reports${reportsSearch({ tab: 'pnl', startDate: earliestDate, endDate })}`,
      label: `Open the profit and loss before ${header.startDate}`,
    };
  }
  if (report === 'cashflow' && NET_INCOME.test(row.name) && row.id === null) {
    return {
      kind: 'pnl',
      href: `/reports${reportsSearch({ tab: 'pnl', startDate: period.startDate, endDate: period.endDate })}`,
      label: `Open the profit and loss for ${period.label}`,
    };
  }
  if (report === 'balancesheet' && NET_INCOME.test(row.name)) {
    return {
      kind: 'pnl',
      href: `/reports${reportsSearch({ tab: 'pnl', startDate: header.startDate, endDate: period.endDate })}`,
      label: `Open the profit and loss from ${header.startDate} to ${period.endDate}`,
    };
  }
  // A parent's amounts include the accounts below, whose cells lead to their own lines; its own postings have a row
  // of their own (reportTableRows), so every link opens exactly the lines that add up to its cell.
  if (row.id === null || row.children.length > 0) return null;
  if (report === 'balancesheet' && SCHEDULED.test(row.name)) {
    const search = new URLSearchParams({ tab: 'schedules', ledgerAccount: row.id, startDate: period.startDate, endDate: period.endDate });
    return { kind: 'schedules', href: `/accounting?${search.toString()}`, label: `Open the schedule of ${row.name} for ${period.label}` };
  }
  return {
    kind: 'ledger',
    href: `/accounting${ledgerSearch({ ledgerAccount: row.id, startDate: period.startDate, endDate: period.endDate })}`,
    label: `Open the ledger of ${row.name} for ${period.label}`,
  };
}

/** A report row as a table shows it: depth for the indent, children only while expanded. */
export interface ReportTableRow {
  key: string;
  row: ReportRow;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** The postings of a parent account itself (not of the accounts below it), shown as its first child. */
  ownPostings: boolean;
}

/** A stable key per row: the account id, else the name (summary and computed rows). */
export const reportRowKey = (row: ReportRow): string => row.id ?? `${row.rowType}:${row.name}`;

const cents = (n: number) => Math.round(n * 100);

/**
 * A parent account's own postings: its amounts less the accounts below (in cents, back to dollars), as a leaf row with
 * the parent's id and name; null when it has none or no children.
 */
export function ownPostingsRow(row: ReportRow): ReportRow | null {
  if (row.children.length === 0 || row.id === null) return null;
  const own = (value: number, pick: (r: ReportRow) => number) => (cents(value) - row.children.reduce((sum, c) => sum + cents(pick(c)), 0)) / 100;
  const amounts = row.amounts.map((v, i) => own(v, (c) => c.amounts[i] ?? 0));
  const total = own(row.total, (c) => c.total);
  if (total === 0 && amounts.every((a) => a === 0)) return null;
  return { ...row, rowType: 'account', level: row.level + 1, amounts, total, children: [] };
}

/** The rows a report table shows: every row's children unless it is collapsed, a parent's own postings first among them. */
export function reportTableRows(rows: readonly ReportRow[], collapsed: ReadonlySet<string>, depth = 0): ReportTableRow[] {
  const out: ReportTableRow[] = [];
  for (const row of rows) {
    const key = reportRowKey(row);
    const expanded = !collapsed.has(key);
    out.push({ key, row, depth, hasChildren: row.children.length > 0, expanded, ownPostings: false });
    if (!expanded) continue;
    const own = ownPostingsRow(row);
    if (own) out.push({ key: `${key}:own`, row: own, depth: depth + 1, hasChildren: false, expanded: true, ownPostings: true });
    out.push(...reportTableRows(row.children, collapsed, depth + 1));
  }
  return out;
}
