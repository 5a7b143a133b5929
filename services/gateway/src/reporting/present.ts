import { centsToDollars, orNull, unpackWholeNumbers } from '@ledgerline/platform';
import { RowType, type ReportColumn, type ReportHeader, type ReportTable, type SpendingHeader } from '@ledgerline/proto/reporting/v1/reporting_pb';

export type RowTypeName = 'section' | 'account' | 'summary' | 'computed';

/** A report row as the REST answers and the exports use it: the reporting service's table turned back into the account tree. */
export interface ReportRowTree {
  /** '' on computed rows. */
  id: string;
  name: string;
  /** 0 on computed rows. */
  coaId: number;
  /** '' on computed rows. */
  type: string;
  level: number;
  group: string;
  tag: string;
  rowType: RowTypeName;
  /** One per column, whole cents in the account's normal direction, the rows below included. */
  amountsCents: number[];
  totalCents: number;
  children: ReportRowTree[];
  /** Rows that open another report (the balance sheet's retained earnings and net income open the P&L): the period per column, '' when none. */
  drill?: { report: string; startDates: string[]; endDates: string[] };
}

const ROW_TYPE_NAMES: Record<number, RowTypeName> = {
  [RowType.SECTION]: 'section',
  [RowType.ACCOUNT]: 'account',
  [RowType.SUMMARY]: 'summary',
  [RowType.COMPUTED]: 'computed',
};

/** The rows of a ReportTable (flat, depth first, parents by index) as a tree; `columns` amounts per row. */
export function reportRows(table: ReportTable | undefined, columns: number): ReportRowTree[] {
  if (!table) return [];
  const n = table.ids.length;
  const amounts = unpackWholeNumbers(table.amountsCents);
  const totals = unpackWholeNumbers(table.totalsCents);
  if (amounts.length !== n * columns || totals.length !== n)
    throw new Error(`report table: ${n} rows × ${columns} columns but ${amounts.length} amounts and ${totals.length} totals`);
  const rows: ReportRowTree[] = [];
  const roots: ReportRowTree[] = [];
  for (let i = 0; i < n; i++) {
    const row: ReportRowTree = {
      id: table.ids[i] ?? '',
      name: table.names[i] ?? '',
      coaId: table.coaIds[i] ?? 0,
      type: table.types[i] ?? '',
      level: table.levels[i] ?? 0,
      group: table.groups[i] ?? '',
      tag: table.tags[i] ?? '',
      rowType: ROW_TYPE_NAMES[table.rowTypes[i] ?? 0] ?? 'account',
      amountsCents: amounts.slice(i * columns, (i + 1) * columns),
      totalCents: totals[i] ?? 0,
      children: [],
    };
    rows.push(row);
    const parent = table.parents[i] ?? -1;
    // Rows come parent first, so a parent index always points back.
    if (parent >= 0 && parent < i) rows[parent]?.children.push(row);
    else roots.push(row);
  }
  for (const d of table.drills) {
    const row = rows[d.row];
    if (row) row.drill = { report: d.report, startDates: [...d.startDates], endDates: [...d.endDates] };
  }
  return roots;
}

export function rowJson(r: ReportRowTree): Record<string, unknown> {
  return {
    id: orNull(r.id, ''),
    name: r.name,
    coaId: orNull(r.coaId, 0),
    type: orNull(r.type, ''),
    level: r.level,
    group: r.group,
    tag: r.tag,
    rowType: r.rowType,
    amounts: r.amountsCents.map(centsToDollars),
    total: centsToDollars(r.totalCents),
    children: r.children.map(rowJson),
    ...(r.drill
      ? {
          drill: r.drill.startDates.map((startDate, i) =>
            startDate ? { report: r.drill?.report ?? 'pnl', startDate, endDate: r.drill?.endDates[i] ?? '' } : null,
          ),
        }
      : {}),
  };
}

export const headerJson = (h: ReportHeader | undefined) => ({
  reportName: h?.reportName ?? '',
  startDate: h?.startDate ?? '',
  endDate: h?.endDate ?? '',
  requestedPeriodicity: h?.requestedPeriodicity ?? '',
  periodicity: h?.periodicity ?? '',
  currency: h?.currency ?? 'USD',
  seq: Number(h?.seq ?? 0n),
  caughtUp: h?.caughtUp ?? true,
  fiscalYearStartMonth: h?.fiscalYearStartMonth || 1,
  notices: [...(h?.notices ?? [])],
});

export const columnJson = (c: ReportColumn) => ({ label: c.label, startDate: c.startDate, endDate: c.endDate });

export const spendingHeaderJson = (h: SpendingHeader | undefined) => ({
  startDate: h?.startDate ?? '',
  endDate: h?.endDate ?? '',
  moneyType: h?.moneyType ?? 'ALL',
  seq: Number(h?.seq ?? 0n),
  caughtUp: h?.caughtUp ?? true,
});
