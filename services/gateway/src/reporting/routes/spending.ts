import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { checkedWorkspaces } from './reporting.js';
import { centsToDollars, orNull } from '@ledgerline/platform';
import type { ReportingClient } from '../client.js';
import { SPENDING_QUERY, SpendingHeaderSchema, SpendingResponseSchema, TopMerchantsResponseSchema, q } from '../schemas.js';
import type { SpendingQueryString } from '../schemas.js';
import { spendingHeaderJson } from '../present.js';

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
        header: spendingHeaderJson(r.header),
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
        header: spendingHeaderJson(r.header),
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
