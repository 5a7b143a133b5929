import type { Knex, Logger, SecretCipher, TenantContext, WorkQueue } from '@ledgerline/platform';
import type Stripe from 'stripe';
import type { IntegrationsConfig } from '../config.js';

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
  now?: () => Date;
  /** Tests: the worker stops dead (no status change, no ack) after this many committed pages, as a killed process would. */
  crashAfterPages?: number;
}

export type Tenant = TenantContext & { workspaceId: string };
