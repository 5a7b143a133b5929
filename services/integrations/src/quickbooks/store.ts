// SQL of the QuickBooks integration. Every function runs in the caller's transaction (row-level security holds it
// to the tenant's workspace).
import type { Knex } from '@ledgerline/platform';

export interface QuickBooksConnectionRow {
  id: string;
  workspace_id: string;
  realm_id: string;
  access_token: string;
  access_token_key_id: string;
  refresh_token: string;
  refresh_token_key_id: string;
  access_expires_at: Date;
  refresh_expires_at: Date;
  company_name: string;
  reconnect_required: boolean;
  connected_at: Date;
  last_synced_at: Date | null;
}

export type SealedTokens = Pick<
  QuickBooksConnectionRow,
  'access_token' | 'access_token_key_id' | 'refresh_token' | 'refresh_token_key_id' | 'access_expires_at' | 'refresh_expires_at'
>;

export const qbConnections = {
  ofWorkspace: (trx: Knex.Transaction) => trx<QuickBooksConnectionRow>('quickbooks_connections').first(),
  /** The row locked for this transaction: one refresh at a time (Intuit retires the old refresh token). */
  lockedOfWorkspace: (trx: Knex.Transaction) => trx<QuickBooksConnectionRow>('quickbooks_connections').forUpdate().first(),
  byId: (trx: Knex.Transaction, id: string) => trx<QuickBooksConnectionRow>('quickbooks_connections').where({ id }).first(),
  /** Undefined when the company is already connected (to this or another workspace) or the workspace has one. */
  async insert(trx: Knex.Transaction, row: Omit<QuickBooksConnectionRow, 'connected_at' | 'last_synced_at' | 'reconnect_required'>) {
    const [inserted] = await trx('quickbooks_connections').insert(row).onConflict().ignore().returning('*');
    return inserted as QuickBooksConnectionRow | undefined;
  },
  storeTokens: (trx: Knex.Transaction, id: string, tokens: SealedTokens) =>
    trx('quickbooks_connections')
      .where({ id })
      .update({ ...tokens, reconnect_required: false }),
  reconnectRequired: (trx: Knex.Transaction, id: string) => trx('quickbooks_connections').where({ id }).update({ reconnect_required: true }),
  synced: (trx: Knex.Transaction, id: string, at: Date) => trx('quickbooks_connections').where({ id }).update({ last_synced_at: at }),
  remove: (trx: Knex.Transaction, id: string) => trx('quickbooks_connections').where({ id }).delete(),
};

export const qbStates = {
  insert: (trx: Knex.Transaction, row: { state_hash: string; workspace_id: string; user_id: string | null; expires_at: Date }) =>
    trx('quickbooks_oauth_states').insert(row),
  /** Uses the state once: the row is deleted and answered when it is this workspace's and not expired. */
  async consume(trx: Knex.Transaction, stateHash: string, now: Date): Promise<boolean> {
    const removed = await trx('quickbooks_oauth_states').where({ state_hash: stateHash }).andWhere('expires_at', '>', now).delete();
    await trx('quickbooks_oauth_states').where('expires_at', '<=', now).delete();
    return removed > 0;
  },
};
