// The firm's rules and messages: pure, no I/O (spec documents-parties-integrations §3, §5, §6).
import { createHash, randomBytes } from 'node:crypto';
import { isUuid, type FieldError } from '@ledgerline/platform';

/** An invite's link works for 7 days, once. */
export const INVITE_TTL_MS = 7 * 86_400_000;

/** Roles in a firm. The owner is whoever created the firm; an invite gives admin or accountant. */
export type FirmRole = 'owner' | 'admin' | 'accountant';
export const INVITABLE_ROLES = ['admin', 'accountant'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const ACCESS_CHANGES = ['give-access', 'remove-access'] as const;
export type AccessChange = (typeof ACCESS_CHANGES)[number];

export const FIRM = {
  firmNameRequired: 'Firm name is required',
  countryRequired: 'Country is required',
  firmCreated: 'Firm created',
  firmUpdated: 'Firm updated',
  noFirm: 'You do not belong to an accounting firm',
  manageOnly: 'Only a firm owner or admin can manage the firm',
  emailRequired: 'Email field is required',
  emailInvalid: 'Please enter a valid email.',
  roleCannotBeOwner: 'Role cannot be Owner',
  roleInvalid: 'Role must be admin or accountant',
  roleRequired: 'Role is required',
  textTooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  invalidId: (field: string) => `${field} must be a UUID`,
  memberNotFound: 'Member not found',
  memberUpdated: 'Member updated',
  memberRemoved: 'Member removed',
  ownerFixed: 'The firm owner cannot be changed or removed',
  ownMembership: 'You cannot change or remove your own membership',
  accessTypeInvalid: 'type must be give-access or remove-access',
  organizationIdsRequired: 'At least one organization is required',
  accessForAccountants: 'Access is given or removed for accountants only (owners and admins open every organization)',
  accessUpdated: 'Access updated',
  inviteNotFound: 'Invite not found',
  inviteSent: 'Invite sent',
  inviteRevoked: 'Invite revoked',
  inviteNotPending: 'This invite is no longer pending',
  alreadyMember: 'This person already belongs to a firm',
  inviteTokenRequired: 'token is required',
  inviteInvalid: 'This invite link is invalid or has expired',
  inviteOtherEmail: 'This invite was sent to another email address',
  inviteAccepted: 'You have joined the firm',
  organizationNotFound: 'Organization not found',
  organizationAdded: 'Organization added',
  organizationAlreadyAdded: 'The firm already keeps this organization',
  organizationRemoved: 'Organization removed',
  defaultOrganizationSet: 'Default organization updated',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalizeEmail = (email: string | undefined): string => (email ?? '').trim().toLowerCase();

/** Owner and admin manage the firm (spec §6's admin check). */
export const canManage = (role: FirmRole): boolean => role === 'owner' || role === 'admin';

/** Management ranking: owner > admin > accountant. */
export const MANAGE_RANK: Record<FirmRole, number> = { owner: 3, admin: 2, accountant: 1 };

export function emailProblem(email: string | undefined, field = 'email'): FieldError | undefined {
  const v = normalizeEmail(email);
  if (v === '') return { field, message: FIRM.emailRequired };
  if (v.length > 254 || !EMAIL.test(v)) return { field, message: FIRM.emailInvalid };
  return undefined;
}

/** An invite or member-update role: admin or accountant; Owner in any spelling is refused with the spec's message. */
export function roleProblem(role: string | undefined, required: boolean, field = 'role'): FieldError | undefined {
  if (role === undefined || role === '') return required ? { field, message: FIRM.roleRequired } : undefined;
  if (role.toLowerCase() === 'owner') return { field, message: FIRM.roleCannotBeOwner };
  if (!(INVITABLE_ROLES as readonly string[]).includes(role.toLowerCase())) return { field, message: FIRM.roleInvalid };
  return undefined;
}

export function requiredText(value: string | undefined, field: string, message: string, max: number): FieldError | undefined {
  if (value === undefined || value.trim() === '') return { field, message };
  if (value.trim().length > max) return { field, message: FIRM.textTooLong(field, max) };
  return undefined;
}

export function optionalText(value: string | undefined, field: string, max: number): FieldError | undefined {
  return value !== undefined && value.trim().length > max ? { field, message: FIRM.textTooLong(field, max) } : undefined;
}

export function uuidProblem(value: string | undefined, field: string): FieldError | undefined {
  return value !== undefined && isUuid(value) ? undefined : { field, message: FIRM.invalidId(field) };
}

export function uuidListProblem(values: readonly string[], field: string, atLeastOne: boolean): FieldError | undefined {
  if (atLeastOne && values.length === 0) return { field, message: FIRM.organizationIdsRequired };
  const bad = values.findIndex((v) => !isUuid(v));
  return bad >= 0 ? { field: `${field}.${bad}`, message: FIRM.invalidId(field) } : undefined;
}

/** A single-use invite secret (sent by mail, never stored) and the SHA-256 hash that is stored. */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * The workspace role firm access gives in a client organization's workspaces (docs/decisions/0008): the
 * firm's owner and admins act as Admin, an accountant as Accountant.
 */
export const WORKSPACE_ROLE_OF: Record<FirmRole, 'Admin' | 'Accountant'> = { owner: 'Admin', admin: 'Admin', accountant: 'Accountant' };

/**
 * What a member may open: every organization of the firm for the owner and admins, those given for an
 * accountant, nothing for someone who is no longer a member. Kept organizations only, in the firm's order.
 */
export function effectiveAccess(
  role: FirmRole | undefined,
  firmOrganizationIds: readonly string[],
  grantedIds: readonly string[],
): { organizationId: string; role: 'Admin' | 'Accountant' }[] {
  if (!role) return [];
  const given = new Set(grantedIds);
  const open = canManage(role) ? firmOrganizationIds : firmOrganizationIds.filter((id) => given.has(id));
  return open.map((organizationId) => ({ organizationId, role: WORKSPACE_ROLE_OF[role] }));
}
