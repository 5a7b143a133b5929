import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  ConnectStripeResponseSchema,
  DisconnectStripeResponseSchema,
  GetStripeAccountResponseSchema,
  GetStripeMetricResponseSchema,
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
          const m = await analytics.metric(requireTenant(ctx), { metric: req.metric, startDate: req.startDate, endDate: req.endDate });
          return create(GetStripeMetricResponseSchema, {
            metric: m.metric,
            kind: m.value.kind,
            amountCents: m.value.kind === 'money' ? BigInt(m.value.cents) : 0n,
            count: m.value.kind === 'count' ? BigInt(m.value.count) : 0n,
            percent: m.value.kind === 'percent' ? m.value.percent : 0,
            currency: m.currency,
            startDate: m.startDate,
            endDate: m.endDate,
          });
        },
        async handleStripeWebhook(req) {
          return create(HandleStripeWebhookResponseSchema, { outcome: await stripe.webhook(req.body, req.signature) });
        },
      }),
    );
  };
}
