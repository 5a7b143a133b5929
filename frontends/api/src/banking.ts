// Rules of the banking screens as pure functions (spec §3 Bank account and Job, §4 jobs and import notices,
// §5 account selection), so they are tested without a browser.
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

/** Transactions stored so far and expected, summed over the jobs given. */
export function jobProgress(jobs: readonly Pick<Job, 'data'>[]): { pushed: number; total: number } {
  return jobs.reduce(
    (sum, job) => ({ pushed: sum.pushed + job.data.transactionPushed, total: sum.total + Math.max(job.data.totalTransactions, job.data.transactionPushed) }),
    { pushed: 0, total: 0 },
  );
}

type AccountKind = Pick<BankAccount, 'type' | 'subtype'>;

/** Spec §3: credit cards are accounts of type credit (subtype credit card). */
export function isCreditCard(account: AccountKind): boolean {
  return account.type === 'credit' || account.subtype === 'credit card';
}

/**
 * Spec §5: bank accounts offered for selection skip credit cards and, when asked, those needing
 * reconnection.
 */
export function accountsForSelection<A extends AccountKind & Pick<BankAccount, 'reconnectRequired'>>(
  accounts: readonly A[],
  options: { skipReconnectRequired?: boolean } = {},
): A[] {
  return accounts.filter((a) => !isCreditCard(a) && !(options.skipReconnectRequired === true && a.reconnectRequired));
}

const capitalize = (text: string): string => (text === '' ? text : `${text.charAt(0).toUpperCase()}${text.slice(1)}`);

/** 'Checking', 'Savings', 'Credit card'; the type when the subtype is missing. */
export function accountKindLabel(account: AccountKind): string {
  return capitalize((account.subtype || account.type).replace(/_/g, ' '));
}

/** '•••• 0000', or an empty string without a mask. */
export function maskLabel(mask: string): string {
  return mask === '' ? '' : `•••• ${mask}`;
}

/** Accounts grouped by institution name, in first-seen order. */
export interface InstitutionGroup<A> {
  institution: BankAccount['institution'];
  accounts: A[];
}

export function groupByInstitution<A extends Pick<BankAccount, 'institution'>>(accounts: readonly A[]): InstitutionGroup<A>[] {
  const groups = new Map<string, InstitutionGroup<A>>();
  for (const account of accounts) {
    const key = `${account.institution.id}\u0000${account.institution.name}`;
    const group: InstitutionGroup<A> = groups.get(key) ?? { institution: account.institution, accounts: [] };
    group.accounts.push(account);
    groups.set(key, group);
  }
  return [...groups.values()];
}
