import { type BankAccount, type Job, type TieOut } from '@ledgerline/api';
import { accountKindLabel, groupByInstitution, jobProgress, maskLabel } from './accounts';
import { Button, formatMoney, formatRelativeTime } from '@ledgerline/ui';
import { AccountTieOut } from './TieOut';

export interface AccountActions {
  /** Absent for a role that may not edit: the buttons are disabled with the spec's reason. */
  onReconnect?: (account: BankAccount) => void;
  onSync?: (account: BankAccount) => void;
  onRemove?: (account: BankAccount) => void;
  /** The account whose action is under way (its buttons show it). */
  busyAccountId?: string | null;
  disabledReason?: string;
}

const money = (amount: number | null): string => (amount === null ? '—' : formatMoney(amount));

/** Sync jobs in progress that cover the account (a job lists one account; its item's others share it). */
function jobsOf(account: BankAccount, jobs: readonly Job[], accounts: readonly BankAccount[]): Job[] {
  const sameLogin = new Set(accounts.filter((a) => a.institution.id === account.institution.id).map((a) => a.id));
  return jobs.filter((job) => job.data.accountId === account.id || sameLogin.has(job.data.accountId));
}

/** The connected accounts by bank: kind and mask, balances, last sync, and what needs doing. */
export function AccountsList({
  accounts,
  jobs,
  actions,
  tieOuts = new Map(),
}: {
  accounts: readonly BankAccount[];
  jobs: readonly Job[];
  actions: AccountActions;
  /** Each account's books against its bank (GET /accounts tieOut), by account id. */
  tieOuts?: ReadonlyMap<string, TieOut | null>;
}) {
  const now = new Date();
  return (
    <div className="space-y-6">
      {groupByInstitution(accounts).map((group) => (
        <section key={`${group.institution.id}-${group.institution.name}`} aria-label={group.institution.name || 'Other accounts'}>
          <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900 dark:text-slate-100">
            {group.institution.logo ? <img src={group.institution.logo} alt="" className="size-5 rounded" /> : <BankBadge name={group.institution.name} />}
            {group.institution.name || 'Other accounts'}
          </h3>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {group.accounts.map((account) => (
              <AccountRow
                key={account.id}
                account={account}
                tieOut={tieOuts.get(account.id) ?? null}
                syncing={jobsOf(account, jobs, accounts)}
                actions={actions}
                now={now}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function BankBadge({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      className="flex size-5 items-center justify-center rounded bg-slate-200 text-[10px] font-bold text-slate-700 dark:bg-slate-700 dark:text-slate-200"
    >
      {(name.charAt(0) || '?').toUpperCase()}
    </span>
  );
}

function AccountRow({
  account,
  tieOut,
  syncing,
  actions,
  now,
}: {
  account: BankAccount;
  tieOut: TieOut | null;
  syncing: Job[];
  actions: AccountActions;
  now: Date;
}) {
  const busy = actions.busyAccountId === account.id;
  const progress = jobProgress(syncing);
  const disabledTitle = actions.disabledReason;
  return (
    <li aria-label={`${account.name} ${maskLabel(account.mask)}`.trim()} className="grid items-center gap-4 px-4 py-3 md:grid-cols-[minmax(0,1fr)_17rem_auto]">
      <div className="min-w-0">
        <p className="font-medium text-slate-900 dark:text-slate-100">
          {account.name} <span className="font-normal text-slate-500 dark:text-slate-400">{maskLabel(account.mask)}</span>
        </p>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          {accountKindLabel(account)}
          {' · '}
          {syncing.length > 0
            ? progress.total > 0
              ? `Syncing: ${progress.pushed.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} transactions`
              : 'Syncing…'
            : account.lastSyncedAt
              ? `Last synced ${formatRelativeTime(account.lastSyncedAt, now)}`
              : 'Not synced yet'}
        </p>
        {account.availableBalance !== null && account.availableBalance !== account.currentBalance && (
          <p className="text-xs text-slate-500 dark:text-slate-400">Available {money(account.availableBalance)}</p>
        )}
        {account.reconnectRequired && (
          <p className="mt-1 inline-flex rounded-md bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-200">
            Reconnect required: the bank needs you to sign in again
          </p>
        )}
      </div>
      <AccountTieOut tieOut={tieOut} currentBalance={account.currentBalance} />
      <div className="flex gap-2 md:justify-end">
        {account.reconnectRequired && (
          <Button size="sm" title={disabledTitle} disabled={!actions.onReconnect || busy} loading={busy} onClick={() => actions.onReconnect?.(account)}>
            Reconnect
          </Button>
        )}
        <Button
          size="sm"
          variant="secondary"
          title={disabledTitle}
          aria-label={`Sync ${account.name}`}
          disabled={!actions.onSync || busy || syncing.length > 0 || account.reconnectRequired}
          onClick={() => actions.onSync?.(account)}
        >
          Sync
        </Button>
        <Button
          size="sm"
          variant="ghost"
          title={disabledTitle}
          aria-label={`Remove ${account.name}`}
          disabled={!actions.onRemove || busy}
          onClick={() => actions.onRemove?.(account)}
        >
          Remove
        </Button>
      </div>
    </li>
  );
}
