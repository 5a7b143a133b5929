// react-query hooks for the firm's own management (firm-team.ts has the calls and types).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { queryKeys } from './hooks';
import {
  firmTeamApi,
  type AddFirmClientOrganizationResponse,
  type FirmAccessChange,
  type FirmClientOrganization,
  type FirmInviteBody,
  type FirmInviteResponse,
  type FirmInviteRole,
  type FirmMemberAccessResponse,
  type FirmMembersResponse,
  type FirmMessageResponse,
  type FirmProfile,
  type MakeDefaultFirmClientOrganizationResponse,
  type RevokeFirmInviteResponse,
  type UpdateFirmBody,
  type UpdateFirmResponse,
  type UpdateFirmMemberResponse,
} from './firm-team';

export const firmTeamQueryKeys = {
  all: ['firm-team'] as const,
  me: ['firm-team', 'me'] as const,
  members: ['firm-team', 'members'] as const,
  organizations: ['firm-team', 'organizations'] as const,
};

/**
 * GET /accounting-firm/me: the user, the firm's owner, the caller as a member and the firm. A user who belongs
 * to no firm gets a 404 ('You do not belong to an accounting firm'): the answer is then `null`, not an error.
 */
export function useFirmProfile(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<FirmProfile | null, ApiError>({
    queryKey: firmTeamQueryKeys.me,
    queryFn: async ({ signal }) => {
      try {
        return await firmTeamApi.me(client, signal);
      } catch (error) {
        if ((error as ApiError).statusCode === 404) return null;
        throw error;
      }
    },
    enabled: options.enabled ?? true,
    retry: false,
  });
}

/** PATCH /accounting-firm (firmName, country): creates the caller's firm, or changes it. */
export function useUpdateFirm() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UpdateFirmResponse, ApiError, UpdateFirmBody>({
    mutationFn: (body) => firmTeamApi.update(client, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firmTeamQueryKeys.all }),
  });
}

/** GET /accounting-firm/members: the members and (for owners and admins) the invites. */
export function useFirmMembers(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<FirmMembersResponse, ApiError>({
    queryKey: firmTeamQueryKeys.members,
    queryFn: ({ signal }) => firmTeamApi.members(client, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /accounting-firm/organizations: the client organizations the caller may open. */
export function useFirmClientOrganizations(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<FirmClientOrganization[], ApiError>({
    queryKey: firmTeamQueryKeys.organizations,
    queryFn: async ({ signal }) => (await firmTeamApi.organizations(client, signal)).organizations,
    enabled: options.enabled ?? true,
  });
}

/**
 * Organizations and access change what a member may open, and a new organization is a new workspace of the
 * caller's: the firm's lists and the signed-in user (the shell's switcher) are asked again.
 */
async function firmChanged(queryClient: QueryClient, options: { user?: boolean } = {}): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: firmTeamQueryKeys.all });
  // The shell's own firm queries (firm-hooks.ts) are keyed under 'accounting-firm'.
  await queryClient.invalidateQueries({ queryKey: ['accounting-firm'] });
  if (options.user) await queryClient.invalidateQueries({ queryKey: queryKeys.me });
}

/** POST /accounting-firm/add-organization with a name: a new client organization with its first workspace. */
export function useAddFirmClientOrganization() {
  const { client, onUserChange } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<AddFirmClientOrganizationResponse, ApiError, { name: string } | { organizationId: string }>({
    mutationFn: (body) => firmTeamApi.addOrganization(client, body),
    onSuccess: async () => {
      await firmChanged(queryClient);
      // The new organization's workspace is the caller's: the shell's switcher shows it.
      const user = await client.getMe().catch(() => null);
      if (user) {
        queryClient.setQueryData(queryKeys.me, user);
        onUserChange(user);
      }
    },
  });
}

/** DELETE /accounting-firm/organization/{id}: the firm stops keeping it; every member's access to it goes. */
export function useRemoveFirmClientOrganization() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<FirmMessageResponse, ApiError, string>({
    mutationFn: (id) => firmTeamApi.removeOrganization(client, id),
    onSuccess: () => firmChanged(queryClient),
  });
}

/** PATCH /accounting-firm/make-default-org/{id}: the caller's default organization. */
export function useMakeDefaultFirmClientOrganization() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<MakeDefaultFirmClientOrganizationResponse, ApiError, string>({
    mutationFn: (id) => firmTeamApi.makeDefaultOrganization(client, id),
    onSuccess: () => firmChanged(queryClient),
  });
}

/** POST /accounting-firm/invite (email, role admin or accountant, names, organizationIds). */
export function useInviteFirmMember() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<FirmInviteResponse, ApiError, FirmInviteBody>({
    mutationFn: (body) => firmTeamApi.invite(client, body),
    onSuccess: () => firmChanged(queryClient),
  });
}

/** DELETE /accounting-firm/invite/{id}: the link stops working; the invite shows Inactive. */
export function useRevokeFirmInvite() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<RevokeFirmInviteResponse, ApiError, string>({
    mutationFn: (id) => firmTeamApi.revokeInvite(client, id),
    onSuccess: () => firmChanged(queryClient),
  });
}

/** PATCH /accounting-firm/member/{id} (role admin or accountant). */
export function useUpdateFirmMember() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UpdateFirmMemberResponse, ApiError, { id: string; role: FirmInviteRole }>({
    mutationFn: ({ id, role }) => firmTeamApi.updateMember(client, id, role),
    onSuccess: () => firmChanged(queryClient),
  });
}

/** DELETE /accounting-firm/member/{id}: the member and all their access go; their next request is refused. */
export function useRemoveFirmMember() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<FirmMessageResponse, ApiError, string>({
    mutationFn: (id) => firmTeamApi.removeMember(client, id),
    onSuccess: () => firmChanged(queryClient),
  });
}

/** PATCH /accounting-firm/member-access/{id}: give-access or remove-access for at least one organization. */
export function useChangeFirmMemberAccess() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<FirmMemberAccessResponse, ApiError, { id: string; type: FirmAccessChange; organizationIds: string[] }>({
    mutationFn: ({ id, type, organizationIds }) => firmTeamApi.changeAccess(client, id, { type, organizationIds }),
    onSuccess: () => firmChanged(queryClient),
  });
}
