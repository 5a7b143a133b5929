import {
  checkOrganizationName,
  describeError,
  filterFirmOrganizations,
  isFirmManager,
  queryKeys,
  useAddFirmOrganization,
  useApiClient,
  useFirmMe,
  useFirmOrganizations,
  type FirmOrganization,
  type User,
} from '@ledgerline/api';
import { Button, Dialog, EmptyState, Spinner, TextField, cx, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { HOME_ROUTE } from '../../routing/guard';
import { useSession, useSessionController } from '../../session/context';
import { selectOrganization } from '../../session/selection';
import { withUser } from '../../session/store';
import { PageHeader } from './PageHeader';

/**
 * A firm user's Home (spec §2 /select-organization): the firm's client organizations the user may open, searchable.
 * Choosing one selects it and its default (else first) workspace (spec §4) and opens the dashboard. A firm owner or
 * admin adds a client organization here (POST /accounting-firm/add-organization).
 */
export function SelectOrganizationPage() {
  const { user: userState } = useSession();
  const { store, selectWorkspace } = useSessionController();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const organizations = useFirmOrganizations();
  const firmMe = useFirmMe();
  const manager = isFirmManager(firmMe.data?.member);
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [opening, setOpening] = useState<string | null>(null);

  const open = async (organization: FirmOrganization) => {
    setOpening(organization.id);
    try {
      let selection = selectOrganization(userState.workspaces, organization.id);
      if (!selection) {
        // The user's workspace list may not have caught up with the firm's (an organization just added or given).
        const fresh = await queryClient.fetchQuery<User>({ queryKey: queryKeys.me, queryFn: ({ signal }) => client.getMe(signal), staleTime: 0 });
        store.setState((s) => (s.auth.isAuthenticated ? withUser(s, fresh) : s));
        selection = selectOrganization(fresh.workspaces, organization.id);
      }
      if (!selection) {
        notice.error(`You have no workspace in ${organization.name} yet. Ask your firm's owner or admin for access.`);
        return;
      }
      await selectWorkspace(selection);
      void navigate(HOME_ROUTE);
    } catch (error) {
      showError(error);
    } finally {
      setOpening(null);
    }
  };

  const all = organizations.data?.organizations ?? [];
  const shown = filterFirmOrganizations(all, search);
  const addButton = manager ? (
    <Button onClick={() => setAdding(true)} disabled={firmMe.isPending}>
      Add organization
    </Button>
  ) : null;

  return (
    <>
      <PageHeader
        title="Select an organization"
        description="Choose the client organization to work in. You can switch at any time from the top bar."
        actions={all.length > 0 ? addButton : null}
      />
      {organizations.isPending ? (
        <div className="flex justify-center py-16 text-brand-600">
          <Spinner label="Loading organizations" />
        </div>
      ) : organizations.isError ? (
        <EmptyState
          title={organizations.error.statusCode === 404 ? 'You are not part of an accounting firm' : 'Organizations could not be loaded'}
          description={organizations.error.message}
          action={
            organizations.error.statusCode === 404 ? undefined : (
              <Button variant="secondary" onClick={() => void organizations.refetch()}>
                Try again
              </Button>
            )
          }
        />
      ) : all.length === 0 ? (
        <EmptyState
          title="No client organizations yet"
          description={
            manager
              ? 'Add the first organization whose books your firm keeps. It comes with its own workspace and chart of accounts.'
              : "Your firm has not given you access to an organization yet. Ask your firm's owner or admin."
          }
          action={addButton}
        />
      ) : (
        <section aria-label="Client organizations">
          <div className="mb-4 max-w-md">
            <TextField
              label="Search organizations"
              name="organization-search"
              type="search"
              placeholder="Organization or workspace name"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          {shown.length === 0 ? (
            <p className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">No organization matches “{search.trim()}”.</p>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {shown.map((organization) => (
                <li key={organization.id} className="min-w-0">
                  <OrganizationCard
                    organization={organization}
                    current={organization.id === userState.selectedOrganizationId}
                    busy={opening === organization.id}
                    onOpen={() => void open(organization)}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <AddOrganizationDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(message) => {
          setAdding(false);
          notice.success(message);
        }}
      />
    </>
  );
}

function OrganizationCard({ organization, current, busy, onOpen }: { organization: FirmOrganization; current: boolean; busy: boolean; onOpen: () => void }) {
  const workspaces = organization.workspaces.length;
  return (
    <button
      type="button"
      onClick={onOpen}
      disabled={busy}
      aria-current={current || undefined}
      className={cx(
        'flex h-full w-full min-w-0 flex-col gap-2 rounded-xl border bg-white p-5 text-left shadow-sm transition hover:border-brand-400 hover:shadow focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 disabled:opacity-70 dark:bg-slate-900',
        current ? 'border-brand-500 dark:border-brand-400' : 'border-slate-200 dark:border-slate-800',
      )}
    >
      <span className="flex w-full min-w-0 items-start justify-between gap-2">
        <span className="min-w-0 truncate text-base font-semibold text-slate-900 dark:text-white">{organization.name}</span>
        <span className="flex shrink-0 gap-1">
          {organization.isDefault && <Badge>Default</Badge>}
          {current && <Badge tone="brand">Current</Badge>}
        </span>
      </span>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        {workspaces === 1 ? '1 workspace' : `${workspaces} workspaces`} · {organization.memberCount === 1 ? '1 member' : `${organization.memberCount} members`}
      </span>
      <span className="mt-auto inline-flex items-center gap-2 pt-2 text-sm font-medium text-brand-700 dark:text-brand-300">
        {busy ? <Spinner label="Opening" /> : 'Open'}
      </span>
    </button>
  );
}

function Badge({ children, tone = 'slate' }: { children: string; tone?: 'slate' | 'brand' }) {
  return (
    <span
      className={cx(
        'rounded-md px-1.5 py-0.5 text-xs font-medium',
        tone === 'brand'
          ? 'bg-brand-50 text-brand-800 dark:bg-brand-950 dark:text-brand-200'
          : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
      )}
    >
      {children}
    </span>
  );
}

function AddOrganizationDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: (message: string) => void }) {
  const add = useAddFirmOrganization();
  const showError = useErrorNotice(describeError);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setName('');
    setError(undefined);
    add.reset();
    onClose();
  };
  const submit = () => {
    const problem = checkOrganizationName(name);
    setError(problem);
    if (problem) return;
    add.mutate(
      { name: name.trim() },
      {
        onSuccess: (answer) => {
          setName('');
          onAdded(answer.message);
        },
        onError: showError,
      },
    );
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add a client organization"
      description="A new organization with its first workspace and its own chart of accounts. You can invite its team later."
      actions={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="add-organization-form" loading={add.isPending}>
            Add organization
          </Button>
        </>
      }
    >
      <form
        id="add-organization-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label="Organization name"
          name="organization-name"
          required
          autoFocus
          value={name}
          error={error}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(checkOrganizationName(event.target.value));
          }}
        />
      </form>
    </Dialog>
  );
}
