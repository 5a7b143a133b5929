import { isRole, type Role } from '@ledgerline/platform';
import type { OnboardingProfile, User, Workspace } from '@ledgerline/proto/identity/v1/identity_pb';

/** proto → REST JSON. The response schemas in schemas.ts are the contract; fast-json-stringify enforces it. */

/** Spec §3: the role defaults to Viewer. */
function roleOf(value: string): Role {
  return isRole(value) ? value : 'Viewer';
}

export function workspaceJson(w: Workspace) {
  return { id: w.id, name: w.name, organizationId: w.organizationId, organizationName: w.organizationName, role: roleOf(w.role), isDefault: w.isDefault };
}

export function profileJson(p: OnboardingProfile) {
  return {
    maxTeamSize: p.maxTeamSize,
    companyName: p.companyName,
    role: p.role,
    phoneNumber: p.phoneNumber,
    city: p.city,
    country: p.country,
    heardAboutUs: p.heardAboutUs,
    firmName: p.firmName,
  };
}

/** A user; identity always sends one where the contract has one, so its absence is a 500. */
export function userJson(u: User | undefined) {
  if (!u) throw new Error('identity answered without a user');
  return {
    id: u.id,
    firstName: u.firstName,
    middleName: u.middleName,
    lastName: u.lastName,
    email: u.email,
    isVerified: u.isVerified,
    // Spec §3: business is the default user type.
    userType: u.userType === 'firm' ? 'firm' : 'business',
    role: roleOf(u.role),
    workspace: u.workspace ? workspaceJson(u.workspace) : null,
    supportHash: u.supportHash,
    isOnboarded: u.isOnboarded,
    workspaces: u.workspaces.map(workspaceJson),
    hasPassword: u.hasPassword,
    profile: u.profile ? profileJson(u.profile) : null,
  };
}
