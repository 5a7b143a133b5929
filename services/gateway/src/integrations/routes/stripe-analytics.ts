import type { FastifyInstance } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import type { StripePageMeta, StripePaymentIntent, StripePayout } from '@ledgerline/proto/integrations/v1/integrations_pb';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { IntegrationsClient } from '../client.js';
import {
  StripeAsOfQuerySchema,
  StripeIdParamsSchema,
  StripeListQuerySchema,
  StripeMetricQuerySchema,
  StripeMetricSchema,
  StripePaymentIntentDetailSchema,
  StripePaymentIntentListSchema,
  StripePayoutDetailSchema,
  StripePayoutListSchema,
  StripePlanListSchema,
  StripeProductListSchema,
} from '../schemas.js';

/** The metrics served (spec §7 "Analytics"; services/integrations/README.md defines each). */
export const STRIPE_METRICS = [
  'mrr',
  'arr',
  'net-revenue',
  'active-subscriptions',
  'active-customers',
  'new-subscriptions',
  'new-customers',
  'new-trails',
  'subscription-churn',
  'gross-revenue/value',
  'total-charge/value',
  'total-refund/value',
  'total-fee/value',
  'net-payout/value',
] as const;

const operationId = (metric: string) =>
  `getStripeAnalytic${metric
    .split(/[-/]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;

const cents = (v: bigint) => Number(v) / 100;

const meta = (m: StripePageMeta | undefined) => {
  const page = m?.page ?? 1;
  const take = m?.take ?? 20;
  const itemCount = Number(m?.itemCount ?? 0);
  const pageCount = Math.ceil(itemCount / take);
  return { page, take, itemCount, pageCount, hasPreviousPage: page > 1, hasNextPage: page < pageCount };
};

const payoutJson = (p: StripePayout | undefined) => ({
  id: p?.id ?? '',
  amount: cents(p?.amountCents ?? 0n),
  currency: p?.currency ?? '',
  arrivalDate: p?.arrivalDate ?? '',
  created: p?.created ?? '',
  status: p?.status ?? '',
  description: p?.description ?? '',
  method: p?.method ?? '',
  automatic: p?.automatic ?? false,
  transactionId: p?.transactionId ?? '',
});

const paymentIntentJson = (pi: StripePaymentIntent | undefined) => ({
  id: pi?.id ?? '',
  amount: cents(pi?.amountCents ?? 0n),
  amountReceived: cents(pi?.amountReceivedCents ?? 0n),
  currency: pi?.currency ?? '',
  customerId: pi?.customerId ?? '',
  status: pi?.status ?? '',
  created: pi?.created ?? '',
  description: pi?.description ?? '',
});

type ListQuery = { startDate?: string; endDate?: string; page?: number; take?: number };
const listInput = (q: ListQuery) => ({ startDate: q.startDate ?? '', endDate: q.endDate ?? '', page: q.page ?? 0, take: q.take ?? 0 });

/** GET /stripe-analytic/<metric>?startDate&endDate: one IntegrationsService.GetStripeMetric call each. */
export async function registerStripeAnalyticsRoutes(app: FastifyInstance, { client }: { client: IntegrationsClient }): Promise<void> {
  for (const metric of STRIPE_METRICS) {
    app.get<{ Querystring: { startDate?: string; endDate?: string; breakdown?: string } }>(
      `/stripe-analytic/${metric}`,
      {
        config: READ,
        schema: {
          tags: ['integrations'],
          security: BEARER,
          headers: WORKSPACE_HEADER_SCHEMA,
          operationId: operationId(metric),
          summary: `Stripe revenue analytics: ${metric}`,
          querystring: StripeMetricQuerySchema,
          response: responses(200, ref(StripeMetricSchema)),
        },
      },
      async (req) => {
        const r = await client.getStripeMetric(
          { metric, startDate: req.query.startDate ?? '', endDate: req.query.endDate ?? '', breakdown: req.query.breakdown ?? '' },
          { headers: authOf(req).rpcHeaders },
        );
        const valueOf = (v: { amountCents: bigint; count: bigint; percent: number }) =>
          r.kind === 'money' ? cents(v.amountCents) : r.kind === 'count' ? Number(v.count) : v.percent;
        return {
          metric: r.metric,
          kind: r.kind,
          value: valueOf(r),
          currency: r.currency,
          startDate: r.startDate,
          endDate: r.endDate,
          breakdown: r.breakdown,
          series: r.series.map((p) => ({ label: p.label, startDate: p.startDate, endDate: p.endDate, value: valueOf(p) })),
        };
      },
    );
  }
}

/** The payment-processor views under /stripe-analytic/ (decision 0043): payouts, payment intents, plans, products. */
export async function registerStripeViewRoutes(app: FastifyInstance, { client }: { client: IntegrationsClient }): Promise<void> {
  const common = { tags: ['integrations'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get<{ Querystring: ListQuery }>(
    '/stripe-analytic/payouts',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listStripePayouts',
        summary: 'Stripe payouts, latest arrival first (20 a page by default)',
        querystring: StripeListQuerySchema,
        response: responses(200, ref(StripePayoutListSchema)),
      },
    },
    async (req) => {
      const r = await client.listStripePayouts(listInput(req.query), { headers: authOf(req).rpcHeaders });
      return { data: r.payouts.map(payoutJson), meta: meta(r.meta) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/stripe-analytic/payouts/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getStripePayout',
        summary: 'A Stripe payout: its gross-to-net and balance transactions',
        params: StripeIdParamsSchema,
        response: responses(200, ref(StripePayoutDetailSchema)),
      },
    },
    async (req) => {
      const r = await client.getStripePayout({ id: req.params.id }, { headers: authOf(req).rpcHeaders });
      const c = r.composition;
      return {
        payout: payoutJson(r.payout),
        gross: cents(c?.grossCents ?? 0n),
        fees: cents(c?.feeCents ?? 0n),
        refunds: cents(c?.refundCents ?? 0n),
        adjustments: cents(c?.adjustmentCents ?? 0n),
        net: cents(c?.netCents ?? 0n),
        itemsRead: r.itemsRead,
        items: r.items.map((i) => ({
          id: i.id,
          type: i.type,
          stripeType: i.stripeType,
          amount: cents(i.amountCents),
          fee: cents(i.feeCents),
          net: cents(i.netCents),
          created: i.created,
          source: i.source,
        })),
      };
    },
  );

  app.get<{ Querystring: ListQuery }>(
    '/stripe-analytic/payment-intents',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listStripePaymentIntents',
        summary: 'Stripe payment intents, newest first (20 a page by default)',
        querystring: StripeListQuerySchema,
        response: responses(200, ref(StripePaymentIntentListSchema)),
      },
    },
    async (req) => {
      const r = await client.listStripePaymentIntents(listInput(req.query), { headers: authOf(req).rpcHeaders });
      return { data: r.paymentIntents.map(paymentIntentJson), meta: meta(r.meta) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/stripe-analytic/payment-intents/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getStripePaymentIntent',
        summary: 'A Stripe payment intent and its charges',
        params: StripeIdParamsSchema,
        response: responses(200, ref(StripePaymentIntentDetailSchema)),
      },
    },
    async (req) => {
      const r = await client.getStripePaymentIntent({ id: req.params.id }, { headers: authOf(req).rpcHeaders });
      return {
        paymentIntent: paymentIntentJson(r.paymentIntent),
        charges: r.charges.map((c) => ({
          id: c.id,
          amount: cents(c.amountCents),
          amountRefunded: cents(c.amountRefundedCents),
          fee: cents(c.feeCents),
          status: c.status,
          created: c.created,
        })),
      };
    },
  );

  app.get<{ Querystring: { endDate?: string } }>(
    '/stripe-analytic/plans',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listStripePlans',
        summary: 'Stripe plans with their active subscriptions and customers',
        querystring: StripeAsOfQuerySchema,
        response: responses(200, ref(StripePlanListSchema)),
      },
    },
    async (req) => {
      const r = await client.listStripePlans({ endDate: req.query.endDate ?? '' }, { headers: authOf(req).rpcHeaders });
      return {
        asOf: r.asOf,
        data: r.plans.map((p) => ({
          id: p.id,
          planName: p.planName,
          amount: cents(p.amountCents),
          currency: p.currency,
          interval: p.interval,
          intervalCount: p.intervalCount,
          planActive: p.planActive,
          activeSubscriptions: Number(p.activeSubscriptions),
          activeCustomers: Number(p.activeCustomers),
          productId: p.productId,
        })),
      };
    },
  );

  app.get<{ Querystring: { endDate?: string } }>(
    '/stripe-analytic/products',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listStripeProducts',
        summary: 'Stripe products with their plans and active subscriptions',
        querystring: StripeAsOfQuerySchema,
        response: responses(200, ref(StripeProductListSchema)),
      },
    },
    async (req) => {
      const r = await client.listStripeProducts({ endDate: req.query.endDate ?? '' }, { headers: authOf(req).rpcHeaders });
      return {
        asOf: r.asOf,
        data: r.products.map((p) => ({
          id: p.id,
          name: p.name,
          active: p.active,
          created: p.created,
          plans: Number(p.plans),
          activeSubscriptions: Number(p.activeSubscriptions),
          activeCustomers: Number(p.activeCustomers),
        })),
      };
    },
  );
}
