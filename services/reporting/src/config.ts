import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const reportingConfigSchema = baseConfigSchema.extend({
  REPORTING_PORT: portSchema.default(4104),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  REPORTING_DATABASE_URL: z.string().default('postgres://ledgerline_reporting_app@127.0.0.1:5432/ledgerline_reporting'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  REPORTING_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_reporting'),
  /** The ledger: account names and tree for report rows, and its monthly balances for the check. */
  LEDGER_URL: z.url().default('http://127.0.0.1:4103'),
  /** Deadline of each ledger call. */
  REPORTING_LEDGER_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** How long a report request carrying `seq` waits for the read model to catch up before answering anyway. */
  REPORTING_CATCH_UP_TIMEOUT_MS: z.coerce.number().int().min(0).default(2000),
  /** How long a workspace's chart of accounts (names, tree, groups, tags) is reused without asking the ledger. */
  REPORTING_ACCOUNTS_CACHE_MS: z.coerce.number().int().min(0).default(5000),
  /** Reports kept per process, served while the workspace's balances and chart are unchanged (0 turns the cache off). */
  REPORTING_REPORT_CACHE_ENTRIES: z.coerce.number().int().min(0).default(500),
  /** entry.posted events applied per transaction (one set-based upsert per batch). */
  REPORTING_BATCH_SIZE: z.coerce.number().int().positive().max(5000).default(500),
});

export type ReportingConfig = z.infer<typeof reportingConfigSchema>;
