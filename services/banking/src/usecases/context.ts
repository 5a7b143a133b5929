import type { Knex, Logger, WorkQueue } from '@ledgerline/platform';
import type { BankingConfig } from '../config.js';
import type { PlaidClient } from '../plaid/client.js';
import type { TokenCipher } from '../store/token-cipher.js';

export interface BankingDeps {
  db: Knex;
  config: BankingConfig;
  plaid: PlaidClient;
  /** Seals and opens Plaid access tokens at rest. */
  tokens: TokenCipher;
  logger: Logger;
  /** The transaction-sync work queue (JetStream); set once the service starts. */
  queue: () => WorkQueue | undefined;
  now?: () => Date;
}

/** The tenant every banking use case acts for (from the gateway's headers). */
export interface Actor {
  workspaceId: string;
  userId?: string;
}

export const SOURCE = 'banking';
