import type { Knex, Logger } from '@ledgerline/platform';
import type { IdentityConfig } from '../config.js';
import type { Mailer } from '../mail/mailer.js';
import type { GoogleTokenVerifier } from './google.js';

export interface IdentityDeps {
  db: Knex;
  config: IdentityConfig;
  mailer: Mailer;
  logger: Logger;
  google: GoogleTokenVerifier;
  now?: () => Date;
}

/** Sets the acting user for row-level security inside a transaction (memberships are per user). */
export async function actAs(trx: Knex.Transaction, userId: string, workspaceId?: string): Promise<void> {
  await trx.raw("select set_config('app.user_id', ?, true), set_config('app.workspace_id', ?, true)", [userId, workspaceId ?? '']);
}
