import {
  describeError,
  SUBSCRIPTION_STATUS_LABELS,
  useBillingPlans,
  useCheckout,
  useCurrentUser,
  useSubscription,
  type BillingInterval,
  type BillingPlan,
  type SubscriptionVerify,
} from '@ledgerline/api';
import { Button, Card, cx, Spinner, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge, BlockedNote, formatDate } from './parts';
import { teamEditBlock } from './rules';

const dollars = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: cents % 100 === 0 ? 0 : 2 })}`;

const STATUS_TONES: Record<string, 'green' | 'amber' | 'slate' | 'brand'> = {
  active: 'green',
  trialing: 'brand',
  past_due: 'amber',
  unpaid: 'amber',
  incomplete: 'amber',
  paused: 'slate',
};

/** What the current plan's box says under its name (renewal, trial end, a failed payment). */
function statusLine(s: SubscriptionVerify): string {
  const end = formatDate(s.subscription?.endAt ?? '');
  switch (s.status) {
    case 'not_found':
      return 'You are on the free plan.';
    case 'trialing':
      return `Your trial ends ${formatDate(s.subscription?.trialEnd ?? '') || end}.`;
    case 'active':
      return s.subscription?.cancelAtPeriodEnd ? `Ends ${end}.` : `Renews ${end}.`;
    case 'past_due':
      return 'Your last payment failed. Stripe retries it; update your card to keep your plan.';
    case 'unpaid':
      return 'Your payments failed: you are back on the free plan until the invoice is paid.';
    case 'incomplete':
      return 'Your first payment has not settled yet.';
    case 'incomplete_expired':
      return 'Your first payment did not settle in time. Choose a plan to try again.';
    case 'paused':
      return 'Your subscription is paused: you are on the free plan until it resumes.';
    case 'canceled':
      return 'Your subscription was canceled: you are on the free plan.';
  }
}

/**
 * Settings → Billing (documents §9 plans, §3 statuses): the plan in force and its status, the six plans with a
 * monthly/yearly toggle, and an upgrade that goes through Stripe Checkout; back from it (`?session_id=`), the
 * checkout's result is verified and said.
 */
export function BillingTab() {
  const user = useCurrentUser();
  const blocked = teamEditBlock(user?.role);
  const [params, setParams] = useSearchParams();
  const sessionId = params.get('session_id');
  const subscription = useSubscription(sessionId);
  const plans = useBillingPlans();
  const checkout = useCheckout();
  const notice = useNotice();
  const errorNotice = useErrorNotice(describeError);
  const [interval, setInterval] = useState<BillingInterval>('monthly');
  const announced = useRef<string | null>(null);

  // Back from checkout: once verified, say what changed and drop the session id from the address.
  useEffect(() => {
    if (!sessionId || !subscription.data || announced.current === sessionId) return;
    announced.current = sessionId;
    const { plan, status } = subscription.data;
    if (status === 'active' || status === 'trialing') notice.success(`You are now on the ${plan.name} plan.`);
    else notice.warning(`Your checkout is ${SUBSCRIPTION_STATUS_LABELS[status].toLowerCase()}.`);
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('session_id');
        return next;
      },
      { replace: true },
    );
  }, [sessionId, subscription.data, notice, setParams]);

  useEffect(() => {
    if (subscription.data?.interval) setInterval(subscription.data.interval as BillingInterval);
  }, [subscription.data?.interval]);

  const upgrade = (plan: BillingPlan) => {
    const price = plan.prices.find((p) => p.interval === interval);
    if (!price) return;
    checkout.mutate(price.priceId, {
      onSuccess: (session) => window.location.assign(session.url),
      onError: (error) => errorNotice(error),
    });
  };

  if (subscription.isPending || plans.isPending)
    return (
      <Card title="Billing">
        <div className="flex justify-center py-10">
          <Spinner label="Loading your plan" />
        </div>
      </Card>
    );
  if (subscription.isError || plans.isError)
    return (
      <Card title="Billing">
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {describeError(subscription.error ?? plans.error)?.message}
        </p>
      </Card>
    );

  const current = subscription.data;
  return (
    <div className="space-y-6">
      <Card title="Billing" description="Your plan, what it covers and how you pay for it.">
        <section aria-label="Current plan" className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{current.plan.name}</h2>
              <Badge tone={STATUS_TONES[current.status] ?? 'slate'}>{SUBSCRIPTION_STATUS_LABELS[current.status]}</Badge>
              {current.interval && <Badge>{current.interval === 'yearly' ? 'Billed yearly' : 'Billed monthly'}</Badge>}
            </div>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{statusLine(current)}</p>
          </div>
          <dl className="grid grid-cols-3 gap-4 text-sm">
            <Limit label="Bank accounts" value={current.plan.limits.bankAccounts} />
            <Limit label="Users" value={current.plan.limits.users} />
            <Limit label="Monthly expenses" value={current.plan.limits.monthlyExpenses} money />
          </dl>
        </section>
      </Card>

      <Card
        title="Plans"
        description="Yearly billing gives two months free."
        actions={
          <div role="radiogroup" aria-label="Billing period" className="inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
            {(['monthly', 'yearly'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={interval === value}
                onClick={() => setInterval(value)}
                className={cx(
                  'rounded-md px-3 py-1 text-sm font-medium',
                  interval === value ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white' : 'text-slate-600 dark:text-slate-300',
                )}
              >
                {value === 'monthly' ? 'Monthly' : 'Yearly'}
              </button>
            ))}
          </div>
        }
      >
        <div className="space-y-4">
          <BlockedNote message={blocked} />
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Plans">
            {plans.data.plans.map((plan) => {
              const price = plan.prices.find((p) => p.interval === interval);
              const isCurrent = plan.id === current.plan.id && (plan.free || current.interval === interval);
              return (
                <li
                  key={plan.id}
                  aria-label={plan.name}
                  className={cx(
                    'flex min-w-0 flex-col rounded-xl border p-4',
                    isCurrent ? 'border-brand-500 ring-1 ring-brand-500' : 'border-slate-200 dark:border-slate-700',
                  )}
                >
                  <h3 className="font-semibold text-slate-900 dark:text-white">{plan.name}</h3>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{plan.description}</p>
                  <p className="mt-3 text-2xl font-semibold text-slate-900 dark:text-white">
                    {plan.free ? 'Free' : dollars(price?.amount ?? 0)}
                    {!plan.free && <span className="text-sm font-normal text-slate-500"> / {interval === 'yearly' ? 'year' : 'month'}</span>}
                  </p>
                  <ul className="mt-3 flex-1 space-y-1 text-sm text-slate-700 dark:text-slate-300">
                    {plan.features.map((f) => (
                      <li key={f}>✓ {f}</li>
                    ))}
                  </ul>
                  <div className="mt-4">
                    {isCurrent ? (
                      <Button variant="secondary" disabled className="w-full">
                        Current plan
                      </Button>
                    ) : plan.free ? null : (
                      <Button
                        className="w-full"
                        disabled={blocked !== null}
                        title={blocked ?? undefined}
                        loading={checkout.isPending && checkout.variables === price?.priceId}
                        onClick={() => upgrade(plan)}
                      >
                        Choose {plan.name}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </Card>
    </div>
  );
}

function Limit({ label, value, money }: { label: string; value: number; money?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="font-medium text-slate-900 dark:text-white">{value < 0 ? 'Unlimited' : money ? `${dollars(value)}` : value}</dd>
    </div>
  );
}
