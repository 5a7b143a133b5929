// react-query hooks for workspaces, the organization, members and invites (teams.ts has the calls and types).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { queryKeys } from './hooks';
import {
  teamsApi,
  userAfterWorkspaceDeleted,
  type CreateWorkspaceBody,
  type CreateWorkspaceResponse,
  type DeleteWorkspaceResponse,
  type Invite,
  type Member,
  type MemberType,
  type Organization,
  type RevokeInviteResponse,
  type SendInviteBody,
  type SendInviteResponse,
  type TeamMessageResponse,
  type UpdateInviteBody,
  type UpdateInviteResponse,
  type UpdateMemberBody,
  type UpdateMemberResponse,
  type UpdateWorkspaceBody,
  type UpdateWorkspaceResponse,
  type WorkspaceDetail,
} from './teams';
import type { User } from './types';

export const teamsQueryKeys = {
  /** Every query of this area starts with it, so one invalidation reaches them all. */
  all: ['teams'] as const,
  workspaces: ['teams', 'workspaces'] as const,
  organization: ['teams', 'organization'] as const,
  members: (type: MemberType | '' = '') => ['teams', 'members', type] as const,
  membersAll: ['teams', 'members'] as const,
  invites: ['teams', 'invites'] as const,
};

/**
 * The signed-in user as the server has it now, handed to the shell's session (the workspace switcher and the
 * selection follow it) and to the cached GET /users/me.
 */
async function refreshUser(client: ApiClient, queryClient: QueryClient, onUserChange: (user: User) => void): Promise<void> {
  await queryClient.cancelQueries({ queryKey: queryKeys.me });
  const user = await client.getMe();
  queryClient.setQueryData(queryKeys.me, user);
  onUserChange(user);
}

/** GET /workspace: the current organization's workspaces the caller belongs to. */
export function useWorkspaces() {
  const { client } = useApiContext();
  return useQuery<WorkspaceDetail[], ApiError>({
    queryKey: teamsQueryKeys.workspaces,
    queryFn: async ({ signal }) => (await teamsApi.listWorkspaces(client, signal)).workspaces,
  });
}

/** GET /organization: the organization of the current workspace. */
export function useOrganization() {
  const { client } = useApiContext();
  return useQuery<Organization, ApiError>({
    queryKey: teamsQueryKeys.organization,
    queryFn: ({ signal }) => teamsApi.getOrganization(client, signal),
  });
}

/** POST /workspace (name). The new workspace joins the user's list, so the switcher shows it. */
export function useCreateWorkspace() {
  const { client, onUserChange } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<CreateWorkspaceResponse, ApiError, CreateWorkspaceBody>({
    mutationFn: (body) => teamsApi.createWorkspace(client, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamsQueryKeys.all });
      await refreshUser(client, queryClient, onUserChange).catch(() => undefined);
    },
  });
}

/** PATCH /workspace (the spec §3 fields; `id` names a workspace other than the current one). */
export function useUpdateWorkspace() {
  const { client, onUserChange } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UpdateWorkspaceResponse, ApiError, UpdateWorkspaceBody>({
    mutationFn: (body) => teamsApi.updateWorkspace(client, body),
    onSuccess: async (answer) => {
      queryClient.setQueryData<WorkspaceDetail[]>(teamsQueryKeys.workspaces, (list) => list?.map((w) => (w.id === answer.workspace.id ? answer.workspace : w)));
      await queryClient.invalidateQueries({ queryKey: teamsQueryKeys.all });
      // A new name or default shows in the switcher.
      await refreshUser(client, queryClient, onUserChange).catch(() => undefined);
    },
  });
}

/**
 * DELETE /workspace/{id}. The shell's selection follows spec §4: the session first gets the user without the
 * deleted workspace (so no further request names it), selecting the server's choice (the default, else the
 * first); then GET /users/me, asked in the newly selected workspace, replaces that user; every cached answer
 * is refetched, since it may belong to the deleted workspace.
 */
export function useDeleteWorkspace() {
  const { client, user, onUserChange } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<DeleteWorkspaceResponse, ApiError, string>({
    mutationFn: (id) => teamsApi.deleteWorkspace(client, id),
    onSuccess: async (answer, id) => {
      if (user) onUserChange(userAfterWorkspaceDeleted(user, id, answer.selectedWorkspaceId));
      queryClient.setQueryData<WorkspaceDetail[]>(teamsQueryKeys.workspaces, (list) => list?.filter((w) => w.id !== id));
      await refreshUser(client, queryClient, onUserChange).catch(() => undefined);
      await queryClient.invalidateQueries();
    },
  });
}

/** GET /members, filtered by member type (user or invite; empty for both). */
export function useMembers(type: MemberType | '' = '') {
  const { client } = useApiContext();
  return useQuery<Member[], ApiError>({
    queryKey: teamsQueryKeys.members(type),
    queryFn: async ({ signal }) => (await teamsApi.listMembers(client, type, signal)).members,
  });
}

/** GET /invites, newest first. */
export function useInvites() {
  const { client } = useApiContext();
  return useQuery<Invite[], ApiError>({
    queryKey: teamsQueryKeys.invites,
    queryFn: async ({ signal }) => (await teamsApi.listInvites(client, signal)).invites,
  });
}

/** Members, invites, the organization and the workspaces' member counts all change with the team. */
const teamChanged = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: teamsQueryKeys.all });

/** PATCH /members/{id} (role, workspaceId). */
export function useUpdateMember() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UpdateMemberResponse, ApiError, { id: string } & UpdateMemberBody>({
    mutationFn: ({ id, ...body }) => teamsApi.updateMember(client, id, body),
    onSuccess: () => teamChanged(queryClient),
  });
}

/** DELETE /members/{id}: the member loses every workspace of the organization. */
export function useRemoveMember() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<TeamMessageResponse, ApiError, string>({
    mutationFn: (id) => teamsApi.removeMember(client, id),
    onSuccess: () => teamChanged(queryClient),
  });
}

/** POST /send-invite (email, role default Viewer, workspaceIds, names); the answer's message is the notice. */
export function useSendInvite() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<SendInviteResponse, ApiError, SendInviteBody>({
    mutationFn: (body) => teamsApi.sendInvite(client, body),
    onSuccess: () => teamChanged(queryClient),
  });
}

/** POST /revoke-invite (id): the link stops working; the invite shows Inactive. */
export function useRevokeInvite() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<RevokeInviteResponse, ApiError, string>({
    mutationFn: (id) => teamsApi.revokeInvite(client, id),
    onSuccess: () => teamChanged(queryClient),
  });
}

/** PATCH /invites/{id} (role, workspaceIds, names; `resend` mails a new link). */
export function useUpdateInvite() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UpdateInviteResponse, ApiError, { id: string } & UpdateInviteBody>({
    mutationFn: ({ id, ...body }) => teamsApi.updateInvite(client, id, body),
    onSuccess: () => teamChanged(queryClient),
  });
}
