import type { Plan, PlanLimits, Subscription } from '@ledgerline/proto/billing/v1/billing_pb';

const nullable = (s: string | undefined): string | null => (s ? s : null);

export const limitsJson = (limits: PlanLimits | undefined) => ({
  bankAccounts: limits?.bankAccounts ?? -1,
  users: limits?.users ?? -1,
  monthlyExpenses: Number(limits?.monthlyExpenses ?? -1n),
});

/** A plan as the REST answer (`BillingPlan`). */
export const planJson = (plan: Plan | undefined) => ({
  id: plan?.id ?? '',
  name: plan?.name ?? '',
  description: plan?.description ?? '',
  free: plan?.free ?? false,
  limits: limitsJson(plan?.limits),
  features: plan?.features ?? [],
  prices: (plan?.prices ?? []).map((p) => ({ priceId: p.priceId, interval: p.interval, amount: Number(p.amount), currency: p.currency })),
});

/** The workspace's subscription (`SubscriptionVerify.subscription`): null when it never had one. */
export const subscriptionJson = (s: Subscription | undefined) =>
  s && s.id
    ? {
        id: s.id,
        createdOn: nullable(s.createdOn),
        lastUpdated: nullable(s.lastUpdated),
        startAt: nullable(s.startAt),
        endAt: nullable(s.endAt),
        json: s.json,
        subscriptionId: s.subscriptionId,
        priceId: s.priceId,
        status: s.status,
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        trialEnd: nullable(s.trialEnd),
      }
    : null;
