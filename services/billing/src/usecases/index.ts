import {
  AppError,
  assertCanEdit,
  ErrorKind,
  EventType,
  newId,
  withSystem,
  withTenant,
  writeEvent,
  type Knex,
  type Logger,
  type TenantContext,
} from '@ledgerline/platform';
import type Stripe from 'stripe';
import type { BillingConfig } from '../config.js';
import {
  currentOf,
  FREE_PLAN,
  isFree,
  isSubscriptionStatus,
  LIVE_STATUSES,
  planById,
  planInForce,
  PLANS,
  priceId,
  priceOf,
  wireLimit,
  type Interval,
  type Plan,
  type SubscriptionStatus,
} from '../domain/plans.js';
import { stripeClient, verifyWebhook } from '../stripe/client.js';
import {
  checkoutSession,
  customerOf,
  lockSubscription,
  recordEvent,
  saveCheckoutSession,
  saveCustomer,
  settleEvent,
  subscriptionsOf,
  upsertSubscription,
  workspaceOfCustomer,
  type SubscriptionRow,
  type SubscriptionState,
} from '../store/subscriptions.js';

export interface BillingDeps {
  db: Knex;
  logger: Logger;
  config: BillingConfig;
}

export type Tenant = TenantContext & { workspaceId: string };

export interface PlanView extends Plan {
  prices: Array<{ priceId: string; interval: Interval; amount: number; currency: 'usd' }>;
}

export interface SubscriptionView {
  subscription: SubscriptionRow | undefined;
  status: SubscriptionStatus;
  plan: Plan;
  interval: Interval | '';
}

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

/** Whose subscription an event changed, and the older live subscriptions the current one replaces. */
interface Applied {
  workspaceId: string;
  superseded: string[];
}

/** Stripe event types that change a subscription (its own, its checkout's, its invoices'). */
const SUBSCRIPTION_EVENT =
  /^(customer\.subscription\.|checkout\.session\.(completed|async_payment_succeeded|async_payment_failed)$|invoice\.(paid|payment_failed|payment_succeeded)$)/;

export function createUseCases({ db, logger, config }: BillingDeps) {
  const stripe = stripeClient(config);
  const mode = config.BILLING_PRICE_MODE;
  const billingUrl = `${config.WEB_URL.replace(/\/+$/, '')}/settings?tab=billing`;

  const planView = (plan: Plan): PlanView => ({
    ...plan,
    prices: (['monthly', 'yearly'] as const).map((interval) => ({
      priceId: priceId(plan.id, interval, mode),
      interval,
      amount: interval === 'monthly' ? plan.monthly : plan.yearly,
      currency: 'usd' as const,
    })),
  });

  const viewOf = (rows: SubscriptionRow[]): SubscriptionView => {
    const current = currentOf(rows.map((r) => ({ ...r, stripeCreated: r.stripe_created, seenAt: r.created_on })));
    if (!current) return { subscription: undefined, status: 'not_found', plan: FREE_PLAN, interval: '' };
    const plan = planInForce(planById(current.plan_id), current.status);
    return { subscription: current, status: current.status, plan, interval: plan.id === current.plan_id ? current.interval : '' };
  };

  /** Stripe's subscription as a row: undefined when it is not one of our prices or statuses. */
  const stateOf = (workspaceId: string, sub: Stripe.Subscription): SubscriptionState | undefined => {
    const item = sub.items.data[0];
    const price = item ? priceOf(item.price.id, mode) : undefined;
    if (!item || !price || !isSubscriptionStatus(sub.status)) return undefined;
    const raw = sub as unknown as Record<string, unknown>;
    const at = (v: unknown): Date | null => (typeof v === 'number' ? new Date(v * 1000) : null);
    return {
      workspace_id: workspaceId,
      stripe_subscription_id: sub.id,
      stripe_customer_id: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
      price_id: item.price.id,
      plan_id: price.plan.id,
      interval: price.interval,
      status: sub.status,
      current_period_start: at(raw.current_period_start ?? item.current_period_start),
      current_period_end: at(raw.current_period_end ?? item.current_period_end),
      trial_end: at(sub.trial_end),
      cancel_at_period_end: sub.cancel_at_period_end,
      stripe_created: new Date(sub.created * 1000),
      json: sub,
    };
  };

  /**
   * Reads the subscription from Stripe and stores it, under a per-subscription lock held by the caller's
   * transaction: whatever order events arrive in, the row ends at Stripe's latest state. Writes
   * billing.plan_changed when the plan in force or its status changed. Undefined when it is not ours.
   */
  async function apply(trx: Knex.Transaction, subscriptionId: string, knownWorkspace: string | undefined): Promise<Applied | undefined> {
    await lockSubscription(trx, subscriptionId);
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
    const workspaceId = knownWorkspace ?? (await workspaceOfCustomer(trx, customerId));
    if (!workspaceId) return undefined;
    const state = stateOf(workspaceId, sub);
    if (!state) {
      logger.warn({ subscriptionId, status: sub.status }, 'billing: a subscription of no known price or status is not stored');
      return undefined;
    }
    const before = viewOf(await subscriptionsOf(trx, workspaceId));
    await upsertSubscription(trx, newId(), state);
    const rows = await subscriptionsOf(trx, workspaceId);
    const after = viewOf(rows);
    if (before.plan.id !== after.plan.id || before.status !== after.status) {
      await writeEvent(trx, 'billing', {
        type: EventType.BillingPlanChanged,
        workspaceId,
        payload: {
          planId: after.plan.id,
          planName: after.plan.name,
          status: after.status,
          bankAccounts: wireLimit(after.plan.limits.bankAccounts),
          users: wireLimit(after.plan.limits.users),
          monthlyExpenses: BigInt(wireLimit(after.plan.limits.monthlyExpenses)),
          changedAt: new Date().toISOString(),
        },
      });
    }
    // A plan changed by a second checkout: the subscription it replaces is cancelled (once the caller commits).
    const superseded =
      after.subscription && LIVE_STATUSES.includes(after.status)
        ? rows.filter((r) => r.id !== after.subscription!.id && LIVE_STATUSES.includes(r.status)).map((r) => r.stripe_subscription_id)
        : [];
    return { workspaceId, superseded };
  }

  /** Cancels at Stripe the subscriptions a newer one replaced (prorated); their own webhooks then record it. */
  async function cancelSuperseded(applied: Applied | undefined): Promise<void> {
    for (const id of applied?.superseded ?? []) {
      try {
        await stripe.subscriptions.cancel(id, { prorate: true }, { idempotencyKey: `ledgerline-supersede-${id}` });
      } catch (err) {
        logger.warn({ err, subscriptionId: id }, 'billing: a superseded subscription could not be cancelled; the next event retries');
      }
    }
  }

  const webhookSecrets = (): string[] =>
    config.BILLING_WEBHOOK_SECRET.split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  return {
    billingUrl,

    listPlans(): PlanView[] {
      return PLANS.map(planView);
    },

    planView,

    /** A Checkout Session for a paid plan's price; the workspace's Stripe customer is made once. */
    async createCheckout(tenant: Tenant, input: { priceId: string }): Promise<{ sessionId: string; url: string }> {
      assertCanEdit(tenant, { callsWithoutRole: 'allow' });
      const wanted = input.priceId.trim();
      if (wanted === '') throw AppError.invalid([{ field: 'priceId', message: 'priceId is required' }]);
      const price = priceOf(wanted, mode);
      if (!price) throw AppError.invalid([{ field: 'priceId', message: `Unknown price: ${wanted.slice(0, 100)}` }]);
      if (isFree(price.plan)) throw AppError.invalid([{ field: 'priceId', message: `The ${price.plan.name} plan is free: no checkout is needed` }]);
      const current = await withTenant(db, tenant, async (trx) => viewOf(await subscriptionsOf(trx, tenant.workspaceId)));
      if (current.subscription && current.plan.id === price.plan.id && current.interval === price.interval)
        throw new AppError(ErrorKind.Conflict, `You are already on the ${price.plan.name} plan`, { appErrorCode: 'ALREADY_SUBSCRIBED' });

      let customerId = await withTenant(db, tenant, (trx) => customerOf(trx, tenant.workspaceId));
      if (!customerId) {
        const customer = await stripe.customers.create(
          { metadata: { workspaceId: tenant.workspaceId } },
          { idempotencyKey: `ledgerline-customer-${tenant.workspaceId}` },
        );
        customerId = await withTenant(db, tenant, async (trx) => {
          await saveCustomer(trx, tenant.workspaceId, customer.id);
          return (await customerOf(trx, tenant.workspaceId))!;
        });
      }
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: tenant.workspaceId,
        line_items: [{ price: wanted, quantity: 1 }],
        success_url: `${billingUrl}&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: billingUrl,
        metadata: { workspaceId: tenant.workspaceId },
        subscription_data: {
          metadata: { workspaceId: tenant.workspaceId },
          ...(config.BILLING_TRIAL_DAYS > 0 && !current.subscription ? { trial_period_days: config.BILLING_TRIAL_DAYS } : {}),
        },
      });
      if (!session.url) throw new Error('Stripe answered a checkout session without a url');
      await withTenant(db, tenant, (trx) =>
        saveCheckoutSession(trx, { id: session.id, workspace_id: tenant.workspaceId, price_id: wanted, created_by: tenant.userId ?? null }),
      );
      return { sessionId: session.id, url: session.url };
    },

    /** The workspace's subscription; with the session the browser comes back from, that session's result first. */
    async verify(tenant: Tenant, input: { sessionId: string }): Promise<SubscriptionView> {
      const sessionId = input.sessionId.trim();
      if (sessionId !== '') {
        if (sessionId.length > 300) throw AppError.invalid([{ field: 'sessionId', message: 'sessionId must be at most 300 characters' }]);
        // Any id that is not one of this workspace's sessions (another workspace's, or not a session at all) is a 404.
        const known = await withTenant(db, tenant, (trx) => checkoutSession(trx, sessionId));
        if (!known) throw AppError.notFound('Checkout session');
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
        if (subscriptionId) await cancelSuperseded(await withTenant(db, tenant, (trx) => apply(trx, subscriptionId, tenant.workspaceId)));
      }
      return withTenant(db, tenant, async (trx) => viewOf(await subscriptionsOf(trx, tenant.workspaceId)));
    },

    async limits(tenant: Tenant): Promise<{ plan: Plan; upgradeUrl: string }> {
      const view = await withTenant(db, tenant, async (trx) => viewOf(await subscriptionsOf(trx, tenant.workspaceId)));
      return { plan: view.plan, upgradeUrl: billingUrl };
    },

    /** A platform webhook: verified, then applied once per event id (the inbox row commits with the effect). */
    async webhook(body: Uint8Array, signature: string): Promise<WebhookOutcome> {
      if (body.length > 1_000_000) throw AppError.invalid([{ field: 'body', message: 'Webhook body is too large' }]);
      let event: Stripe.Event;
      try {
        event = verifyWebhook(body, signature, webhookSecrets(), config.BILLING_WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw AppError.invalid([{ field: 'stripe-signature', message: 'Invalid Stripe signature' }]);
      }
      if (typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data || typeof event.data.object !== 'object')
        throw AppError.invalid([{ field: 'body', message: 'Invalid Stripe event' }]);
      if (event.account) return 'ignored'; // a connected account's event: the integrations service's
      const object = event.data.object as unknown as Record<string, unknown>;
      const subscriptionId = SUBSCRIPTION_EVENT.test(event.type) ? subscriptionIdOf(object) : undefined;
      const result = await withSystem(db, async (trx): Promise<{ outcome: WebhookOutcome; applied?: Applied }> => {
        if (!(await recordEvent(trx, { id: event.id, type: event.type, outcome: subscriptionId ? 'processed' : 'ignored', workspaceId: null })))
          return { outcome: 'duplicate' };
        if (!subscriptionId) return { outcome: 'ignored' };
        const applied = await apply(trx, subscriptionId, undefined);
        if (!applied) {
          await settleEvent(trx, event.id, { outcome: 'ignored', workspaceId: null });
          return { outcome: 'ignored' };
        }
        await settleEvent(trx, event.id, { outcome: 'processed', workspaceId: applied.workspaceId });
        return { outcome: 'processed', applied };
      });
      await cancelSuperseded(result.applied);
      return result.outcome;
    },
  };
}

/** The subscription an event is about: the object itself, a checkout session's or an invoice's. */
function subscriptionIdOf(object: Record<string, unknown>): string | undefined {
  const id = (v: unknown): string | undefined =>
    typeof v === 'string' && v.startsWith('sub_') ? v : v && typeof v === 'object' ? id((v as { id?: unknown }).id) : undefined;
  if (object.object === 'subscription') return id(object.id);
  if (object.object === 'checkout.session' || object.object === 'invoice') {
    const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    return id(object.subscription) ?? id(parent?.subscription_details?.subscription);
  }
  return undefined;
}

export type BillingUseCases = ReturnType<typeof createUseCases>;
