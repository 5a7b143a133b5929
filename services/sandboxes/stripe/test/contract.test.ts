// Contract tests: the official `stripe` SDK (pinned) pointed at the sandbox with host, port and protocol, for
// every call the integrations service makes — Connect OAuth token and deauthorize, the account, paged lists of
// every object type with `starting_after` / `ending_before` / `created` / `expand[]`, payouts' balance
// transactions, events — and Stripe's error shapes as the SDK's typed errors.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFee, startStripeSandbox, type StripeSandbox } from '../src/index.js';

const NOW = new Date('2026-06-15T12:00:00Z');
let sandbox: StripeSandbox;
let platform: Stripe;

const sdk = (key: string, extra: Partial<Stripe.StripeConfig> = {}): Stripe =>
  new Stripe(key, { ...sandbox.sdkConfig, maxNetworkRetries: 0, telemetry: false, ...extra });

beforeAll(async () => {
  sandbox = await startStripeSandbox({ now: () => NOW });
  platform = sdk(sandbox.secretKey);
});
afterAll(async () => {
  await sandbox?.close();
});

describe('Connect OAuth', () => {
  it('exchanges a code once for the account id and an access token; the token and Stripe-Account read the account; deauthorize revokes both', async () => {
    const connected = sandbox.createAccount({ seed: 'oauth', customers: 3, months: 2 });
    const token = await platform.oauth.token({ grant_type: 'authorization_code', code: connected.code });
    expect(token).toMatchObject({ stripe_user_id: connected.id, token_type: 'bearer', scope: 'read_write', livemode: false });
    expect(token.access_token).toMatch(/^sk_test_/);

    const viaToken = await sdk(token.access_token!).accounts.retrieveCurrent();
    expect(viaToken.id).toBe(connected.id);
    // A code used twice is refused, and the tokens issued with it are revoked (Stripe's documented answer).
    const again = await platform.oauth.token({ grant_type: 'authorization_code', code: connected.code }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidGrantError);
    expect(
      await sdk(token.access_token!)
        .accounts.retrieveCurrent()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const fresh = await platform.oauth.token({ grant_type: 'authorization_code', code: sandbox.authorizationCode(connected.id) });
    const viaHeader = await platform.accounts.retrieve(connected.id);
    expect(viaHeader).toMatchObject({ id: connected.id, object: 'account', charges_enabled: true, default_currency: 'usd' });
    const current = await platform.accounts.retrieveCurrent({}, { stripeAccount: connected.id });
    expect(current.id).toBe(connected.id);

    const bad = await platform.oauth.token({ grant_type: 'authorization_code', code: 'ac_nope' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Stripe.errors.StripeInvalidGrantError);

    await platform.oauth.deauthorize({ client_id: sandbox.clientId, stripe_user_id: connected.id });
    const revoked = await sdk(fresh.access_token!)
      .customers.list()
      .catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const gone = await platform.customers.list({}, { stripeAccount: connected.id }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(Stripe.errors.StripePermissionError);
  });

  it('authorize redirects to the redirect_uri with a code, the scope and the state', async () => {
    const url = new URL(`${sandbox.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: sandbox.clientId,
      scope: 'read_write',
      redirect_uri: 'http://app.test/connect-stripe',
      state: 's-1',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://app.test/connect-stripe');
    expect(location.searchParams.get('state')).toBe('s-1');
    expect(location.searchParams.get('scope')).toBe('read_write');
    const token = await platform.oauth.token({ grant_type: 'authorization_code', code: location.searchParams.get('code')! });
    expect(token.stripe_user_id).toMatch(/^acct_/);

    const wrongClient = await fetch(`${sandbox.url}/oauth/authorize?client_id=ca_other&redirect_uri=http://app.test/`, { redirect: 'manual' });
    expect(wrongClient.status).toBe(400);
    expect(await wrongClient.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('a generated history read through the SDK', () => {
  let account: string;
  let stripe: Stripe;
  beforeAll(async () => {
    const connected = sandbox.createAccount({ seed: 'history', customers: 25, months: 6 });
    account = connected.id;
    const token = await platform.oauth.token({ grant_type: 'authorization_code', code: connected.code });
    stripe = sdk(token.access_token!);
  });

  it('is the same for the same seed, object for object', () => {
    const twin = startStripeSandbox({ now: () => NOW }).then(async (other) => {
      const copy = other.createAccount({ seed: 'history', customers: 25, months: 6 });
      const ours = sandbox.objects(account, 'balance_transaction');
      const theirs = other.objects(copy.id, 'balance_transaction');
      await other.close();
      return { ours, theirs, copyId: copy.id };
    });
    return twin.then(({ ours, theirs, copyId }) => {
      expect(copyId).toBe(account);
      expect(theirs).toEqual(ours);
      expect(ours.length).toBeGreaterThan(50);
    });
  });

  it('auto-paginates every list the service reads, newest first, each object once, equal to the account', async () => {
    for (const [list, type] of [
      [(p: Stripe.PaginationParams) => stripe.customers.list(p), 'customer'],
      [(p: Stripe.PaginationParams) => stripe.products.list(p), 'product'],
      [(p: Stripe.PaginationParams) => stripe.prices.list(p), 'price'],
      [(p: Stripe.PaginationParams) => stripe.subscriptions.list({ ...p, status: 'all' }), 'subscription'],
      [(p: Stripe.PaginationParams) => stripe.invoices.list(p), 'invoice'],
      [(p: Stripe.PaginationParams) => stripe.charges.list(p), 'charge'],
      [(p: Stripe.PaginationParams) => stripe.refunds.list(p), 'refund'],
      [(p: Stripe.PaginationParams) => stripe.paymentIntents.list(p), 'payment_intent'],
      [(p: Stripe.PaginationParams) => stripe.balanceTransactions.list(p), 'balance_transaction'],
      [(p: Stripe.PaginationParams) => stripe.payouts.list(p), 'payout'],
      [(p: Stripe.PaginationParams) => stripe.events.list(p), 'event'],
    ] as const) {
      const seen = (await list({ limit: 100 }).autoPagingToArray({ limit: 10_000 })) as Array<{ id: string; created: number }>;
      const expected = sandbox.objects(account, type);
      expect(seen.length, type).toBe(expected.length);
      expect(new Set(seen.map((o) => o.id)).size, type).toBe(expected.length);
      for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.created, type).toBeGreaterThanOrEqual(seen[i]!.created);
    }
  });

  it('pages with starting_after and ending_before, has_more, limit and created ranges', async () => {
    const first = await stripe.charges.list({ limit: 5 });
    expect(first).toMatchObject({ object: 'list', url: '/v1/charges', has_more: true });
    expect(first.data).toHaveLength(5);
    const second = await stripe.charges.list({ limit: 5, starting_after: first.data[4]!.id });
    const back = await stripe.charges.list({ limit: 5, ending_before: second.data[0]!.id });
    expect(back.data.map((c) => c.id)).toEqual(first.data.map((c) => c.id));
    const cut = first.data[2]!.created;
    const older = await stripe.charges.list({ limit: 100, created: { lt: cut } });
    expect(older.data.every((c) => c.created < cut)).toBe(true);
    const all = sandbox.objects(account, 'charge');
    expect(older.data.length).toBe(Math.min(100, all.filter((c) => (c.created as number) < cut).length));
  });

  it('charges carry balance transactions with Stripe fees (expand[]), and each payout lists the balance transactions it paid', async () => {
    const charges = await stripe.charges.list({ limit: 3, expand: ['data.balance_transaction'] });
    for (const charge of charges.data) {
      const txn = charge.balance_transaction as Stripe.BalanceTransaction;
      expect(txn.object).toBe('balance_transaction');
      expect(txn).toMatchObject({
        amount: charge.amount,
        fee: cardFee(charge.amount),
        net: charge.amount - cardFee(charge.amount),
        type: 'charge',
        source: charge.id,
      });
      expect(txn.fee_details).toEqual([expect.objectContaining({ type: 'stripe_fee', amount: txn.fee })]);
    }
    const one = await stripe.paymentIntents.retrieve(charges.data[0]!.payment_intent as string, { expand: ['latest_charge.balance_transaction'] });
    expect(((one.latest_charge as Stripe.Charge).balance_transaction as Stripe.BalanceTransaction).id).toBe(
      (charges.data[0]!.balance_transaction as Stripe.BalanceTransaction).id,
    );

    const payouts = await stripe.payouts.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
    expect(payouts.length).toBeGreaterThan(5);
    for (const payout of payouts) {
      const txns = await stripe.balanceTransactions.list({ payout: payout.id, limit: 100 }).autoPagingToArray({ limit: 10_000 });
      const own = txns.find((t) => t.type === 'payout')!;
      expect(own.id).toBe(payout.balance_transaction);
      const paid = txns.filter((t) => t.type !== 'payout');
      // gross − fees − refunds = the payout amount
      const gross = paid.filter((t) => t.type === 'charge').reduce((s, t) => s + t.amount, 0);
      const fees = paid.reduce((s, t) => s + t.fee, 0);
      const refunds = paid.filter((t) => t.type === 'refund').reduce((s, t) => s - t.amount, 0);
      expect(gross - fees - refunds).toBe(payout.amount);
      expect(own.amount).toBe(-payout.amount);
    }
  });

  it('subscriptions carry trials, discounts, cancellations and their prices; plans are the recurring prices', async () => {
    const subs = await stripe.subscriptions.list({ status: 'all', limit: 100 });
    expect(subs.data.some((s) => s.trial_end !== null)).toBe(true);
    expect(subs.data.some((s) => s.status === 'canceled' && s.canceled_at !== null)).toBe(true);
    const active = await stripe.subscriptions.list({ limit: 100 });
    expect(active.data.every((s) => s.status !== 'canceled')).toBe(true);
    for (const sub of subs.data) expect(sub.items.data[0]!.price.object).toBe('price');
    const plans = await stripe.plans.list({ limit: 100 });
    const prices = await stripe.prices.list({ limit: 100 });
    expect(plans.data.map((p) => p.id).sort()).toEqual(prices.data.map((p) => p.id).sort());
    const plan = await stripe.plans.retrieve(prices.data[0]!.id);
    expect(plan).toMatchObject({ object: 'plan', amount: prices.data[0]!.unit_amount, interval: prices.data[0]!.recurring!.interval });
    const products = await stripe.products.list();
    expect(products.data.map((p) => p.name).sort()).toEqual(['Growth', 'Scale', 'Starter']);
    const invoices = await stripe.invoices.list({ subscription: subs.data[0]!.id, limit: 100 });
    expect(invoices.data.every((i) => i.object === 'invoice')).toBe(true);
  });

  it('answers Stripe errors the SDK types: bad key 401, missing object 404, bad param 400 naming it, unknown cursor 404', async () => {
    const badKey = await sdk('sk_test_wrong_key_value')
      .customers.list()
      .catch((e: unknown) => e);
    expect(badKey).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const missing = (await stripe.customers.retrieve('cus_missing').catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
    const badLimit = (await stripe.charges.list({ limit: 1000 }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(badLimit).toMatchObject({ statusCode: 400, param: 'limit', type: 'StripeInvalidRequestError' });
    const cursor = (await stripe.charges.list({ starting_after: 'ch_missing' }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(cursor).toMatchObject({ statusCode: 404, param: 'starting_after' });
    const cannot = (await stripe.charges.list({ expand: ['data.amount'] }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(cannot).toMatchObject({ statusCode: 400, param: 'expand' });
  });

  it('events list filters by type and carry the account; writes emit live events with previous_attributes', async () => {
    const paid = await stripe.events.list({ type: 'payout.paid', limit: 100 });
    expect(paid.data.length).toBeGreaterThan(0);
    expect(paid.data.every((e) => e.type === 'payout.paid' && e.account === account)).toBe(true);
    const customer = await stripe.customers.create({ email: 'new@example.com', name: 'New' }, { idempotencyKey: 'op-1' });
    const replay = await stripe.customers.create({ email: 'new@example.com', name: 'New' }, { idempotencyKey: 'op-1' });
    expect(replay.id).toBe(customer.id);
    const conflict = await stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'op-1' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await stripe.customers.update(customer.id, { name: 'Renamed' });
    const updated = await stripe.events.list({ type: 'customer.updated', limit: 1 });
    expect(updated.data[0]!.data).toMatchObject({ object: { id: customer.id, name: 'Renamed' }, previous_attributes: { name: 'New' } });
  });
});
