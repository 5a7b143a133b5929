// The plans Ledgerline sells (documents §9) and the subscription statuses of §3: pure, no I/O.

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
  'not_found',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const isSubscriptionStatus = (value: unknown): value is SubscriptionStatus =>
  typeof value === 'string' && (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);

/** Statuses whose plan is in force: a trial, a paid period, and a failed renewal still being retried (grace). */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

export type PlanId = 'starter' | 'launch' | 'ai_accounting' | 'startup' | 'full_service' | 'growth';
export type Interval = 'monthly' | 'yearly';

/** null: unlimited. */
export interface Limits {
  bankAccounts: number | null;
  users: number | null;
  /** Cents of expenses a month. */
  monthlyExpenses: number | null;
}

export interface Plan {
  id: PlanId;
  name: string;
  description: string;
  /** Cents per month and per year (a year is ten months: two months free). */
  monthly: number;
  yearly: number;
  limits: Limits;
  features: string[];
}

const K = 100_000; // $1,000 in cents

/**
 * Spec §9 gives the monthly prices, the bank accounts and users of most plans and two expense ceilings; the
 * rest is chosen here (docs/decisions/0044): a yearly price of ten months, Startup $100k and Growth $250k a
 * month of expenses, Full Service unlimited in everything, AI Accounting's and Full Service's users unlimited.
 */
export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'Bookkeeping for a business just starting out.',
    monthly: 0,
    yearly: 0,
    limits: { bankAccounts: 1, users: 1, monthlyExpenses: 50 * K },
    features: ['1 bank account', 'Single user', 'Up to $50k monthly expenses'],
  },
  {
    id: 'launch',
    name: 'Launch',
    description: 'Free while you launch: the Starter limits with the launch checklist.',
    monthly: 0,
    yearly: 0,
    limits: { bankAccounts: 1, users: 1, monthlyExpenses: 50 * K },
    features: ['1 bank account', 'Single user', 'Up to $50k monthly expenses'],
  },
  {
    id: 'ai_accounting',
    name: 'AI Accounting',
    description: 'Automatic categorisation and reconciliation for a growing team.',
    monthly: 4_900,
    yearly: 49_000,
    limits: { bankAccounts: 3, users: null, monthlyExpenses: 100 * K },
    features: ['3 bank accounts', 'Unlimited users', 'Up to $100k monthly expenses', 'AI categorisation'],
  },
  {
    id: 'startup',
    name: 'Startup',
    description: 'More accounts for a founder keeping the books.',
    monthly: 2_400,
    yearly: 24_000,
    limits: { bankAccounts: 3, users: 1, monthlyExpenses: 100 * K },
    features: ['3 bank accounts', 'Single user', 'Up to $100k monthly expenses'],
  },
  {
    id: 'full_service',
    name: 'Full Service + AI Accounting',
    description: 'A dedicated accountant closes your books, with AI Accounting.',
    monthly: 19_900,
    yearly: 199_000,
    limits: { bankAccounts: null, users: null, monthlyExpenses: null },
    features: ['Unlimited bank accounts', 'Unlimited users', 'Dedicated accountant', 'AI categorisation'],
  },
  {
    id: 'growth',
    name: 'Growth',
    description: 'Every account you run, for one owner.',
    monthly: 8_000,
    yearly: 80_000,
    limits: { bankAccounts: null, users: 1, monthlyExpenses: 250 * K },
    features: ['Unlimited bank accounts', 'Single user', 'Up to $250k monthly expenses'],
  },
];

/** The plan of a workspace with no subscription in force. */
export const FREE_PLAN: Plan = PLANS[0]!;

/** Stripe price ids: test mode (the sandbox's catalog) and production (`price_...` of the live account). */
export function priceId(plan: PlanId, interval: Interval, mode: 'test' | 'prod'): string {
  return mode === 'test' ? `price_ledgerline_${plan}_${interval}` : `price_prod_ledgerline_${plan}_${interval}`;
}

export function planById(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** Which plan and interval a price id is (undefined: not one of ours). */
export function priceOf(id: string, mode: 'test' | 'prod'): { plan: Plan; interval: Interval } | undefined {
  for (const plan of PLANS) for (const interval of ['monthly', 'yearly'] as const) if (priceId(plan.id, interval, mode) === id) return { plan, interval };
  return undefined;
}

export const isFree = (plan: Plan): boolean => plan.monthly === 0 && plan.yearly === 0;

/** The plan in force under a subscription status: the subscribed plan while live, otherwise the free plan. */
export function planInForce(subscribed: Plan | undefined, status: SubscriptionStatus): Plan {
  return subscribed && LIVE_STATUSES.includes(status) ? subscribed : FREE_PLAN;
}

/**
 * The subscription that speaks for a workspace among all it ever had: the newest live one, else the newest.
 * An event about an older subscription (its cancellation after an upgrade) never displaces the current one.
 */
export function currentOf<T extends { status: SubscriptionStatus; stripeCreated: Date; seenAt: Date }>(subscriptions: readonly T[]): T | undefined {
  // Stripe's `created` is in seconds: two checkouts in one second are told apart by when billing first saw each.
  const newestFirst = [...subscriptions].sort((a, b) => b.stripeCreated.getTime() - a.stripeCreated.getTime() || b.seenAt.getTime() - a.seenAt.getTime());
  return newestFirst.find((s) => LIVE_STATUSES.includes(s.status)) ?? newestFirst[0];
}

/** -1 for unlimited (the wire's encoding). */
export const wireLimit = (n: number | null): number => (n === null ? -1 : n);

/** The refusal when adding one more of `what` would pass the plan's limit (undefined: allowed). */
export function limitProblem(plan: Plan, what: 'bankAccounts' | 'users', countAfter: number): string | undefined {
  const limit = plan.limits[what];
  if (limit === null || countAfter <= limit) return undefined;
  const noun = what === 'bankAccounts' ? (limit === 1 ? 'bank account' : 'bank accounts') : limit === 1 ? 'user' : 'users';
  return `Your ${plan.name} plan allows ${limit} ${noun}. Upgrade your plan to add more.`;
}
