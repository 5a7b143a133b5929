import type { Role } from './types';

// Spec §6: the edit ranking Owner > Accountant > Admin > Viewer; a role may act at or above the rank required.
const EDIT_RANK: Readonly<Record<Role, number>> = { Owner: 4, Accountant: 3, Admin: 2, Viewer: 1 };

export const VIEWER_DISABLED_MESSAGE = 'Editing actions are disabled for your account';
export const DEMO_DISABLED_MESSAGE = 'You cannot use this feature in demo mode';

export function hasRoleAtLeast(role: Role, required: Role): boolean {
  return EDIT_RANK[role] >= EDIT_RANK[required];
}

/** The admin check is true for Owner and Admin only (the management ranking, spec §6). */
export function isAdminRole(role: Role): boolean {
  return role === 'Owner' || role === 'Admin';
}

export function canEdit(role: Role): boolean {
  return role !== 'Viewer';
}
