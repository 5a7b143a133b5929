import type { FastifyInstance } from 'fastify';
import { authOf, READ, WRITE } from '../../http/auth.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { BillingClient } from '../client.js';
import { limitsJson, planJson, subscriptionJson } from '../present.js';
import {
  BillingPlansSchema,
  BillingWebhookResponseSchema,
  CheckoutQuerySchema,
  CheckoutSessionSchema,
  PlanLimitsResponseSchema,
  SubscriptionVerifySchema,
  VerifyQuerySchema,
} from '../schemas.js';

const TAGS = ['billing'];

/** Spec §7 "Billing": POST /checkout (priceId), GET /subscription/verify; the plans, the limits, Stripe's webhook. */
export async function registerBillingRoutes(app: FastifyInstance, { client }: { client: BillingClient }): Promise<void> {
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get(
    '/subscription/plans',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listBillingPlans',
        summary: 'The plans with monthly and yearly prices and limits',
        response: responses(200, ref(BillingPlansSchema)),
      },
    },
    async (req) => {
      const r = await client.listPlans({}, headers(req));
      return { plans: r.plans.map(planJson) };
    },
  );

  app.post<{ Querystring: { priceId?: string } }>(
    '/checkout',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createCheckout',
        summary: "Creates a Stripe Checkout Session for a paid plan's price in the current workspace",
        querystring: CheckoutQuerySchema,
        response: responses(200, ref(CheckoutSessionSchema)),
      },
    },
    async (req) => {
      const r = await client.createCheckout({ priceId: req.query.priceId ?? '' }, headers(req));
      return { sessionId: r.sessionId, url: r.url };
    },
  );

  app.get<{ Querystring: { sessionId?: string } }>(
    '/subscription/verify',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'verifySubscription',
        summary: "The workspace's subscription and plan in force (with sessionId: after that checkout's result is brought in)",
        querystring: VerifyQuerySchema,
        response: responses(200, ref(SubscriptionVerifySchema)),
      },
    },
    async (req) => {
      const r = await client.verifySubscription({ sessionId: req.query.sessionId ?? '' }, headers(req));
      return { status: r.subscription?.status ?? 'not_found', plan: planJson(r.plan), interval: r.interval, subscription: subscriptionJson(r.subscription) };
    },
  );

  app.get(
    '/subscription/limits',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getPlanLimits',
        summary: "The limits of the workspace's plan and where to upgrade",
        response: responses(200, ref(PlanLimitsResponseSchema)),
      },
    },
    async (req) => {
      const r = await client.getPlanLimits({}, headers(req));
      return { planId: r.planId, planName: r.planName, limits: limitsJson(r.limits), upgradeUrl: r.upgradeUrl };
    },
  );

  // Stripe calls this one (the platform account's endpoint): no session; the service verifies Stripe-Signature over the exact bytes.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post<{ Body: Buffer }>(
      '/billing/webhook',
      {
        schema: {
          operationId: 'billingWebhook',
          summary: 'Stripe webhooks of the subscriptions Ledgerline sells (verified with the Stripe-Signature header; a bad signature is a 400)',
          tags: TAGS,
          security: [],
          headers: { type: 'object', properties: { 'stripe-signature': { type: 'string', description: 't=<unix>,v1=<HMAC-SHA256 hex>' } } },
          response: responses(200, ref(BillingWebhookResponseSchema)),
        },
      },
      async (req) => {
        const raw = req.headers['stripe-signature'];
        const signature = Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? '');
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const r = await client.handleStripeWebhook({ body: new Uint8Array(body), signature });
        return { outcome: r.outcome };
      },
    );
  });
}
