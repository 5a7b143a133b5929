// The push of the workspace's entities to QuickBooks Online, type by type in dependency order, 30 entities a
// request (QBO's batch). Each batch is written `pending` (committed) before it is sent and its answers committed
// after, so a worker killed anywhere resumes where it was: an entity left `pending` is looked up in QuickBooks by
// its key (Name, DisplayName, DocNumber) and adopted if the push had landed, never created twice. A throttled
// (429) or failed (5xx) batch is retried with backoff, honouring Retry-After.
import { withTenant, type Knex } from '@ledgerline/platform';
import type { IntegrationsDeps, Tenant } from '../usecases/context.js';
import { QuickBooksCallError } from './client.js';
import { fingerprint, plan, QB_ENTITY_TYPES, type Plan, type QbEntityType, type SourceRecord, type TransactionRecord } from './entities.js';
import type { QuickBooksIntegration } from './integration.js';
import type { QuickBooksSource } from './source.js';
import { qbEntities, qbJobs, type QbEntityRow } from './store.js';
import { quickBooksSynced } from './synced-event.js';

/** QBO's batch limit. */
export const BATCH_SIZE = 30;
const CALL_ATTEMPTS = 6;
const NAMED = new Set(['Account', 'Vendor', 'Customer']);

export interface PushScope {
  /** Only these transactions (and the accounts and vendors they refer to); every entity when absent. */
  transactionIds?: string[];
}

/** Called after every committed batch (the worker's heartbeat and a crash point of the tests). */
export type BatchHook = () => Promise<void>;
/** Tests: called when a batch's answer is in and not yet committed (the worst moment to die). */
export type SentHook = () => void;

interface QboEntity {
  Id: string;
  SyncToken: string;
}

interface BatchAnswer {
  BatchItemResponse?: Array<
    { bId: string; Fault?: { Error?: Array<{ Message?: string; Detail?: string; code?: string }> }; QueryResponse?: Record<string, unknown> } & Record<
      string,
      unknown
    >
  >;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Which entities a scope needs: the listed transactions, and the accounts and vendors they name. */
function scoped(type: QbEntityType, records: SourceRecord[], transactions: TransactionRecord[] | undefined): SourceRecord[] {
  if (!transactions) return records;
  if (type === 'transaction') return transactions;
  const needed = new Set(transactions.flatMap((t) => (type === 'account' ? [t.categoryId, t.bankLedgerAccountId] : type === 'vendor' ? [t.vendorId] : [])));
  return records.filter((r) => needed.has(r.id));
}

/** Names made inactive: QuickBooks refuses a reference to them (610), so a transaction leaves its vendor out. */
function inactiveNames(records: SourceRecord[]): Set<string> {
  return new Set(records.filter((r) => (r.type === 'vendor' || r.type === 'customer') && !r.active).map((r) => `${r.type}:${r.id}`));
}

function referencer(synced: Map<string, string>, inactive: Set<string>) {
  return (type: QbEntityType, id: string) => (inactive.has(`${type}:${id}`) ? undefined : synced.get(`${type}:${id}`));
}

export class QuickBooksPusher {
  constructor(
    private readonly deps: IntegrationsDeps,
    private readonly integration: QuickBooksIntegration,
    private readonly source: QuickBooksSource,
  ) {}

  /** A node-quickbooks call, retried on 429 / 5xx / no answer with exponential backoff (Retry-After honoured). */
  async callWithRetry<T>(tenant: Tenant, method: string, ...args: unknown[]): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.integration.call<T>(tenant, method, ...args);
      } catch (err) {
        if (!(err instanceof QuickBooksCallError && err.retryable) || attempt >= CALL_ATTEMPTS) throw err;
        const backoff = this.deps.config.QUICKBOOKS_SYNC_RETRY_BASE_MS * 2 ** (attempt - 1);
        const wait = Math.min(this.deps.config.QUICKBOOKS_RETRY_MAX_WAIT_MS, Math.max(backoff, (err.retryAfterSeconds ?? 0) * 1000));
        this.deps.logger.warn({ method, attempt, status: err.status, waitMs: wait }, 'QuickBooks call throttled or failed; retrying');
        await sleep(wait);
      }
    }
  }

  /** Our ids → QBO ids of the entities already synced (references of later types). */
  private async refs(tenant: Tenant, connectionId: string): Promise<Map<string, string>> {
    return withTenant(this.deps.db, tenant, async (trx) => {
      const rows = await trx<QbEntityRow>('quickbooks_entities')
        .where({ connection_id: connectionId, status: 'synced' })
        .whereIn('entity_type', ['account', 'vendor', 'customer']);
      return new Map(rows.filter((r) => r.qbo_id).map((r) => [`${r.entity_type}:${r.entity_id}`, r.qbo_id!]));
    });
  }

  /** Per entity type, the ids of the entities QuickBooks lacks as they are now (never pushed, changed, failed). */
  async unsynced(tenant: Tenant, connectionId: string): Promise<Map<QbEntityType, string[]>> {
    const out = new Map<QbEntityType, string[]>();
    const lists = new Map<QbEntityType, SourceRecord[]>();
    for (const type of QB_ENTITY_TYPES) lists.set(type, await this.source.list(tenant, type));
    const refs = referencer(await this.refs(tenant, connectionId), inactiveNames([...lists.values()].flat()));
    for (const type of QB_ENTITY_TYPES) {
      const records = lists.get(type)!;
      const rows = new Map((await withTenant(this.deps.db, tenant, (trx) => qbEntities.ofType(trx, connectionId, type))).map((r) => [r.entity_id, r] as const));
      const ids: string[] = [];
      for (const record of records) {
        const p = plan(record, refs);
        if (p.kind === 'ignore') continue;
        const row = rows.get(record.id);
        if (!(row?.status === 'synced' && row.qbo_id && row.fingerprint === fingerprint(p))) ids.push(record.id);
      }
      out.set(type, ids);
    }
    return out;
  }

  /** Deletes the listed transactions from QuickBooks (one batch per 30) and forgets them: they are un-synced. */
  async unsync(
    tenant: Tenant,
    connectionId: string,
    ids: string[],
  ): Promise<{ unsynced: string[]; failed: Array<{ id: string; message: string }>; ignored: string[] }> {
    const rows = await withTenant(this.deps.db, tenant, (trx) => qbEntities.ofType(trx, connectionId, 'transaction').whereIn('entity_id', ids));
    const byId = new Map(rows.map((r) => [r.entity_id, r]));
    const out = { unsynced: [] as string[], failed: [] as Array<{ id: string; message: string }>, ignored: [] as string[] };
    const live = ids.filter((id) => {
      const r = byId.get(id);
      if (r?.qbo_id && r.qbo_type && (r.status === 'synced' || r.status === 'failed')) return true;
      if (r && r.status !== 'ignored') return true; // pending: pushed maybe; looked up below by DocNumber
      out.ignored.push(id);
      return false;
    });
    for (let i = 0; i < live.length; i += BATCH_SIZE) {
      const chunk = live.slice(i, i + BATCH_SIZE).map((id) => byId.get(id)!);
      const withIds = chunk.filter((r) => r.qbo_id && r.sync_token);
      const answer = withIds.length
        ? await this.callWithRetry<BatchAnswer>(
            tenant,
            'batch',
            withIds.map((r, index) => ({ bId: String(index), operation: 'delete', [r.qbo_type!]: { Id: r.qbo_id, SyncToken: r.sync_token } })),
          )
        : { BatchItemResponse: [] };
      const byBId = new Map((answer.BatchItemResponse ?? []).map((a) => [a.bId, a]));
      const gone: string[] = [];
      for (const r of chunk) {
        const index = withIds.indexOf(r);
        if (index < 0) {
          out.failed.push({ id: r.entity_id, message: 'Its QuickBooks copy is not known yet; sync it first' });
          continue;
        }
        const fault = byBId.get(String(index))?.Fault?.Error?.[0];
        // Already deleted in QuickBooks (610): un-synced all the same.
        if (!fault || fault.code === '610') gone.push(r.entity_id);
        else
          out.failed.push({ id: r.entity_id, message: `${fault.Message ?? 'QuickBooks refused it'}${fault.Detail ? `: ${fault.Detail}` : ''}`.slice(0, 500) });
      }
      await withTenant(this.deps.db, tenant, async (trx) => {
        await qbEntities.remove(trx, connectionId, 'transaction', gone);
        await quickBooksSynced(trx, tenant.workspaceId, { entityType: 'transaction', syncedIds: [], unsyncedIds: gone, jobId: '' });
      });
      out.unsynced.push(...gone);
    }
    return out;
  }

  /** Pushes the scope's entities that are not synced as they are now; the job's rows record each outcome. */
  async push(tenant: Tenant, connectionId: string, jobId: string, scope: PushScope, onBatch: BatchHook, onSent?: SentHook): Promise<void> {
    let transactions: TransactionRecord[] | undefined;
    if (scope.transactionIds) {
      const wanted = new Set(scope.transactionIds);
      transactions = ((await this.source.list(tenant, 'transaction')) as TransactionRecord[]).filter((t) => wanted.has(t.id));
    }
    const lists = new Map<QbEntityType, SourceRecord[]>();
    let total = 0;
    for (const type of QB_ENTITY_TYPES) {
      const records = scoped(type, type === 'transaction' && transactions ? [] : await this.source.list(tenant, type), transactions);
      lists.set(type, records);
      total += records.length;
    }
    await withTenant(this.deps.db, tenant, (trx) => qbJobs.update(trx, jobId, { total }));
    const inactive = inactiveNames([...lists.values()].flat());
    for (const type of QB_ENTITY_TYPES) await this.pushType(tenant, connectionId, jobId, type, lists.get(type)!, inactive, onBatch, onSent);
  }

  private async pushType(
    tenant: Tenant,
    connectionId: string,
    jobId: string,
    type: QbEntityType,
    records: SourceRecord[],
    inactive: Set<string>,
    onBatch: BatchHook,
    onSent?: SentHook,
  ): Promise<void> {
    const refs = referencer(await this.refs(tenant, connectionId), inactive);
    const existing = new Map(
      (await withTenant(this.deps.db, tenant, (trx) => qbEntities.ofType(trx, connectionId, type))).map((r) => [r.entity_id, r] as const),
    );
    const base = (id: string): Omit<QbEntityRow, 'updated_at' | 'status'> => {
      const row = existing.get(id);
      return {
        connection_id: connectionId,
        workspace_id: tenant.workspaceId,
        entity_type: type,
        entity_id: id,
        qbo_type: row?.qbo_type ?? null,
        qbo_id: row?.qbo_id ?? null,
        sync_token: row?.sync_token ?? null,
        lookup_key: row?.lookup_key ?? null,
        fingerprint: null,
        error: null,
        job_id: jobId,
      };
    };
    const settled: Array<Omit<QbEntityRow, 'updated_at'>> = [];
    const todo: Array<{ record: SourceRecord; plan: Extract<Plan, { kind: 'push' }>; fp: string }> = [];
    let unchanged = 0;
    for (const record of records) {
      const p = plan(record, refs);
      const fp = fingerprint(p);
      const row = existing.get(record.id);
      if (p.kind === 'push') {
        if (row?.status === 'synced' && row.fingerprint === fp && row.qbo_id) unchanged++;
        else todo.push({ record, plan: p, fp });
      } else if (!(row?.fingerprint === fp && row.status === (p.kind === 'ignore' ? 'ignored' : 'failed') && row.job_id === jobId)) {
        settled.push({ ...base(record.id), status: p.kind === 'ignore' ? 'ignored' : 'failed', fingerprint: fp, error: p.reason });
      }
    }
    await withTenant(this.deps.db, tenant, async (trx) => {
      await qbEntities.upsert(trx, settled);
      await trx('quickbooks_sync_jobs')
        .where({ id: jobId })
        .increment('done', settled.length + unchanged);
    });
    for (let i = 0; i < todo.length; i += BATCH_SIZE) {
      await this.pushBatch(tenant, jobId, todo.slice(i, i + BATCH_SIZE), base, onSent);
      await onBatch();
    }
  }

  private async pushBatch(
    tenant: Tenant,
    jobId: string,
    batch: Array<{ record: SourceRecord; plan: Extract<Plan, { kind: 'push' }>; fp: string }>,
    base: (id: string) => Omit<QbEntityRow, 'updated_at' | 'status'>,
    onSent?: SentHook,
  ): Promise<void> {
    const rows = new Map(
      batch.map(({ record, plan: p, fp }) => [record.id, { ...base(record.id), qbo_type: p.qboType, lookup_key: p.key.value, fingerprint: fp }]),
    );
    // 1. A push that may have landed before a crash (pending, no QBO id) or whose SyncToken is unknown: look it up.
    const unknown = batch.filter(({ record }) => {
      const r = rows.get(record.id)!;
      return !r.qbo_id || !r.sync_token;
    });
    if (unknown.length > 0) {
      const found = await this.lookup(
        tenant,
        unknown.map(({ record, plan: p }) => ({ id: record.id, plan: p, qboId: rows.get(record.id)!.qbo_id })),
      );
      for (const [id, entity] of found) Object.assign(rows.get(id)!, { qbo_id: entity.Id, sync_token: entity.SyncToken });
    }
    // 2. Pending, committed before anything is sent.
    await withTenant(this.deps.db, tenant, (trx) =>
      qbEntities.upsert(
        trx,
        [...rows.values()].map((r) => ({ ...r, status: 'pending' as const })),
      ),
    );
    // 3. One batch request: create what QBO lacks, sparse-update what it has.
    const items = batch.map(({ record, plan: p }, index) => {
      const r = rows.get(record.id)!;
      return r.qbo_id
        ? { bId: String(index), operation: 'update' as const, [p.qboType]: { ...p.body, Id: r.qbo_id, SyncToken: r.sync_token, sparse: true } }
        : { bId: String(index), operation: 'create' as const, [p.qboType]: p.body };
    });
    const answer = await this.callWithRetry<BatchAnswer>(tenant, 'batch', items);
    onSent?.();
    const byBId = new Map((answer.BatchItemResponse ?? []).map((a) => [a.bId, a]));
    const duplicates: Array<{ id: string; plan: Extract<Plan, { kind: 'push' }>; message: string }> = [];
    const done: Array<Omit<QbEntityRow, 'updated_at'>> = [];
    batch.forEach(({ record, plan: p }, index) => {
      const r = rows.get(record.id)!;
      const a = byBId.get(String(index));
      const entity = a?.[p.qboType] as QboEntity | undefined;
      if (entity?.Id) {
        done.push({ ...r, status: 'synced', qbo_id: entity.Id, sync_token: entity.SyncToken, error: null });
        return;
      }
      const fault = a?.Fault?.Error?.[0];
      const message = fault
        ? `${fault.Message ?? 'QuickBooks refused it'}${fault.Detail ? `: ${fault.Detail}` : ''}`.slice(0, 500)
        : 'QuickBooks did not answer it';
      if (fault?.code === '6240' && !r.qbo_id) duplicates.push({ id: record.id, plan: p, message });
      // A stale SyncToken (5010): forget it, so the next sync reads the current one first.
      else done.push({ ...r, status: 'failed', error: message, sync_token: fault?.code === '5010' ? null : r.sync_token });
    });
    // 4. A name QuickBooks has already (the company's own vendor, account, ...): adopt it, as a mapper would.
    if (duplicates.length > 0) {
      const found = await this.lookup(
        tenant,
        duplicates.map((d) => ({ id: d.id, plan: d.plan, qboId: null })),
      );
      for (const d of duplicates) {
        const entity = found.get(d.id);
        const r = rows.get(d.id)!;
        done.push(entity ? { ...r, status: 'synced', qbo_id: entity.Id, sync_token: entity.SyncToken } : { ...r, status: 'failed', error: d.message });
      }
    }
    await withTenant(this.deps.db, tenant, async (trx: Knex.Transaction) => {
      await qbEntities.upsert(trx, done);
      await trx('quickbooks_sync_jobs').where({ id: jobId }).increment('done', batch.length);
      const type = batch[0]!.record.type;
      await quickBooksSynced(trx, tenant.workspaceId, {
        entityType: type,
        syncedIds: done.filter((r) => r.status === 'synced').map((r) => r.entity_id),
        unsyncedIds: [],
        jobId,
      });
    });
  }

  /** Finds entities in QuickBooks by QBO id (when known) or by their key, one batch of queries. */
  private async lookup(
    tenant: Tenant,
    wanted: Array<{ id: string; plan: Extract<Plan, { kind: 'push' }>; qboId: string | null }>,
  ): Promise<Map<string, QboEntity>> {
    const quote = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    const groups = new Map<string, { qboType: string; field: string; values: string[] }>();
    for (const w of wanted) {
      const field = w.qboId ? 'Id' : w.plan.key.field;
      const k = `${w.plan.qboType}:${field}`;
      const g = groups.get(k) ?? { qboType: w.plan.qboType, field, values: [] };
      g.values.push(w.qboId ?? w.plan.key.value);
      groups.set(k, g);
    }
    const queries = [...groups.values()].map((g, i) => ({
      bId: `q${i}`,
      // Names and accounts made inactive are hidden from queries unless the query names Active (as in QBO).
      Query: `select * from ${g.qboType} where ${g.field} in (${g.values.map(quote).join(', ')})${NAMED.has(g.qboType) ? ' and Active in (true, false)' : ''} maxresults 1000`,
    }));
    const answer = await this.callWithRetry<BatchAnswer>(tenant, 'batch', queries);
    const found = new Map<string, QboEntity>();
    const index = new Map<string, QboEntity & Record<string, unknown>>();
    for (const a of answer.BatchItemResponse ?? []) {
      for (const [qboType, list] of Object.entries(a.QueryResponse ?? {})) {
        if (!Array.isArray(list)) continue;
        for (const e of list as Array<QboEntity & Record<string, unknown>>) {
          for (const field of ['Id', 'Name', 'DisplayName', 'DocNumber']) {
            if (typeof e[field] === 'string') index.set(`${qboType}:${field}:${String(e[field]).toLowerCase()}`, e);
          }
        }
      }
    }
    for (const w of wanted) {
      const e = index.get(
        w.qboId ? `${w.plan.qboType}:Id:${w.qboId.toLowerCase()}` : `${w.plan.qboType}:${w.plan.key.field}:${w.plan.key.value.toLowerCase()}`,
      );
      if (e) found.set(w.id, { Id: e.Id, SyncToken: e.SyncToken });
    }
    return found;
  }
}
