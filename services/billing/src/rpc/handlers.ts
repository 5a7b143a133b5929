import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  BillingService as BillingRpc,
  CreateCheckoutResponseSchema,
  GetPlanLimitsResponseSchema,
  HandleStripeWebhookResponseSchema,
  ListPlansResponseSchema,
  PlanLimitsSchema,
  PlanPriceSchema,
  PlanSchema,
  SubscriptionSchema,
  VerifySubscriptionResponseSchema,
} from '@ledgerline/proto/billing/v1/billing_pb';
import { isFree, wireLimit, type Plan } from '../domain/plans.js';
import type { BillingUseCases } from '../usecases/index.js';

const iso = (d: Date | null | undefined): string => (d ? d.toISOString() : '');

const limitsMessage = (plan: Plan) =>
  create(PlanLimitsSchema, {
    bankAccounts: wireLimit(plan.limits.bankAccounts),
    users: wireLimit(plan.limits.users),
    monthlyExpenses: BigInt(wireLimit(plan.limits.monthlyExpenses)),
  });

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function billingRoutes(useCases: BillingUseCases): (router: ConnectRouter) => void {
  const planMessage = (plan: Plan) => {
    const view = useCases.planView(plan);
    return create(PlanSchema, {
      id: plan.id,
      name: plan.name,
      description: plan.description,
      limits: limitsMessage(plan),
      prices: view.prices.map((p) => create(PlanPriceSchema, { priceId: p.priceId, interval: p.interval, amount: BigInt(p.amount), currency: p.currency })),
      features: plan.features,
      free: isFree(plan),
    });
  };
  return (router) => {
    router.service(
      BillingRpc,
      withInputRules(BillingRpc, {
        listPlans() {
          return create(ListPlansResponseSchema, { plans: useCases.listPlans().map(planMessage) });
        },
        async createCheckout(req, ctx) {
          const session = await useCases.createCheckout(requireTenant(ctx), { priceId: req.priceId });
          return create(CreateCheckoutResponseSchema, session);
        },
        async verifySubscription(req, ctx) {
          const view = await useCases.verify(requireTenant(ctx), { sessionId: req.sessionId });
          const s = view.subscription;
          return create(VerifySubscriptionResponseSchema, {
            subscription: create(SubscriptionSchema, {
              id: s?.id ?? '',
              subscriptionId: s?.stripe_subscription_id ?? '',
              priceId: s?.price_id ?? '',
              status: view.status,
              createdOn: iso(s?.created_on),
              lastUpdated: iso(s?.last_updated),
              startAt: iso(s?.current_period_start),
              endAt: iso(s?.current_period_end),
              json: s ? JSON.stringify(s.json) : '',
              cancelAtPeriodEnd: s?.cancel_at_period_end ?? false,
              trialEnd: iso(s?.trial_end),
            }),
            plan: planMessage(view.plan),
            interval: view.interval,
          });
        },
        async handleStripeWebhook(req) {
          return create(HandleStripeWebhookResponseSchema, { outcome: await useCases.webhook(req.body, req.signature) });
        },
        async getPlanLimits(_req, ctx) {
          const { plan, upgradeUrl } = await useCases.limits(requireTenant(ctx));
          return create(GetPlanLimitsResponseSchema, { planId: plan.id, planName: plan.name, limits: limitsMessage(plan), upgradeUrl });
        },
      }),
    );
  };
}
