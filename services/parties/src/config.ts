import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const partiesConfigSchema = baseConfigSchema.extend({
  PARTIES_PORT: portSchema.default(4106),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  PARTIES_DATABASE_URL: z.string().default('postgres://ledgerline_parties_app@127.0.0.1:5432/ledgerline_parties'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  PARTIES_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_parties'),
  /** The ledger: transactions' vendor links and the vendors' totals from the books. */
  LEDGER_URL: z.url().default('http://127.0.0.1:4103'),
  /** Deadline of each ledger call. */
  PARTIES_LEDGER_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

export type PartiesConfig = z.infer<typeof partiesConfigSchema>;
