// react-query hooks for billing (billing.ts has the calls and types).
import { useMutation, useQuery } from '@tanstack/react-query';
import { billingApi, type BillingPlans, type CheckoutSession, type SubscriptionVerify } from './billing';
import { useApiContext } from './context';
import type { ApiError } from './errors';

export const billingQueryKeys = {
  all: ['billing'] as const,
  plans: ['billing', 'plans'] as const,
  subscription: (sessionId: string | null) => ['billing', 'subscription', sessionId ?? ''] as const,
};

/** GET /subscription/plans: the six plans with monthly and yearly prices. */
export function useBillingPlans() {
  const { client } = useApiContext();
  return useQuery<BillingPlans, ApiError>({
    queryKey: billingQueryKeys.plans,
    queryFn: ({ signal }) => billingApi.listPlans(client, signal),
    staleTime: 5 * 60_000,
  });
}

/** GET /subscription/verify: with the checkout session the browser came back from, that checkout's result first. */
export function useSubscription(sessionId: string | null) {
  const { client } = useApiContext();
  return useQuery<SubscriptionVerify, ApiError>({
    queryKey: billingQueryKeys.subscription(sessionId),
    queryFn: ({ signal }) => billingApi.verify(client, sessionId, signal),
  });
}

/** POST /checkout?priceId=: a Stripe Checkout Session whose url the browser opens. */
export function useCheckout() {
  const { client } = useApiContext();
  return useMutation<CheckoutSession, ApiError, string>({ mutationFn: (priceId) => billingApi.checkout(client, priceId) });
}
