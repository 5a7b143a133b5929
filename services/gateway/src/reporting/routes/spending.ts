import type { SpendingHeader } from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { num, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { checkedWorkspaces, REPORT_QUERY } from './reporting.js';
import { centsToDollars, orNull } from '@ledgerline/platform';
import type { ReportingClient } from '../client.js';

/**
 * The dashboard's spending and top-merchants cards (spec §3 "Report data", §7 "Financial data": /spending
 * with `order`, /top-merchant), one ReportingService RPC each. Documented in services/reporting/README.md.
 */
const q = (description: string) => ({ type: 'string', maxLength: 2000, description }) as const;

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

const SPENDING_QUERY = {
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

interface SpendingQueryString {
  startDate?: string;
  endDate?: string;
  groups?: string;
  tags?: string;
  moneyType?: string;
  seq?: string;
  order?: string;
  workspaces?: string;
}

const headerJson = (h: SpendingHeader | undefined) => ({
  startDate: h?.startDate ?? '',
  endDate: h?.endDate ?? '',
  moneyType: h?.moneyType ?? 'ALL',
  seq: Number(h?.seq ?? 0n),
  caughtUp: h?.caughtUp ?? true,
});
/** The query for the ReportingService; `workspaces` checked as for every report (checkedWorkspaces). */
function spendingQuery(req: FastifyRequest<{ Querystring: SpendingQueryString }>) {
  const x = req.query;
  return {
    startDate: x.startDate ?? '',
    endDate: x.endDate ?? '',
    groups: x.groups ?? '',
    tags: x.tags ?? '',
    moneyType: x.moneyType ?? '',
    seq: x.seq ?? '',
    workspaces: checkedWorkspaces(req, x.workspaces),
  };
}

export async function registerSpendingRoutes(app: FastifyInstance, { reporting }: { reporting: ReportingClient }): Promise<void> {
  for (const schema of [SpendingHeaderSchema, SpendingResponseSchema, TopMerchantsResponseSchema]) app.addSchema(schema);
  const common = { tags: ['reports'], security: [{ bearerAuth: [] }], headers: WORKSPACE_HEADER_SCHEMA };
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });

  app.get<{ Querystring: SpendingQueryString }>(
    '/financial-data/spending',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getSpending',
        summary: 'Spending by category over the period, largest first (order DESC) or smallest first (ASC)',
        querystring: { ...SPENDING_QUERY, properties: { ...SPENDING_QUERY.properties, order: q('DESC (default) or ASC: the rows by amount.') } },
        response: responses(200, ref(SpendingResponseSchema)),
      },
    },
    async (req) => {
      const r = await reporting.getSpending({ query: spendingQuery(req), order: req.query.order ?? '' }, headers(req));
      return {
        header: headerJson(r.header),
        order: r.order,
        totalAmount: centsToDollars(r.totalCents),
        data: r.rows.map((x) => ({
          id: orNull(x.id, ''),
          name: x.name,
          coaId: orNull(x.coaId, 0),
          amount: centsToDollars(x.amountCents),
          percentage: x.percentageBp / 100,
        })),
      };
    },
  );

  app.get<{ Querystring: SpendingQueryString }>(
    '/financial-data/top-merchant',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getTopMerchants',
        summary: 'The merchants most money went to over the period, with their share and transaction count',
        querystring: SPENDING_QUERY,
        response: responses(200, ref(TopMerchantsResponseSchema)),
      },
    },
    async (req) => {
      const r = await reporting.getTopMerchants({ query: spendingQuery(req) }, headers(req));
      return {
        header: headerJson(r.header),
        totalAmount: centsToDollars(r.totalCents),
        data: r.rows.map((x) => ({
          id: orNull(x.id, ''),
          name: x.name,
          totalAmount: centsToDollars(x.amountCents),
          percentage: x.percentageBp / 100,
          transactionCount: Number(x.transactionCount),
        })),
      };
    },
  );
}
