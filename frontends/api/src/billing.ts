// Billing (documents §7 "Billing", §9 plans, §3 subscription statuses): the payload names of the generated OpenAPI
// shapes and one typed call per route. The hooks are in billing-hooks.ts; the billing tab is in the settings remote.
import type { ApiClient } from './client';
import type { OperationResult, Schemas } from './types';

export type BillingPlan = Schemas['BillingPlan'];
export type BillingPlans = OperationResult<'listBillingPlans'>;
export type SubscriptionVerify = OperationResult<'verifySubscription'>;
export type SubscriptionStatus = SubscriptionVerify['status'];
export type CheckoutSession = OperationResult<'createCheckout'>;
export type BillingInterval = 'monthly' | 'yearly';

/** How each status of §3 reads on the billing tab. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: 'Trial',
  active: 'Active',
  incomplete: 'Payment pending',
  incomplete_expired: 'Payment expired',
  past_due: 'Past due',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
  paused: 'Paused',
  not_found: 'Free plan',
};

export const billingApi = {
  listPlans: (client: ApiClient, signal?: AbortSignal) => client.get('/subscription/plans', { signal }),
  verify: (client: ApiClient, sessionId: string | null, signal?: AbortSignal) =>
    client.get('/subscription/verify', { params: { query: { sessionId: sessionId ?? undefined } }, signal }),
  checkout: (client: ApiClient, priceId: string) => client.post('/checkout', { params: { query: { priceId } } }),
};
