// Banking rules that several packages and the hooks share (spec §3 Bank account and Job, §4 jobs in progress and
// import notices). The account list's labels, grouping and selection are the shell's (`frontends/shell/src/banking/accounts.ts`).
import type { BankAccount, Job, JobStatusFilter } from './types';

/**
 * Spec §4: a queue job is in progress while waiting or active. A delayed job is a waiting one scheduled for
 * later (a retry's backoff, a webhook's short delay), so it counts as waiting: a poll that stopped on it would
 * miss the sync that follows.
 */
export const IN_PROGRESS_JOB_STATUSES = ['waiting', 'delayed', 'active'] as const satisfies readonly JobStatusFilter[];

/** How often screens poll jobs while any is in progress (the spec gives no figure). */
export const JOB_POLL_INTERVAL_MS = 2_000;

export function isJobInProgress(job: Pick<Job, 'status'>): boolean {
  return (IN_PROGRESS_JOB_STATUSES as readonly string[]).includes(job.status);
}

export type ImportState = 'importing' | 'complete' | 'failed';

/**
 * Where the import of just-linked accounts stands, from the jobs GET /jobs lists for them and the ids of the
 * jobs the link started. Importing while any of those jobs is in progress (a follow-up sync of the same
 * accounts included); failed when a job the link started failed; otherwise complete. A started job the list
 * no longer holds has finished.
 */
export function importState(jobs: readonly Pick<Job, 'id' | 'status'>[], startedJobIds: readonly string[]): ImportState {
  if (jobs.some(isJobInProgress)) return 'importing';
  const started = new Set(startedJobIds);
  if (jobs.some((job) => started.has(job.id) && job.status === 'failed')) return 'failed';
  return 'complete';
}

export type AccountKind = Pick<BankAccount, 'type' | 'subtype'>;

/** Spec §3: credit cards are accounts of type credit (subtype credit card). */
export function isCreditCard(account: AccountKind): boolean {
  return account.type === 'credit' || account.subtype === 'credit card';
}
