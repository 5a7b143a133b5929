import { Card, EmptyState } from '@ledgerline/ui';
import { useSession } from '../../session/context';
import { PageHeader } from './PageHeader';

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
        <Card title="Cash and runway" className="lg:col-span-2">
          <EmptyState
            title="No bank accounts connected"
            description="Cash balance, runway and the asset balance graph appear here once bank accounts are connected. Connecting accounts arrives in a later release."
          />
        </Card>
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
        <Card title="Spending and top merchants" className="lg:col-span-3">
          <EmptyState
            title="Nothing to chart yet"
            description="Spending by category and your top merchants appear here once transactions are imported and categorised."
          />
        </Card>
      </div>
    </>
  );
}
