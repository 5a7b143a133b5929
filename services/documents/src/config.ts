import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

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
  // Uploads' object store (ARCHITECTURE §4 "Files"): any S3-compatible store through @aws-sdk/client-s3. The defaults are
  // the local S3 sandbox of `npm start` (services/sandboxes/s3); the chart sets them in production.
  /** The S3 API's URL (http://127.0.0.1:9000 for the sandbox); empty: AWS's own endpoint for the region. */
  DOCUMENTS_S3_ENDPOINT: z.union([z.url(), z.literal('')]).default('http://127.0.0.1:9000'),
  /** The endpoint signed URLs are made for, when browsers reach the store by another address than the service; empty: DOCUMENTS_S3_ENDPOINT. */
  DOCUMENTS_S3_PUBLIC_ENDPOINT: z.union([z.url(), z.literal('')]).default(''),
  DOCUMENTS_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'expected an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)')
    .default('ledgerline-documents'),
  DOCUMENTS_S3_REGION: z.string().min(1).default('us-east-1'),
  /** Empty: the SDK's default credential chain (e.g. the pod's web identity in production). */
  DOCUMENTS_S3_ACCESS_KEY_ID: z.string().default('LEDGERLINESANDBOXKEY'),
  /** SECRET. */
  DOCUMENTS_S3_SECRET_ACCESS_KEY: z.string().default('ledgerline-sandbox-secret-access-key'),
  /** Path-style URLs (http://host/bucket/key): the sandbox and most self-hosted stores want them. */
  DOCUMENTS_S3_FORCE_PATH_STYLE: bool.default(true),
  /** Creates the bucket at start when it is missing (development and tests; production buckets are provisioned). */
  DOCUMENTS_S3_CREATE_BUCKET: bool.default(true),
  /** How long a signed URL of a file stays valid. */
  DOCUMENTS_SIGNED_URL_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** A 'pending' upload older than this was left by a crash; the sweeper settles it. */
  DOCUMENTS_UPLOAD_PENDING_SECONDS: z.coerce.number().int().positive().default(600),
  /** Time between the uploads sweeper's runs. */
  DOCUMENTS_UPLOAD_SWEEP_SECONDS: z.coerce.number().int().positive().default(300),
});

export type DocumentsConfig = z.infer<typeof documentsConfigSchema>;
