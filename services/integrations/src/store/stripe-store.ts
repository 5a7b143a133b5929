// SQL of the Stripe integration. Every function runs in the caller's transaction (row-level security holds it
// to the tenant's workspace, or withSystem for the cross-tenant lookups the webhook and the sweep need).
import type { Knex } from '@ledgerline/platform';
import type { ObjectType, ValidObject } from '../stripe/payloads.js';

export interface ConnectionRow {
  id: string;
  workspace_id: string;
  stripe_account_id: string;
  access_token: string;
  access_token_key_id: string;
  scope: string;
  account: { name: string; email: string; country: string; defaultCurrency: string };
  connected_at: Date;
  last_synced_at: Date | null;
}

export type JobStatus = 'waiting' | 'active' | 'completed' | 'failed';

export interface JobRow {
  id: string;
  workspace_id: string;
  connection_id: string;
  status: JobStatus;
  attempts: number;
  objects_synced: string | number;
  error: string | null;
  created_at: Date;
  run_after: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface CursorRow {
  connection_id: string;
  workspace_id: string;
  object_type: string;
  synced_through: string | null;
  run_upper: string | null;
  starting_after: string | null;
}

export const connections = {
  ofWorkspace: (trx: Knex.Transaction) => trx<ConnectionRow>('stripe_connections').first(),
  byStripeAccount: (trx: Knex.Transaction, stripeAccountId: string) =>
    trx<ConnectionRow>('stripe_connections').where({ stripe_account_id: stripeAccountId }).first(),
  byId: (trx: Knex.Transaction, id: string) => trx<ConnectionRow>('stripe_connections').where({ id }).first(),
  /** Undefined when the Stripe account is already connected (to this or another workspace). */
  async insert(trx: Knex.Transaction, row: Omit<ConnectionRow, 'connected_at' | 'last_synced_at'>): Promise<ConnectionRow | undefined> {
    const [inserted] = await trx('stripe_connections')
      .insert({ ...row, account: JSON.stringify(row.account) })
      .onConflict()
      .ignore()
      .returning('*');
    return inserted as ConnectionRow | undefined;
  },
  remove: (trx: Knex.Transaction, id: string) => trx('stripe_connections').where({ id }).delete(),
  synced: (trx: Knex.Transaction, id: string, at: Date) => trx('stripe_connections').where({ id }).update({ last_synced_at: at }),
};

export const syncJobs = {
  pending: (trx: Knex.Transaction, connectionId: string) =>
    trx<JobRow>('stripe_sync_jobs').where({ connection_id: connectionId }).whereIn('status', ['waiting', 'active']).first(),
  latest: (trx: Knex.Transaction, connectionId: string) =>
    trx<JobRow>('stripe_sync_jobs').where({ connection_id: connectionId }).orderBy('created_at', 'desc').first(),
  byId: (trx: Knex.Transaction, id: string) => trx<JobRow>('stripe_sync_jobs').where({ id }).first(),
  /** Undefined when the connection already has an unfinished job (the partial unique index). */
  async insert(trx: Knex.Transaction, row: { id: string; workspace_id: string; connection_id: string }): Promise<JobRow | undefined> {
    const [inserted] = await trx('stripe_sync_jobs')
      .insert({ ...row, status: 'waiting' })
      .onConflict(trx.raw("(connection_id) where status in ('waiting', 'active')"))
      .ignore()
      .returning('*');
    return inserted as JobRow | undefined;
  },
  update: (trx: Knex.Transaction, id: string, patch: Partial<Omit<JobRow, 'id'>>) => trx('stripe_sync_jobs').where({ id }).update(patch),
  addSynced: (trx: Knex.Transaction, id: string, count: number) => trx('stripe_sync_jobs').where({ id }).increment('objects_synced', count),
  unfinished: (trx: Knex.Transaction) => trx<JobRow>('stripe_sync_jobs').whereIn('status', ['waiting', 'active']),
};

export const cursors = {
  async ensure(trx: Knex.Transaction, connection: Pick<ConnectionRow, 'id' | 'workspace_id'>, type: string): Promise<CursorRow> {
    await trx('stripe_sync_cursors')
      .insert({ connection_id: connection.id, workspace_id: connection.workspace_id, object_type: type })
      .onConflict(['connection_id', 'object_type'])
      .ignore();
    return (await trx<CursorRow>('stripe_sync_cursors').where({ connection_id: connection.id, object_type: type }).first())!;
  },
  update: (trx: Knex.Transaction, connectionId: string, type: string, patch: Partial<Pick<CursorRow, 'synced_through' | 'run_upper' | 'starting_after'>>) =>
    trx('stripe_sync_cursors').where({ connection_id: connectionId, object_type: type }).update(patch),
};

export const objects = {
  /**
   * Stores each object unless a newer state of it is kept (`version` orders states); answers how many rows
   * changed. One statement for the page.
   */
  async upsert(trx: Knex.Transaction, connection: Pick<ConnectionRow, 'id' | 'workspace_id'>, rows: ValidObject[], version: number): Promise<number> {
    if (rows.length === 0) return 0;
    const result = await trx.raw(
      `insert into stripe_objects (connection_id, workspace_id, stripe_id, object_type, created, version, payload)
       select ?, ?, r.stripe_id, r.object_type, r.created, ?, r.payload
       from jsonb_to_recordset(?::jsonb) as r(stripe_id text, object_type text, created bigint, payload jsonb)
       on conflict (connection_id, stripe_id) do update
         set payload = excluded.payload, version = excluded.version, updated_at = now()
         where stripe_objects.version <= excluded.version`,
      [
        connection.id,
        connection.workspace_id,
        version,
        JSON.stringify(rows.map((r) => ({ stripe_id: r.id, object_type: r.object, created: r.created, payload: r.payload }))),
      ],
    );
    return (result as { rowCount: number }).rowCount;
  },
  /** Stores the objects not kept yet (a kept one, whatever its version, is left as it is); answers how many were new. */
  async insertMissing(trx: Knex.Transaction, connection: Pick<ConnectionRow, 'id' | 'workspace_id'>, rows: ValidObject[], version: number): Promise<number> {
    if (rows.length === 0) return 0;
    const result = await trx.raw(
      `insert into stripe_objects (connection_id, workspace_id, stripe_id, object_type, created, version, payload)
       select ?, ?, r.stripe_id, r.object_type, r.created, ?, r.payload
       from jsonb_to_recordset(?::jsonb) as r(stripe_id text, object_type text, created bigint, payload jsonb)
       on conflict (connection_id, stripe_id) do nothing`,
      [
        connection.id,
        connection.workspace_id,
        version,
        JSON.stringify(rows.map((r) => ({ stripe_id: r.id, object_type: r.object, created: r.created, payload: r.payload }))),
      ],
    );
    return (result as { rowCount: number }).rowCount;
  },
  /** The payloads of one object type, optionally only those created in [start, end]. */
  async payloads(trx: Knex.Transaction, connectionId: string, type: string, created?: { start: number; end: number }): Promise<Array<Record<string, unknown>>> {
    const query = trx('stripe_objects').where({ connection_id: connectionId, object_type: type });
    if (created) query.whereBetween('created', [created.start, created.end]);
    return (await query.select('payload')).map((r: { payload: Record<string, unknown> }) => r.payload);
  },
  counts: (trx: Knex.Transaction, connectionId: string) =>
    trx('stripe_objects')
      .where({ connection_id: connectionId })
      .groupBy('object_type')
      .select('object_type')
      .count<Array<{ object_type: ObjectType; count: string }>>('* as count'),
};

export const stripeEvents = {
  /** True when the event id is new (recorded now); false when it was handled before. */
  async record(
    trx: Knex.Transaction,
    connection: Pick<ConnectionRow, 'id' | 'workspace_id'>,
    event: { id: string; type: string; created: number },
    outcome: string,
  ): Promise<boolean> {
    const inserted = await trx('stripe_events')
      .insert({ connection_id: connection.id, workspace_id: connection.workspace_id, event_id: event.id, type: event.type, created: event.created, outcome })
      .onConflict(['connection_id', 'event_id'])
      .ignore()
      .returning('event_id');
    return inserted.length > 0;
  },
  setOutcome: (trx: Knex.Transaction, connectionId: string, eventId: string, outcome: string) =>
    trx('stripe_events').where({ connection_id: connectionId, event_id: eventId }).update({ outcome }),
};

export const payoutMembers = {
  /** The payouts not yet read (their members unknown), oldest first, at most `limit`. */
  unread: async (trx: Knex.Transaction, connectionId: string, limit: number): Promise<string[]> =>
    (
      await trx('stripe_objects as o')
        .where({ 'o.connection_id': connectionId, 'o.object_type': 'payout' })
        .whereNotExists((q) =>
          q.select(trx.raw('1')).from('stripe_payouts_read as r').whereRaw('r.connection_id = o.connection_id and r.payout_id = o.stripe_id'),
        )
        .orderBy([{ column: 'o.created' }, { column: 'o.stripe_id' }])
        .limit(limit)
        .select('o.stripe_id')
    ).map((r: { stripe_id: string }) => r.stripe_id),
  /** Records a payout's members (and that it was read) in the caller's transaction. */
  async record(trx: Knex.Transaction, connection: Pick<ConnectionRow, 'id' | 'workspace_id'>, payoutId: string, members: string[]): Promise<void> {
    if (members.length > 0)
      await trx('stripe_payout_members')
        .insert(members.map((id) => ({ connection_id: connection.id, workspace_id: connection.workspace_id, payout_id: payoutId, balance_transaction_id: id })))
        .onConflict()
        .ignore();
    await trx('stripe_payouts_read').insert({ connection_id: connection.id, workspace_id: connection.workspace_id, payout_id: payoutId }).onConflict().ignore();
  },
  /** The stored balance transactions of one payout. */
  members: async (trx: Knex.Transaction, connectionId: string, payoutId: string): Promise<Array<Record<string, unknown>>> =>
    (
      await trx('stripe_payout_members as m')
        .join('stripe_objects as o', function () {
          this.on('o.connection_id', 'm.connection_id').andOn('o.stripe_id', 'm.balance_transaction_id');
        })
        .where({ 'm.connection_id': connectionId, 'm.payout_id': payoutId })
        .select('o.payload')
    ).map((r: { payload: Record<string, unknown> }) => r.payload),
  /** Whether the payout's members were read. */
  read: async (trx: Knex.Transaction, connectionId: string, payoutId: string): Promise<boolean> =>
    (await trx('stripe_payouts_read').where({ connection_id: connectionId, payout_id: payoutId }).first('payout_id')) !== undefined,
};

export const stripeObjects = {
  /** One object of a type by its Stripe id, or undefined. */
  one: async (trx: Knex.Transaction, connectionId: string, type: string, stripeId: string): Promise<Record<string, unknown> | undefined> =>
    (await trx('stripe_objects').where({ connection_id: connectionId, object_type: type, stripe_id: stripeId }).first('payload'))?.payload as
      Record<string, unknown> | undefined,
  /** The charges of one payment intent (its id or an expanded object). */
  chargesOfPaymentIntent: async (trx: Knex.Transaction, connectionId: string, paymentIntentId: string): Promise<Array<Record<string, unknown>>> =>
    (
      await trx('stripe_objects')
        .where({ connection_id: connectionId, object_type: 'charge' })
        .whereRaw(`coalesce(payload->'payment_intent'->>'id', payload->>'payment_intent') = ?`, [paymentIntentId])
        .select('payload')
    ).map((r: { payload: Record<string, unknown> }) => r.payload),
  /** Stripe's fee on each of these balance transactions. */
  async fees(trx: Knex.Transaction, connectionId: string, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await trx('stripe_objects')
      .where({ connection_id: connectionId, object_type: 'balance_transaction' })
      .whereIn('stripe_id', ids)
      .select('stripe_id', trx.raw(`(payload->>'fee')::bigint as fee`));
    return new Map(rows.map((r: { stripe_id: string; fee: string }) => [r.stripe_id, Number(r.fee)]));
  },
};
