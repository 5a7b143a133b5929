import type { Knex, Logger, SecretCipher, TenantContext, WorkQueue } from '@ledgerline/platform';
import type Stripe from 'stripe';
import type { IntegrationsConfig } from '../config.js';
import type { QuickBooksImporter } from '../quickbooks/reverse.js';
import type { QuickBooksSource } from '../quickbooks/source.js';

export interface IntegrationsDeps {
  db: Knex;
  config: IntegrationsConfig;
  logger: Logger;
  cipher: SecretCipher;
  /** Seals QuickBooks tokens (QUICKBOOKS_TOKEN_KEYS). */
  qbCipher: SecretCipher;
  /** A Stripe client with the platform's key (no argument) or a connected account's token. */
  stripe: (key?: string) => Stripe;
  queue: () => WorkQueue | undefined;
  /** The `accounting-package-sync` work queue of the QuickBooks jobs. */
  qbQueue?: () => WorkQueue | undefined;
  /** The `mapper-and-reverse-sync` work queue (the QuickBooks import). */
  qbReverseQueue?: () => WorkQueue | undefined;
  /** Where the reverse sync creates entities (default: the ledger and parties services). */
  qbImporter?: QuickBooksImporter;
  now?: () => Date;
  /** Tests: the worker stops dead (no status change, no ack) after this many committed pages, as a killed process would. */
  crashAfterPages?: number;
  /** Tests: the QuickBooks worker stops dead after this many committed batches, as a killed process would. */
  qbCrashAfterBatches?: number;
  /** Where the QuickBooks sync reads the workspace's entities (default: the ledger and parties services). */
  qbSource?: QuickBooksSource;
}

export type Tenant = TenantContext & { workspaceId: string };
