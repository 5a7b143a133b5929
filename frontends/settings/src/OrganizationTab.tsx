import {
  ASSIGNABLE_ROLES,
  DEFAULT_INVITE_ROLE,
  describeError,
  useCurrentUser,
  useInvites,
  useMembers,
  useOrganization,
  useRemoveMember,
  useRevokeInvite,
  useSendInvite,
  useUpdateInvite,
  useUpdateMember,
  useWorkspaces,
  type AssignableRole,
  type Invite,
  type Member,
  type WorkspaceDetail,
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
  WORKSPACE_CHOICE_REQUIRED,
  inviteNames,
  inviteStatusText,
  isOpenInvite,
  memberRoleIn,
  memberWorkspaces,
  personName,
  teamEditBlock,
  validateInviteForm,
  type InviteFormValues,
} from './rules';
import { searchWith } from './tabs';

type MemberFilter = 'all' | 'user' | 'invite';
const FILTERS: readonly { value: MemberFilter; label: string }[] = [
  { value: 'all', label: 'Members and invites' },
  { value: 'user', label: 'Members' },
  { value: 'invite', label: 'Invites' },
];
const isFilter = (v: string | null): v is MemberFilter => v === 'all' || v === 'user' || v === 'invite';
const roleOptions = ASSIGNABLE_ROLES.map((r) => ({ value: r, label: r }));

/**
 * Settings → Organization members: who has access (GET /members, member type user) and the invites (GET
 * /invites) with their status (Active, Pending, Inactive). `?member=<id>` and `?invite=<id>` open one;
 * `?filter=user|invite` shows one kind.
 */
export function OrganizationTab() {
  const user = useCurrentUser();
  const blocked = teamEditBlock(user?.role);
  const [params, setParams] = useSearchParams();
  const filter: MemberFilter = isFilter(params.get('filter')) ? (params.get('filter') as MemberFilter) : 'all';
  const organization = useOrganization();
  const members = useMembers('user');
  const invites = useInvites();
  const workspaces = useWorkspaces();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const memberId = params.get('member');
  const inviteId = params.get('invite');
  const openMember = members.data?.find((m) => m.id === memberId) ?? null;
  const openInvite = invites.data?.find((i) => i.id === inviteId) ?? null;
  const open = (key: 'member' | 'invite', id: string | null) =>
    setParams((p) => searchWith(searchWith(p, key === 'member' ? 'invite' : 'member', null), key, id));

  return (
    <div className="space-y-6">
      <Card
        title="Organization members"
        description={
          organization.data
            ? `${organization.data.name} · owner ${personName(organization.data.owner)} · ${organization.data.memberCount} ${organization.data.memberCount === 1 ? 'member' : 'members'}`
            : 'Who can open your workspaces, and their roles.'
        }
        actions={<HeaderAction label="Invite member" onClick={() => setInviting(true)} blocked={blocked} />}
      >
        <div className="space-y-4">
          <BlockedNote message={blocked} />
          <Select
            label="Show"
            name="filter"
            className="max-w-xs"
            options={FILTERS}
            value={filter}
            onChange={(next) => setParams((p) => searchWith(p, 'filter', next === 'all' ? null : next))}
          />
          {filter !== 'invite' && (
            <section aria-labelledby="members-heading" className="space-y-2">
              <h3 id="members-heading" className="text-sm font-semibold text-slate-900 dark:text-slate-100">
                Members
              </h3>
              {members.isPending ? (
                <Spinner label="Loading members" />
              ) : members.isError ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                  {describeError(members.error)?.message}
                </p>
              ) : (
                <Table
                  label="Members"
                  head={[
                    { label: 'Name' },
                    { label: 'Role', className: 'w-28' },
                    { label: 'Status', wide: true, className: 'w-24' },
                    { label: 'Workspaces', wide: true },
                    { label: 'Joined', wide: true, className: 'w-32' },
                    { label: '', className: 'w-14' },
                  ]}
                >
                  {members.data.map((m) => (
                    <tr key={m.id} className="h-11">
                      <td className={cellClass}>
                        <RecordLink onOpen={() => open('member', m.id)}>{personName(m)}</RecordLink>
                        <div className="truncate text-xs text-slate-500 dark:text-slate-400" title={m.email}>
                          {m.email}
                        </div>
                      </td>
                      <td className={cellClass}>{m.role}</td>
                      <td className={wideCellClass}>
                        <StatusBadge label={m.statusLabel} />
                      </td>
                      <td className={wideCellClass} title={memberWorkspaces(m)}>
                        {memberWorkspaces(m)}
                      </td>
                      <td className={wideCellClass}>{formatDate(m.joinedOn)}</td>
                      <td className={cellClass}>
                        <RowMenu
                          label={`Actions for ${personName(m)}`}
                          blocked={blocked}
                          items={
                            m.role === 'Owner'
                              ? []
                              : [
                                  { label: 'Change role', onSelect: () => open('member', m.id) },
                                  { label: 'Remove member', danger: true, onSelect: () => setRemoving(m) },
                                ]
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </Table>
              )}
            </section>
          )}
          {filter !== 'user' && (
            <section aria-labelledby="invites-heading" className="space-y-2">
              <h3 id="invites-heading" className="text-sm font-semibold text-slate-900 dark:text-slate-100">
                Invites
              </h3>
              {invites.isPending ? (
                <Spinner label="Loading invites" />
              ) : invites.isError ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                  {describeError(invites.error)?.message}
                </p>
              ) : invites.data.length === 0 ? (
                <EmptyState
                  title="No invites yet"
                  description="Invite your bookkeeper, accountant or a colleague. They get an email with a link that works for 7 days."
                />
              ) : (
                <Table
                  label="Invites"
                  head={[
                    { label: 'Email' },
                    { label: 'Status', className: 'w-24' },
                    { label: 'Role', wide: true, className: 'w-28' },
                    { label: 'Sent', wide: true, className: 'w-32' },
                    { label: 'Expires', wide: true, className: 'w-32' },
                    { label: '', className: 'w-14' },
                  ]}
                >
                  {invites.data.map((i) => (
                    <tr key={i.id} className="h-11">
                      <td className={cellClass}>
                        <RecordLink onOpen={() => open('invite', i.id)}>{i.email}</RecordLink>
                        <div className="truncate text-xs text-slate-500 dark:text-slate-400">
                          {personName({ ...i, email: '' }) || 'No name given'}
                          <span className="md:hidden"> · {i.role}</span>
                        </div>
                      </td>
                      <td className={cellClass}>
                        <StatusBadge label={inviteStatusText(i)} />
                      </td>
                      <td className={wideCellClass}>{i.role}</td>
                      <td className={wideCellClass}>{formatDate(i.createdOn)}</td>
                      <td className={wideCellClass}>{isOpenInvite(i) ? formatDate(i.expiryDate) : '—'}</td>
                      <td className={cellClass}>
                        <RowMenu
                          label={`Actions for ${i.email}`}
                          blocked={blocked}
                          items={
                            isOpenInvite(i)
                              ? [
                                  { label: 'Edit invite', onSelect: () => open('invite', i.id) },
                                  { label: 'Revoke invite', danger: true, onSelect: () => setRevoking(i) },
                                ]
                              : []
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </Table>
              )}
            </section>
          )}
        </div>
      </Card>
      <InviteDialog open={inviting} workspaces={workspaces.data ?? []} currentWorkspaceId={user?.workspace?.id} onClose={() => setInviting(false)} />
      {openMember && (
        <MemberDialog
          key={openMember.id}
          member={openMember}
          workspaces={workspaces.data ?? []}
          currentWorkspaceId={user?.workspace?.id}
          blocked={blocked}
          onClose={() => open('member', null)}
          onRemove={() => {
            setRemoving(openMember);
            open('member', null);
          }}
        />
      )}
      {openInvite && (
        <InviteDetailsDialog
          key={openInvite.id}
          invite={openInvite}
          workspaces={workspaces.data ?? []}
          blocked={blocked}
          onClose={() => open('invite', null)}
          onRevoke={() => {
            setRevoking(openInvite);
            open('invite', null);
          }}
        />
      )}
      <RemoveMemberDialog member={removing} onClose={() => setRemoving(null)} onRemoved={() => open('member', null)} />
      <RevokeInviteDialog invite={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}

function WorkspaceChoices({
  workspaces,
  chosen,
  onChange,
  disabled,
  error,
}: {
  workspaces: readonly WorkspaceDetail[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
  error?: string | undefined;
}) {
  return (
    <fieldset className="space-y-2" aria-describedby={error ? 'workspace-choice-error' : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">Workspaces</legend>
      {workspaces.map((w) => (
        <Checkbox
          key={w.id}
          name={`workspace-${w.id}`}
          label={w.name}
          checked={chosen.includes(w.id)}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked ? [...chosen, w.id] : chosen.filter((id) => id !== w.id))}
        />
      ))}
      {error && (
        <p id="workspace-choice-error" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const emptyInvite: InviteFormValues = { email: '', firstName: '', middleName: '', lastName: '' };

function InviteDialog({
  open,
  workspaces,
  currentWorkspaceId,
  onClose,
}: {
  open: boolean;
  workspaces: readonly WorkspaceDetail[];
  currentWorkspaceId: string | undefined;
  onClose: () => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const send = useSendInvite();
  const form = useForm<InviteFormValues>(emptyInvite, validateInviteForm);
  const [role, setRole] = useState<AssignableRole>(DEFAULT_INVITE_ROLE);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [choiceError, setChoiceError] = useState<string | undefined>();
  const workspaceIds = chosen ?? (currentWorkspaceId ? [currentWorkspaceId] : []);
  const close = () => {
    form.setValues(emptyInvite);
    setRole(DEFAULT_INVITE_ROLE);
    setChosen(null);
    setChoiceError(undefined);
    onClose();
  };
  return (
    <SettingsDialog open={open} onClose={close} title="Invite member" description="They get an email with a link to join; it works once, for 7 days.">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const ok = form.check();
          const noWorkspace = workspaces.length > 0 && workspaceIds.length === 0;
          setChoiceError(noWorkspace ? WORKSPACE_CHOICE_REQUIRED : undefined);
          if (!ok || noWorkspace) return;
          send.mutate(
            { ...inviteNames(form.values), role, workspaceIds },
            {
              onSuccess: (answer) => {
                // Spec §8: invite sent shows the server's message.
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
        <Select label="Role" name="role" options={roleOptions} value={role} onChange={setRole} />
        {workspaces.length > 1 && <WorkspaceChoices workspaces={workspaces} chosen={workspaceIds} onChange={setChosen} disabled={false} error={choiceError} />}
        <FormActions onCancel={close} submitLabel="Send invite" pending={send.isPending} className="pt-2" />
      </form>
    </SettingsDialog>
  );
}

function MemberDialog({
  member,
  workspaces,
  currentWorkspaceId,
  blocked,
  onClose,
  onRemove,
}: {
  member: Member;
  workspaces: readonly WorkspaceDetail[];
  currentWorkspaceId: string | undefined;
  blocked: string | null;
  onClose: () => void;
  onRemove: () => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const update = useUpdateMember();
  const memberOf = workspaces.filter((w) => member.entities.some((e) => e.id === w.id));
  const firstChoice = memberOf.find((w) => w.id === currentWorkspaceId)?.id ?? memberOf[0]?.id ?? currentWorkspaceId ?? '';
  const [workspaceId, setWorkspaceId] = useState(firstChoice);
  const current = memberRoleIn(member, workspaceId);
  const [role, setRole] = useState<AssignableRole | null>((ASSIGNABLE_ROLES as readonly string[]).includes(current) ? (current as AssignableRole) : null);
  const isOwner = member.role === 'Owner';
  const disabled = blocked !== null || isOwner;
  const choices = workspaces.map((w) => ({ value: w.id, label: w.name }));

  return (
    <SettingsDialog open onClose={onClose} title={personName(member)} description={member.email}>
      <form
        noValidate
        aria-label="Member role"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!role) return;
          update.mutate(
            { id: member.id, role, workspaceId },
            {
              onSuccess: (answer) => {
                notice.success(answer.message);
                onClose();
              },
              onError: showError,
            },
          );
        }}
      >
        <BlockedNote message={blocked ?? (isOwner ? "The owner's role cannot be changed." : null)} />
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd className="mt-0.5">
              <StatusBadge label={member.statusLabel} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Joined</dt>
            <dd className="mt-0.5">{formatDate(member.joinedOn) || '—'}</dd>
          </div>
          <div className="col-span-2">
            <dt className="text-slate-500 dark:text-slate-400">Workspaces</dt>
            <dd className="mt-0.5">{member.entities.map((e) => `${e.name} (${e.userRole})`).join(', ') || '—'}</dd>
          </div>
        </dl>
        {choices.length > 1 && (
          <Select
            label="Workspace"
            name="workspaceId"
            options={choices}
            value={workspaceId}
            disabled={disabled}
            onChange={(id) => {
              setWorkspaceId(id);
              const r = memberRoleIn(member, id);
              setRole((ASSIGNABLE_ROLES as readonly string[]).includes(r) ? (r as AssignableRole) : null);
            }}
          />
        )}
        <Select label="Role" name="role" options={roleOptions} value={role} placeholder="Choose a role" disabled={disabled} onChange={setRole} />
        <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
          <Button variant="ghost" className="text-red-700 dark:text-red-400" disabled={disabled} onClick={onRemove}>
            Remove member
          </Button>
          <FormActions onCancel={onClose} submitLabel="Save role" pending={update.isPending} disabled={disabled} submitDisabled={role === null} align="start" />
        </div>
      </form>
    </SettingsDialog>
  );
}

function InviteDetailsDialog({
  invite,
  workspaces,
  blocked,
  onClose,
  onRevoke,
}: {
  invite: Invite;
  workspaces: readonly WorkspaceDetail[];
  blocked: string | null;
  onClose: () => void;
  onRevoke: () => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const update = useUpdateInvite();
  const editable = isOpenInvite(invite);
  const disabled = blocked !== null || !editable;
  const [role, setRole] = useState<AssignableRole>(
    (ASSIGNABLE_ROLES as readonly string[]).includes(invite.role) ? (invite.role as AssignableRole) : DEFAULT_INVITE_ROLE,
  );
  const [chosen, setChosen] = useState<string[]>(invite.workspaceIds);
  const save = (resend: boolean) =>
    update.mutate(
      { id: invite.id, role, workspaceIds: chosen, ...(resend ? { resend: true } : {}) },
      {
        onSuccess: (answer) => {
          notice.success(answer.message);
          onClose();
        },
        onError: showError,
      },
    );
  return (
    <SettingsDialog
      open
      onClose={onClose}
      title={invite.email}
      description={`Invited by ${invite.invitedByEmail || 'your team'} on ${formatDate(invite.createdOn)}`}
    >
      <div className="space-y-4">
        <BlockedNote message={blocked} />
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd className="mt-0.5">
              <StatusBadge label={inviteStatusText(invite)} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">{editable ? 'Link works until' : 'Name'}</dt>
            <dd className="mt-0.5">{editable ? formatDate(invite.expiryDate) : personName(invite)}</dd>
          </div>
        </dl>
        <Select label="Role" name="role" options={roleOptions} value={role} disabled={disabled} onChange={setRole} />
        {workspaces.length > 1 && <WorkspaceChoices workspaces={workspaces} chosen={chosen} onChange={setChosen} disabled={disabled} />}
        <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
          <Button variant="ghost" className="text-red-700 dark:text-red-400" disabled={disabled} onClick={onRevoke}>
            Revoke invite
          </Button>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" disabled={disabled} loading={update.isPending && update.variables?.resend === true} onClick={() => save(true)}>
              Resend
            </Button>
            <Button disabled={disabled || chosen.length === 0} loading={update.isPending && update.variables?.resend !== true} onClick={() => save(false)}>
              Save invite
            </Button>
          </div>
        </div>
      </div>
    </SettingsDialog>
  );
}

function RemoveMemberDialog({ member, onClose, onRemoved }: { member: Member | null; onClose: () => void; onRemoved: () => void }) {
  const remove = useRemoveMember();
  return (
    <ConfirmMutationDialog
      target={member}
      title={`Remove ${member ? personName(member) : 'member'}?`}
      description="They lose access to every workspace of this organization at once. You can invite them again later."
      confirmLabel="Remove member"
      mutation={remove}
      onDone={onRemoved}
      onClose={onClose}
    />
  );
}

function RevokeInviteDialog({ invite, onClose }: { invite: Invite | null; onClose: () => void }) {
  const revoke = useRevokeInvite();
  const [, setParams] = useSearchParams();
  // Spec §8: invite revoked shows the server's message.
  return (
    <ConfirmMutationDialog
      target={invite}
      title="Revoke this invite?"
      description={`The link sent to ${invite?.email ?? 'them'} stops working. You can send a new invite later.`}
      confirmLabel="Revoke invite"
      mutation={revoke}
      onDone={() => setParams((p) => searchWith(p, 'invite', null))}
      onClose={onClose}
    />
  );
}
