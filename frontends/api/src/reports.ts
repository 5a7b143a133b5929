// The financial reports (spec §2 reports tabs and drill-down, §3 dashboard filter set and report data, §5 breakdown
// fallbacks, §7 financial data and exports): payload types from the generated OpenAPI schema and the screens' rules
// as pure functions.
import { ledgerSearch } from './accounting';
import type { operations } from './gen/schema';
import type { Schemas } from './types';

export type ReportHeader = Schemas['ReportHeader'];
export type ReportColumn = Schemas['ReportColumn'];
export type ReportRow = Schemas['ReportRow'];
export type ProfitLossResponse = Schemas['ProfitLossResponse'];
export type BalanceSheetResponse = Schemas['BalanceSheetResponse'];
export type CashFlowStatementResponse = Schemas['CashFlowStatementResponse'];
export type CashFlowResponse = Schemas['CashFlowResponse'];
export type AssetBalanceGraphResponse = Schemas['AssetBalanceGraphResponse'];
export type RunwayResponse = Schemas['RunwayResponse'];
export type ReportQuery = NonNullable<operations['getProfitLoss']['parameters']['query']>;
export type SpendingResponse = Schemas['SpendingResponse'];
export type TopMerchantsResponse = Schemas['TopMerchantsResponse'];
export type SpendingQuery = NonNullable<operations['getSpending']['parameters']['query']>;
export type TopMerchantsQuery = NonNullable<operations['getTopMerchants']['parameters']['query']>;

/** Spec §2: the reports area's tabs (`tab` query value). */
export const REPORT_TABS = ['balancesheet', 'pnl', 'cashflow'] as const;
export type ReportTab = (typeof REPORT_TABS)[number];

export function isReportTab(value: string | null): value is ReportTab {
  return value !== null && (REPORT_TABS as readonly string[]).includes(value);
}

/** Spec §3: the screen keys whose filter sets the reports remote keeps. */
export type ReportScreenKey = 'profitLoss' | 'balanceSheet' | 'cashflowStatement' | 'dashboard';

/** The statements whose cells drill down. */
export type DrillReport = 'pnl' | 'balancesheet' | 'cashflow';

/** Spec §3 breakdowns as the filter set names them, and the periodicity (spec §3) each asks the server for. */
export const DATE_BREAKDOWNS = ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly', 'Totals only'] as const;
export type DateBreakdown = (typeof DATE_BREAKDOWNS)[number];
const PERIODICITY_OF: Record<DateBreakdown, string> = {
  Daily: 'daily',
  Weekly: 'weekly',
  Monthly: 'monthly',
  Quarterly: 'quarterly',
  Yearly: 'yearly',
  'Totals only': 'totals_only',
};
const BREAKDOWN_OF: Record<string, DateBreakdown> = Object.fromEntries(Object.entries(PERIODICITY_OF).map(([b, p]) => [p, b as DateBreakdown]));

export function isDateBreakdown(value: unknown): value is DateBreakdown {
  return typeof value === 'string' && (DATE_BREAKDOWNS as readonly string[]).includes(value);
}

/** Spec §3 money types (services/reporting README "Money types": what each one reads). */
export const MONEY_TYPES = ['ALL', 'non-bank', 'unadjusted', 'adjusted'] as const;
export type MoneyType = (typeof MONEY_TYPES)[number];
export const MONEY_TYPE_LABELS: Record<MoneyType, string> = { ALL: 'All', 'non-bank': 'Non-bank', unadjusted: 'Unadjusted', adjusted: 'Adjusted' };

export function isMoneyType(value: unknown): value is MoneyType {
  return typeof value === 'string' && (MONEY_TYPES as readonly string[]).includes(value);
}

/** Spec §3 dashboard filter set, with the §7 money type. */
export interface ReportFilterSet {
  startDate: string;
  endDate: string;
  dateBreakdown: DateBreakdown;
  groups: string[];
  tags: string[];
  isZeroAmountHidden: boolean;
  /** Default ALL. */
  moneyType?: MoneyType;
  /** Workspaces to consolidate (the caller's own); none: the current workspace alone. */
  workspaces?: string[];
}

/** Spec §3/§9 defaults: breakdown Monthly, zero amounts hidden, no groups or tags. */
export const REPORT_FILTER_DEFAULTS = { dateBreakdown: 'Monthly', groups: [], tags: [], isZeroAmountHidden: true } as const satisfies Omit<
  ReportFilterSet,
  'startDate' | 'endDate'
>;

/** The query of GET /financial-data/profit-loss/v3 and /balance-sheet/v2 (and of their exports): lists comma-joined, empty ones left out. */
export function reportQuery(filters: ReportFilterSet): ReportQuery {
  const query: ReportQuery = {
    startDate: filters.startDate,
    endDate: filters.endDate,
    periodicity: PERIODICITY_OF[filters.dateBreakdown],
    excludeZeroes: filters.isZeroAmountHidden ? 'true' : 'false',
  };
  if (filters.groups.length > 0) query.groups = filters.groups.join(',');
  if (filters.tags.length > 0) query.tags = filters.tags.join(',');
  // ALL is the server's default: left out, so the default query (and its cache entry) stays the same.
  if (filters.moneyType && filters.moneyType !== 'ALL') query.moneyType = filters.moneyType;
  if (filters.workspaces && filters.workspaces.length > 0) query.workspaces = [...filters.workspaces].sort().join(',');
  return query;
}

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

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The day before an ISO date (UTC calendar arithmetic, no time zones). */
export function dayBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
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

/** Spec §7 export formats, as the buttons name them, and the path suffix each downloads. */
export const EXPORT_FORMATS = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel' },
  { format: 'pdf', label: 'PDF' },
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number]['format'];

/** Spec §7 exports per report tab. */
export const REPORT_EXPORT_BASES = { pnl: '/income-expense', balancesheet: '/balance-sheet', cashflow: '/cash-flow-statement' } as const satisfies Record<
  ReportTab,
  string
>;
/** An export's path: each is a GET in the OpenAPI document (a missing one fails to compile where it is downloaded). */
export type ReportExportPath = `${(typeof REPORT_EXPORT_BASES)[ReportTab]}/${ExportFormat}`;

export function reportExportPath(tab: ReportTab, format: ExportFormat): ReportExportPath {
  return `${REPORT_EXPORT_BASES[tab]}/${format}`;
}

/** The file name to save when the server names none (spec §5: the header's name wins). */
export function fallbackExportName(tab: ReportTab, format: ExportFormat, period: { startDate: string; endDate: string }): string {
  const name = { pnl: 'profit-and-loss', balancesheet: 'balance-sheet', cashflow: 'cash-flow-statement' }[tab];
  return `${name}_${period.startDate}_${period.endDate}.${format}`;
}

/** The financial-data and export paths of spec §7 that the reports screens and the dashboard use. */
export const REPORT_PATHS = {
  profitLoss: '/financial-data/profit-loss/v3',
  balanceSheet: '/financial-data/balance-sheet/v2',
  cashFlowStatement: '/financial-data/cash-flow-statement',
  cashFlow: '/financial-data/cash-flow',
  spending: '/financial-data/spending',
  topMerchant: '/financial-data/top-merchant',
  runway: '/financial-data/runway',
  assetBalanceGraph: '/financial-data/get-asset-balance-graph',
} as const;
export type ReportPath = (typeof REPORT_PATHS)[keyof typeof REPORT_PATHS];

/**
 * The paths above and the exports that the gateway serves today (frontends/api/openapi.json; a unit test keeps the
 * two in step, so a route that lands fails it until its screen is switched on). Screens say "not available yet"
 * for the rest instead of showing made-up figures.
 */
export const SERVED_REPORT_PATHS: ReadonlySet<string> = new Set<string>([
  REPORT_PATHS.profitLoss,
  REPORT_PATHS.balanceSheet,
  REPORT_PATHS.cashFlowStatement,
  REPORT_PATHS.cashFlow,
  REPORT_PATHS.assetBalanceGraph,
  REPORT_PATHS.runway,
  REPORT_PATHS.spending,
  REPORT_PATHS.topMerchant,
  ...EXPORT_FORMATS.flatMap(({ format }) => [reportExportPath('pnl', format), reportExportPath('balancesheet', format), reportExportPath('cashflow', format)]),
]);

export function isReportPathServed(path: string): boolean {
  return SERVED_REPORT_PATHS.has(path);
}

/** Every path SERVED_REPORT_PATHS speaks about. */
export const KNOWN_REPORT_PATHS: readonly string[] = [
  ...Object.values(REPORT_PATHS),
  ...(Object.keys(REPORT_EXPORT_BASES) as ReportTab[]).flatMap((tab) => EXPORT_FORMATS.map(({ format }) => reportExportPath(tab, format))),
];

/** The query of the dashboard's spending and top-merchants cards: the period, groups, tags, money type and workspaces (lists comma-joined, empty ones left out). */
export function spendingQuery(filters: Pick<ReportFilterSet, 'startDate' | 'endDate' | 'groups' | 'tags' | 'moneyType' | 'workspaces'>): TopMerchantsQuery {
  const query: TopMerchantsQuery = { startDate: filters.startDate, endDate: filters.endDate };
  if (filters.groups.length > 0) query.groups = filters.groups.join(',');
  if (filters.tags.length > 0) query.tags = filters.tags.join(',');
  // ALL is the server's default: left out, so the default query (and its cache entry) stays the same.
  if (filters.moneyType && filters.moneyType !== 'ALL') query.moneyType = filters.moneyType;
  if (filters.workspaces && filters.workspaces.length > 0) query.workspaces = [...filters.workspaces].sort().join(',');
  return query;
}

/** What a report screen keeps besides its period (spec §3 filter set), stored per screen key. */
export type StoredFilters = Pick<ReportFilterSet, 'dateBreakdown' | 'isZeroAmountHidden' | 'groups' | 'tags'> & { moneyType: MoneyType; workspaces: string[] };

const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null);

/** A stored filter set read back: each well-formed field kept, anything else from the defaults (spec §3). */
export function parseStoredFilters(raw: unknown): StoredFilters {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    dateBreakdown: isDateBreakdown(o.dateBreakdown) ? o.dateBreakdown : REPORT_FILTER_DEFAULTS.dateBreakdown,
    isZeroAmountHidden: typeof o.isZeroAmountHidden === 'boolean' ? o.isZeroAmountHidden : REPORT_FILTER_DEFAULTS.isZeroAmountHidden,
    groups: strings(o.groups) ?? [],
    tags: strings(o.tags) ?? [],
    moneyType: isMoneyType(o.moneyType) ? o.moneyType : 'ALL',
    workspaces: strings(o.workspaces) ?? [],
  };
}

/**
 * What GET /dashboard is asked for a period and the dashboard's filter set: the report widgets' query and the
 * spending widgets' (period, groups and tags). The reports remote draws the widgets with these; the shell asks for the
 * batch with the same ones before the remote's code has arrived, so the two share one request.
 */
export function dashboardQueries(period: { startDate: string; endDate: string }, filters: StoredFilters): { query: ReportQuery; spending: SpendingQuery } {
  return { query: reportQuery({ ...period, ...filters }), spending: spendingQuery({ ...period, groups: filters.groups, tags: filters.tags }) };
}
