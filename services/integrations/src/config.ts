import { baseConfigSchema, developmentSecretKeys, isSecretKeyList, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

const positiveInt = z.coerce.number().int().positive();

/** The development envelope key for Stripe tokens at rest; production refuses it. */
export const DEVELOPMENT_QUICKBOOKS_TOKEN_KEYS = developmentSecretKeys('development-only-quickbooks-tokens');
/** An empty setting: the Intuit packages' own URL (production). */
const optionalUrl = z.union([z.literal(''), z.url()]).default('');

/** The development envelope key for Stripe tokens at rest; production refuses it. */
export const DEVELOPMENT_STRIPE_TOKEN_KEYS = developmentSecretKeys('development-only-stripe-tokens');

export const integrationsConfigSchema = baseConfigSchema.extend({
  INTEGRATIONS_PORT: portSchema.default(4108),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  INTEGRATIONS_DATABASE_URL: z.string().default('postgres://ledgerline_integrations_app@127.0.0.1:5432/ledgerline_integrations'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  INTEGRATIONS_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_integrations'),
  /** Stripe's API (https://api.stripe.com) or the local sandbox (services/sandboxes/stripe). */
  STRIPE_API_URL: z.url().default('http://127.0.0.1:12111'),
  /** Where the browser goes to authorize (https://connect.stripe.com) or the sandbox. */
  STRIPE_CONNECT_URL: z.url().default('http://127.0.0.1:12111'),
  /** SECRET: the platform's secret key. */
  STRIPE_SECRET_KEY: z.string().min(1).default('sk_test_ledgerline_platform_sandbox_key'),
  /** The platform's Connect client id (ca_...). */
  STRIPE_CLIENT_ID: z.string().min(1).default('ca_ledgerlinesandboxclient'),
  /**
   * SECRET: signing secrets of the Connect webhook endpoint (whsec_...), comma-separated: while a secret is
   * rolled both are listed, and a signature by either is accepted.
   */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).default('whsec_ledgerline_development_only'),
  /** Seconds a webhook's signature timestamp may be away from now (Stripe's default tolerance is 300). */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: positiveInt.default(300),
  /**
   * SECRET: keys sealing Stripe access tokens at rest (AES-256-GCM), `id:base64-of-32-bytes` comma-separated,
   * the current key first. Production refuses the development key.
   */
  STRIPE_TOKEN_KEYS: z
    .string()
    .min(1)
    .default(DEVELOPMENT_STRIPE_TOKEN_KEYS)
    .refine(isSecretKeyList, 'expected id:base64-of-32-bytes, comma-separated, each id once'),
  /** Deadline of each Stripe call. */
  STRIPE_TIMEOUT_MS: positiveInt.default(30_000),
  /** Objects per list page (Stripe allows 1–100); each page is one database transaction with its cursor. */
  STRIPE_SYNC_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  /** A sync worker silent this long is presumed dead; its job is handed to another worker. */
  STRIPE_SYNC_ACK_WAIT_MS: positiveInt.default(30_000),
  /** Attempts of a sync job before it is failed. */
  STRIPE_SYNC_MAX_ATTEMPTS: positiveInt.default(5),
  /** First retry delay; doubled on each attempt, at most 5 minutes. */
  STRIPE_SYNC_RETRY_BASE_MS: positiveInt.default(2_000),
  /** Intuit's environment for the packages: sandbox or production. */
  QUICKBOOKS_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  /** The Intuit app (the QuickBooks sandbox's app by default). */
  QUICKBOOKS_CLIENT_ID: z.string().min(1).default('ledgerline-qbo-client'),
  /** SECRET: the Intuit app's client secret. */
  QUICKBOOKS_CLIENT_SECRET: z.string().min(1).default('ledgerline-qbo-secret'),
  /** Where Intuit sends the user back (registered with the app): the /qb-sync page, which posts code, state, realmId. */
  QUICKBOOKS_REDIRECT_URI: z.url().default('http://localhost:3000/qb-sync'),
  /** Intuit's URLs; empty for the packages' defaults (production), the sandbox's in development and tests. */
  QUICKBOOKS_AUTHORIZE_URL: optionalUrl,
  QUICKBOOKS_TOKEN_URL: optionalUrl,
  QUICKBOOKS_REVOKE_URL: optionalUrl,
  QUICKBOOKS_USERINFO_URL: optionalUrl,
  /** QBO's v3 base (`.../v3/company/`); empty for node-quickbooks' default. */
  QUICKBOOKS_API_BASE_URL: optionalUrl,
  /**
   * SECRET: keys sealing QuickBooks access and refresh tokens at rest (AES-256-GCM), `id:base64-of-32-bytes`
   * comma-separated, the current key first. Production refuses the development key.
   */
  QUICKBOOKS_TOKEN_KEYS: z
    .string()
    .min(1)
    .default(DEVELOPMENT_QUICKBOOKS_TOKEN_KEYS)
    .refine(isSecretKeyList, 'expected id:base64-of-32-bytes, comma-separated, each id once'),
  /** The services the QuickBooks sync reads the workspace's entities from (registry `calls`). */
  LEDGER_URL: z.url().default('http://127.0.0.1:4103'),
  PARTIES_URL: z.url().default('http://127.0.0.1:4106'),
  /** Attempts of a QuickBooks sync job before it is failed (429 and 5xx are retried with backoff). */
  QUICKBOOKS_SYNC_MAX_ATTEMPTS: positiveInt.default(6),
  /** First retry delay of a QuickBooks job; doubled on each attempt, at most 5 minutes. */
  QUICKBOOKS_SYNC_RETRY_BASE_MS: positiveInt.default(2_000),
  /** Longest wait before retrying a throttled (429) or failed (5xx) QuickBooks call; Retry-After is honoured up to it. */
  QUICKBOOKS_RETRY_MAX_WAIT_MS: positiveInt.default(60_000),
  /** A QuickBooks sync worker silent this long is presumed dead; its job (and the company's lease) goes to another. */
  QUICKBOOKS_SYNC_ACK_WAIT_MS: positiveInt.default(30_000),
  /** Deadline of each QuickBooks call. */
  QUICKBOOKS_TIMEOUT_MS: positiveInt.default(30_000),
});

export type IntegrationsConfig = z.infer<typeof integrationsConfigSchema>;
