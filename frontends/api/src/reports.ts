// The financial reports (spec §3 dashboard filter set and report data, §7 financial data and exports): payload types
// from the generated OpenAPI schema, the report and dashboard queries (which the shell and the reports remote must
// build alike, so they share one request and one cache entry), the paths and which of them the gateway serves. The
// screens' rules (drill-down, table rows, breakdown notes, runway wording) are the reports remote's (decision 0034).
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

/** Spec §3 breakdowns as the filter set names them, and the periodicity (spec §3) each asks the server for. */
export const DATE_BREAKDOWNS = ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly', 'Totals only'] as const;
export type DateBreakdown = (typeof DATE_BREAKDOWNS)[number];
/** The periodicity (spec §3) each breakdown asks the server for. */
export const PERIODICITY_OF: Readonly<Record<DateBreakdown, string>> = {
  Daily: 'daily',
  Weekly: 'weekly',
  Monthly: 'monthly',
  Quarterly: 'quarterly',
  Yearly: 'yearly',
  'Totals only': 'totals_only',
};

export function isDateBreakdown(value: unknown): value is DateBreakdown {
  return typeof value === 'string' && (DATE_BREAKDOWNS as readonly string[]).includes(value);
}

/** Spec §3 money types (services/reporting README "Money types": what each one reads). */
export const MONEY_TYPES = ['ALL', 'non-bank', 'unadjusted', 'adjusted'] as const;
export type MoneyType = (typeof MONEY_TYPES)[number];

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
