// The team and firm screens' own rules: who may change what (and the words that say why not), the forms'
// checks, and how members and invites are shown. Pure, so they are unit-tested without a browser.
import { VIEWER_DISABLED_MESSAGE, canManageFirm, checkEmail, type Invite, type Member, type Role, type WorkspaceDetail } from '@ledgerline/api';

/** The gateway's answer to a non-admin's team change (spec §6: the admin check is true for Owner and Admin). */
export const TEAM_MANAGE_MESSAGE = 'Only an Owner or Admin can manage the team';
/** The firm service's answer to an accountant's firm change. */
export const FIRM_MANAGE_MESSAGE = 'Only a firm owner or admin can manage the firm';

/**
 * Why the signed-in user cannot manage workspaces, members or invites, or null when they can: a Viewer gets
 * the spec's 'Editing actions are disabled for your account'; an Accountant (edit rank, not admin) gets the
 * server's own message, so the screen says beforehand what the server would answer.
 */
export function teamEditBlock(role: Role | undefined): string | null {
  if (role === undefined || role === 'Viewer') return VIEWER_DISABLED_MESSAGE;
  if (role === 'Accountant') return TEAM_MANAGE_MESSAGE;
  return null;
}

/** Why a firm member cannot manage the firm (organizations, members, invites), or null when they can. */
export function firmEditBlock(firmRole: string | undefined): string | null {
  return canManageFirm(firmRole) ? null : FIRM_MANAGE_MESSAGE;
}

/** "First Middle Last", or the email when no name was given (an invite may come without one). */
export function personName(p: { firstName: string; middleName?: string; lastName: string; email: string }): string {
  const name = [p.firstName, p.middleName ?? '', p.lastName]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
  return name || p.email;
}

/** Firm roles as written in the API (owner, admin, accountant) shown capitalised. */
export const roleLabel = (role: string): string => (role ? role.charAt(0).toUpperCase() + role.slice(1) : role);

/** The invite's status as the spec shows it; an open invite past its date says so (its link no longer works). */
export function inviteStatusText(invite: Pick<Invite, 'statusLabel' | 'status' | 'isExpired'>): string {
  return invite.status === 'pending' && invite.isExpired ? 'Expired' : invite.statusLabel;
}

/** Only an open invite can be changed, resent or revoked. */
export const isOpenInvite = (invite: Pick<Invite, 'status'>): boolean => invite.status === 'pending';

/** A member's workspaces in this organization, by name, for one cell. */
export function memberWorkspaces(member: Pick<Member, 'entities'>): string {
  return member.entities.map((e) => e.name).join(', ');
}

/** The member's role in `workspaceId`, else their organization role. */
export function memberRoleIn(member: Pick<Member, 'entities' | 'role'>, workspaceId: string | undefined): string {
  return member.entities.find((e) => e.id === workspaceId)?.userRole ?? member.role;
}

// ── Forms ──────────────────────────────────────────────────────────────────────────────────────────────

export const WORKSPACE_NAME_REQUIRED = 'Workspace name is required';
export const ORGANIZATION_NAME_REQUIRED = 'Organization name is required';
export const FIRM_NAME_REQUIRED = 'Firm name is required';
export const COUNTRY_REQUIRED = 'Country is required';
export const TEAM_SIZE_INVALID = 'Team size must be a whole number from 1';
export const WORKSPACE_CHOICE_REQUIRED = 'Choose at least one workspace';

/** The spec §3 workspace fields as the edit form holds them (strings). */
export interface WorkspaceFormValues {
  name: string;
  address: string;
  email: string;
  bankName: string;
  accountNumber: string;
  bankAddress: string;
  accountType: string;
  maxTeamSize: string;
}

export function workspaceFormValues(w: WorkspaceDetail): WorkspaceFormValues {
  return {
    name: w.name,
    address: w.address,
    email: w.email,
    bankName: w.bankName,
    accountNumber: w.accountNumber,
    bankAddress: w.bankAddress,
    accountType: w.accountType,
    maxTeamSize: w.maxTeamSize > 0 ? String(w.maxTeamSize) : '',
  };
}

export function validateWorkspaceForm(v: WorkspaceFormValues): Partial<Record<keyof WorkspaceFormValues, string>> {
  const errors: Partial<Record<keyof WorkspaceFormValues, string>> = {};
  if (v.name.trim() === '') errors.name = WORKSPACE_NAME_REQUIRED;
  if (v.email.trim() !== '') {
    const email = checkEmail(v.email);
    if (email) errors.email = email;
  }
  if (v.maxTeamSize.trim() !== '' && !/^[1-9]\d{0,5}$/.test(v.maxTeamSize.trim())) errors.maxTeamSize = TEAM_SIZE_INVALID;
  return errors;
}

/**
 * PATCH /workspace's body: only the fields that changed (trimmed; the email lowercased, spec §5), with `id`
 * naming the workspace. Empty when nothing changed.
 */
export function workspaceChanges(before: WorkspaceDetail, v: WorkspaceFormValues): Record<string, string | number> {
  const now = { ...v, email: v.email.trim().toLowerCase() };
  const was = workspaceFormValues(before);
  const changes: Record<string, string | number> = {};
  for (const key of Object.keys(now) as (keyof WorkspaceFormValues)[]) {
    const value = now[key].trim();
    if (value === was[key].trim()) continue;
    if (key === 'maxTeamSize') {
      if (value !== '') changes.maxTeamSize = Number(value);
    } else changes[key] = value;
  }
  return changes;
}

export interface InviteFormValues {
  email: string;
  firstName: string;
  middleName: string;
  lastName: string;
}

export function validateInviteForm(v: InviteFormValues): Partial<Record<keyof InviteFormValues, string>> {
  const email = checkEmail(v.email);
  return email ? { email } : {};
}

/** Names and the email as POST /send-invite and POST /accounting-firm/invite take them (empty names left out). */
export function inviteNames(v: InviteFormValues): { email: string; firstName?: string; middleName?: string; lastName?: string } {
  const out: { email: string; firstName?: string; middleName?: string; lastName?: string } = { email: v.email.trim().toLowerCase() };
  for (const key of ['firstName', 'middleName', 'lastName'] as const) {
    const value = v[key].trim();
    if (value) out[key] = value;
  }
  return out;
}

export function validateFirmForm(v: { firmName: string; country: string }): Partial<Record<'firmName' | 'country', string>> {
  const errors: Partial<Record<'firmName' | 'country', string>> = {};
  if (v.firmName.trim() === '') errors.firmName = FIRM_NAME_REQUIRED;
  if (v.country.trim() === '') errors.country = COUNTRY_REQUIRED;
  return errors;
}

/** A firm member's organizations split for the access dialog: those to give and those to take away. */
export function accessChanges(current: readonly string[], chosen: readonly string[]): { give: string[]; remove: string[] } {
  return { give: chosen.filter((id) => !current.includes(id)), remove: current.filter((id) => !chosen.includes(id)) };
}
