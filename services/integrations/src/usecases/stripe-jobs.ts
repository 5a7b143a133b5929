import { newId, withSystem, type Knex } from '@ledgerline/platform';
import { syncJobs, type JobRow } from '../store/stripe-store.js';
import type { IntegrationsDeps } from './context.js';

/** What a queue message says: run this sync job, of this tenant. */
export interface SyncMessage {
  jobId: string;
  workspaceId: string;
}

export const encodeSyncMessage = (m: SyncMessage): Uint8Array => new TextEncoder().encode(JSON.stringify(m));

export function decodeSyncMessage(data: Uint8Array): SyncMessage | undefined {
  try {
    const m = JSON.parse(new TextDecoder().decode(data)) as Partial<SyncMessage>;
    return typeof m.jobId === 'string' && typeof m.workspaceId === 'string' ? { jobId: m.jobId, workspaceId: m.workspaceId } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stripe sync jobs: the `stripe_sync_jobs` row is the job's state of record; the JetStream message (work queue
 * `stripe-sync`) only wakes a worker. A request while a job is unfinished joins it.
 */
export class StripeSyncScheduler {
  constructor(private readonly deps: IntegrationsDeps) {}

  /** In the caller's transaction: the connection's unfinished job, or a new one. Publish it after commit. */
  async request(trx: Knex.Transaction, connection: { id: string; workspace_id: string }): Promise<JobRow> {
    const pending = await syncJobs.pending(trx, connection.id);
    if (pending) return pending;
    const inserted = await syncJobs.insert(trx, { id: newId(), workspace_id: connection.workspace_id, connection_id: connection.id });
    return inserted ?? (await syncJobs.pending(trx, connection.id))!;
  }

  async publish(job: Pick<JobRow, 'id' | 'workspace_id'>): Promise<void> {
    const queue = this.deps.queue();
    if (!queue) return; // not started yet: the start-up sweep announces unfinished jobs
    try {
      await queue.enqueue(encodeSyncMessage({ jobId: job.id, workspaceId: job.workspace_id }), { msgId: `stripe-sync:${job.id}` });
    } catch (err) {
      this.deps.logger.warn({ err, jobId: job.id }, 'could not publish a Stripe sync job; the sweep will retry');
    }
  }

  /** Re-announces every unfinished job (start-up, periodically): a publish lost in a crash is not a lost job. */
  async sweep(): Promise<number> {
    const unfinished = await withSystem(this.deps.db, (trx) => syncJobs.unfinished(trx));
    for (const job of unfinished) await this.publish(job);
    return unfinished.length;
  }
}
