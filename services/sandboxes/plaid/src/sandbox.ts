// The sandbox's state and behaviour: Plaid's endpoints (as functions of the JSON body) and the controls
// tests use. The HTTP layer (http.ts) only parses, authenticates and maps errors.
import { randomUUID } from 'node:crypto';
import { INSTITUTIONS, findInstitution, type Institution } from './domain/catalog.js';
import { DAY_MS, fromDay, toDay } from './domain/history.js';
import { newAccountId, newItemId, newToken } from './domain/ids.js';
import { SandboxItem, UnknownAccountError, UnknownTransactionError, type AccountState, type TransactionInput } from './domain/item.js';
import { hashString } from './domain/prng.js';
import type { Item, PlaidErrorBody, RemovedTransaction, Transaction, WebhookBody } from './domain/wire.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { INJECTABLE_ERRORS, ITEM_LOGIN_REQUIRED_MESSAGE, PlaidApiError, plaidErrors } from './errors.js';
import { WebhookKeys, deliver, type WebhookDelivery } from './webhooks.js';

export const MAX_TRANSACTIONS_PER_ITEM = 100_000;
const PUBLIC_TOKEN_TTL_MS = 30 * 60_000;
const LINK_TOKEN_TTL_MS = 4 * 60 * 60_000;
const MAX_CONTROL_BATCH = 10_000;
const MAX_DELIVERIES_KEPT = 10_000;
const MAX_HISTORICAL_DELAY_MS = 24 * 60 * 60_000;

/** Our extension of /sandbox/public_token/create: `options.ledgerline`. */
export interface LedgerlineItemOptions {
  /** Generated history size, 0..100,000 (default 500). */
  transactions?: number;
  /** PRNG seed (integer or string; default 1). Same seed, institution, user and dates → same transactions. */
  seed?: number | string;
  /** Card transactions dated within this many days of the end date are pending (default 2). */
  pending_days?: number;
  /** Send SYNC_UPDATES_AVAILABLE shortly after the public token is exchanged (default true, if a webhook is set). */
  initial_webhook?: boolean;
  /** Transfers between the item's own accounts and card payments in the generated history (default true). */
  transfers?: boolean;
  /**
   * Late history, as Plaid delivers it: 0 (default) = everything at once. Otherwise only the last ~30 days
   * are available after the exchange (INITIAL_UPDATE_COMPLETE) and the rest lands this many ms after the
   * exchange (or at `releaseHistory`), with SYNC_UPDATES_AVAILABLE `historical_update_complete: true`.
   */
  historical_delay_ms?: number;
}

export interface CreatePublicTokenInput {
  institution_id?: string;
  initial_products?: string[];
  options?: {
    webhook?: string;
    override_username?: string | null;
    override_password?: string | null;
    transactions?: { start_date?: string; end_date?: string; days_requested?: number } | null;
    ledgerline?: LedgerlineItemOptions;
  };
}

export interface AddTransactionsInput {
  /** Generate this many new transactions (dated the item's end date unless `transactions` says otherwise). */
  count?: number;
  /** Or add exactly these (each field optional; unspecified ones are generated). */
  transactions?: TransactionInput[];
  /** Fire SYNC_UPDATES_AVAILABLE to the item's webhook (default true). */
  webhook?: boolean;
}

export interface ModifyTransactionsInput {
  /** Modify this many existing transactions picked at random (their amount changes a little). */
  count?: number;
  /** Or apply these changes. */
  transactions?: (TransactionInput & { transaction_id: string })[];
  webhook?: boolean;
}

export interface RemoveTransactionsInput {
  count?: number;
  transaction_ids?: string[];
  webhook?: boolean;
}

export interface MutationResult {
  added: Transaction[];
  modified: Transaction[];
  removed: RemovedTransaction[];
  /** The SYNC_UPDATES_AVAILABLE delivery, or null if the item has no webhook (or `webhook: false`). */
  webhook: WebhookDelivery | null;
}

export interface FailureRule {
  /** Plaid path, e.g. '/transactions/sync'; any endpoint if omitted. */
  endpoint?: string;
  /** Only requests for this item (by item_id or access_token). */
  item?: string;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** One of INJECTABLE_ERRORS' codes, e.g. 'INTERNAL_SERVER_ERROR', 'RATE_LIMIT_EXCEEDED'. */
  error: string;
}

export interface ItemSnapshot {
  item_id: string;
  access_token: string;
  institution_id: string;
  institution_name: string;
  webhook: string | null;
  login_required: boolean;
  accounts: { account_id: string; name: string; mask: string; subtype: string }[];
  /** Transactions that exist now (generated + added − removed). */
  transaction_count: number;
  generated_count: number;
  /** Length of the update log (what a full sync replays). */
  log_length: number;
  start_date: string;
  end_date: string;
  seed: number;
  created_at: string;
  /** False while the older history has not landed yet (late history); /transactions/sync says INITIAL_UPDATE_COMPLETE. */
  history_released: boolean;
  /** Generated transactions held back until the release (0 once released or without late history). */
  held_back_count: number;
}

export interface ReleaseHistoryResult {
  /** How many generated transactions became available (0 if the history was already complete). */
  released: number;
  webhook: WebhookDelivery | null;
}

export interface LinkCompleteInput {
  link_token: string;
  /** For a new item (not needed in update mode). */
  institution_id?: string;
  /** Which accounts the user selected (all by default). */
  account_ids?: string[];
  /** Size and seed of the new item's history. */
  ledgerline?: LedgerlineItemOptions;
}

/** The arguments of Plaid Link's onSuccess(public_token, metadata). */
export interface LinkSuccess {
  public_token: string;
  metadata: {
    institution: { name: string; institution_id: string };
    accounts: { id: string; name: string; mask: string | null; type: string; subtype: string; verification_status: null; class_type: null }[];
    account: { id: string | null };
    account_id: string | null;
    link_session_id: string;
    transfer_status: null;
    wallet: null;
  };
}

export interface SandboxCoreOptions {
  clientId: string;
  secret: string;
  now?: () => Date;
  webhookTimeoutMs?: number;
  initialWebhookDelayMs?: number;
}

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;
type Handler = (body: Body) => Promise<object>;

interface PublicTokenRecord {
  itemId: string;
  createdAt: number;
  used: boolean;
}

export class PlaidSandboxCore {
  readonly clientId: string;
  readonly secret: string;
  readonly now: () => Date;
  private readonly items = new Map<string, SandboxItem>();
  private readonly itemSeeds = new Map<string, number>();
  private readonly initialWebhook = new Map<string, boolean>();
  private readonly historicalDelays = new Map<string, number>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly accessTokens = new Map<string, string>();
  private readonly removedAccessTokens = new Set<string>();
  private readonly publicTokens = new Map<string, PublicTokenRecord>();
  private readonly linkTokens = new Map<string, { expiresAt: number; webhook: string | null; accessToken: string | null; products: string[] }>();
  private readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private failureRules: (FailureRule & { remaining: number })[] = [];
  private readonly webhookTimeoutMs: number;
  private readonly initialWebhookDelayMs: number;
  private closed = false;

  private constructor(
    options: SandboxCoreOptions,
    readonly keys: WebhookKeys,
  ) {
    this.clientId = options.clientId;
    this.secret = options.secret;
    this.now = options.now ?? (() => new Date());
    this.webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000;
    this.initialWebhookDelayMs = options.initialWebhookDelayMs ?? 100;
  }

  static async create(options: SandboxCoreOptions): Promise<PlaidSandboxCore> {
    const now = options.now ?? (() => new Date());
    return new PlaidSandboxCore(options, await WebhookKeys.create(now));
  }

  // ── Plaid endpoints ─────────────────────────────────────────────────────────────────────────────

  readonly endpoints: Readonly<Record<string, Handler>> = {
    '/link/token/create': async (body) => this.linkTokenCreate(body),
    '/item/public_token/exchange': async (body) => this.publicTokenExchange(body),
    '/accounts/get': async (body) => this.accountsGet(body),
    '/accounts/balance/get': async (body) => this.accountsGet(body),
    '/transactions/sync': async (body) => this.transactionsSync(body),
    '/transactions/refresh': async (body) => {
      // Nothing to fetch from a bank here: the item is always up to date, so no webhook follows.
      this.itemByAccessToken(body);
      return {};
    },
    '/item/get': async (body) => this.itemGet(body),
    '/item/remove': async (body) => this.itemRemove(body),
    '/item/webhook/update': async (body) => this.itemWebhookUpdate(body),
    '/institutions/get_by_id': async (body) => this.institutionGetById(body),
    '/sandbox/public_token/create': async (body) => ({ public_token: this.createPublicToken(body as CreatePublicTokenInput) }),
    '/sandbox/item/fire_webhook': async (body) => this.sandboxFireWebhook(body),
    '/sandbox/item/reset_login': async (body) => {
      const item = this.itemByAccessToken(body, { allowLoginRequired: true });
      await this.requireRelogin(item.itemId);
      return { reset_login: true };
    },
    '/webhook_verification_key/get': async (body) => {
      const keyId = requireString(body, 'key_id');
      const key = this.keys.get(keyId);
      if (!key) throw plaidErrors.invalidKeyId();
      return { key };
    },
  };

  /** Throws the injected error if a failure rule matches this request. */
  checkInjectedFailure(endpoint: string, body: Body): void {
    if (this.failureRules.length === 0) return;
    const token = typeof body.access_token === 'string' ? body.access_token : undefined;
    const itemId = token ? this.accessTokens.get(token) : undefined;
    const rule = this.failureRules.find((r) => (!r.endpoint || r.endpoint === endpoint) && (!r.item || r.item === itemId || r.item === token));
    if (!rule) return;
    rule.remaining--;
    if (rule.remaining <= 0) this.failureRules = this.failureRules.filter((r) => r !== rule);
    const make = INJECTABLE_ERRORS[rule.error];
    throw make ? make() : plaidErrors.internal();
  }

  private linkTokenCreate(body: Body): object {
    const missing = ['client_name', 'language', 'country_codes', 'user'].filter((f) => body[f] === undefined || body[f] === null);
    if (missing.length > 0) throw plaidErrors.missingFields(missing);
    const user = body.user as Body;
    if (typeof user !== 'object' || typeof user.client_user_id !== 'string' || user.client_user_id === '')
      throw plaidErrors.missingFields(['user.client_user_id']);
    if (!Array.isArray(body.country_codes) || body.country_codes.length === 0) throw plaidErrors.invalidField('country_codes must be a non-empty array');
    let accessToken: string | null = null;
    if (typeof body.access_token === 'string' && body.access_token !== '') {
      accessToken = this.itemByAccessToken(body, { allowLoginRequired: true }).accessToken;
    } else if (!Array.isArray(body.products) || body.products.length === 0) {
      throw plaidErrors.invalidField('products must be a non-empty array unless access_token is provided (update mode)');
    }
    const webhook = typeof body.webhook === 'string' && body.webhook !== '' ? body.webhook : null;
    const linkToken = newToken('link');
    const expiresAt = this.now().getTime() + LINK_TOKEN_TTL_MS;
    const products = Array.isArray(body.products) ? body.products.filter((p): p is string => typeof p === 'string') : [];
    this.linkTokens.set(linkToken, { expiresAt, webhook, accessToken, products: products.length > 0 ? products : ['transactions'] });
    return { link_token: linkToken, expiration: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }

  private publicTokenExchange(body: Body): object {
    const publicToken = requireString(body, 'public_token');
    if (!publicToken.startsWith('public-sandbox-')) throw plaidErrors.invalidPublicToken(false);
    const record = this.publicTokens.get(publicToken);
    if (!record) throw plaidErrors.invalidPublicToken(false);
    if (record.used || this.now().getTime() - record.createdAt > PUBLIC_TOKEN_TTL_MS) throw plaidErrors.invalidPublicToken(true);
    const item = this.items.get(record.itemId);
    if (!item) throw plaidErrors.invalidPublicToken(true);
    record.used = true;
    if (item.webhook && this.initialWebhook.get(item.itemId) !== false) {
      const timer = new Promise<void>((resolve) => setTimeout(resolve, this.initialWebhookDelayMs));
      this.track(timer.then(() => (this.closed || !this.items.has(item.itemId) ? null : this.sendSyncUpdates(item))));
    }
    const delay = this.historicalDelays.get(item.itemId) ?? 0;
    if (delay > 0 && !item.historyReleased) {
      // Plaid's historical update: the older transactions land a while after the exchange.
      const handle = setTimeout(() => {
        this.timers.delete(handle);
        if (!this.closed && this.items.has(item.itemId)) this.track(this.releaseHistory(item.itemId));
      }, delay);
      handle.unref?.();
      this.timers.add(handle);
    }
    return { access_token: item.accessToken, item_id: item.itemId };
  }

  private accountsGet(body: Body): object {
    const item = this.itemByAccessToken(body);
    const options = (body.options ?? {}) as Body;
    const ids = Array.isArray(options.account_ids) ? options.account_ids.filter((x): x is string => typeof x === 'string') : undefined;
    if (ids && ids.some((id) => !item.accounts.some((a) => a.accountId === id))) throw plaidErrors.invalidAccountId();
    return { accounts: item.accountBases(ids), item: this.itemBody(item) };
  }

  private transactionsSync(body: Body): object {
    const item = this.itemByAccessToken(body);
    const count = body.count === undefined || body.count === null ? 100 : body.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 500) {
      throw plaidErrors.invalidField('count must be an integer between 1 and 500');
    }
    const options = (body.options ?? {}) as Body;
    const accountId = typeof options.account_id === 'string' ? options.account_id : undefined;
    if (accountId && !item.accounts.some((a) => a.accountId === accountId)) throw plaidErrors.invalidAccountId();
    const tag = cursorTag(item);
    let cursor: { position: number; end: number } | undefined;
    if (body.cursor === 'now') {
      // Plaid's shortcut: a cursor at the current state, skipping the history.
      cursor = { position: item.logLength, end: item.logLength };
    } else if (typeof body.cursor === 'string' && body.cursor !== '') {
      cursor = decodeCursor(tag, body.cursor);
      if (!cursor || cursor.end > item.logLength) throw plaidErrors.invalidField('cursor is not valid for this item');
    } else if (body.cursor !== undefined && body.cursor !== null && body.cursor !== '') {
      throw plaidErrors.invalidField('cursor must be a string');
    }
    const outcome = item.sync(cursor, count, accountId);
    if (!outcome.ok) throw plaidErrors.mutationDuringPagination();
    const { page } = outcome;
    const withDescription = options.include_original_description === true;
    const present = (t: Transaction): Transaction => (withDescription ? { ...t, original_description: t.name.toUpperCase() } : t);
    return {
      accounts: item.accountBases(accountId ? [accountId] : undefined),
      added: page.added.map(present),
      has_more: page.hasMore,
      modified: page.modified.map(present),
      next_cursor: encodeCursor(tag, { position: page.position, end: page.end }),
      removed: page.removed,
      transactions_update_status: item.historyReleased ? 'HISTORICAL_UPDATE_COMPLETE' : 'INITIAL_UPDATE_COMPLETE',
    };
  }

  private itemGet(body: Body): object {
    const item = this.itemByAccessToken(body, { allowLoginRequired: true });
    return {
      item: { ...this.itemBody(item), created_at: item.createdAt.toISOString() },
      status: {
        transactions: {
          last_successful_update: item.loginRequired ? null : this.now().toISOString(),
          last_failed_update: item.loginRequired ? this.now().toISOString() : null,
        },
        last_webhook: item.lastWebhook ? { sent_at: item.lastWebhook.sentAt, code_sent: item.lastWebhook.code } : null,
      },
    };
  }

  private itemRemove(body: Body): object {
    const item = this.itemByAccessToken(body, { allowLoginRequired: true });
    this.items.delete(item.itemId);
    this.accessTokens.delete(item.accessToken);
    this.removedAccessTokens.add(item.accessToken);
    return {};
  }

  private async itemWebhookUpdate(body: Body): Promise<object> {
    const item = this.itemByAccessToken(body, { allowLoginRequired: true });
    const webhook = typeof body.webhook === 'string' && body.webhook !== '' ? body.webhook : null;
    item.webhook = webhook;
    if (webhook)
      await this.send(item, {
        webhook_type: 'ITEM',
        webhook_code: 'WEBHOOK_UPDATE_ACKNOWLEDGED',
        item_id: item.itemId,
        new_webhook_url: webhook,
        error: null,
        environment: 'sandbox',
      });
    return { item: this.itemBody(item) };
  }

  private institutionGetById(body: Body): object {
    const institution = findInstitution(requireString(body, 'institution_id'));
    if (!institution) throw plaidErrors.invalidInstitution();
    return {
      institution: {
        country_codes: ['US'],
        institution_id: institution.institutionId,
        name: institution.name,
        oauth: false,
        primary_color: institution.primaryColor,
        products: ['assets', 'auth', 'balance', 'transactions', 'identity', 'income_verification'],
        routing_numbers: [...institution.routingNumbers],
        url: institution.url,
        logo: null,
        dtc_numbers: [],
      },
    };
  }

  private async sandboxFireWebhook(body: Body): Promise<object> {
    const item = this.itemByAccessToken(body, { allowLoginRequired: true });
    const code = requireString(body, 'webhook_code');
    if (!item.webhook) throw plaidErrors.sandboxWebhookInvalid();
    await this.fireWebhook(item.itemId, code);
    return { webhook_fired: true };
  }

  // ── controls (also exposed over HTTP under /ledgerline) ───────────────────────────────────────────

  /** /sandbox/public_token/create as a function: creates the item and returns its public token. */
  createPublicToken(input: CreatePublicTokenInput): string {
    if (typeof input.institution_id !== 'string' || input.institution_id === '') throw plaidErrors.missingFields(['institution_id']);
    if (!Array.isArray(input.initial_products) || input.initial_products.length === 0) throw plaidErrors.missingFields(['initial_products']);
    const institution = findInstitution(input.institution_id);
    if (!institution) throw plaidErrors.invalidInstitution();
    const options = input.options ?? {};
    const ext = options.ledgerline ?? {};
    const count = ext.transactions ?? 500;
    if (!Number.isInteger(count) || count < 0 || count > MAX_TRANSACTIONS_PER_ITEM) {
      throw plaidErrors.invalidField(`options.ledgerline.transactions must be an integer between 0 and ${MAX_TRANSACTIONS_PER_ITEM}`);
    }
    const seed = ext.seed === undefined ? 1 : typeof ext.seed === 'number' && Number.isInteger(ext.seed) ? ext.seed >>> 0 : hashString(String(ext.seed));
    const pendingDays = ext.pending_days ?? 2;
    const historicalDelay = ext.historical_delay_ms ?? 0;
    if (typeof historicalDelay !== 'number' || !Number.isInteger(historicalDelay) || historicalDelay < 0 || historicalDelay > MAX_HISTORICAL_DELAY_MS) {
      throw plaidErrors.invalidField(`options.ledgerline.historical_delay_ms must be an integer between 0 and ${MAX_HISTORICAL_DELAY_MS}`);
    }
    if (ext.transfers !== undefined && typeof ext.transfers !== 'boolean') throw plaidErrors.invalidField('options.ledgerline.transfers must be a boolean');
    if (!Number.isInteger(pendingDays) || pendingDays < 0 || pendingDays > 30)
      throw plaidErrors.invalidField('options.ledgerline.pending_days must be an integer between 0 and 30');
    const range = dateRange(options.transactions ?? undefined, this.now());
    const username = options.override_username ?? 'user_good';
    const itemId = newItemId();
    const accessToken = newToken('access');
    const item = new SandboxItem(
      itemId,
      accessToken,
      institution,
      institution.accounts.map((template) => ({ accountId: newAccountId(), template })),
      {
        seed,
        contentKey: `${institution.institutionId}:${username}`,
        count,
        startDate: range.start,
        endDate: range.end,
        pendingDays,
        transfers: ext.transfers !== false,
      },
      {
        webhook: typeof options.webhook === 'string' && options.webhook !== '' ? options.webhook : null,
        products: [...new Set(input.initial_products)],
        username,
        now: this.now(),
        lateHistory: historicalDelay > 0,
      },
    );
    this.historicalDelays.set(itemId, historicalDelay);
    this.items.set(itemId, item);
    this.itemSeeds.set(itemId, seed);
    this.initialWebhook.set(itemId, ext.initial_webhook !== false);
    this.accessTokens.set(accessToken, itemId);
    const publicToken = newToken('public');
    this.publicTokens.set(publicToken, { itemId, createdAt: this.now().getTime(), used: false });
    return publicToken;
  }

  /**
   * What Plaid Link does in the browser, for the development link flow: completes a Link session opened
   * with `link_token` and answers Link's onSuccess arguments. A normal link token creates a new item of
   * `institution_id` (with the link token's webhook and products); an update-mode token (created with an
   * access_token) repairs that item's login instead.
   */
  completeLink(input: LinkCompleteInput): LinkSuccess {
    if (typeof input.link_token !== 'string') throw new ControlError(400, 'link_token is required');
    if (input.account_ids !== undefined && (!Array.isArray(input.account_ids) || input.account_ids.some((x) => typeof x !== 'string'))) {
      throw new ControlError(400, 'account_ids must be an array of strings');
    }
    const session = this.linkTokens.get(input.link_token);
    if (!session) throw new ControlError(404, 'unknown link_token');
    if (session.expiresAt < this.now().getTime()) throw new ControlError(400, 'link_token has expired');
    let item: SandboxItem;
    let publicToken: string;
    if (session.accessToken) {
      item = this.controlItem(session.accessToken);
      item.loginRequired = false;
      publicToken = newToken('public');
      this.publicTokens.set(publicToken, { itemId: item.itemId, createdAt: this.now().getTime(), used: false });
      this.track(this.send(item, { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: item.itemId, environment: 'sandbox' }));
    } else {
      if (typeof input.institution_id !== 'string') throw new ControlError(400, 'institution_id is required');
      if (!findInstitution(input.institution_id)) throw new ControlError(404, `unknown institution ${input.institution_id}`);
      publicToken = this.createPublicToken({
        institution_id: input.institution_id,
        initial_products: session.products,
        options: { webhook: session.webhook ?? undefined, ledgerline: input.ledgerline },
      });
      const record = this.publicTokens.get(publicToken);
      const created = record ? this.items.get(record.itemId) : undefined;
      if (!created) throw new Error('created item is missing');
      item = created;
    }
    const accounts = item.accountBases().filter((a) => !input.account_ids || input.account_ids.includes(a.account_id));
    return {
      public_token: publicToken,
      metadata: {
        institution: { name: item.institution.name, institution_id: item.institution.institutionId },
        accounts: accounts.map((a) => ({
          id: a.account_id,
          name: a.name,
          mask: a.mask,
          type: a.type,
          subtype: a.subtype,
          verification_status: null,
          class_type: null,
        })),
        account: accounts.length === 1 ? { id: accounts[0]?.account_id ?? null } : { id: null },
        account_id: accounts.length === 1 ? (accounts[0]?.account_id ?? null) : null,
        link_session_id: randomUUID(),
        transfer_status: null,
        wallet: null,
      },
    };
  }

  /** Creates an item and exchanges its public token in one step (for tests that need an access token). */
  createItem(input: CreatePublicTokenInput): { itemId: string; accessToken: string } {
    const publicToken = this.createPublicToken(input);
    const result = this.publicTokenExchange({ public_token: publicToken }) as { item_id: string; access_token: string };
    return { itemId: result.item_id, accessToken: result.access_token };
  }

  listItems(): ItemSnapshot[] {
    return [...this.items.values()].map((item) => this.snapshot(item));
  }

  getItem(itemOrToken: string): ItemSnapshot {
    return this.snapshot(this.controlItem(itemOrToken));
  }

  /** The transaction as it stands now, or undefined if it does not exist (or was removed). */
  getTransaction(itemOrToken: string, transactionId: string): Transaction | undefined {
    return this.controlItem(itemOrToken).current(transactionId);
  }

  pendingTransactions(itemOrToken: string): Transaction[] {
    return this.controlItem(itemOrToken).pendingTransactions();
  }

  /** The bank's true state of each account: opening, current and available balances, totals (see AccountState). */
  accountStates(itemOrToken: string): AccountState[] {
    return this.controlItem(itemOrToken).accountStates();
  }

  /**
   * Makes an item's older history available now (late history): the next /transactions/sync reports it as
   * `added`, and SYNC_UPDATES_AVAILABLE with `historical_update_complete: true` is sent. Nothing happens
   * (released 0, no webhook) if the history is already complete.
   */
  async releaseHistory(itemOrToken: string, input: { webhook?: boolean } = {}): Promise<ReleaseHistoryResult> {
    const item = this.controlItem(itemOrToken);
    if (item.historyReleased) return { released: 0, webhook: null };
    const released = item.releaseHistory();
    return { released, webhook: input.webhook === false ? null : await this.sendSyncUpdates(item) };
  }

  async addTransactions(itemOrToken: string, input: AddTransactionsInput): Promise<MutationResult> {
    const item = this.controlItem(itemOrToken);
    if (input.transactions !== undefined && !Array.isArray(input.transactions)) throw new ControlError(400, 'transactions must be an array');
    const inputs = input.transactions ?? Array.from({ length: batchSize(input.count) }, () => ({}));
    if (inputs.length === 0 || inputs.length > MAX_CONTROL_BATCH) throw new ControlError(400, `between 1 and ${MAX_CONTROL_BATCH} transactions per call`);
    for (const t of inputs) validateInput(t);
    const added = guard(() => item.addTransactions(inputs));
    return { added, modified: [], removed: [], webhook: input.webhook === false ? null : await this.sendSyncUpdates(item) };
  }

  async modifyTransactions(itemOrToken: string, input: ModifyTransactionsInput): Promise<MutationResult> {
    const item = this.controlItem(itemOrToken);
    if (input.transactions !== undefined && !Array.isArray(input.transactions)) throw new ControlError(400, 'transactions must be an array');
    const changes = input.transactions ?? item.pickExisting(batchSize(input.count)).map((transaction_id) => ({ transaction_id }));
    if (changes.length === 0 || changes.length > MAX_CONTROL_BATCH)
      throw new ControlError(400, `between 1 and ${MAX_CONTROL_BATCH} transactions per call (is the item empty?)`);
    for (const c of changes) {
      validateInput(c);
      if (typeof c.transaction_id !== 'string') throw new ControlError(400, 'each change needs a transaction_id');
    }
    const modified = guard(() => item.modifyTransactions(changes));
    return { added: [], modified, removed: [], webhook: input.webhook === false ? null : await this.sendSyncUpdates(item) };
  }

  async removeTransactions(itemOrToken: string, input: RemoveTransactionsInput): Promise<MutationResult> {
    const item = this.controlItem(itemOrToken);
    if (input.transaction_ids !== undefined && (!Array.isArray(input.transaction_ids) || input.transaction_ids.some((x) => typeof x !== 'string'))) {
      throw new ControlError(400, 'transaction_ids must be an array of strings');
    }
    const ids = input.transaction_ids ?? item.pickExisting(batchSize(input.count), (t) => !t.pending);
    if (ids.length === 0 || ids.length > MAX_CONTROL_BATCH)
      throw new ControlError(400, `between 1 and ${MAX_CONTROL_BATCH} transactions per call (is the item empty?)`);
    if (new Set(ids).size !== ids.length) throw new ControlError(400, 'transaction_ids has duplicates');
    const removed = guard(() => item.removeTransactions(ids));
    return { added: [], modified: [], removed, webhook: input.webhook === false ? null : await this.sendSyncUpdates(item) };
  }

  /** Posts pending transactions (all, or the given ones): each pending one is removed and its posted form added. */
  async postPendingTransactions(itemOrToken: string, input: { transaction_ids?: string[]; webhook?: boolean } = {}): Promise<MutationResult> {
    const item = this.controlItem(itemOrToken);
    const { added, removed } = guard(() => item.postPending(input.transaction_ids));
    const changed = added.length + removed.length > 0;
    return { added, modified: [], removed, webhook: input.webhook === false || !changed ? null : await this.sendSyncUpdates(item) };
  }

  /**
   * Puts the item into ITEM_LOGIN_REQUIRED (what /sandbox/item/reset_login does): data calls answer that
   * error until `repairLogin`. Sends the ITEM ERROR webhook if the item has a webhook.
   */
  async requireRelogin(itemOrToken: string, input: { webhook?: boolean } = {}): Promise<WebhookDelivery | null> {
    const item = this.controlItem(itemOrToken);
    item.loginRequired = true;
    return input.webhook === false ? null : this.send(item, this.errorWebhook(item));
  }

  /** Ends ITEM_LOGIN_REQUIRED, as finishing Link's update mode would; sends ITEM LOGIN_REPAIRED. */
  async repairLogin(itemOrToken: string, input: { webhook?: boolean } = {}): Promise<WebhookDelivery | null> {
    const item = this.controlItem(itemOrToken);
    item.loginRequired = false;
    if (input.webhook === false) return null;
    return this.send(item, { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: item.itemId, environment: 'sandbox' });
  }

  /**
   * Sends a webhook to the item's URL now. Codes: SYNC_UPDATES_AVAILABLE (TRANSACTIONS), ERROR (ITEM, with
   * ITEM_LOGIN_REQUIRED), LOGIN_REPAIRED, PENDING_DISCONNECT, USER_PERMISSION_REVOKED (ITEM).
   * Firing does not change the item's state (use requireRelogin for that).
   */
  async fireWebhook(itemOrToken: string, code: string): Promise<WebhookDelivery> {
    const item = this.controlItem(itemOrToken);
    if (!item.webhook) throw plaidErrors.sandboxWebhookInvalid();
    const env = { item_id: item.itemId, environment: 'sandbox' } as const;
    let body: WebhookBody;
    switch (code) {
      case 'SYNC_UPDATES_AVAILABLE':
        body = {
          webhook_type: 'TRANSACTIONS',
          webhook_code: 'SYNC_UPDATES_AVAILABLE',
          ...env,
          initial_update_complete: true,
          historical_update_complete: item.historyReleased,
        };
        break;
      case 'ERROR':
        body = this.errorWebhook(item);
        break;
      case 'LOGIN_REPAIRED':
        body = { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', ...env };
        break;
      case 'PENDING_DISCONNECT':
        body = { webhook_type: 'ITEM', webhook_code: 'PENDING_DISCONNECT', ...env, reason: 'INSTITUTION_MIGRATION' };
        break;
      case 'USER_PERMISSION_REVOKED':
        body = {
          webhook_type: 'ITEM',
          webhook_code: 'USER_PERMISSION_REVOKED',
          ...env,
          error: errorInItem('USER_PERMISSION_REVOKED', 'the holder of this account has revoked their permission for your application to access it'),
        };
        break;
      default:
        throw plaidErrors.invalidField(
          `webhook_code ${code} is not supported by this sandbox (SYNC_UPDATES_AVAILABLE, ERROR, LOGIN_REPAIRED, PENDING_DISCONNECT, USER_PERMISSION_REVOKED)`,
        );
    }
    const delivery = await this.send(item, body);
    if (!delivery) throw plaidErrors.sandboxWebhookInvalid();
    return delivery;
  }

  /** Every webhook sent so far (oldest first), optionally for one item. */
  webhookDeliveries(filter: { item?: string } = {}): WebhookDelivery[] {
    const itemId = filter.item ? (this.accessTokens.get(filter.item) ?? filter.item) : undefined;
    return this.deliveries.filter((d) => !itemId || d.item_id === itemId).map((d) => ({ ...d }));
  }

  /** Sends an earlier delivery's exact body again (freshly signed) to the same URL. */
  async replayWebhook(deliveryId: string): Promise<WebhookDelivery> {
    const original = this.deliveries.find((d) => d.delivery_id === deliveryId);
    if (!original) throw new ControlError(404, `no webhook delivery ${deliveryId}`);
    const delivery = await deliver(this.keys, original.url, original.item_id, original.payload, {
      now: this.now,
      timeoutMs: this.webhookTimeoutMs,
      body: original.body,
      replayOf: original.delivery_id,
    });
    this.record(delivery);
    return delivery;
  }

  private record(delivery: WebhookDelivery): void {
    this.deliveries.push(delivery);
    // A long development session or a benchmark keeps only the latest deliveries.
    if (this.deliveries.length > MAX_DELIVERIES_KEPT) this.deliveries.splice(0, this.deliveries.length - MAX_DELIVERIES_KEPT);
  }

  /** The `Plaid-Verification` header value for a body, signed with the current key (e.g. a stale `iat`). */
  signWebhookBody(body: string, options: { iat?: number } = {}): Promise<string> {
    return this.keys.sign(body, options);
  }

  /** Makes the next matching Plaid request(s) fail with a Plaid error. */
  failNext(rule: FailureRule): void {
    if (!INJECTABLE_ERRORS[rule.error]) throw new ControlError(400, `error must be one of ${Object.keys(INJECTABLE_ERRORS).join(', ')}`);
    const times = rule.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new ControlError(400, 'times must be a positive integer');
    const item = rule.item ? (this.accessTokens.get(rule.item) ?? rule.item) : undefined;
    this.failureRules.push({ ...rule, item, remaining: times });
  }

  clearFailures(): void {
    this.failureRules = [];
  }

  institutions(): readonly Institution[] {
    return INSTITUTIONS;
  }

  /** Waits for webhooks still being delivered, then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.timers) clearTimeout(handle);
    this.timers.clear();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  // ── helpers ─────────────────────────────────────────────────────────────────────────────────────

  private itemByAccessToken(body: Body, options: { allowLoginRequired?: boolean } = {}): SandboxItem {
    const token = requireString(body, 'access_token');
    if (!token.startsWith('access-sandbox-')) throw plaidErrors.invalidAccessToken();
    if (this.removedAccessTokens.has(token)) throw plaidErrors.itemNotFound();
    const itemId = this.accessTokens.get(token);
    const item = itemId ? this.items.get(itemId) : undefined;
    if (!item) throw new PlaidApiError(400, 'INVALID_INPUT', 'INVALID_ACCESS_TOKEN', 'could not find matching access token');
    if (item.loginRequired && !options.allowLoginRequired) throw plaidErrors.itemLoginRequired();
    return item;
  }

  private controlItem(itemOrToken: string): SandboxItem {
    const item = this.items.get(itemOrToken) ?? this.items.get(this.accessTokens.get(itemOrToken) ?? '');
    if (!item) throw new ControlError(404, `no item ${itemOrToken} (give an item_id or access_token)`);
    return item;
  }

  private itemBody(item: SandboxItem): Item {
    return {
      available_products: ['assets', 'auth', 'balance', 'identity', 'investments', 'liabilities'].filter((p) => !item.products.includes(p)),
      auth_method: null,
      billed_products: [...item.products],
      consent_expiration_time: null,
      consented_products: [...item.products],
      error: item.loginRequired ? errorInItem('ITEM_LOGIN_REQUIRED', ITEM_LOGIN_REQUIRED_MESSAGE) : null,
      institution_id: item.institution.institutionId,
      institution_name: item.institution.name,
      item_id: item.itemId,
      products: [...item.products],
      update_type: 'background',
      webhook: item.webhook,
    };
  }

  private errorWebhook(item: SandboxItem): WebhookBody {
    return {
      webhook_type: 'ITEM',
      webhook_code: 'ERROR',
      item_id: item.itemId,
      error: errorInItem('ITEM_LOGIN_REQUIRED', ITEM_LOGIN_REQUIRED_MESSAGE),
      environment: 'sandbox',
    };
  }

  private sendSyncUpdates(item: SandboxItem): Promise<WebhookDelivery | null> {
    return this.send(item, {
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id: item.itemId,
      initial_update_complete: true,
      historical_update_complete: item.historyReleased,
      environment: 'sandbox',
    });
  }

  private async send(item: SandboxItem, body: WebhookBody): Promise<WebhookDelivery | null> {
    const url = body.webhook_code === 'WEBHOOK_UPDATE_ACKNOWLEDGED' ? (body.new_webhook_url ?? null) : item.webhook;
    if (!url || this.closed) return null;
    const promise = deliver(this.keys, url, item.itemId, body, { now: this.now, timeoutMs: this.webhookTimeoutMs });
    this.track(promise);
    const delivery = await promise;
    this.record(delivery);
    item.lastWebhook = { sentAt: delivery.sent_at, code: body.webhook_code };
    return delivery;
  }

  private track(promise: Promise<unknown>): void {
    this.inFlight.add(promise);
    void promise.catch(() => undefined).finally(() => this.inFlight.delete(promise));
  }

  private snapshot(item: SandboxItem): ItemSnapshot {
    return {
      item_id: item.itemId,
      access_token: item.accessToken,
      institution_id: item.institution.institutionId,
      institution_name: item.institution.name,
      webhook: item.webhook,
      login_required: item.loginRequired,
      accounts: item.accountBases().map((a) => ({ account_id: a.account_id, name: a.name, mask: a.mask ?? '', subtype: a.subtype })),
      transaction_count: item.liveCount,
      generated_count: item.history.count,
      log_length: item.logLength,
      start_date: fromDay(item.history.startDay),
      end_date: fromDay(item.history.endDay),
      seed: this.itemSeeds.get(item.itemId) ?? 0,
      created_at: item.createdAt.toISOString(),
      history_released: item.historyReleased,
      held_back_count: item.historyReleased ? 0 : item.recentFrom,
    };
  }
}

function cursorTag(item: SandboxItem): string {
  return item.history.codec.prefix.slice(0, 12);
}

function errorInItem(code: string, message: string): PlaidErrorBody {
  return {
    display_message: null,
    error_code: code,
    error_code_reason: null,
    error_message: message,
    error_type: 'ITEM_ERROR',
    request_id: '',
    causes: [],
    status: 400,
    documentation_url: `https://plaid.com/docs/errors/item/#${code.toLowerCase()}`,
    suggested_action: null,
  };
}

function requireString(body: Body, field: string): string {
  const value = body[field];
  if (value === undefined || value === null || value === '') throw plaidErrors.missingFields([field]);
  if (typeof value !== 'string') throw plaidErrors.invalidField(`${field} must be a string`);
  return value;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateRange(transactions: { start_date?: string; end_date?: string; days_requested?: number } | undefined, now: Date): { start: string; end: string } {
  const check = (field: string, value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value)))
      throw plaidErrors.invalidField(`options.transactions.${field} must be a date (YYYY-MM-DD)`);
    return value;
  };
  const end = check('end_date', transactions?.end_date) ?? new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  const days = transactions?.days_requested ?? 730;
  if (!Number.isInteger(days) || days < 1 || days > 730)
    throw plaidErrors.invalidField('options.transactions.days_requested must be an integer between 1 and 730');
  const start = check('start_date', transactions?.start_date) ?? fromDay(toDay(end) - days + 1);
  if (toDay(start) > toDay(end)) throw plaidErrors.invalidField('options.transactions.start_date must not be after end_date');
  return { start, end };
}

function batchSize(count: number | undefined): number {
  const n = count ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONTROL_BATCH) throw new ControlError(400, `count must be an integer between 1 and ${MAX_CONTROL_BATCH}`);
  return n;
}

function validateInput(input: TransactionInput & { transaction_id?: string }): void {
  if (!input || typeof input !== 'object') throw new ControlError(400, 'each transaction must be an object');
  if (input.amount !== undefined && (typeof input.amount !== 'number' || !Number.isFinite(input.amount)))
    throw new ControlError(400, 'amount must be a finite number');
  if (input.date !== undefined && (typeof input.date !== 'string' || !DATE.test(input.date))) throw new ControlError(400, 'date must be YYYY-MM-DD');
  if (input.name !== undefined && typeof input.name !== 'string') throw new ControlError(400, 'name must be a string');
}

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof UnknownTransactionError || error instanceof UnknownAccountError) throw new ControlError(404, error.message);
    throw error;
  }
}
