// The platform's own billing (Ledgerline selling its plans): the plan catalog as products and prices of the
// platform account, Checkout Sessions in `mode=subscription` (POST/GET /v1/checkout/sessions, expire), the
// subscriptions a completed session creates, and the life of a subscription (trial, payment failure, pause,
// cancel) as Stripe moves it, each change emitted as the events Stripe sends to the platform's webhook
// endpoints. Field names follow Stripe's API reference (Checkout Session, Subscription, Invoice objects).
// A hosted checkout page stands in for checkout.stripe.com: GET /checkout/<id> shows the order, its form pays.
import { randomBytes } from 'node:crypto';
import type { StripeObject } from './account.js';
import type { Caller, StripeSandboxCore } from './core.js';
import { StripeApiError, stripeErrors } from './errors.js';

type Params = Record<string, unknown>;
type Answer = { status: number; body: unknown };

/** The plans Ledgerline sells (the billing service holds the same price ids as its test-mode prices). */
export const PLATFORM_CATALOG: ReadonlyArray<{ product: string; name: string; monthly: number; yearly: number }> = [
  { product: 'starter', name: 'Starter', monthly: 0, yearly: 0 },
  { product: 'launch', name: 'Launch', monthly: 0, yearly: 0 },
  { product: 'ai_accounting', name: 'AI Accounting', monthly: 4900, yearly: 49000 },
  { product: 'startup', name: 'Startup', monthly: 2400, yearly: 24000 },
  { product: 'full_service', name: 'Full Service + AI Accounting', monthly: 19900, yearly: 199000 },
  { product: 'growth', name: 'Growth', monthly: 8000, yearly: 80000 },
];

/** `price_ledgerline_<plan>_<monthly|yearly>`. */
export const platformPriceId = (plan: string, interval: 'monthly' | 'yearly'): string => `price_ledgerline_${plan}_${interval}`;

/** What the customer does on the hosted page (tests pick it through the control). */
export type CheckoutOutcome = 'paid' | 'trial' | 'pending';
/** Statuses a control may move a subscription to (the way Stripe would move it). */
export const SUBSCRIPTION_MOVES: Record<string, string[]> = {
  trialing: ['active', 'paused', 'past_due', 'canceled'],
  active: ['past_due', 'canceled'],
  past_due: ['active', 'unpaid', 'canceled'],
  unpaid: ['active', 'canceled'],
  paused: ['active', 'canceled'],
  incomplete: ['active', 'incomplete_expired'],
  incomplete_expired: [],
  canceled: [],
};

const DAY = 86_400;
const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

export class PlatformBilling {
  constructor(private readonly core: StripeSandboxCore) {
    const account = core.platform;
    const created = core.nowUnix() - 30 * DAY;
    for (const plan of PLATFORM_CATALOG) {
      const productId = `prod_ledgerline_${plan.product}`;
      account.add({
        id: productId,
        object: 'product',
        active: true,
        created,
        description: null,
        livemode: false,
        metadata: { plan: plan.product },
        name: plan.name,
        updated: created,
      });
      for (const interval of ['monthly', 'yearly'] as const) {
        const amount = interval === 'monthly' ? plan.monthly : plan.yearly;
        account.add({
          id: platformPriceId(plan.product, interval),
          object: 'price',
          active: true,
          billing_scheme: 'per_unit',
          created,
          currency: 'usd',
          livemode: false,
          lookup_key: `${plan.product}_${interval}`,
          metadata: { plan: plan.product },
          nickname: `${plan.name} ${interval}`,
          product: productId,
          recurring: { interval: interval === 'monthly' ? 'month' : 'year', interval_count: 1, usage_type: 'licensed' },
          type: 'recurring',
          unit_amount: amount,
          unit_amount_decimal: String(amount),
        });
      }
    }
  }

  /** The platform's /v1 routes this file adds; undefined for any other request. */
  route(method: string, segments: string[], params: Params, caller: Caller): Answer | undefined {
    if (segments[0] !== 'checkout' || segments[1] !== 'sessions') return undefined;
    if (!caller.platform) throw stripeErrors.unrecognizedUrl(method, `/v1/${segments.join('/')}`);
    const [, , id, action] = segments;
    if (method === 'POST' && segments.length === 2) return { status: 200, body: this.createSession(params) };
    if (method === 'GET' && segments.length === 3) return { status: 200, body: this.session(id!) };
    if (method === 'POST' && segments.length === 4 && action === 'expire') return { status: 200, body: this.expire(id!) };
    throw stripeErrors.unrecognizedUrl(method, `/v1/${segments.join('/')}`);
  }

  session(id: string): StripeObject {
    return this.core.platform.require('checkout.session', id);
  }

  private createSession(params: Params): StripeObject {
    allowOnly(params, [
      'mode',
      'line_items',
      'customer',
      'customer_email',
      'client_reference_id',
      'success_url',
      'cancel_url',
      'metadata',
      'subscription_data',
      'expand',
    ]);
    if (params.mode !== 'subscription') {
      if (params.mode === undefined) throw stripeErrors.missingParam('mode');
      throw stripeErrors.invalidValue('mode', `Invalid mode: this sandbox supports subscription only`);
    }
    const successUrl = str(params, 'success_url');
    if (!successUrl) throw stripeErrors.missingParam('success_url');
    const items = Array.isArray(params.line_items)
      ? params.line_items
      : params.line_items && typeof params.line_items === 'object'
        ? Object.values(params.line_items)
        : [];
    if (items.length !== 1) throw stripeErrors.invalidValue('line_items', 'line_items must have exactly one item in this sandbox');
    const item = items[0] as Params;
    const priceId = typeof item.price === 'string' ? item.price : '';
    const price = this.core.platform.get(priceId);
    if (!price || price.object !== 'price') throw stripeErrors.noSuch('price', priceId, 'line_items[0][price]');
    if (price.type !== 'recurring') throw stripeErrors.invalidValue('line_items[0][price]', 'A subscription mode session needs a recurring price');
    const quantity = item.quantity === undefined ? 1 : Number(item.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) throw stripeErrors.invalidParam('line_items[0][quantity]', 'Invalid integer: quantity');
    const customer = str(params, 'customer');
    if (customer) this.core.platform.require('customer', customer);
    const subscriptionData = (params.subscription_data ?? {}) as Params;
    const trialDays = subscriptionData.trial_period_days === undefined ? null : Number(subscriptionData.trial_period_days);
    if (trialDays !== null && (!Number.isInteger(trialDays) || trialDays < 1 || trialDays > 730))
      throw stripeErrors.invalidParam('subscription_data[trial_period_days]', 'Invalid integer: trial_period_days');
    const now = this.core.nowUnix();
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    return this.core.platform.add({
      id,
      object: 'checkout.session',
      amount_subtotal: price.unit_amount,
      amount_total: price.unit_amount,
      cancel_url: str(params, 'cancel_url'),
      client_reference_id: str(params, 'client_reference_id'),
      created: now,
      currency: 'usd',
      customer: customer ?? null,
      customer_email: str(params, 'customer_email'),
      expires_at: now + DAY,
      invoice: null,
      line_items_price: price.id,
      line_items_quantity: quantity,
      livemode: false,
      metadata: stringMap(params.metadata, 'metadata'),
      mode: 'subscription',
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      subscription_data: { metadata: stringMap(subscriptionData.metadata, 'subscription_data[metadata]'), trial_period_days: trialDays },
      success_url: successUrl,
      url: `${this.baseUrl}/checkout/${id}`,
    });
  }

  /** Set by startStripeSandbox once the port is known (the hosted page's address). */
  baseUrl = '';

  private expire(id: string): StripeObject {
    const session = this.session(id);
    if (session.status !== 'open')
      throw new StripeApiError(400, 'invalid_request_error', `Only open sessions can be expired (this one is ${String(session.status)})`);
    session.status = 'expired';
    this.core.emit(this.core.platform, 'checkout.session.expired', session);
    return session;
  }

  /**
   * The customer finishes the hosted page: `paid` (card charged, subscription active), `trial` (a trial was
   * asked for: trialing, nothing charged), `pending` (an asynchronous payment not yet settled: the session
   * completes unpaid and the subscription is incomplete). Emits what Stripe emits, in Stripe's order.
   */
  complete(id: string, outcome: CheckoutOutcome = 'paid'): { session: StripeObject; subscription: StripeObject; redirect: string } {
    const session = this.session(id);
    if (session.status !== 'open')
      throw new StripeApiError(400, 'invalid_request_error', `This Checkout Session is no longer open (${String(session.status)})`);
    const account = this.core.platform;
    const now = this.core.nowUnix();
    let customerId = session.customer as string | null;
    if (!customerId) {
      const customer = account.add({
        id: newId('cus'),
        object: 'customer',
        created: now,
        email: session.customer_email,
        livemode: false,
        metadata: {},
        name: null,
      });
      customerId = customer.id;
      this.core.emit(account, 'customer.created', customer);
    }
    const price = account.require('price', session.line_items_price as string);
    const trialDays = (session.subscription_data as { trial_period_days: number | null }).trial_period_days;
    const trialing = outcome === 'trial' || (outcome === 'paid' && trialDays !== null);
    const periodEnd = trialing ? now + (trialDays ?? 14) * DAY : now + ((price.recurring as { interval: string }).interval === 'year' ? 365 : 30) * DAY;
    const subId = newId('sub');
    const status = trialing ? 'trialing' : outcome === 'pending' ? 'incomplete' : 'active';
    const subscription = account.add<StripeObject>({
      id: subId,
      object: 'subscription',
      billing_cycle_anchor: periodEnd,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created: now,
      currency: 'usd',
      current_period_start: now,
      current_period_end: periodEnd,
      customer: customerId,
      ended_at: null,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            created: now,
            current_period_start: now,
            current_period_end: periodEnd,
            metadata: {},
            price,
            quantity: session.line_items_quantity,
            subscription: subId,
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: { ...(session.subscription_data as { metadata: Record<string, string> }).metadata },
      pause_collection: null,
      start_date: now,
      status,
      trial_end: trialing ? periodEnd : null,
      trial_start: trialing ? now : null,
    });
    const invoice = this.invoice(subscription, trialing ? 0 : (price.unit_amount as number), trialing || outcome === 'paid' ? 'paid' : 'open');
    subscription.latest_invoice = invoice.id;
    this.core.emit(account, 'customer.subscription.created', subscription);
    if (invoice.status === 'paid') this.core.emit(account, 'invoice.paid', invoice);
    Object.assign(session, {
      customer: customerId,
      invoice: invoice.id,
      payment_status: outcome === 'pending' ? 'unpaid' : trialing ? 'no_payment_required' : 'paid',
      status: 'complete',
      subscription: subId,
    });
    this.core.emit(account, 'checkout.session.completed', session);
    const redirect = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id);
    return { session, subscription, redirect };
  }

  private invoice(subscription: StripeObject, amount: number, status: 'paid' | 'open'): StripeObject {
    const now = this.core.nowUnix();
    return this.core.platform.add({
      id: newId('in'),
      object: 'invoice',
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      amount_remaining: status === 'paid' ? 0 : amount,
      attempt_count: status === 'paid' ? 1 : 0,
      created: now,
      currency: 'usd',
      customer: subscription.customer,
      livemode: false,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      period_start: subscription.current_period_start,
      period_end: subscription.current_period_end,
      status,
      subscription: subscription.id,
    });
  }

  /**
   * Moves a subscription as Stripe would (SUBSCRIPTION_MOVES): a trial ending paid or unpaid, a renewal
   * payment failing (past_due), retries exhausted (unpaid), a payment recovering (active), a pause and its
   * resumption, an incomplete first payment settling or expiring, a cancellation. Emits Stripe's events.
   */
  move(subscriptionId: string, to: string): StripeObject {
    const account = this.core.platform;
    const sub = account.require('subscription', subscriptionId);
    const from = sub.status as string;
    if (!(SUBSCRIPTION_MOVES[from] ?? []).includes(to))
      throw new StripeApiError(400, 'invalid_request_error', `A ${from} subscription cannot become ${to}`, 'subscription_status_invalid', 'status');
    const now = this.core.nowUnix();
    const previous: Record<string, unknown> = { status: from };
    const price = (sub.items as { data: Array<{ price: StripeObject }> }).data[0]!.price;
    sub.status = to;
    if (to === 'active') {
      if (from === 'trialing' || from === 'past_due' || from === 'unpaid') {
        const end = now + ((price.recurring as { interval: string }).interval === 'year' ? 365 : 30) * DAY;
        previous.current_period_start = sub.current_period_start;
        previous.current_period_end = sub.current_period_end;
        Object.assign(sub, { current_period_start: now, current_period_end: end });
      }
      sub.pause_collection = null;
      const invoice = this.invoice(sub, price.unit_amount as number, 'paid');
      sub.latest_invoice = invoice.id;
      this.core.emit(account, 'invoice.paid', invoice);
      if (from === 'paused') this.core.emit(account, 'customer.subscription.resumed', sub, previous);
      else this.core.emit(account, 'customer.subscription.updated', sub, previous);
      return sub;
    }
    if (to === 'past_due') {
      const invoice = this.invoice(sub, price.unit_amount as number, 'open');
      invoice.attempt_count = 1;
      sub.latest_invoice = invoice.id;
      this.core.emit(account, 'invoice.payment_failed', invoice);
      this.core.emit(account, 'customer.subscription.updated', sub, previous);
      return sub;
    }
    if (to === 'paused') {
      this.core.emit(account, 'customer.subscription.paused', sub, previous);
      return sub;
    }
    if (to === 'canceled' || to === 'incomplete_expired') {
      Object.assign(sub, { canceled_at: now, ended_at: now });
      this.core.emit(account, 'customer.subscription.deleted', sub, previous);
      return sub;
    }
    this.core.emit(account, 'customer.subscription.updated', sub, previous);
    return sub;
  }

  /** The hosted checkout page (GET) and its form (POST .../pay): undefined for any other path. */
  page(method: string, path: string, form: URLSearchParams): { status: number; html?: string; location?: string } | undefined {
    const match = /^\/checkout\/(cs_test_[0-9a-f]+)(\/pay)?$/.exec(path);
    if (!match) return undefined;
    const session = this.core.platform.get(match[1]!);
    if (!session || session.object !== 'checkout.session') return { status: 404, html: '<h1>This checkout page does not exist</h1>' };
    if (method === 'POST' && match[2]) {
      if (session.status !== 'open') return { status: 409, html: '<h1>This checkout is no longer open</h1>' };
      const outcome = form.get('outcome');
      return { status: 303, location: this.complete(session.id, outcome === 'trial' || outcome === 'pending' ? outcome : 'paid').redirect };
    }
    if (method !== 'GET' || match[2]) return undefined;
    const price = this.core.platform.get(session.line_items_price as string)!;
    const product = this.core.platform.get(price.product as string)!;
    const amount = ((price.unit_amount as number) / 100).toFixed(2);
    const per = (price.recurring as { interval: string }).interval;
    const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem;margin-top:1rem}</style></head>
<body><p>Stripe sandbox checkout</p><h1>${escape(String(product.name))}</h1><p><strong>$${amount}</strong> per ${per}</p>
${session.status === 'open' ? `<form method="post" action="/checkout/${session.id}/pay"><input type="hidden" name="outcome" value="paid"><label>Card <input name="card" value="4242 4242 4242 4242" readonly></label><br><button type="submit">Subscribe</button></form>` : `<p>This checkout is ${escape(String(session.status))}.</p>`}
${session.cancel_url ? `<p><a href="${escape(String(session.cancel_url))}">Back</a></p>` : ''}</body></html>`;
    return { status: 200, html };
  }
}

function str(params: Params, name: string): string | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw stripeErrors.invalidValue(name, `Invalid string: ${name}`);
  return value;
}

function stringMap(value: unknown, name: string): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw stripeErrors.invalidValue(name, `Invalid hash: ${name}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw stripeErrors.invalidValue(`${name}[${k}]`, 'Invalid string');
    out[k] = v;
  }
  return out;
}

function allowOnly(params: Params, allowed: string[]): void {
  for (const key of Object.keys(params)) if (!allowed.includes(key)) throw stripeErrors.unknownParam(key);
}
