import {
  dashboardTieOut,
  isCreditCard,
  useAccountsTieOut,
  usePrefetchDashboard,
  useSyncJobsInProgress,
  type Job,
  type TieOutGroupTotal,
} from '@ledgerline/api';
import { ledgerHref } from '../../banking/tie-out';
import { jobProgress, maskLabel } from '../../banking/accounts';
import { Card, EmptyState, Spinner, formatMoney } from '@ledgerline/ui';
import { TieOutBadge } from '../../banking/TieOut';
import { TextLink } from '../../layout/TextLink';
import { useSession } from '../../session/context';
import { dashboardWidgetQueries } from './dashboard-data';
import { PageHeader } from './PageHeader';
import { DashboardCharts } from './ReportsRoutes';

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

/**
 * A figure from the books with what the bank says beside it: "Matches bank", "Differs by $X from the bank" or,
 * while an account is catching up, "Updating from the bank…" (no difference that is not one yet).
 */
function TiedFigure({ label, group, testId }: { label: string; group: TieOutGroupTotal; testId: string }) {
  return (
    <div data-testid={testId} className="min-w-0">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{formatMoney(group.books)}</dd>
      <dd className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
        <TieOutBadge status={group.status} difference={group.difference} long />
        {group.status !== 'catching_up' && <span className="tabular-nums">Bank {formatMoney(group.bank)}</span>}
      </dd>
    </div>
  );
}

/**
 * The linked accounts in the books, each tied to its bank (issue #12): "Cash in bank" is the books' total of the bank
 * accounts, "Owed on cards" the books' total owed on cards, each with the bank's figure beside it. Sync progress as
 * before (spec §4: polled while a sync job is waiting or active).
 */
function BankAccountsCard() {
  const tieOut = useAccountsTieOut();
  const jobs = useSyncJobsInProgress();
  const list = tieOut.data?.accounts ?? [];
  const figures = tieOut.data ? dashboardTieOut(tieOut.data) : null;
  const hasCards = list.some(isCreditCard);
  return (
    <Card title="Bank accounts" className="lg:col-span-2" actions={list.length > 0 ? <TextLink to="/connect-accounts">Manage accounts</TextLink> : undefined}>
      <SyncStatus jobs={jobs.data ?? []} />
      {tieOut.isPending && <Spinner label="Loading accounts" />}
      {tieOut.isError && <EmptyState title="Bank accounts could not be loaded" description={tieOut.error.message} />}
      {tieOut.isSuccess && list.length === 0 && (
        <EmptyState
          title="No bank accounts connected"
          description="Cash balance, runway and the asset balance graph appear here once bank accounts are connected."
          action={<TextLink to="/connect-accounts">Connect accounts</TextLink>}
        />
      )}
      {figures && list.length > 0 && (
        <>
          <dl className="mb-4 grid gap-4 sm:grid-cols-2">
            <TiedFigure label="Cash in bank" group={figures.cash} testId="cash-in-bank" />
            {hasCards && <TiedFigure label="Owed on cards" group={figures.cards} testId="owed-on-cards" />}
          </dl>
          <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((a) => (
              <li key={a.id} aria-label={`${a.name} ${maskLabel(a.mask)}`.trim()} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                <span className="min-w-0 truncate">
                  {a.name} <span className="text-slate-500 dark:text-slate-400">{maskLabel(a.mask)}</span>
                  {a.reconnectRequired && <span className="ml-2 text-xs font-medium text-amber-700 dark:text-amber-300">Reconnect required</span>}
                </span>
                <span className="flex flex-wrap items-center gap-2">
                  {a.tieOut?.ledgerAccountId ? (
                    <TextLink to={ledgerHref(a.tieOut.ledgerAccountId)} aria-label={`Ledger of ${a.name}`} className="no-underline">
                      <TieOutBadge status={a.tieOut.status} difference={a.tieOut.difference} />
                    </TextLink>
                  ) : (
                    <TieOutBadge status={a.tieOut?.status ?? 'unknown'} difference={a.tieOut?.difference ?? null} />
                  )}
                  <span className="tabular-nums">{formatMoney(a.tieOut?.booksBalance ?? a.currentBalance ?? 0)}</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

/**
 * Asks for the charts' widgets (GET /dashboard) as the page first renders, with the period and filter set the reports
 * remote will draw them with: their data is on its way while the remote's code loads, not after it (issue #13's
 * 1.5 s). First in the page, so the request leaves before anything else of the page is fetched.
 */
function DashboardData() {
  usePrefetchDashboard(dashboardWidgetQueries);
  return null;
}

export function DashboardPage() {
  const { user: userState } = useSession();
  const user = userState.user;
  if (user === null) return null;
  const workspace = userState.workspaces.find((w) => w.id === userState.selectedWorkspaceId) ?? user.workspace;

  return (
    <>
      <DashboardData />
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
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3 [&>*]:min-w-0">
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
