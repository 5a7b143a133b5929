// Public surface of @ledgerline/stripe-sandbox: a local stand-in for Stripe that the official `stripe` SDK talks
// to with `host`, `port` and `protocol: 'http'`, with controls for tests and development. See the README.
import type { AddressInfo } from 'node:net';
import type { StripeAccount, StripeObject } from './account.js';
import { StripeSandboxCore, type CreateAccountInput } from './core.js';
import { StripeApiError } from './errors.js';
import { ControlError, createHttpServer } from './http.js';
import { signatureHeader, type WebhookDelivery, type WebhookEndpoint } from './webhooks.js';
import { PlatformBilling, type CheckoutOutcome } from './billing.js';

export { API_VERSION, type CreateAccountInput } from './core.js';
export { cardFee, CATALOG, COUPON } from './history.js';
export { signatureHeader, signPayload, type WebhookDelivery, type WebhookEndpoint } from './webhooks.js';
export type { StripeObject } from './account.js';
export { PLATFORM_CATALOG, platformPriceId, SUBSCRIPTION_MOVES, type CheckoutOutcome } from './billing.js';

export const DEFAULT_SECRET_KEY = 'sk_test_ledgerline_platform_sandbox_key';
export const DEFAULT_PUBLISHABLE_KEY = 'pk_test_ledgerline_platform_sandbox_key';
export const DEFAULT_CLIENT_ID = 'ca_ledgerlinesandboxclient';

export interface StripeSandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  secretKey?: string;
  clientId?: string;
  /** The sandbox clock (default: the real one): the end of generated histories and every live timestamp. */
  now?: () => Date;
  /** The history of an account connected through /oauth/authorize (default 20 customers over 12 months). */
  defaultHistory?: { customers?: number; months?: number };
  /** Connect webhook endpoints to register at start (e.g. the gateway's), with fixed secrets. */
  webhooks?: Array<{ url: string; secret: string; connect?: boolean; enabledEvents?: string[] }>;
  webhookTimeoutMs?: number;
  /** Where browsers reach the sandbox (the hosted checkout page's address); default its own URL. */
  publicUrl?: string;
}

export interface ConnectedAccount {
  id: string;
  /** A fresh authorization code for POST /oauth/token (the Connect callback's `code`). */
  code: string;
  /** Objects by wire type, e.g. { customer: 20, subscription: 20, invoice: 190, ... } (events not counted). */
  counts: Record<string, number>;
}

export interface StripeSandbox {
  /** e.g. http://127.0.0.1:12111 (no trailing slash). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly secretKey: string;
  readonly clientId: string;
  /** What to give `new Stripe(key, config)`: host, port and protocol. */
  readonly sdkConfig: { host: string; port: number; protocol: 'http' };
  /** Creates a connected account with a generated history; returns a code to exchange for its token. */
  createAccount(input?: CreateAccountInput): ConnectedAccount;
  /** A new authorization code for an account (as if the user connected it again). */
  authorizationCode(accountId: string): string;
  /** Every object of `type` in the account, oldest first (e.g. 'customer', 'payout', 'event'). */
  objects(accountId: string, type: string): StripeObject[];
  object(accountId: string, id: string): StripeObject | undefined;
  /** Registers a webhook endpoint (Connect endpoints receive connected accounts' events). */
  addWebhookEndpoint(input: { url: string; secret?: string; connect?: boolean; enabledEvents?: string[] }): WebhookEndpoint;
  rollWebhookSecret(endpointId: string, expiresInSeconds?: number): WebhookEndpoint;
  /** false: live events are kept and sent only by deliver() (tests choose the order and the repeats). */
  setAutoDeliver(on: boolean): void;
  /** Sends an event (again) to its endpoints, `times` times; deliveries happen one at a time in call order. */
  deliver(eventId: string, options?: { times?: number; timestamp?: number; endpointId?: string }): Promise<WebhookDelivery[]>;
  deliveries(filter?: { eventId?: string }): WebhookDelivery[];
  /** The Stripe-Signature header the sandbox would send for `payload` (tests of old timestamps, rotation). */
  signatureFor(payload: string, secret: string, timestamp: number): string;
  /** The customer finishes a platform Checkout Session (billing.ts): its subscription and the success redirect. */
  completeCheckout(sessionId: string, outcome?: CheckoutOutcome): { subscriptionId: string; redirect: string };
  /** Moves a platform subscription as Stripe would (trial end, failed renewal, pause, cancel...), emitting its events. */
  moveSubscription(subscriptionId: string, status: string): StripeObject;
  /** The platform account's own objects of `type`, oldest first (e.g. 'event', 'subscription', 'checkout.session'). */
  platformObjects(type: string): StripeObject[];
  close(): Promise<void>;
}

export async function startStripeSandbox(options: StripeSandboxOptions = {}): Promise<StripeSandbox> {
  const core = new StripeSandboxCore({
    secretKey: options.secretKey ?? DEFAULT_SECRET_KEY,
    publishableKey: DEFAULT_PUBLISHABLE_KEY,
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    now: options.now ?? (() => new Date()),
    defaultHistory: { customers: options.defaultHistory?.customers ?? 20, months: options.defaultHistory?.months ?? 12 },
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
  });
  for (const hook of options.webhooks ?? [])
    core.addEndpoint({ url: hook.url, secret: hook.secret, connect: hook.connect ?? true, enabledEvents: hook.enabledEvents });

  const billing = new PlatformBilling(core);
  core.extraRoutes.push((method, segments, params, caller) => billing.route(method, segments, params, caller));

  const accountOf = (id: string): StripeAccount => {
    const account = core.accounts.get(id);
    if (!account) throw new ControlError(404, `no account ${id}`);
    return account;
  };
  const summary = (account: StripeAccount, code: string): ConnectedAccount => {
    const counts: Record<string, number> = {};
    for (const object of account.objects.values()) if (object.object !== 'event') counts[object.object] = (counts[object.object] ?? 0) + 1;
    return { id: account.id, code, counts };
  };
  const sandbox: Omit<StripeSandbox, 'url' | 'host' | 'port' | 'sdkConfig' | 'close'> = {
    secretKey: core.options.secretKey,
    clientId: core.options.clientId,
    createAccount: (input) => {
      const { account, code } = core.createAccount(input);
      return summary(account, code);
    },
    authorizationCode: (id) => core.issueCode(accountOf(id).id, 'read_write'),
    objects: (id, type) => [...accountOf(id).all(type)],
    object: (id, objectId) => accountOf(id).get(objectId),
    addWebhookEndpoint: (input) => core.addEndpoint(input),
    rollWebhookSecret: (id, expires) => core.rollSecret(id, expires),
    setAutoDeliver: (on) => {
      core.autoDeliver = on;
    },
    deliver: (eventId, opts) => core.deliver(eventId, opts),
    deliveries: (filter) => core.deliveries.filter((d) => !filter?.eventId || d.eventId === filter.eventId),
    signatureFor: (payload, secret, timestamp) => signatureHeader(payload, [secret], timestamp),
    completeCheckout: (sessionId, outcome) => {
      const { subscription, redirect } = billing.complete(sessionId, outcome);
      return { subscriptionId: subscription.id, redirect };
    },
    moveSubscription: (subscriptionId, status) => billing.move(subscriptionId, status),
    platformObjects: (type) => [...core.platform.all(type)],
  };

  const controls = async (method: string, path: string, body: Record<string, unknown>): Promise<unknown> => {
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const is = (m: string, ...pattern: string[]): boolean =>
      method === m && segments.length === pattern.length && pattern.every((p, i) => p === '*' || p === segments[i]);
    if (is('GET', 'health')) return { ok: true };
    if (is('POST', 'accounts')) {
      const num = (v: unknown, name: string, max: number): number | undefined => {
        if (v === undefined) return undefined;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) throw new ControlError(400, `${name} must be an integer from 0 to ${max}`);
        return v;
      };
      const str = (v: unknown, name: string): string | undefined => {
        if (v === undefined) return undefined;
        if (typeof v !== 'string' || v.length > 200) throw new ControlError(400, `${name} must be a string of at most 200 characters`);
        return v;
      };
      return sandbox.createAccount({
        seed: str(body.seed, 'seed'),
        name: str(body.name, 'name'),
        customers: num(body.customers, 'customers', 100_000),
        months: num(body.months, 'months', 120),
      });
    }
    if (is('POST', 'accounts', '*', 'codes')) return { code: sandbox.authorizationCode(segments[1]!) };
    if (is('POST', 'auto-deliver')) {
      if (typeof body.on !== 'boolean') throw new ControlError(400, 'on must be a boolean');
      sandbox.setAutoDeliver(body.on);
      return { on: body.on };
    }
    if (is('POST', 'events', '*', 'deliver')) {
      const times = body.times === undefined ? 1 : body.times;
      if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 20)
        throw new ControlError(400, 'times must be an integer from 1 to 20');
      return { deliveries: await sandbox.deliver(segments[1]!, { times }) };
    }
    if (is('GET', 'deliveries')) return { deliveries: sandbox.deliveries() };
    if (is('POST', 'checkout-sessions', '*', 'complete')) {
      const outcome = body.outcome ?? 'paid';
      if (outcome !== 'paid' && outcome !== 'trial' && outcome !== 'pending') throw new ControlError(400, 'outcome must be paid, trial or pending');
      return sandbox.completeCheckout(segments[1]!, outcome);
    }
    if (is('POST', 'subscriptions', '*', 'status')) {
      if (typeof body.status !== 'string') throw new ControlError(400, 'status must be a string');
      const sub = sandbox.moveSubscription(segments[1]!, body.status);
      return { id: sub.id, status: sub.status };
    }
    if (is('POST', 'webhook-endpoints', '*', 'roll')) return { id: core.rollSecret(segments[1]!).id };
    throw new ControlError(404, `no control ${method} /ledgerline${path}`);
  };

  const server = createHttpServer(core, controls, [(method, path, form) => billing.page(method, path, form)]);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  billing.baseUrl = options.publicUrl ?? `http://${urlHost}:${port}`;
  return {
    ...sandbox,
    url: `http://${urlHost}:${port}`,
    host: urlHost,
    port,
    sdkConfig: { host: urlHost, port, protocol: 'http' },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { StripeApiError };
