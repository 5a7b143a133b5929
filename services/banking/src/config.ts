import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';
import { DEVELOPMENT_TOKEN_KEYS, parseTokenKeys } from './store/token-cipher.js';

const positiveInt = z.coerce.number().int().positive();

export const bankingConfigSchema = baseConfigSchema.extend({
  BANKING_PORT: portSchema.default(4102),
  /** Runtime connection: the application role (not the owner). */
  BANKING_DATABASE_URL: z.string().default('postgres://ledgerline_banking_app@127.0.0.1:5432/ledgerline_banking'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  BANKING_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_banking'),
  /** Plaid's API (https://production.plaid.com) or the local sandbox (services/sandboxes/plaid). */
  PLAID_BASE_URL: z.url().default('http://127.0.0.1:8090'),
  PLAID_CLIENT_ID: z.string().min(1).default('ledgerline-sandbox-client'),
  /** SECRET: the Plaid secret of the environment. */
  PLAID_SECRET: z.string().min(1).default('ledgerline-sandbox-secret'),
  /**
   * SECRET: keys sealing Plaid access tokens at rest (AES-256-GCM), `id:base64-of-32-bytes` comma-separated,
   * the current key first; older keys stay listed until the service has resealed every token (at start).
   * Production refuses the development key.
   */
  PLAID_TOKEN_KEYS: z
    .string()
    .min(1)
    .default(DEVELOPMENT_TOKEN_KEYS)
    .refine((v) => {
      try {
        parseTokenKeys(v);
        return true;
      } catch {
        return false;
      }
    }, 'expected id:base64-of-32-bytes, comma-separated, each id once'),
  /** Where Plaid sends webhooks: the gateway's POST /plaid/webhook. */
  PLAID_WEBHOOK_URL: z.string().default('http://127.0.0.1:4000/plaid/webhook'),
  PLAID_CLIENT_NAME: z.string().default('Ledgerline'),
  /** Deadline of each Plaid call. */
  PLAID_TIMEOUT_MS: positiveInt.default(30_000),
  /** Transactions per /transactions/sync page (Plaid allows 1–500); each page is one database transaction. */
  SYNC_PAGE_SIZE: z.coerce.number().int().min(1).max(500).default(500),
  /** A sync worker silent this long is presumed dead; its job is handed to another worker. */
  SYNC_ACK_WAIT_MS: positiveInt.default(30_000),
  /** Sync jobs one process runs at once. */
  SYNC_CONCURRENCY: positiveInt.default(2),
  /** Attempts of a sync job before it is failed (a re-login error fails it at once). */
  SYNC_MAX_ATTEMPTS: positiveInt.default(5),
  /** First retry delay; doubled on each attempt, at most 5 minutes. */
  SYNC_RETRY_BASE_MS: positiveInt.default(2_000),
  /** Webhooks for one item within this window start one sync run (Plaid sends bursts and retries). */
  WEBHOOK_SYNC_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  /** How long a webhook verification key fetched from Plaid is reused. */
  WEBHOOK_KEY_CACHE_MS: positiveInt.default(24 * 60 * 60 * 1000),
});

export type BankingConfig = z.infer<typeof bankingConfigSchema>;
