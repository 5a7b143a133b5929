// The Stripe integration through the gateway, on the test system (identity, the gateway, integrations and the
// Stripe sandbox, whose Connect webhooks go to the gateway): the Connect link, the callback's code, sync and its
// status, the account, disconnect; bad input answers 400 naming the field and changes nothing; another
// workspace sees none of it (404); a webhook with a bad signature is a 400 and changes nothing; the same events
// delivered five times and out of order by the sandbox are applied once each and end in the newest state; the
// /stripe-analytic metrics over the synced data equal the figures counted from the sandbox's account.
import { expectEventually } from '@ledgerline/platform/testing';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;
let token: string;
let otherToken: string;

const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

async function onboarded(): Promise<string> {
  const { token: t } = await signedUpUser(system);
  const res = await system.api('POST', '/onboard-user', { token: t, body: onboardBody });
  expect(res.status).toBe(200);
  return t;
}

beforeAll(async () => {
  system = await startSystem({ integrations: true, gatewayEnv: {} });
  [token, otherToken] = [await onboarded(), await onboarded()];
});
afterAll(async () => {
  await system?.stop();
});

const db = () => system.databases.integrations!.adminDb;

describe('/stripe-integrate', () => {
  let stripeAccountId: string;

  it('connects through the Connect link and its callback, refusing bad input naming the field', async () => {
    const missing = await system.api('GET', '/stripe-integrate/oauth-link', { token });
    expect(missing.status).toBe(400);
    expect(fields(missing.body)).toEqual(['redirectUri']);
    for (const bad of ['javascript:alert(1)', 'not a url', `https://app.test/${'x'.repeat(2100)}`, 'https://app.test/\u0000']) {
      const res = await system.api('GET', `/stripe-integrate/oauth-link?redirectUri=${encodeURIComponent(bad)}`, { token });
      expect(res.status, bad.slice(0, 30)).toBe(400);
      expect(fields(res.body)).toEqual(['redirectUri']);
    }
    const link = await system.api('GET', `/stripe-integrate/oauth-link?redirectUri=${encodeURIComponent('http://localhost:3000/connect-stripe')}`, { token });
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${system.stripe!.url}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(system.stripe!.clientId);

    // The user approves at Stripe (the sandbox approves at once) and comes back with scope and code.
    const approved = await fetch(url, { redirect: 'manual' });
    const callback = new URL(approved.headers.get('location')!);
    const code = callback.searchParams.get('code')!;
    const scope = callback.searchParams.get('scope')!;

    for (const [body, named] of [
      [{ scope: 5, code }, ['scope']],
      [{ scope: 'everything', code }, ['scope']],
      [{ scope, code: 'x'.repeat(300) }, ['code']],
      [{ scope, code: 'ac_\u0000' }, ['code']],
      [{ scope }, ['code']],
    ] as const) {
      const res = await system.api('POST', '/stripe-integrate/connect', { token, body });
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(fields(res.body)).toEqual(named);
    }
    expect(await db()('stripe_connections').select('id')).toEqual([]);

    const connected = await system.api('POST', '/stripe-integrate/connect', { token, body: { scope, code } });
    expect(connected.status).toBe(200);
    expect(connected.body.account).toMatchObject({ stripeAccountId: expect.stringMatching(/^acct_/), scope, defaultCurrency: 'usd' });
    stripeAccountId = connected.body.account.stripeAccountId;
    const again = await system.api('POST', '/stripe-integrate/connect', { token, body: { scope, code } });
    expect(again.status).toBe(409);
  });

  it('syncs, reports the status and the account; another workspace gets 404 everywhere', async () => {
    const started = await system.api('POST', '/stripe-integrate/sync', { token });
    expect(started.status).toBe(202);
    const status = await expectEventually(
      async () => {
        const answer = await system.api('GET', '/stripe-integrate/sync-status', { token });
        expect(answer.body.status).toBe('completed');
        return answer;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(status.body).toMatchObject({ status: 'completed', error: '' });
    const customers = system.stripe!.objects(stripeAccountId, 'customer').length;
    expect(status.body.objects).toContainEqual({ objectType: 'customer', count: customers });
    expect(status.body.objects).toContainEqual({ objectType: 'payout', count: system.stripe!.objects(stripeAccountId, 'payout').length });

    const account = await system.api('GET', '/stripe-integrate/account', { token });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ stripeAccountId, lastSyncedAt: expect.stringMatching(/^\d{4}-/) });

    for (const [method, path] of [
      ['GET', '/stripe-integrate/account'],
      ['GET', '/stripe-integrate/sync-status'],
      ['POST', '/stripe-integrate/sync'],
      ['DELETE', '/stripe-integrate/disconnect'],
    ] as const) {
      const res = await system.api(method, path, { token: otherToken });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await system.api('GET', '/stripe-integrate/account')).status).toBe(401);
  });

  it('webhooks: a bad signature is a 400 and changes nothing; five deliveries of each event, out of order, apply once each', async () => {
    const sandbox = system.stripe!;
    const stripe = new Stripe(sandbox.secretKey, { ...sandbox.sdkConfig, maxNetworkRetries: 0 });
    const customerId = sandbox.objects(stripeAccountId, 'customer')[0]!.id;
    const stored = async () => (await db()('stripe_objects').where({ stripe_id: customerId }).first('payload')).payload as { name: string };
    const before = await stored();

    sandbox.setAutoDeliver(false);
    await stripe.customers.update(customerId, { name: 'Forged name' }, { stripeAccount: stripeAccountId });
    const [forgedEvent] = (await stripe.events.list({ type: 'customer.updated', limit: 1 }, { stripeAccount: stripeAccountId })).data;
    const body = JSON.stringify(forgedEvent, null, 2);
    const now = Math.floor(Date.now() / 1000);
    for (const signature of [sandbox.signatureFor(body, 'whsec_wrong', now), '', 't=1,v1=00']) {
      const res = await fetch(`${system.gatewayUrl}/stripe-integrate/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      });
      expect(res.status).toBe(400);
    }
    expect(await stored()).toEqual(before);
    expect(await db()('stripe_events').select('event_id')).toEqual([]);

    await new Promise((r) => setTimeout(r, 1100));
    await stripe.customers.update(customerId, { name: 'Final name' }, { stripeAccount: stripeAccountId });
    const [newer, older] = (await stripe.events.list({ type: 'customer.updated', limit: 2 }, { stripeAccount: stripeAccountId })).data;
    const deliveries = [...(await sandbox.deliver(newer!.id, { times: 5 })), ...(await sandbox.deliver(older!.id, { times: 5 }))];
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(200));
    expect((await stored()).name).toBe('Final name');
    expect((await db()('stripe_events').orderBy('received_at').select('event_id', 'outcome')).map((e: { outcome: string }) => e.outcome)).toEqual([
      'processed',
      'stale',
    ]);
    sandbox.setAutoDeliver(true);
  });

  it('/stripe-analytic: metrics over the synced data equal the same figures counted from the Stripe account', async () => {
    const sandbox = system.stripe!;
    // The sandbox's objects are read field by field, as Stripe sends them.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const objects = (type: string) => sandbox.objects(stripeAccountId, type) as unknown as Array<Record<string, any>>;
    const end = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const start = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const from = Date.parse(`${start}T00:00:00Z`) / 1000;
    const to = Date.parse(`${end}T00:00:00Z`) / 1000 + 86_399;
    const inside = (t: number) => t >= from && t <= to;
    const get = async (metric: string) => {
      const res = await system.api('GET', `/stripe-analytic/${metric}?startDate=${start}&endDate=${end}`, { token });
      expect(res.status, metric).toBe(200);
      expect(res.body).toMatchObject({ metric, startDate: start, endDate: end, currency: 'usd' });
      return res.body.value as number;
    };
    const paying = objects('subscription').filter(
      (s) => s.start_date <= to && (s.trial_end === null || s.trial_end <= to) && (s.ended_at === null || s.ended_at > to),
    );
    const mrrCents = paying.reduce((sum, s) => {
      const price = s.items.data[0].price;
      return sum + (price.unit_amount / (price.recurring.interval === 'year' ? 12 : 1)) * (s.discount ? 0.8 : 1);
    }, 0);
    expect(await get('mrr')).toBe(Math.round(mrrCents) / 100);
    expect(await get('arr')).toBe((Math.round(mrrCents) * 12) / 100);
    expect(await get('active-subscriptions')).toBe(paying.length);
    expect(await get('new-customers')).toBe(objects('customer').filter((c) => inside(c.created)).length);
    expect(await get('total-charge/value')).toBe(
      objects('charge')
        .filter((c) => inside(c.created))
        .reduce((s, c) => s + c.amount, 0) / 100,
    );
    expect(await get('total-fee/value')).toBe(
      objects('balance_transaction')
        .filter((t) => inside(t.created))
        .reduce((s, t) => s + t.fee, 0) / 100,
    );
    expect(await get('net-payout/value')).toBe(
      objects('payout')
        .filter((p) => p.status === 'paid' && inside(p.arrival_date))
        .reduce((s, p) => s + p.amount, 0) / 100,
    );

    const badDate = await system.api('GET', '/stripe-analytic/mrr?startDate=2026-13-01', { token });
    expect(badDate.status).toBe(400);
    expect(fields(badDate.body)).toEqual(['startDate']);
    const reversed = await system.api('GET', `/stripe-analytic/mrr?startDate=${end}&endDate=${start}`, { token });
    expect(reversed.status).toBe(400);
    expect(fields(reversed.body)).toEqual(['startDate']);
    expect((await system.api('GET', '/stripe-analytic/mrr', { token: otherToken })).status).toBe(404);
  });

  it('/stripe-analytic views: net-revenue and breakdowns, payouts with their gross-to-net, payment intents, plans, products', async () => {
    const sandbox = system.stripe!;
    const stripe = new Stripe(sandbox.secretKey, { ...sandbox.sdkConfig, maxNetworkRetries: 0 });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const objects = (type: string) => sandbox.objects(stripeAccountId, type) as unknown as Array<Record<string, any>>;
    type Obj = ReturnType<typeof objects>[number];
    const end = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const start = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const from = Date.parse(`${start}T00:00:00Z`) / 1000;
    const to = Date.parse(`${end}T00:00:00Z`) / 1000 + 86_399;
    const inside = (t: number) => t >= from && t <= to;
    const sumIn = (type: string, pick: (o: Obj) => number, keep: (o: Obj) => boolean = () => true) =>
      objects(type)
        .filter((o) => inside(o.created) && keep(o))
        .reduce((s, o) => s + pick(o), 0);

    // Net revenue: succeeded charges − refunds − fees of the period; the monthly series adds up to it.
    const net = await system.api('GET', `/stripe-analytic/net-revenue?startDate=${start}&endDate=${end}`, { token });
    expect(net.status).toBe(200);
    const expectedNet =
      sumIn(
        'charge',
        (c) => c.amount,
        (c) => c.status === 'succeeded',
      ) -
      sumIn(
        'refund',
        (r) => r.amount,
        (r) => r.status !== 'failed' && r.status !== 'canceled',
      ) -
      sumIn('balance_transaction', (t) => t.fee);
    expect(net.body).toMatchObject({ metric: 'net-revenue', kind: 'money', value: expectedNet / 100, breakdown: 'monthly' });
    expect(net.body.series.length).toBeGreaterThanOrEqual(4);
    expect(net.body.series[0].startDate).toBe(start);
    expect(net.body.series.at(-1).endDate).toBe(end);
    expect(Math.round(net.body.series.reduce((s: number, p: { value: number }) => s + p.value, 0) * 100)).toBe(expectedNet);
    // A point-in-time metric: its last column ends with the period, so it is the period's value.
    const mrr = await system.api('GET', `/stripe-analytic/mrr?startDate=${start}&endDate=${end}&breakdown=week`, { token });
    expect(mrr.body.breakdown).toBe('weekly');
    expect(mrr.body.series.at(-1).value).toBe(mrr.body.value);
    const short = await system.api('GET', `/stripe-analytic/mrr?startDate=${end}&endDate=${end}&breakdown=year`, { token });
    expect(short.body).toMatchObject({ breakdown: 'totals_only', series: [{ label: 'Total', startDate: end, endDate: end, value: short.body.value }] });
    const badBreakdown = await system.api('GET', '/stripe-analytic/mrr?breakdown=fortnight', { token });
    expect(badBreakdown.status).toBe(400);
    expect(fields(badBreakdown.body)).toEqual(['breakdown']);

    // Payouts: all of them, latest arrival first, paged; with dates only those arriving in the period.
    const payouts = objects('payout');
    const list = await system.api('GET', '/stripe-analytic/payouts?take=5', { token });
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ page: 1, take: 5, itemCount: payouts.length, hasPreviousPage: false });
    const latest = [...payouts].sort((a, b) => b.arrival_date - a.arrival_date)[0]!;
    expect(list.body.data[0]).toMatchObject({ id: latest.id, amount: latest.amount / 100, currency: 'usd', status: latest.status, transactionId: '' });
    const dated = await system.api('GET', `/stripe-analytic/payouts?startDate=${start}&endDate=${end}&take=100`, { token });
    expect(dated.body.meta.itemCount).toBe(payouts.filter((p) => inside(p.arrival_date)).length);
    for (const [query, named] of [
      ['page=0', ['page']],
      ['take=101', ['take']],
      ['take=0.5', ['take']],
      ['startDate=2026-02-30', ['startDate']],
      [`startDate=${end}&endDate=${start}`, ['startDate']],
    ] as const) {
      const res = await system.api('GET', `/stripe-analytic/payouts?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(fields(res.body), query).toEqual(named);
    }

    // A paid payout: gross − fees − refunds + adjustments = net = its amount, made of the balance transactions
    // Stripe lists for it.
    const paid = payouts.find((p) => p.status === 'paid')!;
    const detail = await system.api('GET', `/stripe-analytic/payouts/${paid.id}`, { token });
    expect(detail.status).toBe(200);
    const cents = (v: number) => Math.round(v * 100);
    const { gross, fees, refunds, adjustments } = detail.body;
    expect(cents(gross) - cents(fees) - cents(refunds) + cents(adjustments)).toBe(paid.amount);
    expect(cents(detail.body.net)).toBe(paid.amount);
    expect(detail.body.itemsRead).toBe(true);
    const members = [];
    for await (const t of stripe.balanceTransactions.list({ payout: paid.id, limit: 100 }, { stripeAccount: stripeAccountId })) members.push(t);
    expect(new Set(detail.body.items.map((i: { id: string }) => i.id))).toEqual(new Set(members.map((t) => t.id)));
    expect(detail.body.items[0]).toMatchObject({ type: 'payout', amount: -paid.amount / 100 });
    expect(cents(gross)).toBe(members.filter((t) => t.type === 'charge').reduce((s, t) => s + t.amount, 0));
    expect((await system.api('GET', '/stripe-analytic/payouts/po_doesnotexist', { token })).status).toBe(404);
    const badId = await system.api('GET', '/stripe-analytic/payouts/not-a-payout', { token });
    expect(badId.status).toBe(400);
    expect(fields(badId.body)).toEqual(['id']);

    // Payment intents and one with its charges (and Stripe's fee on each).
    const intents = objects('payment_intent');
    const pis = await system.api('GET', '/stripe-analytic/payment-intents', { token });
    expect(pis.status).toBe(200);
    expect(pis.body.meta).toMatchObject({ page: 1, take: 20, itemCount: intents.length });
    const charge = objects('charge').find((c) => c.payment_intent && c.status === 'succeeded')!;
    const pi = await system.api('GET', `/stripe-analytic/payment-intents/${charge.payment_intent}`, { token });
    expect(pi.status).toBe(200);
    expect(pi.body.paymentIntent).toMatchObject({ id: charge.payment_intent, currency: 'usd' });
    const fee = objects('balance_transaction').find((t) => t.id === charge.balance_transaction)!.fee as number;
    expect(pi.body.charges).toContainEqual(expect.objectContaining({ id: charge.id, amount: charge.amount / 100, fee: fee / 100 }));
    expect((await system.api('GET', '/stripe-analytic/payment-intents/pi_doesnotexist', { token })).status).toBe(404);
    const badPi = await system.api('GET', '/stripe-analytic/payment-intents/po_wrongkind', { token });
    expect(badPi.status).toBe(400);
    expect(fields(badPi.body)).toEqual(['id']);

    // Plans: each recurring price with the subscriptions paying on it at the end of endDate.
    const plans = await system.api('GET', `/stripe-analytic/plans?endDate=${end}`, { token });
    expect(plans.status).toBe(200);
    const paying = objects('subscription').filter(
      (s) => s.start_date <= to && (s.trial_end === null || s.trial_end <= to) && (s.ended_at === null || s.ended_at > to),
    );
    const prices = objects('price').filter((p) => p.recurring);
    expect(plans.body.data).toHaveLength(prices.length);
    for (const price of prices) {
      const on = paying.filter((s) => s.items.data[0].price.id === price.id);
      expect(plans.body.data).toContainEqual(
        expect.objectContaining({
          id: price.id,
          amount: price.unit_amount / 100,
          interval: price.recurring.interval,
          planActive: price.active,
          activeSubscriptions: on.length,
          activeCustomers: new Set(on.map((s) => s.customer)).size,
        }),
      );
    }
    const products = await system.api('GET', `/stripe-analytic/products?endDate=${end}`, { token });
    expect(products.status).toBe(200);
    expect(products.body.data.map((p: { id: string }) => p.id).sort()).toEqual(
      objects('product')
        .map((p) => p.id)
        .sort(),
    );
    expect(products.body.data.reduce((s: number, p: { activeSubscriptions: number }) => s + p.activeSubscriptions, 0)).toBe(paying.length);
    const badEnd = await system.api('GET', '/stripe-analytic/plans?endDate=yesterday', { token });
    expect(badEnd.status).toBe(400);
    expect(fields(badEnd.body)).toEqual(['endDate']);

    // Another workspace: 404 with no account; with its own account connected and synced, this one's payout and
    // payment intent are still 404 to it.
    expect((await system.api('GET', '/stripe-analytic/payouts', { token: otherToken })).status).toBe(404);
    const link = await system.api('GET', `/stripe-integrate/oauth-link?redirectUri=${encodeURIComponent('http://localhost:3000/connect-stripe')}`, {
      token: otherToken,
    });
    const callback = new URL((await fetch(link.body.url, { redirect: 'manual' })).headers.get('location')!);
    const other = await system.api('POST', '/stripe-integrate/connect', {
      token: otherToken,
      body: { scope: callback.searchParams.get('scope'), code: callback.searchParams.get('code') },
    });
    expect(other.status).toBe(200);
    await expectEventually(
      async () => expect((await system.api('GET', '/stripe-integrate/sync-status', { token: otherToken })).body.status).toBe('completed'),
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const otherPayouts = await system.api('GET', '/stripe-analytic/payouts', { token: otherToken });
    expect(otherPayouts.body.meta.itemCount).toBe(sandbox.objects(other.body.account.stripeAccountId, 'payout').length);
    expect(otherPayouts.body.data.map((p: { id: string }) => p.id)).not.toContain(paid.id);
    expect((await system.api('GET', `/stripe-analytic/payouts/${paid.id}`, { token: otherToken })).status).toBe(404);
    expect((await system.api('GET', `/stripe-analytic/payment-intents/${charge.payment_intent}`, { token: otherToken })).status).toBe(404);
    expect((await system.api('DELETE', '/stripe-integrate/disconnect', { token: otherToken })).status).toBe(200);
  });

  it('disconnects: the platform is deauthorized on the account and the workspace forgets it', async () => {
    const res = await system.api('DELETE', '/stripe-integrate/disconnect', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ stripeAccountId });
    expect((await system.api('GET', '/stripe-integrate/account', { token })).status).toBe(404);
    const [left] = await db()('stripe_objects').count<Array<{ count: string | number }>>('* as count');
    expect(Number(left!.count)).toBe(0);
    const stripe = new Stripe(system.stripe!.secretKey, { ...system.stripe!.sdkConfig, maxNetworkRetries: 0 });
    await expect(stripe.customers.list({}, { stripeAccount: stripeAccountId })).rejects.toBeInstanceOf(Stripe.errors.StripePermissionError);
  });
});
