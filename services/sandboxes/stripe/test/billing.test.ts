// The platform's billing in the sandbox through the official SDK: the seeded catalog, Checkout Sessions (create,
// retrieve, expire, Stripe's errors), the hosted page paying and redirecting, completed sessions making
// subscriptions, and subscription moves emitting Stripe's events (and refusing a move Stripe would not make).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeSandbox, type StripeSandbox } from '../src/index.js';

let sandbox: StripeSandbox;
let stripe: Stripe;

beforeAll(async () => {
  sandbox = await startStripeSandbox();
  sandbox.setAutoDeliver(false);
  stripe = new Stripe(sandbox.secretKey, { ...sandbox.sdkConfig, maxNetworkRetries: 0, telemetry: false });
});
afterAll(async () => sandbox?.close());

const session = (price: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, quantity: 1 }],
    success_url: 'http://app.test/settings?tab=billing&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/settings?tab=billing',
    client_reference_id: 'ws-1',
    subscription_data: { metadata: { workspaceId: 'ws-1' } },
    ...extra,
  });

const eventTypes = (after: number) =>
  sandbox
    .platformObjects('event')
    .slice(after)
    .map((e) => e.type);

describe("the platform's billing", () => {
  it('seeds the six plans as products with monthly and yearly prices', async () => {
    const prices = await stripe.prices.list({ limit: 100 });
    const ours = prices.data.filter((p) => p.id.startsWith('price_ledgerline_'));
    expect(ours).toHaveLength(12);
    const startup = await stripe.prices.retrieve('price_ledgerline_startup_yearly');
    expect([startup.unit_amount, startup.recurring?.interval, startup.product]).toEqual([24000, 'year', 'prod_ledgerline_startup']);
  });

  it('creates, retrieves and expires a Checkout Session; refuses an unknown price and a payment mode with Stripe errors', async () => {
    const created = await session('price_ledgerline_growth_monthly');
    expect(created).toMatchObject({ object: 'checkout.session', mode: 'subscription', status: 'open', payment_status: 'unpaid', client_reference_id: 'ws-1' });
    expect(created.url).toBe(`${sandbox.url}/checkout/${created.id}`);
    expect((await stripe.checkout.sessions.retrieve(created.id)).id).toBe(created.id);
    const expired = await stripe.checkout.sessions.expire(created.id);
    expect(expired.status).toBe('expired');
    await expect(stripe.checkout.sessions.expire(created.id)).rejects.toMatchObject({ statusCode: 400 });

    await expect(session('price_nope')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'line_items[0][price]' });
    await expect(session('price_ledgerline_growth_monthly', { mode: 'payment' })).rejects.toMatchObject({ statusCode: 400, param: 'mode' });
    await expect(stripe.checkout.sessions.retrieve('cs_test_missing')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('the hosted page shows the order and its form pays: a subscription, its events, a redirect to success_url', async () => {
    const customer = await stripe.customers.create({ metadata: { workspaceId: 'ws-1' } });
    const created = await session('price_ledgerline_startup_monthly', { customer: customer.id });
    const page = await fetch(created.url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('$24.00');
    const before = sandbox.platformObjects('event').length;
    const paid = await fetch(`${created.url}/pay`, { method: 'POST', body: new URLSearchParams({ outcome: 'paid' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://app.test/settings?tab=billing&session_id=${created.id}`);
    expect(eventTypes(before)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);

    const done = await stripe.checkout.sessions.retrieve(created.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', customer: customer.id });
    const sub = await stripe.subscriptions.retrieve(done.subscription as string);
    expect(sub).toMatchObject({ status: 'active', customer: customer.id, metadata: { workspaceId: 'ws-1' } });
    expect(sub.items.data[0]!.price.id).toBe('price_ledgerline_startup_monthly');
    // A completed session cannot be paid again.
    expect((await fetch(`${created.url}/pay`, { method: 'POST', body: '', redirect: 'manual' })).status).toBe(409);
  });

  it('moves subscriptions as Stripe does, with its events; refuses a move Stripe would not make', async () => {
    const trial = await session('price_ledgerline_ai_accounting_monthly');
    const { subscriptionId } = sandbox.completeCheckout(trial.id, 'trial');
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('trialing');
    let mark = sandbox.platformObjects('event').length;
    sandbox.moveSubscription(subscriptionId, 'active');
    expect(eventTypes(mark)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    mark = sandbox.platformObjects('event').length;
    sandbox.moveSubscription(subscriptionId, 'past_due');
    expect(eventTypes(mark)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    expect(() => sandbox.moveSubscription(subscriptionId, 'trialing')).toThrow('A past_due subscription cannot become trialing');
    mark = sandbox.platformObjects('event').length;
    await stripe.subscriptions.cancel(subscriptionId);
    expect(eventTypes(mark)).toEqual(['customer.subscription.deleted']);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('canceled');

    const pending = await session('price_ledgerline_growth_yearly');
    const second = sandbox.completeCheckout(pending.id, 'pending');
    expect((await stripe.checkout.sessions.retrieve(pending.id)).payment_status).toBe('unpaid');
    expect((await stripe.subscriptions.retrieve(second.subscriptionId)).status).toBe('incomplete');
    sandbox.moveSubscription(second.subscriptionId, 'incomplete_expired');
    expect((await stripe.subscriptions.retrieve(second.subscriptionId)).status).toBe('incomplete_expired');
  });
});
