import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const integrationsConfigSchema = baseConfigSchema.extend({
  INTEGRATIONS_PORT: portSchema.default(4108),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  INTEGRATIONS_DATABASE_URL: z.string().default('postgres://ledgerline_integrations_app@127.0.0.1:5432/ledgerline_integrations'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  INTEGRATIONS_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_integrations'),
});

export type IntegrationsConfig = z.infer<typeof integrationsConfigSchema>;
