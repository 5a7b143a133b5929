import {
  FIRM_INVITE_ROLES,
  describeError,
  useChangeFirmMemberAccess,
  useFirmClientOrganizations,
  useFirmMembers,
  useFirmProfile,
  useInviteFirmMember,
  useRemoveFirmMember,
  useRevokeFirmInvite,
  useUpdateFirmMember,
  type FirmClientOrganization,
  type FirmTeamInvite,
  type FirmInviteRole,
  type FirmTeamMember,
} from '@ledgerline/api';
import { Button, Card, Checkbox, EmptyState, Select, Spinner, TextField, useErrorNotice, useForm, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  BlockedNote,
  cellClass,
  ConfirmMutationDialog,
  FormActions,
  formatDate,
  HeaderAction,
  NameFields,
  RecordLink,
  RowMenu,
  SettingsDialog,
  StatusBadge,
  Table,
  wideCellClass,
} from './parts';
import {
  accessChanges,
  firmEditBlock,
  inviteNames,
  inviteStatusText,
  isOpenInvite,
  personName,
  roleLabel,
  validateInviteForm,
  type InviteFormValues,
} from './rules';
import { searchWith } from './tabs';

const firmRoleOptions = FIRM_INVITE_ROLES.map((r) => ({ value: r, label: roleLabel(r) }));

/**
 * Settings → Team Management (the firm profile area): the firm's members with the client organizations each may
 * open, and its invites. `?member=<id>` opens a member (role and access), `?invite=<id>` an invite.
 */
export function FirmTeamTab() {
  const profile = useFirmProfile();
  const inFirm = Boolean(profile.data);
  const members = useFirmMembers({ enabled: inFirm });
  const organizations = useFirmClientOrganizations({ enabled: inFirm });
  const [params, setParams] = useSearchParams();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<FirmTeamMember | null>(null);
  const [revoking, setRevoking] = useState<FirmTeamInvite | null>(null);
  const open = (key: 'member' | 'invite', id: string | null) =>
    setParams((p) => searchWith(searchWith(p, key === 'member' ? 'invite' : 'member', null), key, id));

  if (profile.isPending) return <Spinner label="Loading your firm" />;
  if (!profile.data) {
    return (
      <EmptyState
        title="You do not belong to an accounting firm"
        description="Set up your firm under Firm Management, or accept the invite your firm sent you."
      />
    );
  }
  const me = profile.data.member;
  const blocked = firmEditBlock(me.role);
  const openMember = members.data?.members.find((m) => m.id === params.get('member')) ?? null;
  const openInvite = members.data?.invites.find((i) => i.id === params.get('invite')) ?? null;
  const orgs = organizations.data ?? [];

  return (
    <div className="space-y-6">
      <Card
        title="Team"
        description={`The people of ${profile.data.firm.name}. Owners and admins see every client; an accountant sees the clients you give them.`}
        actions={<HeaderAction label="Invite team member" onClick={() => setInviting(true)} blocked={blocked} />}
      >
        <div className="space-y-4">
          <BlockedNote message={blocked} />
          {members.isPending ? (
            <Spinner label="Loading the team" />
          ) : members.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {describeError(members.error)?.message}
            </p>
          ) : (
            <Table
              label="Firm members"
              head={[
                { label: 'Name' },
                { label: 'Role', className: 'w-28' },
                { label: 'Clients', wide: true },
                { label: 'Joined', wide: true, className: 'w-32' },
                { label: '', className: 'w-14' },
              ]}
            >
              {members.data.members.map((m) => (
                <tr key={m.id} className="h-11">
                  <td className={cellClass}>
                    <RecordLink onOpen={() => open('member', m.id)}>{personName(m)}</RecordLink>
                    <div className="truncate text-xs text-slate-500 dark:text-slate-400" title={m.email}>
                      {m.email}
                    </div>
                  </td>
                  <td className={cellClass}>{roleLabel(m.role)}</td>
                  <td className={wideCellClass} title={m.organizations.map((o) => o.name).join(', ')}>
                    {m.role === 'accountant' ? m.organizations.map((o) => o.name).join(', ') || 'None yet' : 'All clients'}
                  </td>
                  <td className={wideCellClass}>{formatDate(m.joinedOn)}</td>
                  <td className={cellClass}>
                    <RowMenu
                      label={`Actions for ${personName(m)}`}
                      blocked={blocked}
                      items={
                        m.role === 'owner' || m.id === me.id
                          ? []
                          : [
                              { label: 'Change role and access', onSelect: () => open('member', m.id) },
                              { label: 'Remove from firm', danger: true, onSelect: () => setRemoving(m) },
                            ]
                      }
                    />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </div>
      </Card>
      {blocked === null && (
        <Card title="Invites" description="An invite link works once, for 7 days.">
          {members.data && members.data.invites.length === 0 ? (
            <EmptyState title="No invites yet" description="Invite an admin to help run the firm, or an accountant for the clients you choose." />
          ) : (
            members.data && (
              <Table
                label="Firm invites"
                head={[
                  { label: 'Email' },
                  { label: 'Status', className: 'w-24' },
                  { label: 'Role', wide: true, className: 'w-28' },
                  { label: 'Expires', wide: true, className: 'w-32' },
                  { label: '', className: 'w-14' },
                ]}
              >
                {members.data.invites.map((i) => (
                  <tr key={i.id} className="h-11">
                    <td className={cellClass}>
                      <RecordLink onOpen={() => open('invite', i.id)}>{i.email}</RecordLink>
                      <div className="truncate text-xs text-slate-500 dark:text-slate-400">
                        {roleLabel(i.role)}
                        {i.organizationIds.length > 0 && ` · ${i.organizationIds.length} ${i.organizationIds.length === 1 ? 'client' : 'clients'}`}
                      </div>
                    </td>
                    <td className={cellClass}>
                      <StatusBadge label={inviteStatusText(i)} />
                    </td>
                    <td className={wideCellClass}>{roleLabel(i.role)}</td>
                    <td className={wideCellClass}>{isOpenInvite(i) ? formatDate(i.expiryDate) : '—'}</td>
                    <td className={cellClass}>
                      <RowMenu
                        label={`Actions for ${i.email}`}
                        blocked={blocked}
                        items={isOpenInvite(i) ? [{ label: 'Revoke invite', danger: true, onSelect: () => setRevoking(i) }] : []}
                      />
                    </td>
                  </tr>
                ))}
              </Table>
            )
          )}
        </Card>
      )}
      <FirmInviteDialog open={inviting} organizations={orgs} onClose={() => setInviting(false)} />
      {openMember && (
        <FirmMemberDialog
          key={openMember.id}
          member={openMember}
          organizations={orgs}
          blocked={blocked ?? (openMember.role === 'owner' ? "The firm owner's role and access cannot be changed." : null)}
          onClose={() => open('member', null)}
          onRemove={() => {
            setRemoving(openMember);
            open('member', null);
          }}
        />
      )}
      {openInvite && (
        <SettingsDialog
          open
          onClose={() => open('invite', null)}
          title={openInvite.email}
          description={`${roleLabel(openInvite.role)} · sent ${formatDate(openInvite.createdOn)}`}
        >
          <div className="space-y-4 text-sm">
            <p>
              <StatusBadge label={inviteStatusText(openInvite)} />{' '}
              {isOpenInvite(openInvite) && (
                <span className="ml-2 text-slate-600 dark:text-slate-400">The link works until {formatDate(openInvite.expiryDate)}.</span>
              )}
            </p>
            <p className="text-slate-600 dark:text-slate-400">
              Clients:{' '}
              {orgs
                .filter((o) => openInvite.organizationIds.includes(o.id))
                .map((o) => o.name)
                .join(', ') || 'none'}
            </p>
            <div className="flex flex-wrap justify-end gap-3">
              <Button
                variant="danger"
                disabled={blocked !== null || !isOpenInvite(openInvite)}
                onClick={() => {
                  setRevoking(openInvite);
                  open('invite', null);
                }}
              >
                Revoke invite
              </Button>
              <Button variant="secondary" onClick={() => open('invite', null)}>
                Close
              </Button>
            </div>
          </div>
        </SettingsDialog>
      )}
      <RemoveFirmMemberDialog member={removing} onClose={() => setRemoving(null)} onRemoved={() => open('member', null)} />
      <RevokeFirmInviteDialog invite={revoking} onClose={() => setRevoking(null)} onRevoked={() => open('invite', null)} />
    </div>
  );
}

function OrganizationChoices({
  organizations,
  chosen,
  onChange,
  disabled,
  legend,
}: {
  organizations: readonly FirmClientOrganization[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
  legend: string;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">{legend}</legend>
      {organizations.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">Add a client organization under Firm Management first.</p>}
      {organizations.map((o) => (
        <Checkbox
          key={o.id}
          name={`organization-${o.id}`}
          label={o.name}
          checked={chosen.includes(o.id)}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked ? [...chosen, o.id] : chosen.filter((id) => id !== o.id))}
        />
      ))}
    </fieldset>
  );
}

const emptyInvite: InviteFormValues = { email: '', firstName: '', middleName: '', lastName: '' };

function FirmInviteDialog({ open, organizations, onClose }: { open: boolean; organizations: readonly FirmClientOrganization[]; onClose: () => void }) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const invite = useInviteFirmMember();
  const form = useForm<InviteFormValues>(emptyInvite, validateInviteForm);
  const [role, setRole] = useState<FirmInviteRole>('accountant');
  const [chosen, setChosen] = useState<string[]>([]);
  const close = () => {
    form.setValues(emptyInvite);
    setRole('accountant');
    setChosen([]);
    onClose();
  };
  return (
    <SettingsDialog
      open={open}
      onClose={close}
      title="Invite team member"
      description="An admin helps run the firm and sees every client; an accountant sees only the clients you choose."
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          invite.mutate(
            { ...inviteNames(form.values), role, organizationIds: role === 'accountant' ? chosen : [] },
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
        <TextField label="Email" type="email" required autoComplete="off" {...form.field('email')} />
        <NameFields field={form.field} />
        <Select label="Role" name="role" options={firmRoleOptions} value={role} onChange={setRole} />
        {role === 'accountant' && (
          <OrganizationChoices legend="Clients they can open" organizations={organizations} chosen={chosen} onChange={setChosen} disabled={false} />
        )}
        <FormActions onCancel={close} submitLabel="Send invite" pending={invite.isPending} className="pt-2" />
      </form>
    </SettingsDialog>
  );
}

function FirmMemberDialog({
  member,
  organizations,
  blocked,
  onClose,
  onRemove,
}: {
  member: FirmTeamMember;
  organizations: readonly FirmClientOrganization[];
  blocked: string | null;
  onClose: () => void;
  onRemove: () => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const updateRole = useUpdateFirmMember();
  const changeAccess = useChangeFirmMemberAccess();
  const current = member.organizations.map((o) => o.id);
  const [role, setRole] = useState<FirmInviteRole | null>(
    (FIRM_INVITE_ROLES as readonly string[]).includes(member.role) ? (member.role as FirmInviteRole) : null,
  );
  const [chosen, setChosen] = useState<string[]>(current);
  const disabled = blocked !== null;
  const pending = updateRole.isPending || changeAccess.isPending;

  const save = async () => {
    try {
      const messages: string[] = [];
      if (role && role !== member.role) messages.push((await updateRole.mutateAsync({ id: member.id, role })).message);
      if ((role ?? member.role) === 'accountant') {
        const { give, remove } = accessChanges(current, chosen);
        if (give.length > 0) messages.push((await changeAccess.mutateAsync({ id: member.id, type: 'give-access', organizationIds: give })).message);
        if (remove.length > 0) messages.push((await changeAccess.mutateAsync({ id: member.id, type: 'remove-access', organizationIds: remove })).message);
      }
      for (const m of new Set(messages)) notice.success(m);
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <SettingsDialog open onClose={onClose} title={personName(member)} description={`${member.email} · joined ${formatDate(member.joinedOn)}`}>
      <form
        noValidate
        aria-label="Role and access"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <BlockedNote message={blocked} />
        {member.role === 'owner' ? (
          <p className="text-sm">Owner · sees every client</p>
        ) : (
          <Select label="Role" name="role" options={firmRoleOptions} value={role} disabled={disabled} onChange={setRole} />
        )}
        {(role ?? member.role) === 'accountant' ? (
          <OrganizationChoices legend="Clients they can open" organizations={organizations} chosen={chosen} onChange={setChosen} disabled={disabled} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">Admins and the owner can open every client of the firm.</p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
          <Button variant="ghost" className="text-red-700 dark:text-red-400" disabled={disabled} onClick={onRemove}>
            Remove from firm
          </Button>
          <FormActions onCancel={onClose} submitLabel="Save" pending={pending} disabled={disabled} align="start" />
        </div>
      </form>
    </SettingsDialog>
  );
}

function RemoveFirmMemberDialog({ member, onClose, onRemoved }: { member: FirmTeamMember | null; onClose: () => void; onRemoved: () => void }) {
  const remove = useRemoveFirmMember();
  return (
    <ConfirmMutationDialog
      target={member}
      title={`Remove ${member ? personName(member) : 'member'} from the firm?`}
      description="They lose access to every client at once; their next action is refused."
      confirmLabel="Remove from firm"
      mutation={remove}
      onDone={onRemoved}
      onClose={onClose}
    />
  );
}

function RevokeFirmInviteDialog({ invite, onClose, onRevoked }: { invite: FirmTeamInvite | null; onClose: () => void; onRevoked: () => void }) {
  const revoke = useRevokeFirmInvite();
  return (
    <ConfirmMutationDialog
      target={invite}
      title="Revoke this invite?"
      description={`The link sent to ${invite?.email ?? 'them'} stops working.`}
      confirmLabel="Revoke invite"
      mutation={revoke}
      onDone={onRevoked}
      onClose={onClose}
    />
  );
}
