import {
  describeError,
  useAddFirmClientOrganization,
  useFirmClientOrganizations,
  useFirmProfile,
  useMakeDefaultFirmClientOrganization,
  useRemoveFirmClientOrganization,
  useUpdateFirm,
  type FirmClientOrganization,
} from '@ledgerline/api';
import { Button, Card, EmptyState, Spinner, TextField, useErrorNotice, useForm, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import {
  Badge,
  BlockedNote,
  cellClass,
  ConfirmMutationDialog,
  FormActions,
  formatDate,
  HeaderAction,
  RowMenu,
  SettingsDialog,
  Table,
  wideCellClass,
} from './parts';
import { ORGANIZATION_NAME_REQUIRED, firmEditBlock, validateFirmForm } from './rules';

/**
 * Settings → Firm Management (the firm profile area): the firm's name and country (PATCH /accounting-firm, which
 * also creates the firm for a user who has none yet) and the client organizations it keeps.
 */
export function FirmManagementTab() {
  const profile = useFirmProfile();
  if (profile.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading your firm" />
      </div>
    );
  }
  if (profile.isError) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {describeError(profile.error)?.message}
      </p>
    );
  }
  const blocked = profile.data ? firmEditBlock(profile.data.member.role) : null;
  return (
    <div className="space-y-6">
      <FirmCard key={profile.data?.firm.id ?? 'new'} firm={profile.data?.firm ?? null} blocked={blocked} />
      {profile.data && <ClientOrganizations blocked={blocked} />}
    </div>
  );
}

function FirmCard({ firm, blocked }: { firm: { name: string; country: string } | null; blocked: string | null }) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const update = useUpdateFirm();
  const form = useForm({ firmName: firm?.name ?? '', country: firm?.country ?? '' }, validateFirmForm);
  const disabled = blocked !== null;
  return (
    <Card
      title={firm ? 'Firm' : 'Set up your firm'}
      description={
        firm
          ? 'Your practice as your clients and your team see it.'
          : 'Name your accounting firm to keep the books of client organizations and invite your team.'
      }
    >
      <form
        noValidate
        aria-label="Firm details"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          update.mutate(
            { firmName: form.values.firmName.trim(), country: form.values.country.trim() },
            { onSuccess: (answer) => notice.success(answer.message), onError: showError },
          );
        }}
      >
        <BlockedNote message={blocked} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Firm name" required autoComplete="organization" disabled={disabled} {...form.field('firmName')} />
          <TextField label="Country" required autoComplete="country-name" disabled={disabled} {...form.field('country')} />
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={disabled} loading={update.isPending}>
            {firm ? 'Save firm' : 'Create firm'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ClientOrganizations({ blocked }: { blocked: string | null }) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const organizations = useFirmClientOrganizations();
  const makeDefault = useMakeDefaultFirmClientOrganization();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<FirmClientOrganization | null>(null);
  return (
    <Card
      title="Client organizations"
      description="The businesses whose books your firm keeps. Each has its own workspaces, members and billing."
      actions={<HeaderAction label="Add client" onClick={() => setAdding(true)} blocked={blocked} />}
    >
      {organizations.isPending ? (
        <Spinner label="Loading client organizations" />
      ) : organizations.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {describeError(organizations.error)?.message}
        </p>
      ) : organizations.data.length === 0 ? (
        <EmptyState
          title="No client organizations yet"
          description="Add the first business you keep the books for. It starts with one workspace and its own chart of accounts."
          action={blocked === null ? <Button onClick={() => setAdding(true)}>Add client</Button> : undefined}
        />
      ) : (
        <Table
          label="Client organizations"
          head={[
            { label: 'Organization' },
            { label: 'Workspaces', wide: true, className: 'w-28' },
            { label: 'Members', wide: true, className: 'w-24' },
            { label: 'Added', wide: true, className: 'w-32' },
            { label: '', className: 'w-14' },
          ]}
        >
          {organizations.data.map((o) => (
            <tr key={o.id} className="h-11">
              <td className={cellClass}>
                <div className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-medium text-slate-900 dark:text-slate-100" title={o.name}>
                    {o.name}
                  </span>
                  {o.isDefault && <Badge tone="brand">Default</Badge>}
                </div>
                <div className="truncate text-xs text-slate-500 md:hidden dark:text-slate-400">
                  {o.workspaces.length} {o.workspaces.length === 1 ? 'workspace' : 'workspaces'} · {o.memberCount} {o.memberCount === 1 ? 'member' : 'members'}
                </div>
              </td>
              <td className={wideCellClass}>{o.workspaces.length}</td>
              <td className={wideCellClass}>{o.memberCount}</td>
              <td className={wideCellClass}>{formatDate(o.addedOn)}</td>
              <td className={cellClass}>
                <RowMenu
                  label={`Actions for ${o.name}`}
                  blocked={null}
                  items={[
                    ...(o.isDefault
                      ? []
                      : [
                          {
                            label: 'Make default',
                            onSelect: () => makeDefault.mutate(o.id, { onSuccess: (answer) => notice.success(answer.message), onError: showError }),
                          },
                        ]),
                    ...(blocked === null ? [{ label: 'Remove client', danger: true, onSelect: () => setRemoving(o) }] : []),
                  ]}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <AddClientDialog open={adding} onClose={() => setAdding(false)} />
      <RemoveClientDialog organization={removing} onClose={() => setRemoving(null)} />
    </Card>
  );
}

function AddClientDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const add = useAddFirmClientOrganization();
  const form = useForm({ name: '' }, (v) => (v.name.trim() === '' ? { name: ORGANIZATION_NAME_REQUIRED } : {}));
  const close = () => {
    form.setValues({ name: '' });
    onClose();
  };
  return (
    <SettingsDialog
      open={open}
      onClose={close}
      title="Add client organization"
      description="It is created with its first workspace and chart of accounts; you are its owner."
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          add.mutate(
            { name: form.values.name.trim() },
            {
              onSuccess: (answer) => {
                notice.success(answer.message);
                close();
              },
              onError: showError,
            },
          );
        }}
      >
        <TextField label="Organization name" required autoFocus autoComplete="off" {...form.field('name')} />
        <FormActions onCancel={close} submitLabel="Add client" pending={add.isPending} />
      </form>
    </SettingsDialog>
  );
}

function RemoveClientDialog({ organization, onClose }: { organization: FirmClientOrganization | null; onClose: () => void }) {
  const remove = useRemoveFirmClientOrganization();
  return (
    <ConfirmMutationDialog
      target={organization}
      title={`Stop keeping ${organization?.name ?? 'this client'}?`}
      description="Your firm's members lose their access to it. The organization and its books stay with its owner."
      confirmLabel="Remove client"
      mutation={remove}
      onClose={onClose}
    />
  );
}
