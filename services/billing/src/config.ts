import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const billingConfigSchema = baseConfigSchema.extend({
  BILLING_PORT: portSchema.default(4110),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  BILLING_DATABASE_URL: z.string().default('postgres://ledgerline_billing_app@127.0.0.1:5432/ledgerline_billing'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  BILLING_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_billing'),
});

export type BillingConfig = z.infer<typeof billingConfigSchema>;
