// The accounting firm's own management (spec documents-parties-integrations §3 Firm, Team member, Invite,
// Organization; §6; §7 "Firm"): the firm, its client organizations, its members, invites and access, as the
// settings remote's firm tabs use them. One typed call per route; the hooks are in firm-team-hooks.ts.
// (firm.ts, the shell's, covers selecting an organization and accepting invites.)
import type { ApiClient } from './client';
import type { operations } from './gen/schema';
import type { OperationResult, Schemas } from './types';

type JsonBody<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? NonNullable<B> : never;

// Named apart from firm.ts's `Firm` / `FirmMember` (the same shapes), so both modules' types can be re-exported.
export type AccountingFirm = Schemas['Firm'];
export type FirmTeamMember = Schemas['FirmMember'];
export type FirmTeamInvite = Schemas['FirmInvite'];
export type FirmClientOrganization = Schemas['FirmOrganization'];

export type FirmProfile = OperationResult<'getAccountingFirmMe'>;
export type UpdateFirmBody = JsonBody<'updateAccountingFirm'>;
export type UpdateFirmResponse = OperationResult<'updateAccountingFirm'>;
export type FirmMembersResponse = OperationResult<'listAccountingFirmMembers'>;
export type FirmClientOrganizationsResponse = OperationResult<'listAccountingFirmOrganizations'>;
export type FirmInviteBody = JsonBody<'sendAccountingFirmInvite'>;
export type FirmInviteResponse = OperationResult<'sendAccountingFirmInvite'>;
export type RevokeFirmInviteResponse = OperationResult<'revokeAccountingFirmInvite'>;
export type UpdateFirmMemberResponse = OperationResult<'updateAccountingFirmMember'>;
export type FirmMemberAccessBody = JsonBody<'changeAccountingFirmMemberAccess'>;
export type FirmMemberAccessResponse = OperationResult<'changeAccountingFirmMemberAccess'>;
export type AddFirmClientOrganizationResponse = OperationResult<'addAccountingFirmOrganization'>;
export type MakeDefaultFirmClientOrganizationResponse = OperationResult<'makeDefaultAccountingFirmOrganization'>;
export type FirmMessageResponse = OperationResult<'removeAccountingFirmMember'>;

/** Spec §6: an accountant invite (and a member's role change) takes admin or accountant. */
export const FIRM_INVITE_ROLES = ['admin', 'accountant'] as const;
export type FirmInviteRole = (typeof FIRM_INVITE_ROLES)[number];
/** Spec §6: give-access or remove-access, with at least one organization id. */
export const FIRM_ACCESS_CHANGES = ['give-access', 'remove-access'] as const;
export type FirmAccessChange = (typeof FIRM_ACCESS_CHANGES)[number];

/** The firm's management (organizations, members, invites) is for its owner and admins (the §6 admin check). */
export const canManageFirm = (role: string | undefined): boolean => role === 'owner' || role === 'admin';

export const firmTeamApi = {
  me: (client: ApiClient, signal?: AbortSignal) => client.get('/accounting-firm/me', { signal }),
  update: (client: ApiClient, body: UpdateFirmBody) => client.patch('/accounting-firm', { body }),
  members: (client: ApiClient, signal?: AbortSignal) => client.get('/accounting-firm/members', { signal }),
  organizations: (client: ApiClient, signal?: AbortSignal) => client.get('/accounting-firm/organizations', { signal }),
  addOrganization: (client: ApiClient, body: { name: string } | { organizationId: string }) => client.post('/accounting-firm/add-organization', { body }),
  removeOrganization: (client: ApiClient, organizationId: string) =>
    client.delete('/accounting-firm/organization/{id}', { params: { path: { id: organizationId } } }),
  makeDefaultOrganization: (client: ApiClient, organizationId: string) =>
    client.patch('/accounting-firm/make-default-org/{id}', { params: { path: { id: organizationId } } }),
  invite: (client: ApiClient, body: FirmInviteBody) => client.post('/accounting-firm/invite', { body }),
  revokeInvite: (client: ApiClient, inviteId: string) => client.delete('/accounting-firm/invite/{id}', { params: { path: { id: inviteId } } }),
  updateMember: (client: ApiClient, memberId: string, role: FirmInviteRole) =>
    client.patch('/accounting-firm/member/{id}', { params: { path: { id: memberId } }, body: { role } }),
  removeMember: (client: ApiClient, memberId: string) => client.delete('/accounting-firm/member/{id}', { params: { path: { id: memberId } } }),
  changeAccess: (client: ApiClient, memberId: string, body: { type: FirmAccessChange; organizationIds: string[] }) =>
    client.patch('/accounting-firm/member-access/{id}', { params: { path: { id: memberId } }, body }),
};
