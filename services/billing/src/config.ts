import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

const positiveInt = z.coerce.number().int().positive();

/** The development signing secret of the platform's billing webhook endpoint (the sandbox signs with it). */
export const DEVELOPMENT_BILLING_WEBHOOK_SECRET = 'whsec_ledgerline_billing_development_only';

export const billingConfigSchema = baseConfigSchema.extend({
  BILLING_PORT: portSchema.default(4110),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  BILLING_DATABASE_URL: z.string().default('postgres://ledgerline_billing_app@127.0.0.1:5432/ledgerline_billing'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  BILLING_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_billing'),
  /** The web app: checkout comes back to `${WEB_URL}/settings?tab=billing`; limit messages link there. */
  WEB_URL: z.string().default('http://localhost:3000'),
  /** Stripe's API (https://api.stripe.com) or the local sandbox (services/sandboxes/stripe). */
  STRIPE_API_URL: z.url().default('http://127.0.0.1:12111'),
  /** SECRET: the platform's secret key (Ledgerline's own Stripe account sells the plans). */
  STRIPE_SECRET_KEY: z.string().min(1).default('sk_test_ledgerline_platform_sandbox_key'),
  /** test or prod: which price ids of the catalog checkout uses (src/domain/plans.ts). */
  BILLING_PRICE_MODE: z.enum(['test', 'prod']).default('test'),
  /** SECRET: signing secrets of the platform's billing webhook endpoint (whsec_...), comma-separated while rolling. */
  BILLING_WEBHOOK_SECRET: z.string().min(1).default(DEVELOPMENT_BILLING_WEBHOOK_SECRET),
  /** Seconds a webhook's signature timestamp may be away from now (Stripe's default tolerance is 300). */
  BILLING_WEBHOOK_TOLERANCE_SECONDS: positiveInt.default(300),
  /** Days of free trial a first subscription gets at checkout (0: none). */
  BILLING_TRIAL_DAYS: z.coerce.number().int().min(0).max(90).default(0),
  /** Deadline of each Stripe call. */
  STRIPE_TIMEOUT_MS: positiveInt.default(30_000),
});

export type BillingConfig = z.infer<typeof billingConfigSchema>;
