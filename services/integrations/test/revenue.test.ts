// Revenue analytics against a hand-computed fixture (March 2026): every number below was worked out by hand
// from the objects, following the definitions in the README.
import { describe, expect, it } from 'vitest';
import { metric, periodOf, subscriptionChurn, type RevenueData, type SubscriptionLike } from '../src/domain/revenue.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const monthly = (amount: number) => ({ unit_amount: amount, recurring: { interval: 'month', interval_count: 1 } });
const yearly = (amount: number) => ({ unit_amount: amount, recurring: { interval: 'year', interval_count: 1 } });
const sub = (
  id: string,
  customer: string,
  price: ReturnType<typeof monthly>,
  start: string,
  extra: Partial<SubscriptionLike> = {},
  quantity = 1,
): SubscriptionLike => ({
  id,
  customer,
  start_date: at(start),
  trial_start: null,
  trial_end: null,
  ended_at: null,
  status: 'active',
  items: { data: [{ price, quantity }] },
  ...extra,
});

const data: RevenueData = {
  subscriptions: [
    sub('A', 'cus_1', monthly(3000), '2026-01-10T00:00:00Z'), // paying all March: 30.00 a month
    sub('B', 'cus_2', yearly(24000), '2026-02-01T00:00:00Z', { discount: { coupon: { percent_off: 20 } } }), // 240.00 a year less 20%: 16.00 a month
    sub('C', 'cus_3', monthly(3000), '2026-01-05T00:00:00Z', { ended_at: at('2026-03-15T12:00:00Z'), status: 'canceled' }, 2), // 60.00 a month, churned in March
    sub('D', 'cus_3', monthly(3000), '2026-03-20T00:00:00Z', {
      trial_start: at('2026-03-20T00:00:00Z'),
      trial_end: at('2026-04-03T00:00:00Z'),
      status: 'trialing',
    }), // in trial at the end
    sub('E', 'cus_1', monthly(5000), '2026-03-10T00:00:00Z'), // new in March: 50.00 a month
    sub('F', 'cus_4', monthly(3000), '2025-12-01T00:00:00Z', { ended_at: at('2026-02-20T00:00:00Z'), status: 'canceled' }), // gone before March
  ],
  customers: [
    { created: at('2026-01-05T00:00:00Z') },
    { created: at('2026-02-01T00:00:00Z') },
    { created: at('2026-03-10T00:00:00Z') },
    { created: at('2026-03-31T23:00:00Z') },
  ],
  charges: [
    { created: at('2026-02-01T00:00:00Z'), amount: 19200, status: 'succeeded' }, // February: outside
    { created: at('2026-03-05T00:00:00Z'), amount: 6000, status: 'succeeded' },
    { created: at('2026-03-10T00:00:00Z'), amount: 3000, status: 'succeeded' },
    { created: at('2026-03-10T00:00:00Z'), amount: 5000, status: 'succeeded' },
    { created: at('2026-03-12T00:00:00Z'), amount: 3000, status: 'failed' }, // failed: not revenue
  ],
  refunds: [{ created: at('2026-03-12T00:00:00Z'), amount: 2500, status: 'succeeded' }],
  balanceTransactions: [
    { created: at('2026-02-01T00:00:00Z'), fee: 587 },
    { created: at('2026-03-05T00:00:00Z'), fee: 204 },
    { created: at('2026-03-10T00:00:00Z'), fee: 117 },
    { created: at('2026-03-10T00:00:00Z'), fee: 175 },
    { created: at('2026-03-12T00:00:00Z'), fee: 0 },
  ],
  payouts: [
    { arrival_date: at('2026-03-03T00:00:00Z'), amount: 9000, status: 'paid' },
    { arrival_date: at('2026-03-31T23:00:00Z'), amount: 4000, status: 'paid' },
    { arrival_date: at('2026-03-25T00:00:00Z'), amount: 1000, status: 'failed' }, // failed: not paid out
    { arrival_date: at('2026-04-01T00:00:00Z'), amount: 5000, status: 'in_transit' }, // April
  ],
};

const march = periodOf('2026-03-01', '2026-03-31');

describe('revenue analytics, March 2026 fixture', () => {
  it('equals the hand-computed figures', () => {
    const value = (name: Parameters<typeof metric>[0]) => metric(name, data, march);
    // MRR at 31 March 23:59:59: A 3,000 + B 1,600 + E 5,000 (C ended, D in trial, F gone).
    expect(value('mrr')).toEqual({ kind: 'money', cents: 9600 });
    expect(value('arr')).toEqual({ kind: 'money', cents: 115_200 });
    expect(value('active-subscriptions')).toEqual({ kind: 'count', count: 3 });
    expect(value('active-customers')).toEqual({ kind: 'count', count: 2 }); // cus_1 (A, E) and cus_2 (B)
    expect(value('new-subscriptions')).toEqual({ kind: 'count', count: 2 }); // D, E
    expect(value('new-customers')).toEqual({ kind: 'count', count: 2 });
    expect(value('new-trails')).toEqual({ kind: 'count', count: 1 }); // D
    // MRR at 1 March: A 3,000 + B 1,600 + C 6,000 = 10,600; C's 6,000 churned: 56.60%.
    expect(subscriptionChurn(data.subscriptions, march)).toEqual({ percent: 56.6, churnedMrr: 6000, startMrr: 10_600 });
    expect(value('subscription-churn')).toEqual({ kind: 'percent', percent: 56.6 });
    expect(value('total-charge/value')).toEqual({ kind: 'money', cents: 14_000 });
    expect(value('total-refund/value')).toEqual({ kind: 'money', cents: 2500 });
    expect(value('gross-revenue/value')).toEqual({ kind: 'money', cents: 11_500 });
    expect(value('total-fee/value')).toEqual({ kind: 'money', cents: 496 });
    expect(value('net-payout/value')).toEqual({ kind: 'money', cents: 13_000 });
  });
});
