// Revenue analytics against a hand-computed fixture (March 2026): every number below was worked out by hand
// from the objects, following the definitions in the README.
import { describe, expect, it } from 'vitest';
import { metric, periodOf, subscriptionChurn, type Metric, type RevenueData, type SubscriptionLike } from '../src/domain/revenue.js';
import { breakdownColumns, breakdownOf, effectiveBreakdown } from '../src/domain/stripe-breakdown.js';
import { payoutDetail, plansAt, productsAt, type PriceLike } from '../src/domain/stripe-views.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const monthly = (amount: number, id = `price_m${amount}`) => ({ id, unit_amount: amount, recurring: { interval: 'month', interval_count: 1 } });
const yearly = (amount: number, id = `price_y${amount}`) => ({ id, unit_amount: amount, recurring: { interval: 'year', interval_count: 1 } });
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
    // Net revenue: charges 14,000 − refunds 2,500 − fees 496.
    expect(value('net-revenue')).toEqual({ kind: 'money', cents: 11_004 });
  });

  it('breaks a time series into calendar columns, each the metric over its column (point-in-time ones at its end)', () => {
    const cols = breakdownColumns(effectiveBreakdown('monthly', '2026-02-01', '2026-03-31'), '2026-02-01', '2026-03-31');
    expect(cols).toEqual([
      { label: 'Feb-26', startDate: '2026-02-01', endDate: '2026-02-28' },
      { label: 'Mar-26', startDate: '2026-03-01', endDate: '2026-03-31' },
    ]);
    const per = (name: Metric) => cols.map((c) => metric(name, data, periodOf(c.startDate, c.endDate)));
    // MRR at 28 February: A 3,000 + B 1,600 + C 6,000 (F ended 20 February) = 10,600; at 31 March 9,600 (above).
    expect(per('mrr')).toEqual([
      { kind: 'money', cents: 10_600 },
      { kind: 'money', cents: 9600 },
    ]);
    expect(per('total-charge/value')).toEqual([
      { kind: 'money', cents: 19_200 },
      { kind: 'money', cents: 14_000 },
    ]);
    // February: 19,200 charged, 587 in fees; March as above.
    expect(per('net-revenue')).toEqual([
      { kind: 'money', cents: 18_613 },
      { kind: 'money', cents: 11_004 },
    ]);
    // The spec's fallbacks: under a month totals only; yearly under 11 months and quarterly under 2 months monthly.
    expect(effectiveBreakdown('weekly', '2026-03-01', '2026-03-14')).toBe('totals_only');
    expect(effectiveBreakdown('yearly', '2026-01-01', '2026-06-30')).toBe('monthly');
    expect(effectiveBreakdown('quarterly', '2026-02-01', '2026-03-15')).toBe('monthly');
    expect(effectiveBreakdown('quarterly', '2026-01-01', '2026-06-30')).toBe('quarterly');
    expect(breakdownColumns('weekly', '2026-03-04', '2026-03-17').map((c) => c.label)).toEqual([
      '03/04/26 - 03/08/26',
      '03/09/26 - 03/15/26',
      '03/16/26 - 03/17/26',
    ]);
    expect(breakdownColumns('quarterly', '2026-02-10', '2026-07-01').map((c) => [c.label, c.startDate, c.endDate])).toEqual([
      ['Q1-26', '2026-02-10', '2026-03-31'],
      ['Q2-26', '2026-04-01', '2026-06-30'],
      ['Q3-26', '2026-07-01', '2026-07-01'],
    ]);
    expect([breakdownOf('month'), breakdownOf('Monthly'), breakdownOf('year'), breakdownOf('fortnight')]).toEqual(['monthly', 'monthly', 'yearly', undefined]);
  });

  it('plans and products: the subscriptions paying on each at the end of the day, and their customers', () => {
    const price = (id: string, product: string, amount: number, interval: string | null, extra: Partial<PriceLike> = {}): PriceLike => ({
      id,
      product,
      active: true,
      currency: 'usd',
      unit_amount: amount,
      nickname: null,
      recurring: interval ? { interval, interval_count: 1 } : null,
      created: at('2025-12-01T00:00:00Z'),
      ...extra,
    });
    const prices = [
      price('price_m3000', 'prod_basic', 3000, 'month', { nickname: 'Basic monthly' }),
      price('price_y24000', 'prod_basic', 24_000, 'year'),
      price('price_m5000', 'prod_pro', 5000, 'month', { active: false }),
      price('price_once', 'prod_pro', 9900, null), // one-time: not a plan
    ];
    const products = [
      { id: 'prod_basic', name: 'Basic', active: true, created: at('2025-12-01T00:00:00Z') },
      { id: 'prod_pro', name: 'Pro', active: true, created: at('2025-12-01T00:00:00Z') },
    ];
    const endOfMarch = march.end;
    // Paying at 31 March: A (Basic monthly, cus_1), B (Basic yearly, cus_2), E (Pro monthly, cus_1); D is in trial.
    expect(
      plansAt(prices, products, data.subscriptions, endOfMarch).map((p) => [
        p.planName,
        p.amountCents,
        p.interval,
        p.planActive,
        p.activeSubscriptions,
        p.activeCustomers,
      ]),
    ).toEqual([
      ['Basic', 24_000, 'year', true, 1, 1],
      ['Basic monthly', 3000, 'month', true, 1, 1],
      ['Pro', 5000, 'month', false, 1, 1],
    ]);
    expect(productsAt(products, prices, data.subscriptions, endOfMarch).map((p) => [p.name, p.plans, p.activeSubscriptions, p.activeCustomers])).toEqual([
      ['Basic', 2, 2, 2],
      ['Pro', 1, 1, 1],
    ]);
    // At 28 February C (Basic monthly ×2, cus_3) was paying too, E not yet.
    expect(
      plansAt(prices, products, data.subscriptions, periodOf('2026-02-28', '2026-02-28').end).map((p) => [
        p.planName,
        p.activeSubscriptions,
        p.activeCustomers,
      ]),
    ).toEqual([
      ['Basic', 1, 1],
      ['Basic monthly', 2, 2],
      ['Pro', 0, 0],
    ]);
  });

  it("a payout's gross-to-net equals its hand-computed parts and its amount", () => {
    const t = (id: string, type: string, amount: number, fee: number) => ({ id, type, amount, fee, net: amount - fee, created: at('2026-03-10T00:00:00Z') });
    const members = [
      t('txn_po', 'payout', -3529, 0),
      t('txn_1', 'charge', 6000, 204),
      t('txn_2', 'charge', 3000, 117),
      t('txn_3', 'refund', -2500, 0),
      t('txn_4', 'stripe_fee', -150, 0),
      t('txn_5', 'adjustment', -1000, 1500), // a dispute: the amount back and Stripe's dispute fee
    ];
    const d = payoutDetail(
      { id: 'po_1', amount: 3529, currency: 'usd', arrival_date: at('2026-03-12T00:00:00Z'), created: at('2026-03-10T00:00:00Z'), status: 'paid' },
      members,
    );
    // gross 9,000; fees 204 + 117 + 150 = 471; refunds 2,500; adjustments −2,500; 9,000 − 471 − 2,500 − 2,500 = 3,529.
    expect(d.composition).toEqual({ gross: 9000, fees: 471, refunds: 2500, adjustments: -2500, net: 3529 });
    expect(d.composition.net).toBe(d.payout.amountCents);
    expect(d.items.map((i) => [i.id, i.type])).toEqual([
      ['txn_po', 'payout'],
      ['txn_1', 'charge'],
      ['txn_2', 'charge'],
      ['txn_3', 'refund'],
      ['txn_4', 'stripe_fee'],
      ['txn_5', 'adjustment'],
    ]);
    expect(d.payout).toMatchObject({ arrivalDate: '2026-03-12', status: 'paid' });
  });
});
