import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ReportColumn, ReportHeader, ReportQuerySchema } from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { ReportAnswers } from '../answers.js';
import { reportRows, type ReportRowTree } from '../present.js';
import { num, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { centsToDollars, isUuid, orNull, unpackWholeNumbers } from '@ledgerline/platform';
import type { ReportingClient } from '../client.js';

/**
 * REST shapes of the financial reports (spec §3 "Report data", §7 "Financial data"): QuickBooks-like
 * report JSON — a header, column labels, and data rows by account tree, amounts in dollars with 2
 * decimals in the account's normal direction. Documented in services/reporting/README.md.
 */
const nullableStr = { type: ['string', 'null'] } as const;
const q = (description: string) => ({ type: 'string', maxLength: 2000, description }) as const;

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

const series = {
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

/**
 * The report query as the ReportingService takes it (the exports send the same query), without `workspaces` (see
 * checkedWorkspaces). Typed by the proto message: a field added to or removed from ReportQuery breaks this at compile time.
 */
export const reportQuery = (x: ReportQueryString): Required<Omit<MessageInitShape<typeof ReportQuerySchema>, '$typeName' | 'workspaces' | 'ifNoneMatch'>> => ({
  startDate: x.startDate ?? '',
  endDate: x.endDate ?? '',
  breakdown: x.breakdown ?? '',
  periodicity: x.periodicity ?? '',
  groups: x.groups ?? '',
  tags: x.tags ?? '',
  excludeZeroes: x.excludeZeroes ?? '',
  seq: x.seq ?? '',
  moneyType: x.moneyType ?? '',
});

/**
 * `workspaces` as reporting may trust it (spec §3 consolidated reports): every id a workspace of the
 * caller — a malformed id is a 400, one the caller does not belong to a 404 like any other tenant's id.
 * Reporting reads each listed workspace under its own tenancy on the strength of this check.
 */
export function checkedWorkspaces(req: FastifyRequest, raw: string | undefined): string {
  const ids = (raw ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');
  if (!ids.every(isUuid)) throw HttpError.invalid([{ field: 'workspaces', message: 'workspaces must be comma-joined workspace ids' }]);
  const mine = new Set(authOf(req).workspaces.map((w) => w.id.toLowerCase()));
  if (!ids.every((id) => mine.has(id))) throw HttpError.notFound('Workspace not found');
  return ids.join(',');
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
const headerJson = (h: ReportHeader | undefined) => ({
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
const columnJson = (c: ReportColumn) => ({ label: c.label, startDate: c.startDate, endDate: c.endDate });

/** Spec §7 "Financial data": GET under /financial-data/, each one ReportingService RPC with the caller's tenancy headers. Viewers read. */
export async function registerReportingRoutes(
  app: FastifyInstance,
  { reporting, answerCacheEntries = 0 }: { reporting: ReportingClient; answerCacheEntries?: number },
): Promise<void> {
  const answers = new ReportAnswers(answerCacheEntries);
  for (const schema of [
    ReportHeaderSchema,
    ReportColumnSchema,
    ReportRowSchema,
    ProfitLossResponseSchema,
    BalanceSheetResponseSchema,
    CashFlowStatementResponseSchema,
    CashFlowResponseSchema,
    AssetBalanceGraphResponseSchema,
    RunwayResponseSchema,
  ])
    app.addSchema(schema);
  const common = { tags: ['reports'], security: [{ bearerAuth: [] }], headers: WORKSPACE_HEADER_SCHEMA, querystring: STATEMENT_QUERY };
  // The query once per request: `workspaces` checked before anything is asked, and part of the held answer's key.
  const queries = new WeakMap<FastifyRequest, ReturnType<typeof reportQuery> & { workspaces: string }>();
  const query = (req: FastifyRequest<{ Querystring: ReportQueryString }>) => {
    let x = queries.get(req);
    if (!x) queries.set(req, (x = { ...reportQuery(req.query), workspaces: checkedWorkspaces(req, req.query.workspaces) }));
    return x;
  };
  const call = (req: FastifyRequest<{ Querystring: ReportQueryString }>, ifNoneMatch: string) =>
    [{ query: { ...query(req), ifNoneMatch } }, { headers: authOf(req).rpcHeaders }] as const;

  app.get<{ Querystring: ReportQueryString }>(
    '/financial-data/profit-loss/v3',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getProfitLoss',
        summary: 'Profit and loss: income and expenses by account tree per period, Net Income, and the bar chart',
        response: responses(200, ref(ProfitLossResponseSchema)),
      },
    },
    async (req, reply) =>
      answers.send(
        req,
        reply,
        query(req),
        (tag) => reporting.getProfitLoss(...call(req, tag)),
        (r) => {
          const labels = r.columns.map((c) => c.label);
          const data = reportRows(r.table, r.columns.length).map(rowJson);
          // The chart's series as reporting computed them (all income, all expenses, Net Income), in dollars per column.
          const series = (name: string, packed: Uint8Array) => {
            const cents = unpackWholeNumbers(packed);
            return { name, data: labels.map((_, i) => (cents[i] ?? 0) / 100) };
          };
          const barChart = { labels, series: [series('Income', r.incomeCents), series('Expenses', r.expensesCents), series('Net Income', r.netIncomeCents)] };
          return { header: headerJson(r.header), barChart, report: { labels, columns: r.columns.map(columnJson), data } };
        },
      ),
  );

  app.get<{ Querystring: ReportQueryString }>(
    '/financial-data/balance-sheet/v2',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getBalanceSheet',
        summary: "Balance sheet as of each column's end: Assets = Liabilities + Equity, with the net income of the period and the earnings of earlier periods",
        response: responses(200, ref(BalanceSheetResponseSchema)),
      },
    },
    async (req, reply) =>
      answers.send(
        req,
        reply,
        query(req),
        (tag) => reporting.getBalanceSheet(...call(req, tag)),
        (r) => ({
          header: headerJson(r.header),
          labels: r.columns.map((c) => c.label),
          columns: r.columns.map(columnJson),
          data: reportRows(r.table, r.columns.length).map(rowJson),
        }),
      ),
  );

  app.get<{ Querystring: ReportQueryString }>(
    '/financial-data/cash-flow-statement',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getCashFlowStatement',
        summary: 'Cash-flow statement (indirect method) per period, reconciling to the change in cash (groups and tags do not apply)',
        response: responses(200, ref(CashFlowStatementResponseSchema)),
      },
    },
    async (req, reply) =>
      answers.send(
        req,
        reply,
        query(req),
        (tag) => reporting.getCashFlowStatement(...call(req, tag)),
        (r) => ({
          header: headerJson(r.header),
          labels: r.columns.map((c) => c.label),
          columns: r.columns.map(columnJson),
          data: reportRows(r.table, r.columns.length).map(rowJson),
        }),
      ),
  );

  app.get<{ Querystring: ReportQueryString }>(
    '/financial-data/cash-flow',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getCashFlow',
        summary: 'Cash in and out by period, and the cash balance',
        response: responses(200, ref(CashFlowResponseSchema)),
      },
    },
    async (req, reply) =>
      answers.send(
        req,
        reply,
        query(req),
        (tag) => reporting.getCashFlow(...call(req, tag)),
        (r) => {
          const ins = r.periods.map((p) => centsToDollars(p.inCents));
          const outs = r.periods.map((p) => centsToDollars(p.outCents));
          return {
            header: headerJson(r.header),
            labels: r.periods.map((p) => p.label),
            columns: r.periods.map((p) => ({ label: p.label, startDate: p.startDate, endDate: p.endDate })),
            openingBalance: centsToDollars(r.openingBalanceCents),
            data: [
              { name: 'Cash In', data: ins },
              { name: 'Cash Out', data: outs },
              { name: 'Net Cash Flow', data: r.periods.map((p) => centsToDollars(p.inCents - p.outCents)) },
              { name: 'Closing Balance', data: r.periods.map((p) => centsToDollars(p.closingBalanceCents)) },
            ],
          };
        },
      ),
  );

  app.get<{ Querystring: ReportQueryString }>(
    '/financial-data/get-asset-balance-graph',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getAssetBalanceGraph',
        summary: 'The cash balance at the end of each period',
        response: responses(200, ref(AssetBalanceGraphResponseSchema)),
      },
    },
    async (req, reply) =>
      answers.send(
        req,
        reply,
        query(req),
        (tag) => reporting.getCashFlow(...call(req, tag)),
        (r) => {
          const last = r.periods.at(-1);
          return {
            totalAssetBalance: centsToDollars(last ? last.closingBalanceCents : r.openingBalanceCents),
            graph: {
              labels: r.periods.map((p) => p.label),
              dates: r.periods.map((p) => p.endDate),
              data: r.periods.map((p) => centsToDollars(p.closingBalanceCents)),
            },
          };
        },
      ),
  );

  app.get<{ Querystring: { month?: string; months?: string; seq?: string } }>(
    '/financial-data/runway',
    {
      config: READ,
      schema: {
        tags: ['reports'],
        security: [{ bearerAuth: [] }],
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'getRunway',
        summary: 'Months of cash left at the average net burn of the last complete months',
        querystring: {
          type: 'object',
          properties: {
            month: q('YYYY-MM, the last month of the window; default: the previous month.'),
            months: q('Months averaged, 1–24; default 3.'),
            seq: REPORT_QUERY.properties.seq,
          },
        },
        response: responses(200, ref(RunwayResponseSchema)),
      },
    },
    async (req) => {
      const r = await reporting.getRunway(
        { month: req.query.month ?? '', months: req.query.months ?? '', seq: req.query.seq ?? '' },
        { headers: authOf(req).rpcHeaders },
      );
      return {
        runwayInMonths: r.runwayInMonths ?? null,
        avgExpenses: centsToDollars(r.avgExpensesCents),
        avgMonths: r.avgMonths,
        assetBal: centsToDollars(r.assetBalCents),
        month: r.month,
        seq: Number(r.seq),
      };
    },
  );
}
