import {
  describeError,
  useCreateWorkspace,
  useCurrentUser,
  useDeleteWorkspace,
  useUpdateWorkspace,
  useWorkspaces,
  type WorkspaceDetail,
} from '@ledgerline/api';
import { Button, Card, Checkbox, EmptyState, Spinner, TextField, useErrorNotice, useForm, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Badge,
  BlockedNote,
  cellClass,
  ConfirmMutationDialog,
  FormActions,
  HeaderAction,
  RecordLink,
  RowMenu,
  SettingsDialog,
  Table,
  wideCellClass,
} from './parts';
import { WORKSPACE_NAME_REQUIRED, teamEditBlock, validateWorkspaceForm, workspaceChanges, workspaceFormValues, type WorkspaceFormValues } from './rules';
import { searchWith } from './tabs';

/**
 * Settings → Entities: the organization's workspaces (spec §3 Workspace). `?entity=<id>` opens one in a dialog
 * with its details; a new one takes a name; deleting asks first, and the server refuses the last one.
 */
export function EntitiesTab() {
  const user = useCurrentUser();
  const blocked = teamEditBlock(user?.role);
  const [params, setParams] = useSearchParams();
  const workspaces = useWorkspaces();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<WorkspaceDetail | null>(null);
  const openId = params.get('entity');
  const open = workspaces.data?.find((w) => w.id === openId) ?? null;
  const setEntity = (id: string | null) => setParams((p) => searchWith(p, 'entity', id));

  return (
    <Card
      title="Entities"
      description="The workspaces of your organization. Each keeps its own books, bank accounts and chart of accounts."
      actions={<HeaderAction label="New workspace" onClick={() => setCreating(true)} blocked={blocked} />}
    >
      <div className="space-y-4">
        <BlockedNote message={blocked} />
        {workspaces.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading workspaces" />
          </div>
        ) : workspaces.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {describeError(workspaces.error)?.message}
          </p>
        ) : workspaces.data.length === 0 ? (
          <EmptyState title="No workspaces yet" description="Create a workspace for each company whose books you keep." />
        ) : (
          <Table
            label="Workspaces"
            head={[
              { label: 'Name' },
              { label: 'Members', wide: true, className: 'w-24' },
              { label: 'Owner', wide: true },
              { label: 'Your role', wide: true, className: 'w-28' },
              { label: '', className: 'w-14' },
            ]}
          >
            {workspaces.data.map((w) => (
              <tr key={w.id} className="h-11">
                <td className={cellClass}>
                  <div className="flex min-w-0 items-center gap-2">
                    <RecordLink onOpen={() => setEntity(w.id)}>{w.name}</RecordLink>
                    {w.isDefault && <Badge tone="brand">Default</Badge>}
                  </div>
                  <div className="truncate text-xs text-slate-500 md:hidden dark:text-slate-400">
                    {w.memberCount} {w.memberCount === 1 ? 'member' : 'members'} · {w.ownerEmail}
                  </div>
                </td>
                <td className={wideCellClass}>{w.memberCount}</td>
                <td className={wideCellClass} title={w.ownerEmail}>
                  {w.ownerEmail}
                </td>
                <td className={wideCellClass}>{w.role}</td>
                <td className={cellClass}>
                  <RowMenu
                    label={`Actions for ${w.name}`}
                    blocked={blocked}
                    items={[
                      { label: 'Edit details', onSelect: () => setEntity(w.id) },
                      { label: 'Delete workspace', danger: true, onSelect: () => setDeleting(w) },
                    ]}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </div>
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} onCreated={(id) => setEntity(id)} />
      {open && (
        <EditWorkspaceDialog
          key={open.id}
          workspace={open}
          blocked={blocked}
          onClose={() => setEntity(null)}
          onDelete={() => {
            // One dialog at a time: the record closes and the confirmation takes its place.
            setDeleting(open);
            setEntity(null);
          }}
        />
      )}
      <DeleteWorkspaceDialog workspace={deleting} onClose={() => setDeleting(null)} onDeleted={(id) => (id === openId ? setEntity(null) : undefined)} />
    </Card>
  );
}

function CreateWorkspaceDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const create = useCreateWorkspace();
  const form = useForm({ name: '' }, (v) => (v.name.trim() === '' ? { name: WORKSPACE_NAME_REQUIRED } : {}));
  const close = () => {
    form.setValues({ name: '' });
    onClose();
  };
  return (
    <SettingsDialog
      open={open}
      onClose={close}
      title="New workspace"
      description="A workspace has its own books and chart of accounts. You can add its details after creating it."
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          create.mutate(
            { name: form.values.name.trim() },
            {
              onSuccess: (answer) => {
                notice.success(answer.message);
                close();
                onCreated(answer.workspace.id);
              },
              onError: showError,
            },
          );
        }}
      >
        <TextField label="Workspace name" required autoFocus {...form.field('name')} />
        <FormActions onCancel={close} submitLabel="Create workspace" pending={create.isPending} />
      </form>
    </SettingsDialog>
  );
}

function EditWorkspaceDialog({
  workspace,
  blocked,
  onClose,
  onDelete,
}: {
  workspace: WorkspaceDetail;
  blocked: string | null;
  onClose: () => void;
  onDelete: () => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const update = useUpdateWorkspace();
  const form = useForm<WorkspaceFormValues>(workspaceFormValues(workspace), validateWorkspaceForm);
  const [makeDefault, setMakeDefault] = useState(workspace.isDefault);
  const disabled = blocked !== null;
  const field = (name: keyof WorkspaceFormValues) => ({ ...form.field(name), disabled });

  return (
    <SettingsDialog
      open
      onClose={onClose}
      title={workspace.name}
      description={`Owner: ${workspace.ownerEmail} · ${workspace.memberCount} ${workspace.memberCount === 1 ? 'member' : 'members'}`}
    >
      <form
        noValidate
        aria-label="Workspace details"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          const changes = workspaceChanges(workspace, form.values);
          const body = { id: workspace.id, ...changes, ...(makeDefault && !workspace.isDefault ? { isDefault: true } : {}) };
          if (Object.keys(body).length === 1) {
            onClose();
            return;
          }
          update.mutate(body, {
            onSuccess: (answer) => {
              notice.success(answer.message);
              onClose();
            },
            onError: showError,
          });
        }}
      >
        <BlockedNote message={blocked} />
        <TextField label="Name" required {...field('name')} />
        <TextField label="Address" autoComplete="street-address" {...field('address')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
          <TextField label="Team size" inputMode="numeric" {...field('maxTeamSize')} />
        </div>
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">Bank details</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Bank name" {...field('bankName')} />
            <TextField label="Account type" {...field('accountType')} />
          </div>
          <TextField label="Account number" inputMode="numeric" autoComplete="off" {...field('accountNumber')} />
          <TextField label="Bank address" {...field('bankAddress')} />
        </fieldset>
        <Checkbox
          label="Default workspace"
          name="isDefault"
          description={workspace.isDefault ? 'New sign-ins open this workspace.' : 'Open this workspace at sign-in instead of the current default.'}
          checked={makeDefault}
          disabled={disabled || workspace.isDefault}
          onChange={(event) => setMakeDefault(event.target.checked)}
        />
        <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
          <Button variant="ghost" className="text-red-700 dark:text-red-400" disabled={disabled} onClick={onDelete}>
            Delete workspace
          </Button>
          <FormActions onCancel={onClose} submitLabel="Save changes" pending={update.isPending} disabled={disabled} align="start" />
        </div>
      </form>
    </SettingsDialog>
  );
}

function DeleteWorkspaceDialog({ workspace, onClose, onDeleted }: { workspace: WorkspaceDetail | null; onClose: () => void; onDeleted: (id: string) => void }) {
  const remove = useDeleteWorkspace();
  // An error is the server's message, e.g. that the last workspace of an organization cannot be deleted.
  return (
    <ConfirmMutationDialog
      target={workspace}
      title={`Delete ${workspace?.name ?? 'workspace'}?`}
      description="Its books, bank connections and members' access to it go with it. This cannot be undone."
      confirmLabel="Delete workspace"
      mutation={remove}
      onDone={(deleted) => onDeleted(deleted.id)}
      onClose={onClose}
    />
  );
}
