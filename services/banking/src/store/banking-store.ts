import type { Knex } from '@ledgerline/platform';
import type { AccountRow, ItemRow, JobRow, TransactionRow } from './rows.js';

/** Every query of the banking service. Callers pass the transaction (tenant set) the use case runs in. */
export type Db = Knex | Knex.Transaction;

export interface AccountTotals {
  postedTotalCents: number;
  postedCount: number;
  pendingTotalCents: number;
  pendingCount: number;
  /** YYYY-MM-DD; '' when the account has no live transaction. */
  earliestDate: string;
}

export const items = {
  byId: (db: Db, id: string) => db<ItemRow>('plaid_items').where({ id }).first(),
  byItemId: (db: Db, itemId: string) => db<ItemRow>('plaid_items').where({ item_id: itemId }).first(),
  lock: (db: Db, id: string) => db<ItemRow>('plaid_items').where({ id }).forUpdate().first(),
  upsert: async (
    db: Db,
    row: Pick<ItemRow, 'id' | 'workspace_id' | 'item_id' | 'access_token' | 'access_token_key_id' | 'institution_id' | 'institution_name'>,
  ): Promise<ItemRow> => {
    const [saved] = await db('plaid_items')
      .insert({ ...row, status: 'active' })
      .onConflict('item_id')
      .merge({ access_token: row.access_token, access_token_key_id: row.access_token_key_id, status: 'active', updated_at: db.fn.now() })
      .returning('*');
    return saved as ItemRow;
  },
  update: (db: Db, id: string, patch: Partial<Omit<ItemRow, 'id' | 'workspace_id'>>) =>
    db('plaid_items')
      .where({ id })
      .update({ ...patch, updated_at: db.fn.now() }),
  /** Items whose token is in plain text or sealed under another key than `keyId`, locked for resealing (other replicas skip them). */
  stale: (db: Db, keyId: string, limit: number) =>
    db<ItemRow>('plaid_items')
      .where((q) => q.whereNull('access_token_key_id').orWhereNot('access_token_key_id', keyId))
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .select('id', 'item_id', 'access_token', 'access_token_key_id'),
  /** Stores a token sealed again; nothing else of the item changes. */
  reseal: (db: Db, id: string, sealed: Pick<ItemRow, 'access_token' | 'access_token_key_id'>) => db('plaid_items').where({ id }).update(sealed),
};

export const accounts = {
  live: (db: Db) => db<AccountRow>('bank_accounts').where({ active: true }).orderBy('created_at').orderBy('id'),
  byId: (db: Db, id: string) => db<AccountRow>('bank_accounts').where({ id }).first(),
  liveById: (db: Db, id: string) => db<AccountRow>('bank_accounts').where({ id, active: true }).first(),
  liveOfItem: (db: Db, itemId: string) => db<AccountRow>('bank_accounts').where({ plaid_item_id: itemId, active: true }).orderBy('created_at').orderBy('id'),
  insert: (db: Db, rows: Partial<AccountRow>[]) => db('bank_accounts').insert(rows).returning('*') as Promise<AccountRow[]>,
  update: (db: Db, id: string, patch: Partial<Omit<AccountRow, 'id' | 'workspace_id'>>) => db('bank_accounts').where({ id }).update(patch),
  markItem: (db: Db, itemId: string, patch: Partial<Pick<AccountRow, 'reconnect_required' | 'last_synced_at'>>) =>
    db('bank_accounts').where({ plaid_item_id: itemId, active: true }).update(patch),
  /**
   * A completed sync of the account: its balances as the bank reported them (unchanged when the bank
   * reported none), the sync's time, and the next synced version. Returns the updated row.
   */
  recordSync: async (
    db: Db,
    id: string,
    sync: { currentCents?: number | null; availableCents?: number | null; isoCurrencyCode?: string | null; at: Date },
  ): Promise<AccountRow> => {
    const patch: Record<string, unknown> = { last_synced_at: sync.at, reconnect_required: false, synced_version: db.raw('synced_version + 1') };
    if (sync.currentCents !== undefined) patch.current_balance_cents = sync.currentCents;
    if (sync.availableCents !== undefined) patch.available_balance_cents = sync.availableCents;
    if (sync.isoCurrencyCode) patch.iso_currency_code = sync.isoCurrencyCode;
    const [row] = await db('bank_accounts').where({ id }).update(patch).returning('*');
    return row as AccountRow;
  },
  /**
   * Banking's live transactions of each account, in the events' sign (> 0 money in): posted and pending
   * totals and counts and the earliest date. One grouped statement over the accounts' index.
   */
  totals: async (db: Db, ids: string[]): Promise<Map<string, AccountTotals>> => {
    if (ids.length === 0) return new Map();
    const rows: {
      account_id: string;
      posted_total: string | null;
      posted_count: string;
      pending_total: string | null;
      pending_count: string;
      earliest: string | null;
    }[] = await db('bank_transactions')
      .whereIn('account_id', ids)
      .whereNull('removed_at')
      .groupBy('account_id')
      .select(
        'account_id',
        db.raw('sum(amount_cents) filter (where not pending) as posted_total'),
        db.raw('count(*) filter (where not pending) as posted_count'),
        db.raw('sum(amount_cents) filter (where pending) as pending_total'),
        db.raw('count(*) filter (where pending) as pending_count'),
        db.raw('min(date)::text as earliest'),
      );
    return new Map(
      rows.map((r) => [
        r.account_id,
        {
          postedTotalCents: Number(r.posted_total ?? 0),
          postedCount: Number(r.posted_count),
          pendingTotalCents: Number(r.pending_total ?? 0),
          pendingCount: Number(r.pending_count),
          earliestDate: r.earliest ?? '',
        },
      ]),
    );
  },
  /** First and last dates of each account's live transactions. */
  dateRanges: async (db: Db, ids: string[]): Promise<Map<string, { start: string; end: string }>> => {
    if (ids.length === 0) return new Map();
    const rows: { account_id: string; start: string; end: string }[] = await db('bank_transactions')
      .whereIn('account_id', ids)
      .whereNull('removed_at')
      .groupBy('account_id')
      .select('account_id', db.raw('min(date)::text as start'), db.raw('max(date)::text as "end"'));
    return new Map(rows.map((r) => [r.account_id, { start: r.start, end: r.end }]));
  },
  /** The live account of a provider's account id (a relink finds the account it linked before). */
  liveByVendorId: (db: Db, vendorAccountId: string) => db<AccountRow>('bank_accounts').where({ vendor_account_id: vendorAccountId, active: true }).first(),
  /** Sets columns and answers the updated row (undefined when there is no account of this id). */
  updateReturning: async (db: Db, id: string, patch: Partial<Omit<AccountRow, 'id' | 'workspace_id'>>): Promise<AccountRow | undefined> => {
    const [row] = (await db('bank_accounts').where({ id }).update(patch).returning('*')) as AccountRow[];
    return row;
  },
};

export const transactions = {
  liveOf: (db: Db, accountId: string) =>
    db<TransactionRow>('bank_transactions').where({ account_id: accountId }).whereNull('removed_at').orderBy('date').orderBy('id'),
  /** Rows of these provider ids in the account (live or not), for applying a page. */
  byExternalIds: (db: Db, accountIds: string[], externalIds: string[]) =>
    externalIds.length === 0
      ? Promise.resolve([] as TransactionRow[])
      : db<TransactionRow>('bank_transactions').whereIn('account_id', accountIds).whereIn('external_id', externalIds),
  /** Inserts; rows already there (same workspace, account and provider id) are skipped. Returns the inserted. */
  insertNew: async (db: Db, rows: Omit<TransactionRow, 'removed_at' | 'removed_reason'>[]): Promise<TransactionRow[]> => {
    if (rows.length === 0) return [];
    return (await db('bank_transactions').insert(rows).onConflict(['workspace_id', 'account_id', 'external_id']).ignore().returning('*')) as TransactionRow[];
  },
  update: async (db: Db, id: string, patch: Partial<Omit<TransactionRow, 'id' | 'workspace_id'>>): Promise<TransactionRow> => {
    const [row] = await db('bank_transactions')
      .where({ id })
      .update({ ...patch, updated_at: db.fn.now() })
      .returning('*');
    return row as TransactionRow;
  },
  page: async (db: Db, filter: { accountId?: string; page: number; take: number }): Promise<{ rows: TransactionRow[]; total: number }> => {
    const base = () =>
      db('bank_transactions')
        .whereNull('removed_at')
        .modify((q) => (filter.accountId ? q.where({ account_id: filter.accountId }) : q));
    const [count] = await base().count({ n: '*' });
    const rows = (await base()
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.take)
      .offset((filter.page - 1) * filter.take)
      .select('*')) as TransactionRow[];
    return { rows, total: Number((count as { n: string | number }).n) };
  },
};

export const jobs = {
  byId: (db: Db, id: string) => db<JobRow>('sync_jobs').where({ id }).first(),
  pendingOfItem: (db: Db, itemId: string) => db<JobRow>('sync_jobs').where({ plaid_item_id: itemId }).whereIn('status', ['waiting', 'delayed']).first(),
  insert: async (
    db: Db,
    row: Pick<JobRow, 'id' | 'workspace_id' | 'plaid_item_id' | 'account_ids' | 'account_id' | 'status' | 'reason' | 'request_id' | 'run_after'>,
  ): Promise<JobRow | undefined> => {
    const [saved] = await db('sync_jobs').insert(row).onConflict(db.raw("(plaid_item_id) where status in ('waiting', 'delayed')")).ignore().returning('*');
    return saved as JobRow | undefined;
  },
  update: (db: Db, id: string, patch: Partial<Omit<JobRow, 'id' | 'workspace_id' | 'seq'>>) => db('sync_jobs').where({ id }).update(patch),
  list: (db: Db, filter: { accountId?: string; statuses?: string[] }) =>
    db<JobRow>('sync_jobs')
      .modify((q) => {
        if (filter.accountId) q.whereRaw('? = any(account_ids)', [filter.accountId]);
        if (filter.statuses) q.whereIn('status', filter.statuses);
      })
      .orderBy('seq', 'desc')
      .limit(100),
  /** Unfinished jobs of every tenant (system transaction): re-announced at start-up. */
  unfinished: (db: Db) => db<JobRow>('sync_jobs').whereIn('status', ['waiting', 'delayed', 'active']).select('id', 'workspace_id'),
  lock: (db: Db, id: string) => db<JobRow>('sync_jobs').where({ id }).forUpdate().first(),
  /** Another job of the item running under a lease that has not expired at `now`. */
  runningOfItem: (db: Db, itemId: string, exceptId: string, now: Date) =>
    db<JobRow>('sync_jobs').where({ plaid_item_id: itemId, status: 'active' }).whereNot({ id: exceptId }).where('lease_expires_at', '>', now).first(),
  /** Sets columns and answers the updated row. */
  updateReturning: async (db: Db, id: string, patch: Partial<Omit<JobRow, 'id' | 'workspace_id' | 'seq'>>): Promise<JobRow> => {
    const [row] = await db('sync_jobs').where({ id }).update(patch).returning('*');
    return row as JobRow;
  },
};

export const webhooks = {
  /** Records a verified delivery; false when the same signed request was seen before (a replay). */
  record: async (db: Db, row: { token_sha256: Buffer; webhook_type: string; webhook_code: string; item_id: string }): Promise<boolean> => {
    const inserted = await db('webhook_deliveries').insert(row).onConflict('token_sha256').ignore().returning('token_sha256');
    return inserted.length > 0;
  },
};
