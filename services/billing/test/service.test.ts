// The billing service on real PostgreSQL and NATS against the Stripe sandbox (the official SDK): the plans,
// checkout sessions, and every subscription status of documents §3 reached through signed sandbox webhooks
// delivered to the service; a bad signature changes nothing; an event delivered 5 times is applied once; events
// held and delivered newest first leave Stripe's latest state; billing.plan_changed is published per change.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  createLogger,
  createServiceClient,
  errorInfoOf,
  eventMessage,
  eventSubject,
  EventType,
  newId,
  tenantHeaders,
  withSystem,
  type Role,
} from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { BillingService as BillingRpc } from '@ledgerline/proto/billing/v1/billing_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { startStripeSandbox, type StripeSandbox } from '@ledgerline/stripe-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingConfigSchema } from '../src/config.js';
import { createBillingService, type BillingService } from '../src/service.js';
import { billingMigrations } from '../src/store/migrations.js';

const SECRET = 'whsec_billing_service_test';
let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: BillingService;
let sandbox: StripeSandbox;
let receiver: Server;
let client: ReturnType<typeof createServiceClient<typeof BillingRpc>>;
const published: Array<{ workspaceId: string; planId: string; status: string; bankAccounts: number }> = [];
/** What the service answered per delivery: the outcome, or the refusal's code. */
const answers: Array<{ eventId: string; outcome: string }> = [];
let delivered = 0;

beforeAll(async () => {
  [db, bus] = await Promise.all([createTestDatabase('billing', billingMigrations), createTestBus('billing-test')]);
  sandbox = await startStripeSandbox();
  sandbox.setAutoDeliver(false);
  // The webhook receiver stands where the gateway does: the raw bytes and the header go to the RPC.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const eventId = (JSON.parse(body.toString('utf8')) as { id: string }).id;
      client.handleStripeWebhook({ body: new Uint8Array(body), signature: String(req.headers['stripe-signature'] ?? '') }).then(
        (r) => {
          answers.push({ eventId, outcome: r.outcome });
          res.writeHead(200).end();
        },
        (err: unknown) => {
          answers.push({ eventId, outcome: `refused:${ConnectError.from(err).code}` });
          res.writeHead(400).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sandbox.addWebhookEndpoint({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, secret: SECRET, connect: false });

  const config = billingConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    BILLING_PORT: '0',
    BILLING_DATABASE_URL: db.appUrl,
    STRIPE_API_URL: sandbox.url,
    STRIPE_SECRET_KEY: sandbox.secretKey,
    BILLING_WEBHOOK_SECRET: SECRET,
    WEB_URL: 'http://app.test',
  });
  service = await createBillingService(config, { db: db.appDb, bus, logger: createLogger('billing-test', 'silent') });
  client = createServiceClient(BillingRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'billing-test', audience: 'billing' },
  });
  await bus.subscribe({ durable: 'billing_test_watch', subjects: [eventSubject(EventType.BillingPlanChanged)] }, async (msg) => {
    const envelope = fromBinary(EventEnvelopeSchema, msg.data);
    if (envelope.type === EventType.BillingPlanChanged) {
      const event = eventMessage({ type: envelope.type, payload: envelope.payload });
      published.push({ workspaceId: envelope.workspaceId, planId: event.planId, status: event.status, bankAccounts: event.bankAccounts });
    }
    await msg.ack();
  });
});
afterAll(async () => {
  await service?.stop();
  await bus?.close();
  await db?.drop();
  await sandbox?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

const as = (workspaceId: string, role: Role = 'Owner') => ({ headers: tenantHeaders({ workspaceId, userId: newId(), role }) });

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[]; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field), message: e.rawMessage };
  }
  throw new Error('expected a refusal');
}

/** Every platform event not yet sent, in the order Stripe made them; returns their ids. */
function pendingEvents(): string[] {
  const events = sandbox.platformObjects('event').slice(delivered);
  delivered += events.length;
  return events.map((e) => e.id);
}

async function deliverPending(): Promise<string[]> {
  const ids = pendingEvents();
  for (const id of ids) await sandbox.deliver(id);
  return ids;
}

const price = (plan: string, interval = 'monthly') => `price_ledgerline_${plan}_${interval}`;
const statusOf = async (workspaceId: string) => {
  const r = await client.verifySubscription({}, as(workspaceId));
  return { status: r.subscription?.status, plan: r.plan?.id, interval: r.interval, subscriptionId: r.subscription?.subscriptionId };
};

async function subscribe(workspaceId: string, outcome: 'paid' | 'trial' | 'pending', plan = 'startup'): Promise<string> {
  const { sessionId } = await client.createCheckout({ priceId: price(plan) }, as(workspaceId));
  return sandbox.completeCheckout(sessionId, outcome).subscriptionId;
}

describe('plans', () => {
  it('lists the six plans of §9 with monthly and yearly prices and limits', async () => {
    const { plans } = await client.listPlans({}, as(newId()));
    expect(plans.map((p) => [p.id, p.name, Number(p.prices.find((x) => x.interval === 'monthly')?.amount), p.free])).toEqual([
      ['starter', 'Starter', 0, true],
      ['launch', 'Launch', 0, true],
      ['ai_accounting', 'AI Accounting', 4900, false],
      ['startup', 'Startup', 2400, false],
      ['full_service', 'Full Service + AI Accounting', 19900, false],
      ['growth', 'Growth', 8000, false],
    ]);
    const startup = plans.find((p) => p.id === 'startup')!;
    expect(startup.prices.map((p) => [p.priceId, p.interval, Number(p.amount)])).toEqual([
      ['price_ledgerline_startup_monthly', 'monthly', 2400],
      ['price_ledgerline_startup_yearly', 'yearly', 24000],
    ]);
    expect(startup.limits).toMatchObject({ bankAccounts: 3, users: 1 });
    expect(plans.find((p) => p.id === 'growth')!.limits?.bankAccounts).toBe(-1);
  });
});

describe('checkout', () => {
  it('creates a Stripe Checkout Session for the price with the workspace customer; one customer per workspace', async () => {
    const workspaceId = newId();
    const first = await client.createCheckout({ priceId: price('growth', 'yearly') }, as(workspaceId));
    expect(first.sessionId).toMatch(/^cs_test_/);
    expect(first.url).toBe(`${sandbox.url}/checkout/${first.sessionId}`);
    const second = await client.createCheckout({ priceId: price('startup') }, as(workspaceId));
    const sessions = sandbox.platformObjects('checkout.session').filter((s) => s.client_reference_id === workspaceId);
    expect(sessions.map((s) => [s.id, s.line_items_price, s.mode, s.success_url])).toEqual([
      [first.sessionId, price('growth', 'yearly'), 'subscription', 'http://app.test/settings?tab=billing&session_id={CHECKOUT_SESSION_ID}'],
      [second.sessionId, price('startup'), 'subscription', 'http://app.test/settings?tab=billing&session_id={CHECKOUT_SESSION_ID}'],
    ]);
    expect(sessions[0]!.customer).toBe(sessions[1]!.customer);
    const customer = sandbox.platformObjects('customer').find((c) => c.id === sessions[0]!.customer)!;
    expect(customer.metadata).toEqual({ workspaceId });
    // Nothing of it is a subscription until the customer pays.
    expect(await statusOf(workspaceId)).toEqual({ status: 'not_found', plan: 'starter', interval: '', subscriptionId: '' });
  });

  it('refuses a missing, unknown or free price naming priceId, and a Viewer; nothing is created', async () => {
    const workspaceId = newId();
    const before = sandbox.platformObjects('checkout.session').length;
    expect(await refusal(client.createCheckout({ priceId: '' }, as(workspaceId)))).toMatchObject({
      code: Code.InvalidArgument,
      fields: ['priceId'],
      message: 'priceId is required',
    });
    expect(await refusal(client.createCheckout({ priceId: 'price_nope' }, as(workspaceId)))).toMatchObject({ code: Code.InvalidArgument, fields: ['priceId'] });
    expect(await refusal(client.createCheckout({ priceId: price('starter') }, as(workspaceId)))).toMatchObject({
      code: Code.InvalidArgument,
      fields: ['priceId'],
      message: 'The Starter plan is free: no checkout is needed',
    });
    expect((await refusal(client.createCheckout({ priceId: price('startup') }, as(workspaceId, 'Viewer')))).code).toBe(Code.PermissionDenied);
    expect(sandbox.platformObjects('checkout.session').length).toBe(before);
  });

  it("verify with the session id brings in the paid subscription before any webhook; another workspace's session is 404", async () => {
    const workspaceId = newId();
    const { sessionId } = await client.createCheckout({ priceId: price('ai_accounting', 'yearly') }, as(workspaceId));
    sandbox.completeCheckout(sessionId, 'paid');
    pendingEvents(); // held: verify alone must see it
    const r = await client.verifySubscription({ sessionId }, as(workspaceId));
    expect([r.subscription?.status, r.plan?.id, r.interval]).toEqual(['active', 'ai_accounting', 'yearly']);
    expect(r.subscription?.priceId).toBe(price('ai_accounting', 'yearly'));
    expect(Date.parse(r.subscription?.endAt ?? '') - Date.parse(r.subscription?.startAt ?? '')).toBe(365 * 86_400_000);
    expect((await refusal(client.verifySubscription({ sessionId }, as(newId())))).code).toBe(Code.NotFound);
    expect((await refusal(client.verifySubscription({ sessionId: 'nonsense' }, as(workspaceId)))).code).toBe(Code.NotFound);
    expect(await refusal(client.verifySubscription({ sessionId: `cs_${'x'.repeat(300)}` }, as(workspaceId)))).toMatchObject({
      code: Code.InvalidArgument,
      fields: ['sessionId'],
    });
    // Checkout of the plan already in force is a conflict.
    expect((await refusal(client.createCheckout({ priceId: price('ai_accounting', 'yearly') }, as(workspaceId)))).code).toBe(Code.AlreadyExists);
  });
});

describe('webhooks drive every status of §3', () => {
  it('active, past_due, unpaid, active again, canceled (and the free plan back) from signed events', async () => {
    const workspaceId = newId();
    const sub = await subscribe(workspaceId, 'paid');
    await deliverPending();
    expect(await statusOf(workspaceId)).toEqual({ status: 'active', plan: 'startup', interval: 'monthly', subscriptionId: sub });
    for (const [to, status, plan] of [
      ['past_due', 'past_due', 'startup'],
      ['unpaid', 'unpaid', 'starter'],
      ['active', 'active', 'startup'],
      ['canceled', 'canceled', 'starter'],
    ] as const) {
      sandbox.moveSubscription(sub, to);
      await deliverPending();
      expect(await statusOf(workspaceId)).toMatchObject({ status, plan });
    }
    await expectEventually(() =>
      expect(published.filter((e) => e.workspaceId === workspaceId).map((e) => [e.planId, e.status])).toEqual([
        ['startup', 'active'],
        ['startup', 'past_due'],
        ['starter', 'unpaid'],
        ['startup', 'active'],
        ['starter', 'canceled'],
      ]),
    );
  });

  it('trialing and paused; incomplete and incomplete_expired; not_found with no subscription', async () => {
    const trial = newId();
    const trialSub = await subscribe(trial, 'trial', 'growth');
    await deliverPending();
    expect(await statusOf(trial)).toMatchObject({ status: 'trialing', plan: 'growth' });
    sandbox.moveSubscription(trialSub, 'paused');
    await deliverPending();
    expect(await statusOf(trial)).toMatchObject({ status: 'paused', plan: 'starter' });

    const pending = newId();
    const pendingSub = await subscribe(pending, 'pending', 'ai_accounting');
    await deliverPending();
    expect(await statusOf(pending)).toMatchObject({ status: 'incomplete', plan: 'starter' });
    sandbox.moveSubscription(pendingSub, 'incomplete_expired');
    await deliverPending();
    expect(await statusOf(pending)).toMatchObject({ status: 'incomplete_expired', plan: 'starter' });

    expect(await statusOf(newId())).toMatchObject({ status: 'not_found', plan: 'starter' });
  });

  it('a bad, missing or stale signature is refused naming stripe-signature, and nothing changes', async () => {
    const workspaceId = newId();
    const sub = await subscribe(workspaceId, 'paid');
    await deliverPending();
    sandbox.moveSubscription(sub, 'past_due');
    const ids = pendingEvents();
    const event = sandbox.platformObjects('event').find((e) => e.id === ids[ids.length - 1])!;
    const body = new Uint8Array(Buffer.from(JSON.stringify(event)));
    const now = Math.floor(Date.now() / 1000);
    for (const signature of [
      sandbox.signatureFor(JSON.stringify(event), 'whsec_wrong', now),
      '',
      sandbox.signatureFor(JSON.stringify(event), SECRET, now - 3600),
    ]) {
      expect(await refusal(client.handleStripeWebhook({ body, signature }))).toMatchObject({ code: Code.InvalidArgument, fields: ['stripe-signature'] });
    }
    // A body altered after signing.
    const tampered = JSON.stringify({ ...event, type: 'customer.subscription.deleted' });
    expect(
      (
        await refusal(
          client.handleStripeWebhook({ body: new Uint8Array(Buffer.from(tampered)), signature: sandbox.signatureFor(JSON.stringify(event), SECRET, now) }),
        )
      ).fields,
    ).toEqual(['stripe-signature']);
    expect(await statusOf(workspaceId)).toMatchObject({ status: 'active' });
    const inbox = await withSystem(db.appDb, (trx) => trx('billing_stripe_events').whereIn('event_id', ids).select('event_id'));
    expect(inbox).toEqual([]);
  });

  it('the same event 5 times is applied once; held events delivered newest first end at the latest state', async () => {
    const workspaceId = newId();
    const sub = await subscribe(workspaceId, 'paid');
    const created = pendingEvents();
    const before = answers.length;
    for (const id of created) await sandbox.deliver(id, { times: 5 });
    const outcomes = answers.slice(before);
    expect(outcomes).toHaveLength(created.length * 5);
    for (const id of created) {
      const mine = outcomes.filter((a) => a.eventId === id).map((a) => a.outcome);
      expect(mine.filter((o) => o === 'duplicate')).toHaveLength(4);
      expect(mine.filter((o) => o !== 'duplicate')).toHaveLength(1);
    }
    expect(await statusOf(workspaceId)).toMatchObject({ status: 'active', plan: 'startup' });

    // past_due, then unpaid, then active again: the events are held and sent newest first, each twice.
    sandbox.moveSubscription(sub, 'past_due');
    sandbox.moveSubscription(sub, 'unpaid');
    sandbox.moveSubscription(sub, 'active');
    const held = pendingEvents();
    for (const id of [...held].reverse()) await sandbox.deliver(id, { times: 2 });
    expect(await statusOf(workspaceId)).toMatchObject({ status: 'active', plan: 'startup' });
    const inbox = await withSystem(db.appDb, (trx) =>
      trx('billing_stripe_events')
        .whereIn('event_id', [...created, ...held])
        .select('event_id'),
    );
    expect(inbox).toHaveLength(created.length + held.length);
    // One plan change only (not_found → active); the held states were never in force out of order.
    await expectEventually(() => expect(published.filter((e) => e.workspaceId === workspaceId).map((e) => e.status)).toEqual(['active']));
    // Five concurrent deliveries of one new event: applied once.
    sandbox.moveSubscription(sub, 'canceled');
    const [cancel] = pendingEvents().slice(-1);
    const payload = JSON.stringify(sandbox.platformObjects('event').find((e) => e.id === cancel));
    const signature = sandbox.signatureFor(payload, SECRET, Math.floor(Date.now() / 1000));
    const body = new Uint8Array(Buffer.from(payload));
    const racing = await Promise.all([1, 2, 3, 4, 5].map(() => client.handleStripeWebhook({ body, signature })));
    expect(racing.map((r) => r.outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'processed']);
    expect(await statusOf(workspaceId)).toMatchObject({ status: 'canceled', plan: 'starter' });
  });
});

describe('plan limits', () => {
  it('answers the limits of the plan in force and where to upgrade', async () => {
    const workspaceId = newId();
    const free = await client.getPlanLimits({}, as(workspaceId));
    expect([free.planId, free.limits?.bankAccounts, free.limits?.users, free.upgradeUrl]).toEqual(['starter', 1, 1, 'http://app.test/settings?tab=billing']);
    await subscribe(workspaceId, 'paid', 'startup');
    await deliverPending();
    const paid = await client.getPlanLimits({}, as(workspaceId));
    expect([paid.planId, paid.limits?.bankAccounts, paid.limits?.users]).toEqual(['startup', 3, 1]);
    await expectEventually(() =>
      expect(published.filter((e) => e.workspaceId === workspaceId)).toEqual([{ workspaceId, planId: 'startup', status: 'active', bankAccounts: 3 }]),
    );
  });
});
