import { accountsForSelection, isCreditCard, jobProgress, maskLabel, useBankAccounts, useSyncJobsInProgress, type BankAccount, type Job } from '@ledgerline/api';
import { Card, EmptyState, Spinner, formatMoney } from '@ledgerline/ui';
import { TextLink } from '../../layout/TextLink';
import { useSession } from '../../session/context';
import { PageHeader } from './PageHeader';
import { DashboardCharts } from './ReportsRoutes';

/** Sums a balance over accounts, skipping those the bank did not report it for. */
const total = (accounts: readonly BankAccount[], balance: (a: BankAccount) => number | null): number =>
  Math.round(accounts.reduce((sum, a) => sum + (balance(a) ?? 0), 0) * 100) / 100;

function SyncStatus({ jobs }: { jobs: readonly Job[] }) {
  if (jobs.length === 0) return null;
  const { pushed, total: expected } = jobProgress(jobs);
  return (
    <p role="status" className="mb-4 flex items-center gap-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-100">
      <Spinner decorative />
      {expected > 0
        ? `Syncing transactions from your bank: ${pushed.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')}`
        : 'Syncing transactions from your bank…'}
    </p>
  );
}

/** Cash across the linked bank accounts, card balances owed, and sync progress (spec §4: polled while a sync job is waiting or active). */
function BankAccountsCard() {
  const accounts = useBankAccounts();
  const jobs = useSyncJobsInProgress();
  const list = accounts.data ?? [];
  const cash = accountsForSelection(list);
  const cards = list.filter(isCreditCard);
  return (
    <Card
      title="Bank accounts"
      className="lg:col-span-2"
      actions={list.length > 0 ? <TextLink to="/connect-accounts">Manage accounts</TextLink> : undefined}
    >
      <SyncStatus jobs={jobs.data ?? []} />
      {accounts.isPending && <Spinner label="Loading accounts" />}
      {accounts.isError && <EmptyState title="Bank accounts could not be loaded" description={accounts.error.message} />}
      {accounts.isSuccess && list.length === 0 && (
        <EmptyState
          title="No bank accounts connected"
          description="Cash balance, runway and the asset balance graph appear here once bank accounts are connected."
          action={<TextLink to="/connect-accounts">Connect accounts</TextLink>}
        />
      )}
      {list.length > 0 && (
        <>
          <dl className="mb-4 grid grid-cols-2 gap-4">
            <div>
              <dt className="text-sm text-slate-500 dark:text-slate-400">Cash in bank</dt>
              <dd className="text-2xl font-semibold tabular-nums">{formatMoney(total(cash, (a) => a.currentBalance))}</dd>
            </div>
            {cards.length > 0 && (
              <div>
                <dt className="text-sm text-slate-500 dark:text-slate-400">Owed on cards</dt>
                <dd className="text-2xl font-semibold tabular-nums">{formatMoney(total(cards, (a) => a.currentBalance))}</dd>
              </div>
            )}
          </dl>
          <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((a) => (
              <li key={a.id} className="flex justify-between gap-4 py-2">
                <span className="min-w-0 truncate">
                  {a.name} <span className="text-slate-500 dark:text-slate-400">{maskLabel(a.mask)}</span>
                  {a.reconnectRequired && <span className="ml-2 text-xs font-medium text-amber-700 dark:text-amber-300">Reconnect required</span>}
                </span>
                <span className="tabular-nums">{a.currentBalance === null ? '—' : formatMoney(a.currentBalance)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

export function DashboardPage() {
  const { user: userState } = useSession();
  const user = userState.user;
  if (user === null) return null;
  const workspace = userState.workspaces.find((w) => w.id === userState.selectedWorkspaceId) ?? user.workspace;

  return (
    <>
      <PageHeader
        title={`Welcome, ${user.firstName}`}
        description={
          workspace ? (
            <>
              You are working in <span className="font-medium text-slate-900 dark:text-slate-100">{workspace.name}</span>
              {workspace.organizationName && workspace.organizationName !== workspace.name ? ` (${workspace.organizationName})` : ''} as {user.role}.
            </>
          ) : (
            'You have no workspace selected yet.'
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <BankAccountsCard />
        <Card title="Your account">
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="text-slate-500 dark:text-slate-400">Name</dt>
              <dd className="font-medium">{[user.firstName, user.middleName, user.lastName].filter(Boolean).join(' ')}</dd>
            </div>
            <div>
              <dt className="text-slate-500 dark:text-slate-400">Email</dt>
              <dd className="font-medium break-all">{user.email}</dd>
            </div>
            <div>
              <dt className="text-slate-500 dark:text-slate-400">Workspace</dt>
              <dd className="font-medium">{workspace?.name ?? '—'}</dd>
            </div>
          </dl>
        </Card>
      </div>
      <DashboardCharts />
    </>
  );
}
