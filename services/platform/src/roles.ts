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
