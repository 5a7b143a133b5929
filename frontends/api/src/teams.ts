// Workspaces, the organization, members and invites (spec platform-core §3, §6, §7 "Workspace and organization",
// "Invites"): the payload names of the generated OpenAPI shapes and one typed call per route. The hooks are in
// teams-hooks.ts; the screens' own rules live in the settings remote.
import type { ApiClient } from './client';
import type { operations } from './gen/schema';
import type { OperationResult, Schemas, User, Workspace } from './types';

type JsonBody<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? NonNullable<B> : never;

export type WorkspaceDetail = Schemas['WorkspaceDetail'];
export type Organization = Schemas['Organization'];
export type Member = Schemas['Member'];
export type Invite = Schemas['Invite'];
/** Spec §3: user (has access) or invite (an open invite). */
export type MemberType = Member['type'];
export type InviteStatus = Invite['status'];

export type WorkspacesResponse = OperationResult<'listWorkspaces'>;
export type CreateWorkspaceBody = JsonBody<'createWorkspace'>;
export type CreateWorkspaceResponse = OperationResult<'createWorkspace'>;
export type UpdateWorkspaceBody = JsonBody<'updateWorkspace'>;
export type UpdateWorkspaceResponse = OperationResult<'updateWorkspace'>;
export type DeleteWorkspaceResponse = OperationResult<'deleteWorkspace'>;
export type MembersResponse = OperationResult<'listMembers'>;
export type UpdateMemberBody = JsonBody<'updateMember'>;
export type UpdateMemberResponse = OperationResult<'updateMember'>;
export type InvitesResponse = OperationResult<'listInvites'>;
export type SendInviteBody = JsonBody<'sendInvite'>;
export type SendInviteResponse = OperationResult<'sendInvite'>;
export type RevokeInviteResponse = OperationResult<'revokeInvite'>;
export type UpdateInviteBody = JsonBody<'updateInvite'>;
export type UpdateInviteResponse = OperationResult<'updateInvite'>;
export type TeamMessageResponse = OperationResult<'removeMember'>;

/** Spec §4: invite (and connection) status as shown: Active (verified), Pending, Inactive (revoked). */
export const INVITE_STATUS_LABELS: Readonly<Record<InviteStatus, 'Active' | 'Pending' | 'Inactive'>> = {
  verified: 'Active',
  pending: 'Pending',
  revoked: 'Inactive',
};

/** Roles an invite or a member update may give (spec §5, §6: Owner cannot be assigned; default Viewer). */
export const ASSIGNABLE_ROLES = ['Accountant', 'Admin', 'Viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
export const DEFAULT_INVITE_ROLE: AssignableRole = 'Viewer';

/**
 * The signed-in user after `deletedId` was deleted, to hand to the shell's session before anything else is
 * asked: the deleted workspace is gone from `workspaces`, and `workspace` is the one to select next — the one
 * the server named, else the default, else the first remaining (spec §4). The shell keeps its selection while
 * it is still a member and otherwise falls back to `workspace`; the GET /users/me that follows replaces this user.
 */
export function userAfterWorkspaceDeleted(user: User, deletedId: string, serverChoice?: string): User {
  const workspaces = user.workspaces.filter((w) => w.id !== deletedId);
  const next: Workspace | null = workspaces.find((w) => w.id === serverChoice) ?? workspaces.find((w) => w.isDefault) ?? workspaces[0] ?? null;
  const role = user.workspace?.id === deletedId ? (next?.role ?? user.role) : user.role;
  return { ...user, workspaces, workspace: next, role };
}

export const teamsApi = {
  listWorkspaces: (client: ApiClient, signal?: AbortSignal) => client.get('/workspace', { signal }),
  createWorkspace: (client: ApiClient, body: CreateWorkspaceBody) => client.post('/workspace', { body }),
  updateWorkspace: (client: ApiClient, body: UpdateWorkspaceBody) => client.patch('/workspace', { body }),
  deleteWorkspace: (client: ApiClient, id: string) => client.delete('/workspace/{id}', { params: { path: { id } } }),
  getOrganization: (client: ApiClient, signal?: AbortSignal) => client.get('/organization', { signal }),
  listMembers: (client: ApiClient, type: MemberType | '' = '', signal?: AbortSignal) => client.get('/members', { params: { query: { type } }, signal }),
  updateMember: (client: ApiClient, id: string, body: UpdateMemberBody) => client.patch('/members/{id}', { params: { path: { id } }, body }),
  removeMember: (client: ApiClient, id: string) => client.delete('/members/{id}', { params: { path: { id } } }),
  listInvites: (client: ApiClient, signal?: AbortSignal) => client.get('/invites', { signal }),
  sendInvite: (client: ApiClient, body: SendInviteBody) => client.post('/send-invite', { body }),
  revokeInvite: (client: ApiClient, id: string) => client.post('/revoke-invite', { body: { id } }),
  updateInvite: (client: ApiClient, id: string, body: UpdateInviteBody) => client.patch('/invites/{id}', { params: { path: { id } }, body }),
};
