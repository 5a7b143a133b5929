import type { ReportColumn, ReportHeader, ReportTable } from '@ledgerline/proto/reporting/v1/reporting_pb';
import { reportRows, type ReportRowTree as ReportRow } from '../reporting/present.js';

/**
 * A financial statement laid out for export: what the CSV, XLSX and PDF renderers draw. It is built
 * from the reporting service's answer (integer cents), so the exported numbers are the report's numbers;
 * nothing here adds money up except the "own postings" line of a parent account (see `statementLines`).
 */
export interface Statement {
  /** e.g. "Profit and Loss". */
  title: string;
  /** The workspace (entity) the books belong to. */
  entity: string;
  /** e.g. "January 1, 2026 to December 31, 2026" or "As of December 31, 2026". */
  period: string;
  startDate: string;
  endDate: string;
  /** Amount column labels ("Jan-26", ..., "Total"). */
  columns: string[];
  lines: StatementLine[];
}

/**
 * heading: an account or section that has accounts under it (no amounts; its total follows them);
 * account: an account's amounts; total: "Total <heading>" or a section without accounts;
 * summary: a computed bottom line (Net Income, Total Liabilities and Equity).
 */
export type LineKind = 'heading' | 'account' | 'total' | 'summary';

export interface StatementLine {
  label: string;
  /** Account code (coaId), when the line is one account's. */
  code: number | null;
  /** Indentation level, 0 for a class group section. */
  depth: number;
  kind: LineKind;
  /** One per column, in cents; null on headings. */
  amountsCents: bigint[] | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-01-31" → "January 31, 2026" (business dates have no time zone, so no Date parsing). */
export function longDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${Number(m[3])}, ${m[1]}`;
}

/** Whether a line's amounts are drawn bold (totals and bottom lines). */
export const isBold = (kind: LineKind): boolean => kind === 'total' || kind === 'summary';

/**
 * The report tree as statement lines, the way an accountant lays it out: a row with accounts under it
 * becomes a heading, its accounts one level deeper, then "Total <name>" with the row's own amounts (which
 * include the accounts below). When a parent account also has postings of its own, they show as a line
 * with the parent's name, so the lines above each total add up to it. When the report itself closes a
 * section further down ("Assets" … "Total Assets", with Transfer between; "Equity" … "Total Equity",
 * with the computed earnings between), the rows in between go inside the section and the report's total
 * closes it.
 */
export function statementLines(rows: readonly ReportRow[], extraTotal: boolean, depth = 0): StatementLine[] {
  const out: StatementLine[] = [];
  const amounts = (r: ReportRow) => (extraTotal ? [...r.amountsCents, r.totalCents] : r.amountsCents).map(BigInt);
  const line = (r: ReportRow, label: string, lineDepth: number, kind: LineKind, cents: bigint[] | null): StatementLine => ({
    label,
    code: r.coaId === 0 || kind === 'total' ? null : r.coaId,
    depth: lineDepth,
    kind,
    amountsCents: cents,
  });
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as ReportRow;
    const closing = r.rowType === 'section' ? rows.findIndex((x, j) => j > i && x.rowType === 'summary' && x.name === `Total ${r.name}`) : -1;
    if (r.children.length === 0 && closing < 0) {
      const kind: LineKind = r.rowType === 'summary' ? 'summary' : r.rowType === 'section' ? 'total' : 'account';
      out.push(line(r, r.name, depth, kind, amounts(r)));
      continue;
    }
    out.push(line(r, r.name, depth, 'heading', null));
    out.push(...statementLines(r.children, extraTotal, depth + 1));
    const own = amounts(r).map((v, k) => v - r.children.reduce((sum, c) => sum + (amounts(c)[k] ?? 0n), 0n));
    if (own.some((v) => v !== 0n)) out.push(line(r, r.name, depth + 1, 'account', own));
    if (closing < 0) {
      out.push(line(r, `Total ${r.name}`, depth, r.rowType === 'summary' ? 'summary' : 'total', amounts(r)));
      continue;
    }
    const total = rows[closing] as ReportRow;
    out.push(...statementLines(rows.slice(i + 1, closing), extraTotal, depth + 1));
    out.push(line(total, total.name, depth, 'summary', amounts(total)));
    i = closing;
  }
  return out;
}

interface ReportAnswer {
  header?: Pick<ReportHeader, 'startDate' | 'endDate'> | undefined;
  columns: readonly Pick<ReportColumn, 'label'>[];
  /** The reporting service's answer carries a table; tests may give the rows. */
  table?: ReportTable | undefined;
  rows?: readonly ReportRow[];
}

const rowsOf = (r: ReportAnswer): readonly ReportRow[] => r.rows ?? reportRows(r.table, r.columns.length);

/** The profit and loss as a statement; more than one period gets a Total column (the report's row totals). */
export function profitLossStatement(r: ReportAnswer, entity: string): Statement {
  const startDate = r.header?.startDate ?? '';
  const endDate = r.header?.endDate ?? '';
  const extraTotal = r.columns.length !== 1;
  return {
    title: 'Profit and Loss',
    entity,
    period: `${longDate(startDate)} to ${longDate(endDate)}`,
    startDate,
    endDate,
    columns: [...r.columns.map((c) => c.label), ...(extraTotal ? ['Total'] : [])],
    lines: statementLines(rowsOf(r), extraTotal),
  };
}

/** The balance sheet as a statement: each column is a balance as of its end date. */
export function balanceSheetStatement(r: ReportAnswer, entity: string): Statement {
  const startDate = r.header?.startDate ?? '';
  const endDate = r.header?.endDate ?? '';
  return {
    title: 'Balance Sheet',
    entity,
    period: r.columns.length > 1 ? `${longDate(startDate)} to ${longDate(endDate)}` : `As of ${longDate(endDate)}`,
    startDate,
    endDate,
    columns: r.columns.map((c) => c.label),
    lines: statementLines(rowsOf(r), false),
  };
}

/**
 * The cash-flow statement (indirect method) as a statement: operating, investing and financing
 * activities, then the change in cash and cash at both ends. More than one period gets a Total column
 * with the report's own row totals (for the cash balances, the service's: the first opening, the last closing).
 */
export function cashFlowStatement(r: ReportAnswer, entity: string): Statement {
  const startDate = r.header?.startDate ?? '';
  const endDate = r.header?.endDate ?? '';
  const extraTotal = r.columns.length !== 1;
  return {
    title: 'Statement of Cash Flows',
    entity,
    period: `${longDate(startDate)} to ${longDate(endDate)}`,
    startDate,
    endDate,
    columns: [...r.columns.map((c) => c.label), ...(extraTotal ? ['Total'] : [])],
    lines: statementLines(rowsOf(r), extraTotal),
  };
}
