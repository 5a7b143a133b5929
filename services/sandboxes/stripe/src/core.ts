// The sandbox's state and Stripe's endpoints: the platform account and its connected accounts, Connect OAuth,
// list and retrieve of every object type the product reads, the few writes tests use to make live changes,
// webhook endpoints and signed deliveries, idempotent POSTs.
import { randomBytes } from 'node:crypto';
import { StripeAccount, type ListParams, type StripeObject } from './account.js';
import { OAuthError, StripeApiError, stripeErrors } from './errors.js';
import { generateHistory, IdMaker, planOf } from './history.js';
import { endpointWire, signatureHeader, subscribes, type WebhookDelivery, type WebhookEndpoint } from './webhooks.js';

export const API_VERSION = '2026-10-28.endive';

export interface CoreOptions {
  secretKey: string;
  publishableKey: string;
  clientId: string;
  now: () => Date;
  /** The history an account connected through /oauth/authorize gets (customers, months). */
  defaultHistory: { customers: number; months: number };
  webhookTimeoutMs: number;
}

export interface CreateAccountInput {
  /** The history's seed (default: the account's position, so the n-th account is the same every run). */
  seed?: string;
  customers?: number;
  months?: number;
  name?: string;
  email?: string;
}

type Params = Record<string, unknown>;
export interface Caller {
  account: StripeAccount;
  /** true when the caller is the platform itself (its secret key, no Stripe-Account). */
  platform: boolean;
}

export class StripeSandboxCore {
  readonly platform: StripeAccount;
  readonly accounts = new Map<string, StripeAccount>();
  private readonly accessTokens = new Map<string, string>();
  private readonly codes = new Map<string, { accountId: string; scope: string; used: boolean }>();
  readonly endpoints = new Map<string, WebhookEndpoint>();
  readonly deliveries: WebhookDelivery[] = [];
  private readonly idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  private readonly ids = new IdMaker('sandbox');
  private accountsMade = 0;
  /** When false, live events are stored but not sent until a test calls deliver (out-of-order tests). */
  autoDeliver = true;
  private deliveryChain: Promise<unknown> = Promise.resolve();
  /** Further /v1 routes (billing.ts: the platform's Checkout Sessions); each answers or returns undefined. */
  readonly extraRoutes: Array<(method: string, segments: string[], params: Params, caller: Caller) => { status: number; body: unknown } | undefined> = [];

  constructor(readonly options: CoreOptions) {
    this.platform = new StripeAccount(this.accountObject('acct_ledgerlineplatform', 'Ledgerline', 'platform@example.com', this.nowUnix()));
  }

  nowUnix(): number {
    return Math.floor(this.options.now().getTime() / 1000);
  }

  private accountObject(id: string, name: string, email: string, created: number): StripeObject {
    return {
      id,
      object: 'account',
      business_profile: { name, url: null, support_email: email },
      business_type: 'company',
      capabilities: { card_payments: 'active', transfers: 'active' },
      charges_enabled: true,
      country: 'US',
      created,
      default_currency: 'usd',
      details_submitted: true,
      email,
      metadata: {},
      payouts_enabled: true,
      settings: {
        dashboard: { display_name: name, timezone: 'Etc/UTC' },
        payouts: { schedule: { interval: 'weekly', weekly_anchor: 'monday', delay_days: 2 } },
      },
      type: 'standard',
    };
  }

  // ── accounts and OAuth ────────────────────────────────────────────────────────────────────────────

  createAccount(input: CreateAccountInput = {}): { account: StripeAccount; code: string } {
    const index = ++this.accountsMade;
    const seed = input.seed ?? `account-${index}`;
    const ids = new IdMaker(seed);
    const id = ids.next('acct').slice(0, 21);
    if (this.accounts.has(id)) throw new StripeApiError(400, 'invalid_request_error', `an account with seed ${seed} is already connected`);
    const name = input.name ?? `Sandbox Business ${index}`;
    const created = this.nowUnix() - 400 * 86_400;
    const account = new StripeAccount(this.accountObject(id, name, input.email ?? `owner${index}@example.com`, created));
    this.accounts.set(id, account);
    generateHistory(
      account,
      ids,
      {
        seed,
        customers: input.customers ?? this.options.defaultHistory.customers,
        months: input.months ?? this.options.defaultHistory.months,
        end: this.options.now(),
      },
      (type, object, at, previous) => this.recordEvent(account, ids.next('evt'), type, object, at, previous),
    );
    return { account, code: this.issueCode(id, 'read_write') };
  }

  issueCode(accountId: string, scope: string): string {
    const code = `ac_${randomBytes(18).toString('base64url')}`;
    this.codes.set(code, { accountId, scope, used: false });
    return code;
  }

  /** GET /oauth/authorize: the user approves at once; answers the redirect with `code`, `scope` and `state`. */
  authorize(query: URLSearchParams, defaultRedirect: string | undefined): string {
    const clientId = query.get('client_id');
    if (clientId !== this.options.clientId) throw new OAuthError(400, 'invalid_client', `No such application: '${clientId ?? ''}'`);
    const redirect = query.get('redirect_uri') ?? defaultRedirect;
    if (!redirect) throw new OAuthError(400, 'invalid_request', 'No redirect_uri was given and the application has none configured');
    let target: URL;
    try {
      target = new URL(redirect);
    } catch {
      throw new OAuthError(400, 'invalid_redirect_uri', `Invalid redirect URI '${redirect}'`);
    }
    const scope = query.get('scope') ?? 'read_only';
    if (scope !== 'read_only' && scope !== 'read_write') throw new OAuthError(400, 'invalid_scope', `Invalid scope: ${scope}`);
    const { account } = this.createAccount({ name: query.get('stripe_user[business_name]') ?? undefined, email: query.get('stripe_user[email]') ?? undefined });
    const code = this.issueCode(account.id, scope);
    target.searchParams.set('code', code);
    target.searchParams.set('scope', scope);
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    return target.toString();
  }

  oauthToken(params: Params, bearer: string | undefined): Record<string, unknown> {
    const secret = typeof params.client_secret === 'string' ? params.client_secret : bearer;
    if (secret !== this.options.secretKey) throw new OAuthError(401, 'invalid_client', 'No authentication was provided or the key is invalid');
    if (params.grant_type !== 'authorization_code')
      throw new OAuthError(400, 'unsupported_grant_type', `Unsupported grant type: ${String(params.grant_type ?? '')}`);
    const code = typeof params.code === 'string' ? params.code : '';
    const entry = this.codes.get(code);
    if (!entry) throw new OAuthError(400, 'invalid_grant', `Authorization code does not exist: ${code}`);
    if (entry.used) {
      for (const [token, id] of this.accessTokens) if (id === entry.accountId) this.accessTokens.delete(token);
      throw new OAuthError(400, 'invalid_grant', 'This authorization code has already been used. All tokens issued with this code have been revoked.');
    }
    entry.used = true;
    const accessToken = `sk_test_${randomBytes(24).toString('base64url')}`;
    this.accessTokens.set(accessToken, entry.accountId);
    return {
      access_token: accessToken,
      livemode: false,
      refresh_token: `rt_${randomBytes(24).toString('base64url')}`,
      scope: entry.scope,
      stripe_publishable_key: `pk_test_${randomBytes(12).toString('base64url')}`,
      stripe_user_id: entry.accountId,
      token_type: 'bearer',
    };
  }

  deauthorize(params: Params, bearer: string | undefined): Record<string, unknown> {
    if (bearer !== this.options.secretKey) throw new OAuthError(401, 'invalid_client', 'No authentication was provided or the key is invalid');
    if (params.client_id !== this.options.clientId) throw new OAuthError(400, 'invalid_client', `No such application: '${String(params.client_id ?? '')}'`);
    const accountId = typeof params.stripe_user_id === 'string' ? params.stripe_user_id : '';
    if (!this.accounts.has(accountId) || !this.isConnected(accountId)) {
      throw new OAuthError(
        400,
        'invalid_client',
        `Application ${this.options.clientId} is not connected to stripe account ${accountId}, or that account does not exist.`,
      );
    }
    this.disconnected.add(accountId);
    for (const [token, id] of this.accessTokens) if (id === accountId) this.accessTokens.delete(token);
    return { stripe_user_id: accountId };
  }

  private readonly disconnected = new Set<string>();
  isConnected(accountId: string): boolean {
    return this.accounts.has(accountId) && !this.disconnected.has(accountId);
  }

  /** Bearer key + optional Stripe-Account → whose data the request reads. */
  authenticate(bearer: string | undefined, stripeAccount: string | undefined): Caller {
    if (!bearer) throw stripeErrors.missingKey();
    if (bearer === this.options.secretKey) {
      if (!stripeAccount) return { account: this.platform, platform: true };
      if (!this.isConnected(stripeAccount)) throw stripeErrors.noSuchAccount(stripeAccount);
      return { account: this.accounts.get(stripeAccount)!, platform: false };
    }
    const tokenAccount = this.accessTokens.get(bearer);
    if (!tokenAccount) throw stripeErrors.invalidKey(bearer);
    if (stripeAccount && stripeAccount !== tokenAccount) throw stripeErrors.noSuchAccount(stripeAccount);
    return { account: this.accounts.get(tokenAccount)!, platform: false };
  }

  // ── events and webhooks ───────────────────────────────────────────────────────────────────────────

  private recordEvent(account: StripeAccount, id: string, type: string, object: StripeObject, at: number, previous?: Record<string, unknown>): StripeObject {
    return account.add({
      id,
      object: 'event',
      account: account === this.platform ? undefined : account.id,
      api_version: API_VERSION,
      created: at,
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: null, idempotency_key: null },
      type,
    });
  }

  /** A live change: the event is stored and (unless autoDeliver is off) sent to every subscribed endpoint. */
  emit(account: StripeAccount, type: string, object: StripeObject, previous?: Record<string, unknown>): StripeObject {
    const event = this.recordEvent(account, this.ids.next('evt'), type, object, this.nowUnix(), previous);
    if (this.autoDeliver) void this.deliver(event.id, { account: account.id }).catch(() => undefined);
    return event;
  }

  findEvent(eventId: string, accountId?: string): { account: StripeAccount; event: StripeObject } {
    const pools = accountId
      ? [this.accounts.get(accountId) ?? (accountId === this.platform.id ? this.platform : undefined)]
      : [this.platform, ...this.accounts.values()];
    for (const account of pools) {
      const event = account?.get(eventId);
      if (account && event?.object === 'event') return { account, event };
    }
    throw stripeErrors.noSuch('event', eventId);
  }

  /**
   * Sends the event to its endpoints (all subscribed ones, or `endpointId`), one delivery at a time in call
   * order; `times` repeats it (Stripe may deliver an event more than once). Resolves with the deliveries.
   */
  async deliver(eventId: string, options: { account?: string; endpointId?: string; times?: number; timestamp?: number } = {}): Promise<WebhookDelivery[]> {
    const { account, event } = this.findEvent(eventId, options.account);
    const targets = [...this.endpoints.values()].filter(
      (e) => (options.endpointId ? e.id === options.endpointId : true) && e.connect === (account !== this.platform) && subscribes(e, event.type as string),
    );
    const run = async (): Promise<WebhookDelivery[]> => {
      const made: WebhookDelivery[] = [];
      for (let i = 0; i < (options.times ?? 1); i++) for (const endpoint of targets) made.push(await this.send(endpoint, event, options.timestamp));
      return made;
    };
    const result = this.deliveryChain.then(run, run);
    this.deliveryChain = result.catch(() => undefined);
    return result;
  }

  private async send(endpoint: WebhookEndpoint, event: StripeObject, timestamp?: number): Promise<WebhookDelivery> {
    const payload = JSON.stringify(event, null, 2);
    const t = timestamp ?? this.nowUnix();
    const secrets = [endpoint.secret, ...endpoint.previous.filter((p) => p.expiresAt > this.nowUnix()).map((p) => p.secret)];
    const signature = signatureHeader(payload, secrets, t);
    let status = 0;
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        signal: AbortSignal.timeout(this.options.webhookTimeoutMs),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      status = 0;
    }
    const delivery: WebhookDelivery = {
      id: `whdel_${randomBytes(9).toString('hex')}`,
      eventId: event.id,
      eventType: event.type as string,
      endpointId: endpoint.id,
      status,
      at: t,
      signature,
    };
    this.deliveries.push(delivery);
    return delivery;
  }

  addEndpoint(input: { url: string; connect?: boolean; enabledEvents?: string[]; secret?: string }): WebhookEndpoint {
    const endpoint: WebhookEndpoint = {
      id: this.ids.next('we'),
      url: input.url,
      secret: input.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
      previous: [],
      connect: input.connect ?? false,
      enabledEvents: input.enabledEvents ?? ['*'],
      created: this.nowUnix(),
    };
    this.endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  /** Stripe's "roll secret": a new secret now, the old one still signed alongside until `expiresInSeconds`. */
  rollSecret(endpointId: string, expiresInSeconds = 86_400): WebhookEndpoint {
    const endpoint = this.endpoints.get(endpointId);
    if (!endpoint) throw stripeErrors.noSuch('webhook_endpoint', endpointId);
    endpoint.previous.push({ secret: endpoint.secret, expiresAt: this.nowUnix() + expiresInSeconds });
    endpoint.secret = `whsec_${randomBytes(24).toString('base64url')}`;
    return endpoint;
  }

  // ── the REST API ──────────────────────────────────────────────────────────────────────────────────

  /** Idempotent POSTs: the same key and parameters replay the first answer; other parameters are refused. */
  idempotent(
    scope: string,
    key: string | undefined,
    params: Params,
    run: () => { status: number; body: unknown },
  ): { status: number; body: unknown; replayed: boolean } {
    if (!key) return { ...run(), replayed: false };
    const fingerprint = JSON.stringify(params);
    const stored = this.idempotency.get(`${scope}:${key}`);
    if (stored) {
      if (stored.fingerprint !== fingerprint) throw stripeErrors.idempotencyMismatch(key);
      return { status: stored.status, body: stored.body, replayed: true };
    }
    const answer = run();
    this.idempotency.set(`${scope}:${key}`, { fingerprint, ...answer });
    return { ...answer, replayed: false };
  }

  route(method: string, segments: string[], params: Params, caller: Caller): { status: number; body: unknown } {
    for (const extra of this.extraRoutes) {
      const answer = extra(method, segments, params, caller);
      if (answer) return answer;
    }
    const account = caller.account;
    const [resource, id, sub] = segments;
    const ok = (body: unknown) => ({ status: 200, body });
    if (segments.length === 1 && resource === 'account' && method === 'GET') return ok(expand(account, account.account, params, ''));
    if (resource === 'accounts' && method === 'GET' && segments.length === 2) {
      if (!caller.platform) throw stripeErrors.unrecognizedUrl(method, `/v1/accounts/${id}`);
      if (!this.isConnected(id!)) throw stripeErrors.noSuch('account', id!);
      return ok(this.accounts.get(id!)!.account);
    }
    if (resource === 'webhook_endpoints') return ok(this.webhookEndpoints(method, id, params, caller));
    const list = LISTS[resource ?? ''];
    if (list && method === 'GET' && segments.length === 1) {
      const listParams = listParamsOf(params, list.filters);
      const page = this.listOf(account, resource!, list, listParams, params);
      return ok(expand(account, page, params, ''));
    }
    if (list && method === 'GET' && segments.length === 2) {
      const object = resource === 'plans' ? planOf(account.require('price', id!)) : account.require(list.kind, id!);
      checkParams(params, ['expand']);
      return ok(expand(account, object, params, ''));
    }
    if (resource === 'customers' && method === 'POST' && segments.length === 1) return { status: 200, body: this.createCustomer(account, params) };
    if (resource === 'customers' && method === 'POST' && segments.length === 2) return ok(this.updateCustomer(account, id!, params));
    if (resource === 'subscriptions' && method === 'DELETE' && segments.length === 2) return ok(this.cancelSubscription(account, id!, params));
    if (resource === 'subscriptions' && method === 'POST' && segments.length === 2) return ok(this.updateSubscription(account, id!, params));
    void sub;
    throw stripeErrors.unrecognizedUrl(method, `/v1/${segments.join('/')}`);
  }

  private listOf(account: StripeAccount, resource: string, list: ListSpec, listParams: ListParams, params: Params): unknown {
    const url = `/v1/${resource}`;
    const str = (name: string): string | undefined => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
    if (resource === 'plans') {
      const plans = account
        .all('price')
        .filter((p) => p.type === 'recurring')
        .map(planOf);
      return account.list('plan', url, listParams, (p) => matches(p, params, ['product']) && matchesBool(p, params, 'active'), plans);
    }
    if (resource === 'balance_transactions' && str('payout')) {
      const payoutId = str('payout')!;
      const members = account.payoutTransactions.get(payoutId);
      if (!members) throw stripeErrors.noSuch('payout', payoutId, 'payout');
      const rows = members.map((m) => account.get(m)!);
      return account.list('balance_transaction', url, listParams, (o) => matches(o, params, ['type', 'source']), rows);
    }
    if (resource === 'subscriptions') {
      const status = str('status');
      return account.list('subscription', url, listParams, (o) => {
        if (!matches(o, params, ['customer'])) return false;
        if (str('price') && !(o.items as { data: Array<{ price: { id: string } }> }).data.some((i) => i.price.id === str('price'))) return false;
        if (!status) return o.status !== 'canceled' && o.status !== 'incomplete_expired';
        return status === 'all' || o.status === status;
      });
    }
    if (resource === 'events') {
      const types = Array.isArray(params.types) ? (params.types as string[]) : undefined;
      const type = str('type');
      const typeMatch = (t: string): boolean => (type ? (type.endsWith('.*') ? t.startsWith(type.slice(0, -1)) : t === type) : true);
      return account.list('event', url, listParams, (o) => typeMatch(o.type as string) && (!types || types.includes(o.type as string)));
    }
    return account.list(
      list.kind,
      url,
      listParams,
      (o) =>
        matches(
          o,
          params,
          list.filters.filter((f) => f !== 'active'),
        ) && matchesBool(o, params, 'active'),
    );
  }

  private webhookEndpoints(method: string, id: string | undefined, params: Params, caller: Caller): unknown {
    if (!caller.platform) throw stripeErrors.unrecognizedUrl(method, '/v1/webhook_endpoints');
    if (method === 'POST' && id === undefined) {
      checkParams(params, ['url', 'enabled_events', 'connect', 'description', 'api_version', 'metadata']);
      if (typeof params.url !== 'string' || params.url === '') throw stripeErrors.missingParam('url');
      const events = params.enabled_events;
      if (!Array.isArray(events) || events.length === 0) throw stripeErrors.missingParam('enabled_events');
      return endpointWire(this.addEndpoint({ url: params.url, connect: params.connect === 'true', enabledEvents: events as string[] }), true);
    }
    if (method === 'GET' && id === undefined) {
      const data = [...this.endpoints.values()].map((e) => endpointWire(e, false));
      return { object: 'list', url: '/v1/webhook_endpoints', has_more: false, data };
    }
    const endpoint = this.endpoints.get(id ?? '');
    if (!endpoint) throw stripeErrors.noSuch('webhook_endpoint', id ?? '');
    if (method === 'GET') return endpointWire(endpoint, false);
    if (method === 'DELETE') {
      this.endpoints.delete(endpoint.id);
      return { id: endpoint.id, object: 'webhook_endpoint', deleted: true };
    }
    throw stripeErrors.unrecognizedUrl(method, `/v1/webhook_endpoints/${endpoint.id}`);
  }

  private createCustomer(account: StripeAccount, params: Params): StripeObject {
    checkParams(params, ['email', 'name', 'description', 'metadata', 'phone', 'expand']);
    const customer = account.add({
      id: this.ids.next('cus'),
      object: 'customer',
      address: null,
      balance: 0,
      created: this.nowUnix(),
      currency: null,
      delinquent: false,
      description: optionalString(params, 'description'),
      email: optionalString(params, 'email'),
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      livemode: false,
      metadata: metadataOf(params),
      name: optionalString(params, 'name'),
      phone: optionalString(params, 'phone'),
    });
    this.emit(account, 'customer.created', customer);
    return customer;
  }

  private updateCustomer(account: StripeAccount, id: string, params: Params): StripeObject {
    checkParams(params, ['email', 'name', 'description', 'metadata', 'phone', 'expand']);
    const customer = account.require('customer', id);
    const previous: Record<string, unknown> = {};
    for (const field of ['email', 'name', 'description', 'phone'] as const) {
      if (params[field] === undefined) continue;
      previous[field] = customer[field];
      customer[field] = optionalString(params, field);
    }
    if (params.metadata !== undefined) {
      previous.metadata = customer.metadata;
      customer.metadata = { ...(customer.metadata as object), ...metadataOf(params) };
    }
    if (Object.keys(previous).length > 0) this.emit(account, 'customer.updated', customer, previous);
    return customer;
  }

  private cancelSubscription(account: StripeAccount, id: string, params: Params): StripeObject {
    checkParams(params, ['invoice_now', 'prorate', 'cancellation_details', 'expand']);
    const sub = account.require('subscription', id);
    if (sub.status === 'canceled') throw new StripeApiError(400, 'invalid_request_error', `No such subscription: '${id}'`, 'resource_missing', 'id');
    const now = this.nowUnix();
    const previous = { status: sub.status, canceled_at: sub.canceled_at, ended_at: sub.ended_at };
    Object.assign(sub, { status: 'canceled', canceled_at: now, ended_at: now });
    this.emit(account, 'customer.subscription.deleted', sub, previous);
    return sub;
  }

  private updateSubscription(account: StripeAccount, id: string, params: Params): StripeObject {
    checkParams(params, ['cancel_at_period_end', 'metadata', 'expand']);
    const sub = account.require('subscription', id);
    const previous: Record<string, unknown> = {};
    if (params.cancel_at_period_end !== undefined) {
      if (params.cancel_at_period_end !== 'true' && params.cancel_at_period_end !== 'false')
        throw stripeErrors.invalidValue('cancel_at_period_end', 'Invalid boolean: cancel_at_period_end');
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
      sub.cancel_at = sub.cancel_at_period_end ? sub.current_period_end : null;
    }
    if (params.metadata !== undefined) {
      previous.metadata = sub.metadata;
      sub.metadata = { ...(sub.metadata as object), ...metadataOf(params) };
    }
    if (Object.keys(previous).length > 0) this.emit(account, 'customer.subscription.updated', sub, previous);
    return sub;
  }
}

// ── lists: which parameters each accepts ───────────────────────────────────────────────────────────────

interface ListSpec {
  kind: string;
  filters: string[];
}

const LISTS: Record<string, ListSpec> = {
  customers: { kind: 'customer', filters: ['email'] },
  products: { kind: 'product', filters: ['active'] },
  prices: { kind: 'price', filters: ['product', 'active', 'type', 'currency'] },
  plans: { kind: 'plan', filters: ['product', 'active'] },
  subscriptions: { kind: 'subscription', filters: ['customer', 'price', 'status'] },
  invoices: { kind: 'invoice', filters: ['customer', 'subscription', 'status'] },
  charges: { kind: 'charge', filters: ['customer', 'payment_intent'] },
  refunds: { kind: 'refund', filters: ['charge', 'payment_intent'] },
  payment_intents: { kind: 'payment_intent', filters: ['customer'] },
  balance_transactions: { kind: 'balance_transaction', filters: ['payout', 'type', 'source', 'currency'] },
  payouts: { kind: 'payout', filters: ['status', 'destination'] },
  events: { kind: 'event', filters: ['type', 'types', 'delivery_success'] },
};

const MAX_EXPAND_DEPTH = 4;

function checkParams(params: Params, allowed: string[]): void {
  for (const key of Object.keys(params)) if (!allowed.includes(key)) throw stripeErrors.unknownParam(key);
}

function integer(params: Params, name: string, value: unknown): number {
  if (typeof value !== 'string' || !/^-?\d{1,12}$/.test(value))
    throw stripeErrors.invalidParam(name, `Invalid integer: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  void params;
  return Number(value);
}

function listParamsOf(params: Params, filters: string[]): ListParams {
  checkParams(params, ['limit', 'starting_after', 'ending_before', 'created', 'expand', ...filters]);
  const out: ListParams = {};
  if (params.limit !== undefined) {
    const limit = integer(params, 'limit', params.limit);
    if (limit < 1 || limit > 100)
      throw stripeErrors.invalidParam('limit', `Invalid integer: ${limit}. This value must be greater than or equal to 1 and less than or equal to 100.`);
    out.limit = limit;
  }
  for (const cursor of ['starting_after', 'ending_before'] as const) {
    if (params[cursor] === undefined) continue;
    if (typeof params[cursor] !== 'string' || params[cursor] === '') throw stripeErrors.invalidValue(cursor, `Invalid ${cursor}: must be an object id`);
    out[cursor] = params[cursor];
  }
  if (out.starting_after && out.ending_before)
    throw stripeErrors.invalidValue('ending_before', 'You may only specify one of these parameters: ending_before, starting_after.');
  if (params.created !== undefined) {
    if (typeof params.created === 'string') out.created = integer(params, 'created', params.created);
    else if (params.created && typeof params.created === 'object' && !Array.isArray(params.created)) {
      const range: Record<string, number> = {};
      for (const [op, value] of Object.entries(params.created)) {
        if (!['gt', 'gte', 'lt', 'lte'].includes(op)) throw stripeErrors.unknownParam(`created[${op}]`);
        range[op] = integer(params, `created[${op}]`, value);
      }
      out.created = range;
    } else throw stripeErrors.invalidParam('created', 'Invalid created: must be an integer or a hash of gt, gte, lt, lte');
  }
  return out;
}

function matches(object: StripeObject, params: Params, fields: string[]): boolean {
  for (const field of fields) {
    const wanted = params[field];
    if (wanted === undefined || field === 'payout' || field === 'price' || field === 'types') continue;
    if (typeof wanted !== 'string') throw stripeErrors.invalidValue(field, `Invalid ${field}: must be a string`);
    const actual = object[field];
    const actualId = actual && typeof actual === 'object' ? (actual as StripeObject).id : actual;
    if (actualId !== wanted) return false;
  }
  return true;
}

function matchesBool(object: StripeObject, params: Params, field: string): boolean {
  if (params[field] === undefined) return true;
  if (params[field] !== 'true' && params[field] !== 'false') throw stripeErrors.invalidValue(field, `Invalid boolean: ${String(params[field])}`);
  return object[field] === (params[field] === 'true');
}

function optionalString(params: Params, name: string): string | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw stripeErrors.invalidValue(name, `Invalid string: ${name}`);
  if (value.length > 5000) throw stripeErrors.invalidValue(name, `Invalid string: ${name} must be at most 5000 characters`);
  return value;
}

function metadataOf(params: Params): Record<string, string> {
  const value = params.metadata;
  if (value === undefined || value === '') return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw stripeErrors.invalidValue('metadata', 'Invalid hash: metadata');
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw stripeErrors.invalidValue(`metadata[${key}]`, 'Invalid string');
    out[key] = v;
  }
  return out;
}

/** `expand[]`: each path (`customer`, `data.balance_transaction`, `latest_charge.balance_transaction`) replaces ids by objects. */
function expand(account: StripeAccount, body: unknown, params: Params, prefix: string): unknown {
  const raw = params.expand;
  if (raw === undefined) return body;
  const paths = Array.isArray(raw) ? raw : typeof raw === 'object' && raw ? Object.values(raw) : [raw];
  const copy = structuredClone(body) as Record<string, unknown>;
  for (const path of paths) {
    if (typeof path !== 'string') throw stripeErrors.invalidValue('expand', 'Invalid array: expand');
    const parts = (prefix ? `${prefix}.${path}` : path).split('.');
    if (parts.length > MAX_EXPAND_DEPTH)
      throw stripeErrors.invalidValue('expand', `You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path}`);
    expandPath(account, copy, parts, path);
  }
  return copy;
}

function expandPath(account: StripeAccount, node: unknown, parts: string[], full: string): void {
  if (!node || typeof node !== 'object') return;
  const [head, ...rest] = parts;
  if (!head) return;
  const record = node as Record<string, unknown>;
  if (head === 'data' && Array.isArray(record.data)) {
    for (const item of record.data) expandPath(account, item, rest, full);
    return;
  }
  if (!(head in record)) throw stripeErrors.invalidValue('expand', `This property cannot be expanded (${full}).`);
  let value = record[head];
  if (typeof value === 'string') {
    const target = account.get(value);
    if (!target) throw stripeErrors.invalidValue('expand', `This property cannot be expanded (${full}).`);
    value = structuredClone(target);
    record[head] = value;
  } else if (value !== null && (typeof value !== 'object' || !('id' in (value as object)))) {
    throw stripeErrors.invalidValue('expand', `This property cannot be expanded (${full}).`);
  }
  if (rest.length > 0) expandPath(account, value, rest, full);
}
