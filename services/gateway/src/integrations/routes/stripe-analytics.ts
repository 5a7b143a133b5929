import type { FastifyInstance } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { IntegrationsClient } from '../client.js';
import { StripeMetricQuerySchema, StripeMetricSchema } from '../schemas.js';

/** The metrics served (spec §7 "Analytics", the ones built so far; services/integrations/README.md defines each). */
export const STRIPE_METRICS = [
  'mrr',
  'arr',
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

/** GET /stripe-analytic/<metric>?startDate&endDate: one IntegrationsService.GetStripeMetric call each. */
export async function registerStripeAnalyticsRoutes(app: FastifyInstance, { client }: { client: IntegrationsClient }): Promise<void> {
  for (const metric of STRIPE_METRICS) {
    app.get<{ Querystring: { startDate?: string; endDate?: string } }>(
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
          { metric, startDate: req.query.startDate ?? '', endDate: req.query.endDate ?? '' },
          { headers: authOf(req).rpcHeaders },
        );
        const value = r.kind === 'money' ? Number(r.amountCents) / 100 : r.kind === 'count' ? Number(r.count) : r.percent;
        return { metric: r.metric, kind: r.kind, value, currency: r.currency, startDate: r.startDate, endDate: r.endDate };
      },
    );
  }
}
