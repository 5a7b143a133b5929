import { AppError, ErrorKind, isUuid, newId, withSystem, withTenant, type Knex } from '@ledgerline/platform';
import { storedStatusesFor } from '../domain/jobs.js';
import { accounts, jobs } from '../store/banking-store.js';
import type { JobRow } from '../store/rows.js';
import type { BankingDeps } from './context.js';

/** What a queue message says: run this job, of this tenant. */
export interface JobMessage {
  jobId: string;
  workspaceId: string;
}

export function encodeJobMessage(m: JobMessage): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(m));
}

export function decodeJobMessage(data: Uint8Array): JobMessage | undefined {
  try {
    const m = JSON.parse(new TextDecoder().decode(data)) as Partial<JobMessage>;
    return typeof m.jobId === 'string' && typeof m.workspaceId === 'string' ? { jobId: m.jobId, workspaceId: m.workspaceId } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Transaction-sync jobs: the row in `sync_jobs` is the job's state of record (GET /jobs reads it); the
 * JetStream message only wakes a worker. A request for an item that already has a job not yet started
 * joins that job, so bursts of webhooks or clicks cause one run.
 */
export class JobScheduler {
  constructor(private readonly deps: BankingDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** In the caller's transaction: the item's pending job, or a new one. Publish it after commit. */
  async requestSync(
    trx: Knex.Transaction,
    input: { workspaceId: string; plaidItemId: string; accountId?: string; reason: 'link' | 'webhook' | 'manual' | 'follow-up'; delayMs?: number },
  ): Promise<JobRow> {
    const pending = await jobs.pendingOfItem(trx, input.plaidItemId);
    if (pending) return pending;
    const live = await accounts.liveOfItem(trx, input.plaidItemId);
    const accountIds = live.map((a) => a.id);
    const delayMs = input.delayMs ?? 0;
    const inserted = await jobs.insert(trx, {
      id: newId(),
      workspace_id: input.workspaceId,
      plaid_item_id: input.plaidItemId,
      account_ids: accountIds,
      account_id: input.accountId ?? accountIds[0] ?? input.plaidItemId,
      status: delayMs > 0 ? 'delayed' : 'waiting',
      reason: input.reason,
      request_id: newId(),
      run_after: new Date(this.now().getTime() + delayMs),
    });
    // Lost a race with another request: join its job.
    return inserted ?? (await jobs.pendingOfItem(trx, input.plaidItemId))!;
  }

  /** Wakes a worker for the job (after the job row committed). JetStream drops a second publish of one id. */
  async publish(job: Pick<JobRow, 'id' | 'workspace_id'>): Promise<void> {
    const queue = this.deps.queue();
    if (!queue) return; // not started yet: the start-up sweep announces unfinished jobs
    try {
      await queue.enqueue(encodeJobMessage({ jobId: job.id, workspaceId: job.workspace_id }), { msgId: `sync:${job.id}` });
    } catch (err) {
      // The row is committed; the periodic sweep announces it again.
      this.deps.logger.warn({ err, jobId: job.id }, 'could not publish a sync job; the sweep will retry');
    }
  }

  /** Re-announces every unfinished job (start-up, and periodically): a publish lost in a crash is not a lost job. */
  async sweep(): Promise<number> {
    const unfinished = await withSystem(this.deps.db, (trx) => jobs.unfinished(trx));
    for (const j of unfinished) await this.publish(j);
    return unfinished.length;
  }

  list(workspaceId: string, filter: { accountId?: string; statuses: string[] }): Promise<JobRow[]> {
    return withTenant(this.deps.db, { workspaceId }, async (trx) => {
      // An account filter names one of the workspace's accounts, or the answer is a 404 naming it (issue #15).
      if (filter.accountId && (!isUuid(filter.accountId) || !(await accounts.byId(trx, filter.accountId)))) {
        throw new AppError(ErrorKind.NotFound, 'Account not found', { fields: [{ field: 'accountId', message: 'Account not found' }] });
      }
      return jobs.list(trx, { accountId: filter.accountId, statuses: storedStatusesFor(filter.statuses) });
    });
  }
}
