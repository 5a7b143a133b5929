import type { Knex, Logger } from '@ledgerline/platform';
import type { IdentityConfig } from '../config.js';
import type { EvenTiming } from '../domain/even-timing.js';
import type { GoogleTokenVerifier } from './google.js';

export interface IdentityDeps {
  db: Knex;
  config: IdentityConfig;
  logger: Logger;
  google: GoogleTokenVerifier;
  now?: () => Date;
  timing?: EvenTiming;
  /** Called after a transaction that wrote mail committed (wakes the mail job). */
  mailWritten?: () => void;
}
