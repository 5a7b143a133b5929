import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';
import { STORAGE_SETTINGS } from './storage/settings.js';

export const documentsConfigSchema = baseConfigSchema.extend({
  DOCUMENTS_PORT: portSchema.default(4107),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  DOCUMENTS_DATABASE_URL: z.string().default('postgres://ledgerline_documents_app@127.0.0.1:5432/ledgerline_documents'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  DOCUMENTS_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_documents'),
  /** The ledger: every document's entry (PostDocument). */
  LEDGER_URL: z.url().default('http://127.0.0.1:4103'),
  /** The parties service: the vendor of a bill, the customer of an invoice. */
  PARTIES_URL: z.url().default('http://127.0.0.1:4106'),
  /** Deadline of each call to the ledger or the parties service. */
  DOCUMENTS_CALL_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Time between the recurrence scheduler's sweeps (it also sweeps at start and as soon as a schedule is set). */
  DOCUMENTS_RECURRENCE_INTERVAL_SECONDS: z.coerce.number().int().positive().default(60),
  /** Uploads' object store (storage/settings.ts). */
  ...STORAGE_SETTINGS,
});

export type DocumentsConfig = z.infer<typeof documentsConfigSchema>;
