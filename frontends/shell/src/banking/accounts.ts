// Rules of the shell's bank account screens as pure functions (spec §3 Bank account and Job, §5 account selection):
// the accounts list's labels, grouping and sync progress. Moved from the api package (issue #14): only the shell shows them.
import { isCreditCard, type AccountKind, type BankAccount, type Job } from '@ledgerline/api';

/** Transactions stored so far and expected, summed over the jobs given. */
export function jobProgress(jobs: readonly Pick<Job, 'data'>[]): { pushed: number; total: number } {
  return jobs.reduce(
    (sum, job) => ({ pushed: sum.pushed + job.data.transactionPushed, total: sum.total + Math.max(job.data.totalTransactions, job.data.transactionPushed) }),
    { pushed: 0, total: 0 },
  );
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
