import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const ledgerConfigSchema = baseConfigSchema.extend({
  LEDGER_PORT: portSchema.default(4103),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  LEDGER_DATABASE_URL: z.string().default('postgres://ledgerline_ledger_app@127.0.0.1:5432/ledgerline_ledger'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  LEDGER_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_ledger'),
  /**
   * Bank transaction events booked at once (their handlers tolerate any order; see bank-events.ts). Above 1,
   * same-day transactions of a sync are placed in commit order rather than the bank's, so 1 stays the default.
   */
  LEDGER_CONSUMER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * bank_transaction.added events booked per database transaction (what the consumer has pending, up to
   * this many, or what arrives within 5 ms), set-based, in the bank's order; 1 books each on its own.
   */
  LEDGER_INGEST_BATCH: z.coerce.number().int().min(1).max(1000).default(256),
});

export type LedgerConfig = z.infer<typeof ledgerConfigSchema>;
