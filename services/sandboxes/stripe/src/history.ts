// Deterministic generated histories: a seed and a size give the same connected account every time — products,
// prices (also readable as legacy plans), customers, subscriptions with trials, discounts and cancellations,
// monthly or yearly invoices paid by payment intents and charges, refunds, balance transactions with Stripe's
// fees, weekly payouts that sweep the available balance, and the events each change produced.
import type { StripeAccount } from './account.js';
import { type StripeObject } from './account.js';
import { generator, hashString, randomToken } from './prng.js';

export interface HistoryOptions {
  /** Customers to generate (each brings a subscription and its invoices, charges and balance transactions). */
  customers: number;
  /** Months of history, ending at `end` (default 12). */
  months?: number;
  seed: string;
  /** End of the history (default the sandbox clock). */
  end: Date;
}

const DAY = 86_400;

/** Stripe's standard US card pricing: 2.9% + 30¢ per successful charge (refunds return no fee). */
export function cardFee(amount: number): number {
  return Math.round(amount * 0.029) + 30;
}

export const CATALOG = [
  { name: 'Starter', monthly: 2900, yearly: 29000 },
  { name: 'Growth', monthly: 9900, yearly: 99000 },
  { name: 'Scale', monthly: 29900, yearly: 299000 },
] as const;

export const COUPON = { id: 'LAUNCH20', percent_off: 20 } as const;

/** Ids: prefix + 24 base-62 characters from the seed, so the same seed names every object the same way. */
export class IdMaker {
  private readonly random: () => number;
  private readonly seen = new Set<string>();
  constructor(seed: string) {
    this.random = generator(hashString(`ids:${seed}`));
  }
  next(prefix: string): string {
    for (;;) {
      const id = `${prefix}_${randomToken(this.random, 24)}`;
      if (!this.seen.has(id)) {
        this.seen.add(id);
        return id;
      }
    }
  }
}

/** Adds `months` calendar months to a Unix time (UTC), keeping the day where the month has it. */
export function addMonths(unix: number, months: number): number {
  const date = new Date(unix * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return Math.floor(date.getTime() / 1000);
}

interface Pending {
  at: number;
  run: () => void;
}

export function generateHistory(
  account: StripeAccount,
  ids: IdMaker,
  options: HistoryOptions,
  emit: (type: string, object: StripeObject, at: number, previous?: Record<string, unknown>) => void,
): void {
  const random = generator(hashString(`history:${options.seed}`));
  const end = Math.floor(options.end.getTime() / 1000);
  const start = addMonths(end, -(options.months ?? 12));
  const base = { livemode: false };
  const currency = 'usd';

  // Catalog: products and a monthly and a yearly price each, a day before the history starts.
  const catalogAt = start - DAY;
  const prices: StripeObject[] = [];
  for (const item of CATALOG) {
    const product = account.add({
      id: ids.next('prod'),
      object: 'product',
      active: true,
      created: catalogAt,
      updated: catalogAt,
      default_price: null,
      description: null,
      metadata: {},
      name: item.name,
      type: 'service',
      ...base,
    });
    emit('product.created', product, catalogAt);
    for (const [interval, amount] of [
      ['month', item.monthly],
      ['year', item.yearly],
    ] as const) {
      const price = account.add({
        id: ids.next('price'),
        object: 'price',
        active: true,
        billing_scheme: 'per_unit',
        created: catalogAt,
        currency,
        metadata: {},
        nickname: `${item.name} ${interval === 'month' ? 'monthly' : 'yearly'}`,
        product: product.id,
        recurring: { interval, interval_count: 1, usage_type: 'licensed', trial_period_days: null },
        tax_behavior: 'unspecified',
        type: 'recurring',
        unit_amount: amount,
        unit_amount_decimal: String(amount),
        ...base,
      });
      prices.push(price);
      emit('price.created', price, catalogAt);
    }
  }

  // Everything below happens in time order: the queue runs the earliest step first.
  const queue: Pending[] = [];
  const schedule = (at: number, run: () => void): void => {
    if (at <= end) queue.push({ at, run });
  };
  const balance: StripeObject[] = [];

  for (let c = 0; c < options.customers; c++) {
    const created = start + Math.floor(random() * (end - start) * 0.92);
    const price = prices[Math.floor(random() * prices.length)]!;
    const trial = random() < 0.3;
    const discounted = random() < 0.15;
    const cancels = random() < 0.25;
    const cancelFraction = random();
    const name = `Customer ${c + 1}`;
    schedule(created, () => {
      const customer = account.add({
        id: ids.next('cus'),
        object: 'customer',
        address: null,
        balance: 0,
        created,
        currency,
        delinquent: false,
        description: null,
        email: `customer${c + 1}@example.com`,
        invoice_prefix: randomToken(random, 8).toUpperCase(),
        metadata: {},
        name,
        phone: null,
        ...base,
      });
      emit('customer.created', customer, created);
      startSubscription(customer, price, created, { trial, discounted, cancels, cancelFraction });
    });
  }

  function startSubscription(
    customer: StripeObject,
    price: StripeObject,
    created: number,
    draw: { trial: boolean; discounted: boolean; cancels: boolean; cancelFraction: number },
  ): void {
    const recurring = price.recurring as { interval: 'month' | 'year' };
    const months = recurring.interval === 'year' ? 12 : 1;
    const trialEnd = draw.trial ? created + 14 * DAY : null;
    const subId = ids.next('sub');
    const discount = draw.discounted
      ? {
          id: ids.next('di'),
          object: 'discount',
          coupon: { id: COUPON.id, object: 'coupon', amount_off: null, currency: null, duration: 'forever', percent_off: COUPON.percent_off, valid: true },
          customer: customer.id,
          start: created,
          end: null,
          subscription: subId,
        }
      : null;
    const firstPeriodEnd = trialEnd ?? addMonths(created, months);
    const plan = planOf(price);
    const sub: StripeObject = account.add<StripeObject>({
      id: subId,
      object: 'subscription',
      billing_cycle_anchor: trialEnd ?? created,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created,
      currency: 'usd',
      current_period_start: created,
      current_period_end: firstPeriodEnd,
      customer: customer.id,
      discount,
      discounts: discount ? [discount.id] : [],
      ended_at: null,
      items: {
        object: 'list',
        data: [
          {
            id: ids.next('si'),
            object: 'subscription_item',
            created,
            current_period_start: created,
            current_period_end: firstPeriodEnd,
            metadata: {},
            plan,
            price,
            quantity: 1,
            subscription: subId,
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: null,
      metadata: {},
      plan,
      quantity: 1,
      start_date: created,
      status: trialEnd ? 'trialing' : 'active',
      trial_end: trialEnd,
      trial_start: trialEnd ? created : null,
      livemode: false,
    });
    emit('customer.subscription.created', sub, created);
    const amount = Math.round((price.unit_amount as number) * (discount ? 1 - COUPON.percent_off / 100 : 1));
    const cancelAt = draw.cancels ? created + Math.floor(draw.cancelFraction * (end - created)) + DAY : Number.POSITIVE_INFINITY;

    const bill = (periodStart: number, first: boolean): void => {
      if (periodStart >= cancelAt) return;
      const periodEnd = addMonths(periodStart, months);
      const previous = { status: sub.status, current_period_start: sub.current_period_start, current_period_end: sub.current_period_end };
      sub.current_period_start = periodStart;
      sub.current_period_end = periodEnd;
      sub.status = 'active';
      const item = (sub.items as { data: StripeObject[] }).data[0]!;
      item.current_period_start = periodStart;
      item.current_period_end = periodEnd;
      if (!first || trialEnd) emit('customer.subscription.updated', sub, periodStart, previous);
      invoice(customer, sub, price, amount, periodStart, periodEnd);
      schedule(periodEnd, () => bill(periodEnd, false));
    };
    schedule(trialEnd ?? created, () => bill(trialEnd ?? created, true));
    if (Number.isFinite(cancelAt)) {
      schedule(cancelAt, () => {
        const previous = { status: sub.status, canceled_at: null, ended_at: null };
        sub.status = 'canceled';
        sub.canceled_at = cancelAt;
        sub.ended_at = cancelAt;
        emit('customer.subscription.deleted', sub, cancelAt, previous);
      });
    }
  }

  function invoice(customer: StripeObject, sub: StripeObject, price: StripeObject, amount: number, periodStart: number, periodEnd: number): void {
    const at = periodStart;
    const invoiceId = ids.next('in');
    const piId = ids.next('pi');
    const chargeId = ids.next('ch');
    const fee = cardFee(amount);
    const txn = account.add({
      id: ids.next('txn'),
      object: 'balance_transaction',
      amount,
      available_on: at + 2 * DAY,
      created: at,
      currency: 'usd',
      description: `Subscription ${sub.id}`,
      exchange_rate: null,
      fee,
      fee_details: [{ amount: fee, application: null, currency: 'usd', description: 'Stripe processing fees', type: 'stripe_fee' }],
      net: amount - fee,
      reporting_category: 'charge',
      source: chargeId,
      status: at + 2 * DAY <= end ? 'available' : 'pending',
      type: 'charge',
    });
    balance.push(txn);
    const inv = account.add({
      id: invoiceId,
      object: 'invoice',
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      billing_reason: sub.latest_invoice ? 'subscription_cycle' : 'subscription_create',
      charge: chargeId,
      collection_method: 'charge_automatically',
      created: at,
      currency: 'usd',
      customer: customer.id,
      discount: sub.discount,
      lines: {
        object: 'list',
        data: [
          {
            id: `il_${invoiceId.slice(3)}`,
            object: 'line_item',
            amount: price.unit_amount,
            currency: 'usd',
            period: { start: periodStart, end: periodEnd },
            price,
            quantity: 1,
          },
        ],
        has_more: false,
        url: `/v1/invoices/${invoiceId}/lines`,
      },
      number: `${customer.invoice_prefix as string}-${String(account.count('invoice') + 1).padStart(4, '0')}`,
      paid: true,
      payment_intent: piId,
      period_end: periodEnd,
      period_start: periodStart,
      status: 'paid',
      status_transitions: { finalized_at: at, paid_at: at },
      subscription: sub.id,
      subtotal: price.unit_amount,
      total: amount,
      livemode: false,
    });
    sub.latest_invoice = inv.id;
    const charge = account.add({
      id: chargeId,
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      balance_transaction: txn.id,
      captured: true,
      created: at,
      currency: 'usd',
      customer: customer.id,
      description: `Subscription ${price.nickname as string}`,
      invoice: inv.id,
      paid: true,
      payment_intent: piId,
      payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      refunded: false,
      status: 'succeeded',
      livemode: false,
    });
    const pi = account.add({
      id: piId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: amount,
      capture_method: 'automatic',
      created: at,
      currency: 'usd',
      customer: customer.id,
      description: charge.description,
      invoice: inv.id,
      latest_charge: chargeId,
      metadata: {},
      payment_method_types: ['card'],
      status: 'succeeded',
      livemode: false,
    });
    emit('payment_intent.succeeded', pi, at);
    emit('charge.succeeded', charge, at);
    emit('invoice.paid', inv, at);
    // One charge in twenty-five is refunded (half of those in full, half partly) three days later.
    const refundDraw = random();
    if (refundDraw < 0.04) {
      const refundAt = at + 3 * DAY;
      const refunded = refundDraw < 0.02 ? amount : Math.round(amount / 2);
      schedule(refundAt, () => {
        const refundId = ids.next('re');
        const refundTxn = account.add({
          id: ids.next('txn'),
          object: 'balance_transaction',
          amount: -refunded,
          available_on: refundAt,
          created: refundAt,
          currency: 'usd',
          description: 'REFUND FOR CHARGE',
          exchange_rate: null,
          fee: 0,
          fee_details: [],
          net: -refunded,
          reporting_category: 'refund',
          source: refundId,
          status: 'available',
          type: 'refund',
        });
        balance.push(refundTxn);
        const refund = account.add({
          id: refundId,
          object: 'refund',
          amount: refunded,
          balance_transaction: refundTxn.id,
          charge: chargeId,
          created: refundAt,
          currency: 'usd',
          metadata: {},
          payment_intent: piId,
          reason: 'requested_by_customer',
          status: 'succeeded',
        });
        const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
        charge.amount_refunded = refunded;
        charge.refunded = refunded === amount;
        emit('charge.refunded', charge, refundAt, previous);
        emit('refund.created', refund, refundAt);
      });
    }
  }

  // Weekly automatic payouts of the available balance (Stripe's default schedule for many accounts is daily;
  // weekly keeps payouts few and each one made of many balance transactions).
  const paid = new Set<string>();
  for (let at = start + 7 * DAY; at <= end; at += 7 * DAY) {
    schedule(at, () => {
      const included = balance.filter((t) => !paid.has(t.id) && (t.available_on as number) <= at);
      const total = included.reduce((sum, t) => sum + (t.net as number), 0);
      if (included.length === 0 || total <= 0) return;
      for (const t of included) paid.add(t.id);
      const payoutId = ids.next('po');
      const arrival = at + 2 * DAY;
      const own = account.add({
        id: ids.next('txn'),
        object: 'balance_transaction',
        amount: -total,
        available_on: at,
        created: at,
        currency: 'usd',
        description: 'STRIPE PAYOUT',
        exchange_rate: null,
        fee: 0,
        fee_details: [],
        net: -total,
        reporting_category: 'payout',
        source: payoutId,
        status: 'available',
        type: 'payout',
      });
      const payout = account.add({
        id: payoutId,
        object: 'payout',
        amount: total,
        arrival_date: arrival,
        automatic: true,
        balance_transaction: own.id,
        created: at,
        currency: 'usd',
        description: 'STRIPE PAYOUT',
        destination: `ba_${account.id.slice(5)}`,
        metadata: {},
        method: 'standard',
        source_type: 'card',
        statement_descriptor: null,
        status: arrival <= end ? 'paid' : 'in_transit',
        type: 'bank_account',
        livemode: false,
      });
      account.payoutTransactions.set(payoutId, [own.id, ...included.map((t) => t.id)]);
      emit('payout.created', payout, at);
      if (arrival <= end) emit('payout.paid', payout, arrival);
    });
  }

  // Run the steps in time order; steps may schedule later ones (next billing period, refunds).
  while (queue.length > 0) {
    let next = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i]!.at < queue[next]!.at) next = i;
    const [step] = queue.splice(next, 1);
    step!.run();
  }
}

/** The legacy plan view of a recurring price (Stripe keeps plans and prices under the same id). */
export function planOf(price: StripeObject): StripeObject {
  const recurring = price.recurring as { interval: string; interval_count: number; usage_type: string };
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    nickname: price.nickname,
    product: price.product,
    trial_period_days: null,
    usage_type: recurring.usage_type,
  };
}
