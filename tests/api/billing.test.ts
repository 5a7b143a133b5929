// Billing through the gateway, on the test system (identity, the gateway and billing on fresh databases, the Stripe
// sandbox sending the platform's webhooks to POST /billing/webhook): GET /subscription/plans, POST /checkout
// (priceId), the hosted checkout paid, GET /subscription/verify (with and without sessionId), GET
// /subscription/limits; refusals name their field; another workspace's checkout session answers 404; a badly
// signed webhook is a 400 naming stripe-signature and changes nothing; an event sent 5 times is applied once.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;

beforeAll(async () => {
  system = await startSystem({ billing: true });
});
afterAll(async () => {
  await system?.stop();
});

async function owner(): Promise<string> {
  const { token } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  expect(onboarded.status).toBe(200);
  return token;
}

const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

describe('billing routes', () => {
  it('GET /subscription/plans lists the six plans; an anonymous caller is 401', async () => {
    const token = await owner();
    const plans = await system.api('GET', '/subscription/plans', { token });
    expect(plans.status).toBe(200);
    expect(plans.body.plans.map((p: { name: string }) => p.name)).toEqual([
      'Starter',
      'Launch',
      'AI Accounting',
      'Startup',
      'Full Service + AI Accounting',
      'Growth',
    ]);
    const growth = plans.body.plans.find((p: { id: string }) => p.id === 'growth');
    expect(growth.prices).toEqual([
      { priceId: 'price_ledgerline_growth_monthly', interval: 'monthly', amount: 8000, currency: 'usd' },
      { priceId: 'price_ledgerline_growth_yearly', interval: 'yearly', amount: 80000, currency: 'usd' },
    ]);
    expect(growth.limits).toEqual({ bankAccounts: -1, users: 1, monthlyExpenses: 25_000_000 });
    expect((await system.api('GET', '/subscription/plans')).status).toBe(401);
  });

  it('checkout → hosted page paid → webhook → verify active; limits follow; refusals name priceId; another workspace gets 404', async () => {
    const token = await owner();
    const before = await system.api('GET', '/subscription/verify', { token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ status: 'not_found', plan: { id: 'starter' }, interval: '', subscription: null });

    const missing = await system.api('POST', '/checkout', { token });
    expect([missing.status, fields(missing.body), missing.body.message]).toEqual([400, ['priceId'], 'priceId is required']);
    const free = await system.api('POST', '/checkout?priceId=price_ledgerline_launch_monthly', { token });
    expect([free.status, fields(free.body), free.body.message]).toEqual([400, ['priceId'], 'The Launch plan is free: no checkout is needed']);
    const unknown = await system.api('POST', '/checkout?priceId=price_other', { token });
    expect([unknown.status, fields(unknown.body)]).toEqual([400, ['priceId']]);

    const checkout = await system.api('POST', '/checkout?priceId=price_ledgerline_startup_monthly', { token });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toBe(`${system.stripe!.url}/checkout/${checkout.body.sessionId}`);

    // The hosted page shows the order; its form pays and sends the browser back to the billing tab.
    const page = await fetch(checkout.body.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Startup');
    const paid = await fetch(`${checkout.body.url}/pay`, { method: 'POST', body: new URLSearchParams({ outcome: 'paid' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${system.webOrigin}/settings?tab=billing&session_id=${checkout.body.sessionId}`);

    // The webhooks arrive on their own (the sandbox delivers to the gateway).
    await expectEventually(async () => {
      const verified = await system.api('GET', '/subscription/verify', { token });
      expect(verified.body).toMatchObject({
        status: 'active',
        plan: { id: 'startup' },
        interval: 'monthly',
        subscription: { priceId: 'price_ledgerline_startup_monthly' },
      });
    });
    const withSession = await system.api('GET', `/subscription/verify?sessionId=${checkout.body.sessionId}`, { token });
    expect(withSession.status).toBe(200);
    expect(withSession.body.subscription.subscriptionId).toMatch(/^sub_/);
    expect(JSON.parse(withSession.body.subscription.json)).toMatchObject({ id: withSession.body.subscription.subscriptionId, status: 'active' });
    const limits = await system.api('GET', '/subscription/limits', { token });
    expect(limits.body).toEqual({
      planId: 'startup',
      planName: 'Startup',
      limits: { bankAccounts: 3, users: 1, monthlyExpenses: 10_000_000 },
      upgradeUrl: `${system.webOrigin}/settings?tab=billing`,
    });

    const stranger = await owner();
    const foreign = await system.api('GET', `/subscription/verify?sessionId=${checkout.body.sessionId}`, { token: stranger });
    expect([foreign.status, foreign.body.message]).toEqual([404, 'Checkout session not found']);
    const bad = await system.api('GET', '/subscription/verify?sessionId=not-a-session', { token });
    expect([bad.status, bad.body.message]).toEqual([404, 'Checkout session not found']);
    const long = await system.api('GET', `/subscription/verify?sessionId=cs_${'x'.repeat(298)}`, { token });
    expect([long.status, fields(long.body)]).toEqual([400, ['sessionId']]);
    expect((await system.api('GET', '/subscription/verify', { token: stranger })).body.status).toBe('not_found');

    // A renewal fails: past_due through the webhook.
    system.stripe!.moveSubscription(withSession.body.subscription.subscriptionId, 'past_due');
    await expectEventually(async () => expect((await system.api('GET', '/subscription/verify', { token })).body.status).toBe('past_due'));
  });

  it('POST /billing/webhook: a bad signature is a 400 naming stripe-signature; an event sent 5 times is applied once', async () => {
    const token = await owner();
    const checkout = await system.api('POST', '/checkout?priceId=price_ledgerline_ai_accounting_monthly', { token });
    const stripe = system.stripe!;
    const { subscriptionId } = stripe.completeCheckout(checkout.body.sessionId, 'trial');
    await expectEventually(async () => expect((await system.api('GET', '/subscription/verify', { token })).body.status).toBe('trialing'));

    const event = stripe
      .platformObjects('event')
      .find((e) => e.type === 'customer.subscription.created' && (e.data as { object: { id: string } }).object.id === subscriptionId)!;
    const payload = JSON.stringify(event);
    const forged = await fetch(`${system.gatewayUrl}/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.signatureFor(payload, 'whsec_forged', Math.floor(Date.now() / 1000)) },
      body: payload,
    });
    expect(forged.status).toBe(400);
    const forgedBody = (await forged.json()) as { errors: Array<{ field: string }> };
    expect(fields(forgedBody)).toEqual(['stripe-signature']);

    const deliveries = await stripe.deliver(event.id, { times: 5 });
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
    const inbox = await system.databases.billing!.adminDb('billing_stripe_events').where({ event_id: event.id }).select('outcome');
    expect(inbox).toEqual([{ outcome: 'processed' }]);
    const rows = await system.databases.billing!.adminDb('billing_subscriptions').where({ stripe_subscription_id: subscriptionId }).select('status');
    expect(rows).toEqual([{ status: 'trialing' }]);
  });
});
