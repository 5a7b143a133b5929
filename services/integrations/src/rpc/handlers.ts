import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  ConnectStripeResponseSchema,
  DisconnectStripeResponseSchema,
  GetStripeAccountResponseSchema,
  GetStripeMetricResponseSchema,
  GetStripePaymentIntentResponseSchema,
  GetStripePayoutResponseSchema,
  ListStripePaymentIntentsResponseSchema,
  ListStripePayoutsResponseSchema,
  ListStripePlansResponseSchema,
  ListStripeProductsResponseSchema,
  StripeChargeSchema,
  StripeMetricPointSchema,
  StripePageMetaSchema,
  StripePaymentIntentSchema,
  StripePayoutCompositionSchema,
  StripePayoutItemSchema,
  StripePayoutSchema,
  StripePlanSchema,
  StripeProductSchema,
  GetStripeOAuthLinkResponseSchema,
  GetStripeSyncStatusResponseSchema,
  HandleStripeWebhookResponseSchema,
  IntegrationsService as IntegrationsRpc,
  StartStripeSyncResponseSchema,
  StripeAccountSchema,
  SyncedObjectCountSchema,
} from '@ledgerline/proto/integrations/v1/integrations_pb';
import type { IntegrationsUseCases } from '../usecases/index.js';
import type { StripeAccountView } from '../usecases/stripe.js';
import type { MetricValue } from '../domain/revenue.js';
import type { PaymentIntentView, PayoutView } from '../domain/stripe-views.js';
import type { Page } from '../usecases/stripe-analytics.js';

const iso = (d: Date | null | undefined): string => (d ? d.toISOString() : '');

const accountMessage = (a: StripeAccountView) =>
  create(StripeAccountSchema, {
    id: a.id,
    stripeAccountId: a.stripeAccountId,
    name: a.name,
    email: a.email,
    country: a.country,
    defaultCurrency: a.defaultCurrency,
    scope: a.scope,
    connectedAt: iso(a.connectedAt),
    lastSyncedAt: iso(a.lastSyncedAt),
  });

const valueFields = (v: MetricValue) => ({
  amountCents: v.kind === 'money' ? BigInt(v.cents) : 0n,
  count: v.kind === 'count' ? BigInt(v.count) : 0n,
  percent: v.kind === 'percent' ? v.percent : 0,
});

const pageMeta = (p: Page<unknown>) => create(StripePageMetaSchema, { page: p.page, take: p.take, itemCount: BigInt(p.total) });

const payoutMessage = (p: PayoutView) => create(StripePayoutSchema, { ...p, amountCents: BigInt(p.amountCents) });

const paymentIntentMessage = (pi: PaymentIntentView) =>
  create(StripePaymentIntentSchema, { ...pi, amountCents: BigInt(pi.amountCents), amountReceivedCents: BigInt(pi.amountReceivedCents) });

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function integrationsRoutes({ stripe, analytics }: IntegrationsUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      IntegrationsRpc,
      withInputRules(IntegrationsRpc, {
        async getStripeOAuthLink(req, ctx) {
          return create(GetStripeOAuthLinkResponseSchema, { url: stripe.oauthLink(requireTenant(ctx), req.redirectUri) });
        },
        async connectStripe(req, ctx) {
          const { account, job } = await stripe.connect(requireTenant(ctx), { scope: req.scope, code: req.code });
          return create(ConnectStripeResponseSchema, { account: accountMessage(account), jobId: job.id });
        },
        async startStripeSync(_req, ctx) {
          const job = await stripe.sync(requireTenant(ctx));
          return create(StartStripeSyncResponseSchema, { jobId: job.id, status: job.status });
        },
        async getStripeSyncStatus(_req, ctx) {
          const s = await stripe.syncStatus(requireTenant(ctx));
          return create(GetStripeSyncStatusResponseSchema, {
            status: s.status,
            jobId: s.job?.id ?? '',
            startedAt: iso(s.job?.started_at),
            finishedAt: iso(s.job?.finished_at),
            lastSyncedAt: iso(s.lastSyncedAt),
            objectsSynced: BigInt(s.job?.objects_synced ?? 0),
            objects: s.objects.map((o) => create(SyncedObjectCountSchema, { objectType: o.objectType, count: BigInt(o.count) })),
            error: s.job?.error ?? '',
          });
        },
        async getStripeAccount(_req, ctx) {
          return create(GetStripeAccountResponseSchema, { account: accountMessage(await stripe.account(requireTenant(ctx))) });
        },
        async disconnectStripe(_req, ctx) {
          return create(DisconnectStripeResponseSchema, { stripeAccountId: await stripe.disconnect(requireTenant(ctx)) });
        },
        async getStripeMetric(req, ctx) {
          const m = await analytics.metric(requireTenant(ctx), {
            metric: req.metric,
            startDate: req.startDate,
            endDate: req.endDate,
            breakdown: req.breakdown,
          });
          return create(GetStripeMetricResponseSchema, {
            metric: m.metric,
            kind: m.value.kind,
            ...valueFields(m.value),
            currency: m.currency,
            startDate: m.startDate,
            endDate: m.endDate,
            breakdown: m.breakdown,
            series: m.series.map((p) =>
              create(StripeMetricPointSchema, { label: p.label, startDate: p.startDate, endDate: p.endDate, ...valueFields(p.value) }),
            ),
          });
        },
        async listStripePayouts(req, ctx) {
          const p = await analytics.payouts(requireTenant(ctx), { startDate: req.startDate, endDate: req.endDate, page: req.page, take: req.take });
          return create(ListStripePayoutsResponseSchema, { payouts: p.items.map(payoutMessage), meta: pageMeta(p) });
        },
        async getStripePayout(req, ctx) {
          const d = await analytics.payout(requireTenant(ctx), req.id);
          const c = d.composition;
          return create(GetStripePayoutResponseSchema, {
            payout: payoutMessage(d.payout),
            composition: create(StripePayoutCompositionSchema, {
              grossCents: BigInt(c.gross),
              feeCents: BigInt(c.fees),
              refundCents: BigInt(c.refunds),
              adjustmentCents: BigInt(c.adjustments),
              netCents: BigInt(c.net),
            }),
            items: d.items.map((i) =>
              create(StripePayoutItemSchema, { ...i, amountCents: BigInt(i.amountCents), feeCents: BigInt(i.feeCents), netCents: BigInt(i.netCents) }),
            ),
            itemsRead: d.membersRead,
          });
        },
        async listStripePaymentIntents(req, ctx) {
          const p = await analytics.paymentIntents(requireTenant(ctx), { startDate: req.startDate, endDate: req.endDate, page: req.page, take: req.take });
          return create(ListStripePaymentIntentsResponseSchema, { paymentIntents: p.items.map(paymentIntentMessage), meta: pageMeta(p) });
        },
        async getStripePaymentIntent(req, ctx) {
          const d = await analytics.paymentIntent(requireTenant(ctx), req.id);
          return create(GetStripePaymentIntentResponseSchema, {
            paymentIntent: paymentIntentMessage(d.paymentIntent),
            charges: d.charges.map((c) =>
              create(StripeChargeSchema, {
                ...c,
                amountCents: BigInt(c.amountCents),
                amountRefundedCents: BigInt(c.amountRefundedCents),
                feeCents: BigInt(c.feeCents),
              }),
            ),
          });
        },
        async listStripePlans(req, ctx) {
          const r = await analytics.plans(requireTenant(ctx), { endDate: req.endDate });
          return create(ListStripePlansResponseSchema, {
            asOf: r.asOf,
            plans: r.plans.map((p) =>
              create(StripePlanSchema, {
                ...p,
                amountCents: BigInt(p.amountCents),
                activeSubscriptions: BigInt(p.activeSubscriptions),
                activeCustomers: BigInt(p.activeCustomers),
              }),
            ),
          });
        },
        async listStripeProducts(req, ctx) {
          const r = await analytics.products(requireTenant(ctx), { endDate: req.endDate });
          return create(ListStripeProductsResponseSchema, {
            asOf: r.asOf,
            products: r.products.map((p) =>
              create(StripeProductSchema, {
                ...p,
                plans: BigInt(p.plans),
                activeSubscriptions: BigInt(p.activeSubscriptions),
                activeCustomers: BigInt(p.activeCustomers),
              }),
            ),
          });
        },
        async handleStripeWebhook(req) {
          return create(HandleStripeWebhookResponseSchema, { outcome: await stripe.webhook(req.body, req.signature) });
        },
      }),
    );
  };
}
