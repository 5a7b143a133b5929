// The reporting service's REST shapes (the financial reports, the dashboard's spending and top-merchants cards): JSON
// schemas of the routes in routes/ and the query types they validate. Documented in services/reporting/README.md.
import { num, str } from '../http/schemas.js';

/**
 * REST shapes of the financial reports (spec §3 "Report data", §7 "Financial data"): QuickBooks-like
 * report JSON — a header, column labels, and data rows by account tree, amounts in dollars with 2
 * decimals in the account's normal direction. Documented in services/reporting/README.md.
 */
export const nullableStr = { type: ['string', 'null'] } as const;

export const q = (description: string) => ({ type: 'string', maxLength: 2000, description }) as const;

export const ReportHeaderSchema = {
  $id: 'ReportHeader',
  type: 'object',
  description:
    'What the report covers: the period, the periodicity asked for and the one used after the spec §5 fallbacks, and the ledger commit sequence it reflects.',
  properties: {
    reportName: { type: 'string', enum: ['ProfitAndLoss', 'BalanceSheet', 'CashFlowStatement', 'CashFlow'] },
    startDate: str,
    endDate: str,
    requestedPeriodicity: str,
    periodicity: str,
    currency: str,
    seq: { type: 'integer', description: 'The highest ledger commit sequence the report reflects.' },
    caughtUp: { type: 'boolean', description: 'false when the request carried a seq the read model had not reached within the wait.' },
    fiscalYearStartMonth: {
      type: 'integer',
      description:
        "The first month of the workspace's fiscal year (1 = January): the balance sheet closes income and expenses into Retained Earnings at each fiscal year end; the default startDate is the fiscal year's first day.",
    },
    notices: { type: 'array', items: str, description: 'What the report leaves out and why (e.g. accounts in another currency than USD).' },
  },
  required: ['reportName', 'startDate', 'endDate', 'requestedPeriodicity', 'periodicity', 'currency', 'seq', 'caughtUp', 'fiscalYearStartMonth', 'notices'],
  additionalProperties: false,
} as const;

export const ReportColumnSchema = {
  $id: 'ReportColumn',
  type: 'object',
  description: 'A column: its label and the dates it covers (a balance sheet column is a balance as of endDate).',
  properties: { label: str, startDate: str, endDate: str },
  required: ['label', 'startDate', 'endDate'],
  additionalProperties: false,
} as const;

export const ReportRowSchema = {
  $id: 'ReportRow',
  type: 'object',
  description:
    'A report row. rowType section: a class group account (level 1); account: an account (its amounts include the accounts below, in children); summary: a total (Net Income, Total Assets...); computed: earnings not booked to an account (balance sheet). id, coaId and type are null on summary and computed rows.',
  properties: {
    id: nullableStr,
    name: str,
    coaId: { type: ['integer', 'null'] },
    type: nullableStr,
    level: { type: 'integer' },
    group: str,
    tag: str,
    rowType: { type: 'string', enum: ['section', 'account', 'summary', 'computed'] },
    amounts: { type: 'array', items: num, description: 'One amount per column (labels), dollars with 2 decimals.' },
    total: { ...num, description: 'Profit and loss: the sum of the columns. Balance sheet: the last column.' },
    children: { type: 'array', items: { $ref: 'ReportRow#' } },
    drill: {
      type: 'array',
      description:
        "Balance sheet Retained Earnings and Net Income rows (spec §2): per column, the profit and loss period the cell opens (null when there is none). Net Income: the fiscal year's first day to the column's date; Retained Earnings: the first booked day to the day before the fiscal year.",
      items: {
        type: ['object', 'null'],
        properties: { report: { type: 'string', enum: ['pnl'] }, startDate: str, endDate: str },
        required: ['report', 'startDate', 'endDate'],
        additionalProperties: false,
      },
    },
  },
  required: ['id', 'name', 'coaId', 'type', 'level', 'group', 'tag', 'rowType', 'amounts', 'total', 'children'],
  additionalProperties: false,
} as const;

export const ProfitLossResponseSchema = {
  $id: 'ProfitLossResponse',
  type: 'object',
  properties: {
    header: { $ref: 'ReportHeader#' },
    barChart: {
      type: 'object',
      description: 'Income, Expenses and Net Income per column, for the dashboard chart.',
      properties: {
        labels: { type: 'array', items: str },
        series: {
          type: 'array',
          items: { type: 'object', properties: { name: str, data: { type: 'array', items: num } }, required: ['name', 'data'], additionalProperties: false },
        },
      },
      required: ['labels', 'series'],
      additionalProperties: false,
    },
    report: {
      type: 'object',
      properties: {
        labels: { type: 'array', items: str },
        columns: { type: 'array', items: { $ref: 'ReportColumn#' } },
        data: { type: 'array', items: { $ref: 'ReportRow#' } },
      },
      required: ['labels', 'columns', 'data'],
      additionalProperties: false,
    },
  },
  required: ['header', 'barChart', 'report'],
  additionalProperties: false,
} as const;

export const BalanceSheetResponseSchema = {
  $id: 'BalanceSheetResponse',
  type: 'object',
  properties: {
    header: { $ref: 'ReportHeader#' },
    labels: { type: 'array', items: str },
    columns: { type: 'array', items: { $ref: 'ReportColumn#' } },
    data: { type: 'array', items: { $ref: 'ReportRow#' } },
  },
  required: ['header', 'labels', 'columns', 'data'],
  additionalProperties: false,
} as const;

export const CashFlowStatementResponseSchema = {
  $id: 'CashFlowStatementResponse',
  type: 'object',
  description:
    'Indirect method: Operating Activities (Net Income, then the change of each current asset, current liability and transfer account), Investing Activities, Financing Activities, Net Change in Cash, Cash at Beginning and End of Period. An account row is its credits minus debits in the column (what it did to cash).',
  properties: BalanceSheetResponseSchema.properties,
  required: BalanceSheetResponseSchema.required,
  additionalProperties: false,
} as const;

export const series = {
  type: 'object',
  properties: { name: str, data: { type: 'array', items: num } },
  required: ['name', 'data'],
  additionalProperties: false,
} as const;

export const CashFlowResponseSchema = {
  $id: 'CashFlowResponse',
  type: 'object',
  description: "Money into (debits) and out of (credits) the cash accounts per period, the net, and the cash balance at each period's end.",
  properties: {
    header: { $ref: 'ReportHeader#' },
    labels: { type: 'array', items: str },
    columns: { type: 'array', items: { $ref: 'ReportColumn#' } },
    openingBalance: num,
    data: { type: 'array', items: series, description: 'Cash In, Cash Out, Net Cash Flow, Closing Balance — one value per label.' },
  },
  required: ['header', 'labels', 'columns', 'openingBalance', 'data'],
  additionalProperties: false,
} as const;

export const AssetBalanceGraphResponseSchema = {
  $id: 'AssetBalanceGraphResponse',
  type: 'object',
  description: 'The cash balance (bank accounts under Cash and Cash Equivalents) at the end of each period; totalAssetBalance is the last one.',
  properties: {
    totalAssetBalance: num,
    graph: {
      type: 'object',
      properties: { labels: { type: 'array', items: str }, dates: { type: 'array', items: str }, data: { type: 'array', items: num } },
      required: ['labels', 'dates', 'data'],
      additionalProperties: false,
    },
  },
  required: ['totalAssetBalance', 'graph'],
  additionalProperties: false,
} as const;

export const RunwayResponseSchema = {
  $id: 'RunwayResponse',
  type: 'object',
  description:
    'Spec §3 runway: the cash balance at the end of `month` (assetBal) over the average monthly net burn of the `avgMonths` months ending with it (avgExpenses: money out minus money in; negative when cash grew). runwayInMonths is null when cash did not go down.',
  properties: {
    runwayInMonths: { type: ['number', 'null'] },
    avgExpenses: num,
    avgMonths: { type: 'integer' },
    assetBal: num,
    month: str,
    seq: { type: 'integer' },
  },
  required: ['runwayInMonths', 'avgExpenses', 'avgMonths', 'assetBal', 'month', 'seq'],
  additionalProperties: false,
} as const;

export const REPORT_QUERY = {
  type: 'object',
  properties: {
    startDate: q(
      "YYYY-MM-DD; default: the first day of the fiscal year holding endDate (1 January unless the workspace's fiscal year starts in another month).",
    ),
    endDate: q('YYYY-MM-DD; default: today (UTC).'),
    breakdown: q('month, week or year (periodicity wins when both are given).'),
    periodicity: q('daily, weekly, monthly (default), quarterly, yearly or totals_only; spec §5 fallbacks apply (header.periodicity says which was used).'),
    groups: q('Comma-joined account groups: only accounts in one of them (or under one).'),
    tags: q('Comma-joined account tags: only accounts with one of them (or under one).'),
    excludeZeroes: q('true hides rows whose amounts are all zero (class group sections stay).'),
    seq: q('A ledger commit sequence: the answer waits (bounded) until the report reflects it.'),
    moneyType: q(
      'Spec money type: ALL (default), non-bank (entries not booked from a bank transaction: journals, bills, invoices, fixed assets, credits, opening balances), unadjusted (everything but adjusting entries: manual journals), adjusted (every entry, the adjusted books).',
    ),
  },
} as const;

/** The reports' query under /financial-data/: REPORT_QUERY (which the exports take too) and `workspaces`. */
export const STATEMENT_QUERY = {
  ...REPORT_QUERY,
  properties: {
    ...REPORT_QUERY.properties,
    workspaces: q(
      'Comma-joined workspace ids (at most 20), each one the caller belongs to: one consolidated report over all of them (accounts matched by coaId). Default: the current workspace.',
    ),
  },
} as const;

/** The query string as fastify hands it over: one optional string per property of the documented schema (defined once, above). */
export type ReportQueryString = { [K in keyof typeof STATEMENT_QUERY.properties]?: string };

export const SpendingHeaderSchema = {
  $id: 'SpendingHeader',
  type: 'object',
  description: 'The period covered, the money type read and the ledger commit sequence reflected.',
  properties: {
    startDate: str,
    endDate: str,
    moneyType: { type: 'string', enum: ['ALL', 'non-bank', 'unadjusted', 'adjusted'] },
    seq: { type: 'integer', description: 'The highest ledger commit sequence the answer reflects.' },
    caughtUp: { type: 'boolean', description: 'false when the request carried a seq the read model had not reached within the wait.' },
  },
  required: ['startDate', 'endDate', 'moneyType', 'seq', 'caughtUp'],
  additionalProperties: false,
} as const;

export const SpendingResponseSchema = {
  $id: 'SpendingResponse',
  type: 'object',
  description:
    'Money spent per Expenses category over the period (entries of the moneyType\'s origins), sorted by amount in `order`; at most 10 rows: beyond that the 9 largest and "Others" (id and coaId null) with the rest, always last. percentage is the share of totalAmount (every category), 2 decimals.',
  properties: {
    header: { $ref: 'SpendingHeader#' },
    order: { type: 'string', enum: ['ASC', 'DESC'] },
    totalAmount: num,
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: ['string', 'null'] }, name: str, coaId: { type: ['integer', 'null'] }, amount: num, percentage: num },
        required: ['id', 'name', 'coaId', 'amount', 'percentage'],
        additionalProperties: false,
      },
    },
  },
  required: ['header', 'order', 'totalAmount', 'data'],
  additionalProperties: false,
} as const;

export const TopMerchantsResponseSchema = {
  $id: 'TopMerchantsResponse',
  type: 'object',
  description:
    'The 10 merchants (billers) most money went to over the period (Expenses accounts, entries of the moneyType\'s origins), largest first: totalAmount, share of all the money out (percentage, 2 decimals) and transactions (net of reversals). Money booked without a merchant is one row, "No merchant" (id null). The top-level totalAmount is all the money spent, every merchant included.',
  properties: {
    header: { $ref: 'SpendingHeader#' },
    totalAmount: num,
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: ['string', 'null'] }, name: str, totalAmount: num, percentage: num, transactionCount: { type: 'integer' } },
        required: ['id', 'name', 'totalAmount', 'percentage', 'transactionCount'],
        additionalProperties: false,
      },
    },
  },
  required: ['header', 'totalAmount', 'data'],
  additionalProperties: false,
} as const;

export const SPENDING_QUERY = {
  type: 'object',
  properties: {
    startDate: REPORT_QUERY.properties.startDate,
    endDate: REPORT_QUERY.properties.endDate,
    groups: REPORT_QUERY.properties.groups,
    tags: REPORT_QUERY.properties.tags,
    moneyType: REPORT_QUERY.properties.moneyType,
    seq: REPORT_QUERY.properties.seq,
    workspaces: q(
      'Comma-joined workspace ids (at most 20), each one the caller belongs to: one answer over all of them (categories matched by coaId, merchants by name). Default: the current workspace.',
    ),
  },
} as const;

export interface SpendingQueryString {
  startDate?: string;
  endDate?: string;
  groups?: string;
  tags?: string;
  moneyType?: string;
  seq?: string;
  order?: string;
  workspaces?: string;
}
