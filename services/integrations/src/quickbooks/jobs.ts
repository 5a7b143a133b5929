// QuickBooks sync jobs. The `quickbooks_sync_jobs` row is the job's state of record; a message on the durable
// JetStream work queue `accounting-package-sync` (the spec's 'accounting-package sync') wakes a worker. One worker
// pushes a company at a time (a lease on the connection, renewed per batch, lapsing when the worker dies). A job
// whose QuickBooks calls keep failing with 429 / 5xx is retried with exponential backoff, then failed.
import { randomUUID } from 'node:crypto';
import { AppError, ErrorKind, assertCanEdit, isUuid, newId, withSystem, withTenant, type WorkItem } from '@ledgerline/platform';
import type { IntegrationsDeps, Tenant } from '../usecases/context.js';
import { QuickBooksCallError } from './client.js';
import { QB_NOT_CONNECTED, type QuickBooksIntegration } from './integration.js';
import { QuickBooksPusher } from './push.js';
import { QuickBooksReverseSync } from './reverse.js';
import { ServiceSource, type QuickBooksSource } from './source.js';
import { qbConnections, qbEntities, qbJobs, qbLease, type QbJobRow } from './store.js';

export const QB_SYNC_QUEUE = 'accounting-package-sync';
export const QB_SYNC_QUEUE_LABEL = 'accounting-package sync';
export const QB_REVERSE_QUEUE = 'mapper-and-reverse-sync';
export const QB_REVERSE_QUEUE_LABEL = 'mapper and reverse sync';

/** Thrown by the test hook: the worker stops as a killed process would (no status change, no ack, lease kept). */
export class SimulatedQuickBooksCrash extends Error {}

export interface SyncItem {
  id: string;
  source: string;
  message: string;
}

export interface SyncResult {
  synced: SyncItem[];
  unsynced: SyncItem[];
  syncFailed: SyncItem[];
  unsyncFailed: SyncItem[];
  ignored: SyncItem[];
}

const emptyResult = (): SyncResult => ({ synced: [], unsynced: [], syncFailed: [], unsyncFailed: [], ignored: [] });

interface Message {
  jobId: string;
  workspaceId: string;
}

const encode = (m: Message) => new TextEncoder().encode(JSON.stringify(m));
function decode(data: Uint8Array): Message | undefined {
  try {
    const m = JSON.parse(new TextDecoder().decode(data)) as Partial<Message>;
    return typeof m.jobId === 'string' && typeof m.workspaceId === 'string' ? { jobId: m.jobId, workspaceId: m.workspaceId } : undefined;
  } catch {
    return undefined;
  }
}

export function qbRetryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(5 * 60_000, baseMs * 2 ** Math.max(0, attempt - 1));
}

export class QuickBooksJobs {
  readonly pusher: QuickBooksPusher;
  readonly reverse: QuickBooksReverseSync;
  private batches = 0;

  constructor(
    private readonly deps: IntegrationsDeps,
    private readonly integration: QuickBooksIntegration,
    source?: QuickBooksSource,
  ) {
    const services = new ServiceSource(deps.config);
    this.pusher = new QuickBooksPusher(deps, integration, source ?? deps.qbSource ?? services);
    this.reverse = new QuickBooksReverseSync(deps, integration, source ?? deps.qbSource ?? services, deps.qbImporter ?? services);
  }

  /** After connect: a job of the 'mapper and reverse sync' queue importing the company's chart, vendors, customers. */
  async requestReverse(tenant: Tenant): Promise<QbJobRow | undefined> {
    const job = await withTenant(this.deps.db, tenant, async (trx) => {
      const connection = await qbConnections.ofWorkspace(trx);
      if (!connection) return undefined;
      const pending = await qbJobs.pending(trx, connection.id, 'reverse');
      if (pending) return pending;
      const row = {
        id: newId(),
        workspace_id: tenant.workspaceId,
        connection_id: connection.id,
        queue: QB_REVERSE_QUEUE_LABEL,
        kind: 'reverse' as const,
        request: {},
      };
      return (await qbJobs.insert(trx, row)) ?? (await qbJobs.pending(trx, connection.id, 'reverse'))!;
    });
    if (job) await this.publish(job);
    return job;
  }

  private leaseUntil(): Date {
    return new Date(Date.now() + this.deps.config.QUICKBOOKS_SYNC_ACK_WAIT_MS);
  }

  /** POST /quickbook/bulk-sync: a job pushing every un-synced entity (joins the unfinished one). */
  async requestBulk(tenant: Tenant): Promise<QbJobRow> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const job = await withTenant(this.deps.db, tenant, async (trx) => {
      const connection = await qbConnections.ofWorkspace(trx);
      if (!connection) throw new AppError(ErrorKind.NotFound, QB_NOT_CONNECTED);
      if (connection.reconnect_required) throw new AppError(ErrorKind.FailedPrecondition, 'QuickBooks needs to be connected again');
      const pending = await qbJobs.pending(trx, connection.id, 'bulk');
      if (pending) return pending;
      const row = {
        id: newId(),
        workspace_id: tenant.workspaceId,
        connection_id: connection.id,
        queue: QB_SYNC_QUEUE_LABEL,
        kind: 'bulk' as const,
        request: {},
      };
      return (await qbJobs.insert(trx, row)) ?? (await qbJobs.pending(trx, connection.id, 'bulk'))!;
    });
    await this.publish(job);
    return job;
  }

  async publish(job: Pick<QbJobRow, 'id' | 'workspace_id' | 'kind'>): Promise<void> {
    const queue = job.kind === 'reverse' ? this.deps.qbReverseQueue?.() : this.deps.qbQueue?.();
    if (!queue) return; // not started yet: the start-up sweep announces unfinished jobs
    try {
      await queue.enqueue(encode({ jobId: job.id, workspaceId: job.workspace_id }), { msgId: `qb-sync:${job.id}` });
    } catch (err) {
      this.deps.logger.warn({ err, jobId: job.id }, 'could not publish a QuickBooks sync job; the sweep will retry');
    }
  }

  async sweep(): Promise<number> {
    const unfinished = await withSystem(this.deps.db, (trx) => qbJobs.unfinished(trx).whereIn('kind', ['bulk', 'reverse']));
    for (const job of unfinished) await this.publish(job);
    return unfinished.length;
  }

  async job(tenant: Tenant, id: string): Promise<{ job: QbJobRow; result: SyncResult }> {
    if (!isUuid(id)) throw AppError.invalid([{ field: 'id', message: 'id must be a QuickBooks sync job id' }]);
    return withTenant(this.deps.db, tenant, async (trx) => {
      const job = await qbJobs.byId(trx, id);
      if (!job) throw new AppError(ErrorKind.NotFound, 'QuickBooks sync job not found');
      return { job, result: await this.resultOf(trx, job) };
    });
  }

  async latest(tenant: Tenant): Promise<QbJobRow | undefined> {
    return withTenant(this.deps.db, tenant, (trx) => trx<QbJobRow>('quickbooks_sync_jobs').orderBy('created_at', 'desc').first());
  }

  async list(tenant: Tenant, statuses: string[]): Promise<QbJobRow[]> {
    return withTenant(this.deps.db, tenant, (trx) => qbJobs.list(trx, statuses));
  }

  /** A job's lists: what it left synced, failed and ignored (its entity rows), and what it un-synced. */
  private async resultOf(trx: Parameters<typeof qbJobs.byId>[0], job: QbJobRow): Promise<SyncResult> {
    const result = { ...emptyResult(), ...((job.result as Partial<SyncResult> | null) ?? {}) };
    for (const row of await qbEntities.ofJob(trx, job.connection_id, job.id)) {
      const item = { id: row.entity_id, source: row.entity_type, message: row.error ?? '' };
      if (row.status === 'synced') result.synced.push(item);
      else if (row.status === 'failed') result.syncFailed.push(item);
      else if (row.status === 'ignored') result.ignored.push(item);
      // pending: the job is still running (or was killed mid-batch); not a result yet.
    }
    return result;
  }

  /** GET /quickbook/un-synced-entities: per entity type, the ids QuickBooks lacks as they are now. */
  async unsyncedEntities(tenant: Tenant): Promise<Array<{ entityType: string; ids: string[] }>> {
    const connection = await this.connection(tenant);
    const map = await this.pusher.unsynced(tenant, connection.id);
    return [...map.entries()].map(([entityType, ids]) => ({ entityType, ids }));
  }

  private async connection(tenant: Tenant) {
    const connection = await withTenant(this.deps.db, tenant, (trx) => qbConnections.ofWorkspace(trx));
    if (!connection) throw new AppError(ErrorKind.NotFound, QB_NOT_CONNECTED);
    return connection;
  }

  /**
   * POST /transactions/qbo-sync: syncs and un-syncs the listed transactions now (their accounts and vendors first),
   * as a job of the 'accounting-package sync' queue run in the request; 409 while a bulk sync holds the company.
   */
  async syncTransactions(tenant: Tenant, input: { sync: string[]; unsync: string[] }): Promise<{ job: QbJobRow; result: SyncResult }> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const problems: Array<{ field: string; message: string }> = [];
    for (const field of ['sync', 'unsync'] as const) {
      if (input[field].length > 500) problems.push({ field, message: `${field} lists at most 500 transactions` });
      else if (input[field].some((id) => !isUuid(id))) problems.push({ field, message: `${field} must list transaction ids` });
    }
    if (problems.length === 0 && input.sync.length + input.unsync.length === 0)
      problems.push({ field: 'sync', message: 'List the transactions to sync or un-sync' });
    if (problems.length > 0) throw AppError.invalid(problems);
    const connection = await this.connection(tenant);
    if (connection.reconnect_required) throw new AppError(ErrorKind.FailedPrecondition, 'QuickBooks needs to be connected again');
    // Each run holds the company's lease under its own name: a bulk or reverse job of this process is another run.
    const holder = randomUUID();
    const job = await withTenant(this.deps.db, tenant, async (trx) => {
      if (!(await qbLease.acquire(trx, connection.id, holder, this.leaseUntil(), new Date()))) {
        throw new AppError(ErrorKind.Conflict, 'A QuickBooks sync is running; try again when it finishes');
      }
      const row = await qbJobs.insert(trx, {
        id: newId(),
        workspace_id: tenant.workspaceId,
        connection_id: connection.id,
        queue: QB_SYNC_QUEUE_LABEL,
        kind: 'transactions',
        request: { sync: input.sync, unsync: input.unsync },
      });
      await qbJobs.update(trx, row!.id, { status: 'active', attempts: 1, started_at: new Date() });
      return row!;
    });
    const renew = async () => {
      await withTenant(this.deps.db, tenant, (trx) => qbLease.acquire(trx, connection.id, holder, this.leaseUntil(), new Date()));
    };
    try {
      const unsyncIds = input.unsync.filter((id) => !input.sync.includes(id));
      const un = unsyncIds.length > 0 ? await this.pusher.unsync(tenant, connection.id, unsyncIds) : { unsynced: [], failed: [], ignored: [] };
      if (input.sync.length > 0) await this.pusher.push(tenant, connection.id, job.id, { transactionIds: input.sync }, renew);
      const partial: Partial<SyncResult> = {
        unsynced: un.unsynced.map((id) => ({ id, source: 'transaction', message: '' })),
        unsyncFailed: un.failed.map((f) => ({ id: f.id, source: 'transaction', message: f.message })),
        ignored: un.ignored.map((id) => ({ id, source: 'transaction', message: 'Not synced to QuickBooks' })),
      };
      return await withTenant(this.deps.db, tenant, async (trx) => {
        await qbJobs.update(trx, job.id, { status: 'completed', finished_at: new Date(), result: partial });
        await qbLease.release(trx, connection.id, holder);
        const done = (await qbJobs.byId(trx, job.id))!;
        const result = await this.resultOf(trx, done);
        // Listed transactions the ledger does not have: ignored, by name.
        const known = new Set([...result.synced, ...result.syncFailed, ...result.ignored].map((i) => `${i.source}:${i.id}`));
        const missing = input.sync.filter((id) => !known.has(`transaction:${id}`));
        const before = new Map(
          (await qbEntities.ofType(trx, connection.id, 'transaction').whereIn('entity_id', missing)).map((r) => [r.entity_id, r.status] as const),
        );
        for (const id of missing) {
          // Synced before and unchanged since: synced; otherwise the ledger has no such transaction.
          if (before.get(id) === 'synced') result.synced.push({ id, source: 'transaction', message: 'Already synced' });
          else result.ignored.push({ id, source: 'transaction', message: 'No such transaction' });
        }
        return { job: done, result };
      });
    } catch (err) {
      await withTenant(this.deps.db, tenant, async (trx) => {
        await qbJobs.update(trx, job.id, { status: 'failed', finished_at: new Date(), error: err instanceof Error ? err.message.slice(0, 500) : 'failed' });
        await qbLease.release(trx, connection.id, holder);
      });
      if (err instanceof QuickBooksCallError) throw new AppError(ErrorKind.Unavailable, 'QuickBooks could not be reached; try again', { cause: err });
      throw err;
    }
  }

  /** The work-queue handler. */
  async handle(item: WorkItem): Promise<void> {
    const message = decode(item.data);
    if (!message) {
      item.term();
      return;
    }
    const tenant = { workspaceId: message.workspaceId };
    const holder = randomUUID();
    const started = await withTenant(this.deps.db, tenant, async (trx) => {
      const job = await qbJobs.byId(trx, message.jobId);
      if (!job || job.status === 'completed' || job.status === 'failed') return 'done' as const;
      if (!(await qbLease.acquire(trx, job.connection_id, holder, this.leaseUntil(), new Date()))) return 'busy' as const;
      const attempts = job.attempts + 1;
      await qbJobs.update(trx, job.id, { status: 'active', attempts, started_at: job.started_at ?? new Date(), error: null, done: 0 });
      return { ...job, attempts };
    });
    if (started === 'done') {
      await item.ack();
      return;
    }
    if (started === 'busy') {
      item.nak(2_000); // another worker holds the company; try again when its lease may have lapsed
      return;
    }
    const job = started;
    try {
      if (job.kind === 'reverse') await this.reverse.run(tenant, job.connection_id, job.id);
      else
        await this.pusher.push(
          tenant,
          job.connection_id,
          job.id,
          {},
          async () => {
            await withTenant(this.deps.db, tenant, (trx) => qbLease.acquire(trx, job.connection_id, holder, this.leaseUntil(), new Date()));
            item.working();
          },
          () => {
            // Tests: die with the batch landed in QuickBooks and not committed here.
            this.batches++;
            if (this.deps.qbCrashAfterBatches !== undefined && this.batches >= this.deps.qbCrashAfterBatches)
              throw new SimulatedQuickBooksCrash('simulated crash');
          },
        );
      await withTenant(this.deps.db, tenant, async (trx) => {
        const finishedAt = new Date();
        await qbJobs.update(trx, job.id, { status: 'completed', finished_at: finishedAt });
        await qbConnections.synced(trx, job.connection_id, finishedAt);
        await qbLease.release(trx, job.connection_id, holder);
      });
      await item.ack();
    } catch (err) {
      if (err instanceof SimulatedQuickBooksCrash) return;
      const retryable = err instanceof QuickBooksCallError ? err.retryable : !(err instanceof AppError && err.kind === ErrorKind.FailedPrecondition);
      const permanent = !retryable || job.attempts >= this.deps.config.QUICKBOOKS_SYNC_MAX_ATTEMPTS;
      const reason = err instanceof Error ? err.message.slice(0, 500) : 'sync failed';
      this.deps.logger.warn({ jobId: job.id, attempt: job.attempts, permanent, reason }, 'QuickBooks sync run failed');
      await withTenant(this.deps.db, tenant, async (trx) => {
        await qbJobs.update(trx, job.id, permanent ? { status: 'failed', error: reason, finished_at: new Date() } : { status: 'waiting', error: reason });
        await qbLease.release(trx, job.connection_id, holder);
      });
      if (permanent) {
        item.term();
        await item.ack().catch(() => undefined);
      } else item.nak(qbRetryDelayMs(job.attempts, this.deps.config.QUICKBOOKS_SYNC_RETRY_BASE_MS));
    }
  }
}
