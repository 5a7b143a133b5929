import { AppError, ErrorKind } from './errors.js';

/** Spec §6: the edit ranking Owner > Accountant > Admin > Viewer. */
export const ROLES = ['Owner', 'Accountant', 'Admin', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

const EDIT_RANK: Record<Role, number> = { Owner: 4, Accountant: 3, Admin: 2, Viewer: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** A role may act if its rank is at or above the rank required. */
export function hasRoleAtLeast(role: Role, required: Role): boolean {
  return EDIT_RANK[role] >= EDIT_RANK[required];
}

/** Spec §6: the admin check is true for Owner and Admin. */
export function isAdminRole(role: Role): boolean {
  return role === 'Owner' || role === 'Admin';
}

export const VIEWER_EDIT_MESSAGE = 'Editing actions are disabled for your account';

/**
 * Spec §6: a change of the books or the records needs the Admin rank or above; a Viewer gets 403 FORBIDDEN with
 * the spec's message. A call with no role is refused too, unless `callsWithoutRole: 'allow'`: the use cases other
 * services call on their own behalf (e.g. the documents service posting through the ledger) carry no member role.
 */
export function assertCanEdit(tenant: { role?: Role | null }, options: { callsWithoutRole?: 'refuse' | 'allow' } = {}): void {
  if (!tenant.role && options.callsWithoutRole === 'allow') return;
  if (!tenant.role || !hasRoleAtLeast(tenant.role, 'Admin')) throw new AppError(ErrorKind.PermissionDenied, VIEWER_EDIT_MESSAGE, { appErrorCode: 'FORBIDDEN' });
}
