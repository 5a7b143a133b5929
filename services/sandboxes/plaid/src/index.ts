// Public surface of @ledgerline/plaid-sandbox: a local stand-in for Plaid that the official `plaid` SDK talks
// to by base path, with controls for tests and development. See the package README for the API.
import type { AddressInfo } from 'node:net';
import { createHttpServer } from './http.js';
import {
  PlaidSandboxCore,
  type AddTransactionsInput,
  type CreatePublicTokenInput,
  type FailureRule,
  type ItemSnapshot,
  type LinkCompleteInput,
  type LinkSuccess,
  type ModifyTransactionsInput,
  type MutationResult,
  type ReleaseHistoryResult,
  type RemoveTransactionsInput,
} from './sandbox.js';
import type { AccountState } from './domain/item.js';
import type { Institution } from './domain/catalog.js';
import type { Transaction } from './domain/wire.js';
import type { WebhookDelivery } from './webhooks.js';

export { INSTITUTIONS, type Institution, type AccountTemplate } from './domain/catalog.js';
export type { AccountState, TransactionInput } from './domain/item.js';
export type { AccountBase, Item, JWKPublicKey, PlaidErrorBody, RemovedTransaction, Transaction, WebhookBody } from './domain/wire.js';
export { INJECTABLE_ERRORS, PlaidApiError } from './errors.js';
export { ControlError, MAX_TRANSACTIONS_PER_ITEM } from './sandbox.js';
export type {
  AddTransactionsInput,
  CreatePublicTokenInput,
  FailureRule,
  ItemSnapshot,
  LedgerlineItemOptions,
  LinkCompleteInput,
  LinkSuccess,
  ModifyTransactionsInput,
  MutationResult,
  ReleaseHistoryResult,
  RemoveTransactionsInput,
} from './sandbox.js';
export { serializeWebhook, sha256Hex, type WebhookDelivery } from './webhooks.js';

export const DEFAULT_CLIENT_ID = 'ledgerline-sandbox-client';
export const DEFAULT_SECRET = 'ledgerline-sandbox-secret';

export interface PlaidSandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  clientId?: string;
  secret?: string;
  /** The sandbox clock (default: the real one). Fixes "today", the default end of generated history. */
  now?: () => Date;
  /** How long a webhook receiver may take to answer (default 10 s). */
  webhookTimeoutMs?: number;
  /** Delay before the SYNC_UPDATES_AVAILABLE that follows a public token exchange (default 100 ms). */
  initialWebhookDelayMs?: number;
}

export interface PlaidSandbox {
  /** The SDK's `basePath`, e.g. http://127.0.0.1:8090 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly clientId: string;
  readonly secret: string;

  /** /sandbox/public_token/create in-process: creates an item, returns its public token. */
  createPublicToken(input: CreatePublicTokenInput): string;
  /** Creates an item and exchanges its public token: { itemId, accessToken }. */
  createItem(input: CreatePublicTokenInput): { itemId: string; accessToken: string };
  /** Plaid Link's part, for the development link flow: link_token (+ institution) → onSuccess arguments. */
  completeLink(input: LinkCompleteInput): LinkSuccess;
  listItems(): ItemSnapshot[];
  /** Items are addressed by item_id or access_token everywhere below. */
  getItem(item: string): ItemSnapshot;
  getTransaction(item: string, transactionId: string): Transaction | undefined;
  pendingTransactions(item: string): Transaction[];
  /** The bank's true state of each account (balances in cents, totals, counts, earliest date). */
  accountStates(item: string): AccountState[];
  /** Late history: makes the older transactions available now and sends SYNC_UPDATES_AVAILABLE. */
  releaseHistory(item: string, input?: { webhook?: boolean }): Promise<ReleaseHistoryResult>;

  addTransactions(item: string, input: AddTransactionsInput): Promise<MutationResult>;
  modifyTransactions(item: string, input: ModifyTransactionsInput): Promise<MutationResult>;
  removeTransactions(item: string, input: RemoveTransactionsInput): Promise<MutationResult>;
  postPendingTransactions(item: string, input?: { transaction_ids?: string[]; webhook?: boolean }): Promise<MutationResult>;

  requireRelogin(item: string, input?: { webhook?: boolean }): Promise<WebhookDelivery | null>;
  repairLogin(item: string, input?: { webhook?: boolean }): Promise<WebhookDelivery | null>;
  fireWebhook(item: string, code: string): Promise<WebhookDelivery>;
  webhookDeliveries(filter?: { item?: string }): WebhookDelivery[];
  replayWebhook(deliveryId: string): Promise<WebhookDelivery>;
  signWebhookBody(body: string, options?: { iat?: number }): Promise<string>;
  rotateWebhookKey(): Promise<{ kid: string }>;

  failNext(rule: FailureRule): void;
  clearFailures(): void;
  institutions(): readonly Institution[];

  close(): Promise<void>;
}

export async function startPlaidSandbox(options: PlaidSandboxOptions = {}): Promise<PlaidSandbox> {
  const core = await PlaidSandboxCore.create({
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    secret: options.secret ?? DEFAULT_SECRET,
    now: options.now,
    webhookTimeoutMs: options.webhookTimeoutMs,
    initialWebhookDelayMs: options.initialWebhookDelayMs,
  });
  const server = createHttpServer(core);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    clientId: core.clientId,
    secret: core.secret,
    createPublicToken: (input) => core.createPublicToken(input),
    createItem: (input) => core.createItem(input),
    completeLink: (input) => core.completeLink(input),
    listItems: () => core.listItems(),
    getItem: (item) => core.getItem(item),
    getTransaction: (item, id) => core.getTransaction(item, id),
    pendingTransactions: (item) => core.pendingTransactions(item),
    accountStates: (item) => core.accountStates(item),
    releaseHistory: (item, input) => core.releaseHistory(item, input),
    addTransactions: (item, input) => core.addTransactions(item, input),
    modifyTransactions: (item, input) => core.modifyTransactions(item, input),
    removeTransactions: (item, input) => core.removeTransactions(item, input),
    postPendingTransactions: (item, input) => core.postPendingTransactions(item, input),
    requireRelogin: (item, input) => core.requireRelogin(item, input),
    repairLogin: (item, input) => core.repairLogin(item, input),
    fireWebhook: (item, code) => core.fireWebhook(item, code),
    webhookDeliveries: (filter) => core.webhookDeliveries(filter),
    replayWebhook: (id) => core.replayWebhook(id),
    signWebhookBody: (body, opts) => core.signWebhookBody(body, opts),
    rotateWebhookKey: async () => ({ kid: (await core.keys.rotate()).kid }),
    failNext: (rule) => core.failNext(rule),
    clearFailures: () => core.clearFailures(),
    institutions: () => core.institutions(),
    close: async () => {
      await core.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
