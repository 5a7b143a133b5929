// Revenue analytics over synced Stripe objects: pure functions, no I/O. Definitions (also in the README):
// a period is [startDate 00:00:00, endDate 23:59:59] UTC; amounts are in the account's minor unit (cents).

const DAY = 86_400;

export interface Period {
  /** Unix seconds, inclusive. */
  start: number;
  /** Unix seconds, inclusive. */
  end: number;
}

/** YYYY-MM-DD → the period's bounds (UTC). */
export function periodOf(startDate: string, endDate: string): Period {
  return { start: Date.parse(`${startDate}T00:00:00Z`) / 1000, end: Date.parse(`${endDate}T00:00:00Z`) / 1000 + DAY - 1 };
}

interface PriceLike {
  unit_amount: number | null;
  recurring: { interval: string; interval_count: number } | null;
}
export interface SubscriptionLike {
  id: string;
  customer: string | { id: string };
  start_date: number;
  trial_start: number | null;
  trial_end: number | null;
  ended_at: number | null;
  canceled_at?: number | null;
  status: string;
  discount?: { coupon?: { percent_off?: number | null; amount_off?: number | null } | null } | null;
  items: { data: Array<{ price: PriceLike; quantity?: number }> };
}

/** Months per billing interval: a yearly price counts a twelfth a month, a weekly one 52/12. */
const MONTHS_PER: Record<string, number> = { day: 12 / 365, week: 12 / 52, month: 1, year: 12 };

/**
 * The subscription's monthly recurring amount, unrounded: each item's unit amount × quantity spread over its
 * interval in months, less the discount (percent off the total, or an amount off each invoice spread the same way).
 */
export function monthlyAmount(sub: SubscriptionLike): number {
  let total = 0;
  let months = 1;
  for (const item of sub.items.data) {
    const recurring = item.price.recurring;
    if (!recurring || item.price.unit_amount === null) continue;
    months = (MONTHS_PER[recurring.interval] ?? 1) * recurring.interval_count;
    total += (item.price.unit_amount * (item.quantity ?? 1)) / months;
  }
  const coupon = sub.discount?.coupon;
  if (coupon?.percent_off) total *= 1 - coupon.percent_off / 100;
  else if (coupon?.amount_off) total = Math.max(0, total - coupon.amount_off / months);
  return total;
}

function endedAt(sub: SubscriptionLike): number | null {
  return sub.ended_at ?? (sub.status === 'canceled' ? (sub.canceled_at ?? null) : null);
}

/** Paying at instant t: started, out of any trial, not ended. Trials count for nothing in MRR. */
export function payingAt(sub: SubscriptionLike, t: number): boolean {
  if (sub.start_date > t) return false;
  if (sub.trial_end !== null && sub.trial_end > t) return false;
  const ended = endedAt(sub);
  return ended === null || ended > t;
}

export const customerOf = (sub: SubscriptionLike): string => (typeof sub.customer === 'string' ? sub.customer : sub.customer.id);

/** MRR at instant t, in cents (rounded once, at the end). */
export function mrrAt(subs: SubscriptionLike[], t: number): number {
  return Math.round(subs.filter((s) => payingAt(s, t)).reduce((sum, s) => sum + monthlyAmount(s), 0));
}

/** Churn of the period, in percent: the MRR of subscriptions paying at its start that ended in it ÷ MRR at its start. */
export function subscriptionChurn(subs: SubscriptionLike[], period: Period): { percent: number; churnedMrr: number; startMrr: number } {
  const atStart = subs.filter((s) => payingAt(s, period.start));
  const startMrr = atStart.reduce((sum, s) => sum + monthlyAmount(s), 0);
  const churned = atStart.filter((s) => {
    const ended = endedAt(s);
    return ended !== null && ended > period.start && ended <= period.end;
  });
  const churnedMrr = churned.reduce((sum, s) => sum + monthlyAmount(s), 0);
  return {
    percent: startMrr === 0 ? 0 : Math.round((churnedMrr / startMrr) * 10_000) / 100,
    churnedMrr: Math.round(churnedMrr),
    startMrr: Math.round(startMrr),
  };
}

export const inPeriod = (t: number | null | undefined, p: Period): boolean => t !== null && t !== undefined && t >= p.start && t <= p.end;

export interface RevenueData {
  subscriptions: SubscriptionLike[];
  customers: Array<{ created: number }>;
  charges: Array<{ created: number; amount: number; status: string }>;
  refunds: Array<{ created: number; amount: number; status: string | null }>;
  balanceTransactions: Array<{ created: number; fee: number }>;
  payouts: Array<{ arrival_date: number; amount: number; status: string }>;
}

export const METRICS = [
  'mrr',
  'arr',
  'net-revenue',
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
export type Metric = (typeof METRICS)[number];

export type MetricValue = { kind: 'money'; cents: number } | { kind: 'count'; count: number } | { kind: 'percent'; percent: number };

/** One metric over a period (point-in-time metrics are taken at the period's end). */
export function metric(name: Metric, data: RevenueData, period: Period): MetricValue {
  const money = (cents: number): MetricValue => ({ kind: 'money', cents });
  const count = (n: number): MetricValue => ({ kind: 'count', count: n });
  const charges = data.charges.filter((c) => c.status === 'succeeded' && inPeriod(c.created, period));
  const refunds = data.refunds.filter((r) => r.status !== 'failed' && r.status !== 'canceled' && inPeriod(r.created, period));
  const sum = (xs: Array<{ amount: number }>) => xs.reduce((s, x) => s + x.amount, 0);
  const fees = () => data.balanceTransactions.filter((t) => inPeriod(t.created, period)).reduce((s, t) => s + t.fee, 0);
  switch (name) {
    case 'mrr':
      return money(mrrAt(data.subscriptions, period.end));
    case 'arr':
      return money(mrrAt(data.subscriptions, period.end) * 12);
    case 'active-subscriptions':
      return count(data.subscriptions.filter((s) => payingAt(s, period.end)).length);
    case 'active-customers':
      return count(new Set(data.subscriptions.filter((s) => payingAt(s, period.end)).map(customerOf)).size);
    case 'new-subscriptions':
      return count(data.subscriptions.filter((s) => inPeriod(s.start_date, period)).length);
    case 'new-customers':
      return count(data.customers.filter((c) => inPeriod(c.created, period)).length);
    case 'new-trails':
      return count(data.subscriptions.filter((s) => inPeriod(s.trial_start, period)).length);
    case 'subscription-churn':
      return { kind: 'percent', percent: subscriptionChurn(data.subscriptions, period).percent };
    case 'gross-revenue/value':
      return money(sum(charges) - sum(refunds));
    case 'total-charge/value':
      return money(sum(charges));
    case 'total-refund/value':
      return money(sum(refunds));
    case 'total-fee/value':
      return money(fees());
    case 'net-revenue':
      return money(sum(charges) - sum(refunds) - fees());
    case 'net-payout/value':
      return money(sum(data.payouts.filter((p) => p.status === 'paid' && inPeriod(p.arrival_date, period))));
  }
}
