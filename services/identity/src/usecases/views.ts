import type { Role } from '@ledgerline/platform';
import { supportHash } from '../domain/secrets.js';
import type { MembershipRow, ProfileJson, UserRow } from '../store/rows.js';

export interface WorkspaceView {
  id: string;
  name: string;
  organizationId: string;
  organizationName: string;
  role: Role;
  isDefault: boolean;
  /** The firm whose grant gives this access; '' for a membership. */
  firmId: string;
}

export interface UserView {
  id: string;
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  isVerified: boolean;
  userType: 'business' | 'firm';
  role: Role;
  workspace: WorkspaceView | null;
  supportHash: string;
  isOnboarded: boolean;
  workspaces: WorkspaceView[];
  hasPassword: boolean;
  profile: ProfileJson | null;
}

export function workspaceView(m: MembershipRow): WorkspaceView {
  return {
    id: m.workspace_id,
    name: m.name,
    organizationId: m.organization_id,
    organizationName: m.organization_name,
    role: m.role,
    isDefault: m.is_default,
    firmId: m.firm_id ?? '',
  };
}

/** The user as clients see them; `role` and `workspace` are those of the current (else default) workspace. */
export function userView(user: UserRow, memberships: MembershipRow[], secret: string, currentWorkspaceId?: string): UserView {
  const workspaces = memberships.map(workspaceView);
  const current = workspaces.find((w) => w.id === currentWorkspaceId) ?? workspaces[0] ?? null;
  return {
    id: user.id,
    firstName: user.first_name,
    middleName: user.middle_name,
    lastName: user.last_name,
    email: user.email,
    isVerified: user.is_verified,
    userType: user.user_type,
    // Spec §3: Viewer is the default role.
    role: current?.role ?? 'Viewer',
    workspace: current,
    supportHash: supportHash(secret, user.id),
    isOnboarded: user.is_onboarded,
    workspaces,
    hasPassword: user.password_hash !== null,
    profile: user.profile,
  };
}
