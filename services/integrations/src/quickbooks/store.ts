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

export type QbEntityStatus = 'pending' | 'synced' | 'failed' | 'ignored';

export interface QbEntityRow {
  connection_id: string;
  workspace_id: string;
  entity_type: string;
  entity_id: string;
  status: QbEntityStatus;
  qbo_type: string | null;
  qbo_id: string | null;
  sync_token: string | null;
  lookup_key: string | null;
  fingerprint: string | null;
  error: string | null;
  job_id: string | null;
  updated_at: Date;
}

export const qbEntities = {
  ofType: (trx: Knex.Transaction, connectionId: string, type: string) =>
    trx<QbEntityRow>('quickbooks_entities').where({ connection_id: connectionId, entity_type: type }),
  ofJob: (trx: Knex.Transaction, connectionId: string, jobId: string) =>
    trx<QbEntityRow>('quickbooks_entities').where({ connection_id: connectionId, job_id: jobId }).orderBy(['entity_type', 'entity_id']),
  async upsert(trx: Knex.Transaction, rows: Array<Omit<QbEntityRow, 'updated_at'>>): Promise<void> {
    if (rows.length === 0) return;
    await trx('quickbooks_entities')
      .insert(rows.map((r) => ({ ...r, updated_at: trx.fn.now() })))
      .onConflict(['connection_id', 'entity_type', 'entity_id'])
      .merge();
  },
  remove: (trx: Knex.Transaction, connectionId: string, type: string, ids: string[]) =>
    trx('quickbooks_entities').where({ connection_id: connectionId, entity_type: type }).whereIn('entity_id', ids).delete(),
};

export type QbJobStatus = 'waiting' | 'active' | 'completed' | 'failed';

export interface QbJobRow {
  id: string;
  workspace_id: string;
  connection_id: string;
  queue: string;
  kind: 'bulk' | 'transactions' | 'reverse';
  request: { sync?: string[]; unsync?: string[] };
  status: QbJobStatus;
  attempts: number;
  total: number;
  done: number;
  result: unknown;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export const qbJobs = {
  byId: (trx: Knex.Transaction, id: string) => trx<QbJobRow>('quickbooks_sync_jobs').where({ id }).first(),
  pending: (trx: Knex.Transaction, connectionId: string, kind: string) =>
    trx<QbJobRow>('quickbooks_sync_jobs').where('connection_id', connectionId).andWhere('kind', kind).whereIn('status', ['waiting', 'active']).first(),
  async insert(trx: Knex.Transaction, row: Pick<QbJobRow, 'id' | 'workspace_id' | 'connection_id' | 'queue' | 'kind' | 'request'>) {
    const [inserted] = await trx('quickbooks_sync_jobs')
      .insert({ ...row, request: JSON.stringify(row.request), status: 'waiting' })
      .onConflict()
      .ignore()
      .returning('*');
    return inserted as QbJobRow | undefined;
  },
  update: (trx: Knex.Transaction, id: string, patch: Partial<Omit<QbJobRow, 'id'>>) =>
    trx('quickbooks_sync_jobs')
      .where({ id })
      .update({ ...patch, ...(patch.result !== undefined ? { result: JSON.stringify(patch.result) } : {}) }),
  unfinished: (trx: Knex.Transaction) => trx<QbJobRow>('quickbooks_sync_jobs').whereIn('status', ['waiting', 'active']),
  list: (trx: Knex.Transaction, statuses: string[]) => {
    const q = trx<QbJobRow>('quickbooks_sync_jobs').orderBy('created_at', 'desc').limit(100);
    return statuses.length > 0 ? q.whereIn('status', statuses) : q;
  },
};

export const qbLease = {
  /** Takes the company's sync lease when free or lapsed (or already ours); false when another worker holds it. */
  async acquire(trx: Knex.Transaction, connectionId: string, holder: string, until: Date, now: Date): Promise<boolean> {
    const n = await trx('quickbooks_connections')
      .where({ id: connectionId })
      .andWhere((q) => q.whereNull('sync_lease_until').orWhere('sync_lease_until', '<', now).orWhere('sync_holder', holder))
      .update({ sync_holder: holder, sync_lease_until: until });
    return n > 0;
  },
  release: (trx: Knex.Transaction, connectionId: string, holder: string) =>
    trx('quickbooks_connections').where({ id: connectionId, sync_holder: holder }).update({ sync_holder: null, sync_lease_until: null }),
};
