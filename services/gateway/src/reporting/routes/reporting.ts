import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetBalanceSheetResponse, ReportQuerySchema } from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { ReportAnswers } from '../answers.js';
import { reportRows } from '../present.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { centsToDollars, isUuid, unpackWholeNumbers } from '@ledgerline/platform';
import type { ReportingClient } from '../client.js';
import {
  AssetBalanceGraphResponseSchema,
  BalanceSheetResponseSchema,
  CashFlowResponseSchema,
  CashFlowStatementResponseSchema,
  ProfitLossResponseSchema,
  REPORT_QUERY,
  ReportColumnSchema,
  ReportHeaderSchema,
  ReportRowSchema,
  RunwayResponseSchema,
  STATEMENT_QUERY,
  q,
} from '../schemas.js';
import type { ReportQueryString } from '../schemas.js';
import { columnJson, headerJson, rowJson } from '../present.js';

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

  // The two statements answer alike: the header, the columns and the account tree's rows.
  type Statement = Pick<GetBalanceSheetResponse, 'etag' | 'notModified' | 'header' | 'columns' | 'table'>;
  const statements: {
    path: string;
    operationId: string;
    summary: string;
    schema: typeof BalanceSheetResponseSchema | typeof CashFlowStatementResponseSchema;
    ask: (req: FastifyRequest<{ Querystring: ReportQueryString }>, tag: string) => Promise<Statement>;
  }[] = [
    {
      path: '/financial-data/balance-sheet/v2',
      operationId: 'getBalanceSheet',
      summary: "Balance sheet as of each column's end: Assets = Liabilities + Equity, with the net income of the period and the earnings of earlier periods",
      schema: BalanceSheetResponseSchema,
      ask: (req: FastifyRequest<{ Querystring: ReportQueryString }>, tag: string) => reporting.getBalanceSheet(...call(req, tag)),
    },
    {
      path: '/financial-data/cash-flow-statement',
      operationId: 'getCashFlowStatement',
      summary: 'Cash-flow statement (indirect method) per period, reconciling to the change in cash (groups and tags do not apply)',
      schema: CashFlowStatementResponseSchema,
      ask: (req: FastifyRequest<{ Querystring: ReportQueryString }>, tag: string) => reporting.getCashFlowStatement(...call(req, tag)),
    },
  ];
  for (const statement of statements)
    app.get<{ Querystring: ReportQueryString }>(
      statement.path,
      {
        config: READ,
        schema: { ...common, operationId: statement.operationId, summary: statement.summary, response: responses(200, ref(statement.schema)) },
      },
      async (req, reply) =>
        answers.send(
          req,
          reply,
          query(req),
          (tag) => statement.ask(req, tag),
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
