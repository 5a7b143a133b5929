import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import {
  firmApi,
  type AcceptFirmInviteResponse,
  type AddFirmOrganizationBody,
  type AddFirmOrganizationResponse,
  type FirmMeResponse,
  type FirmOrganizationsResponse,
  type VerifyInviteBody,
  type VerifyInviteResponse,
} from './firm';
import { queryKeys } from './hooks';

export const firmQueryKeys = {
  all: ['accounting-firm'] as const,
  me: ['accounting-firm', 'me'] as const,
  organizations: ['accounting-firm', 'organizations'] as const,
};

/** GET /accounting-firm/me: the caller's firm, its owner and the caller's own membership (404 when not in a firm). */
export function useFirmMe(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<FirmMeResponse, ApiError>({
    queryKey: firmQueryKeys.me,
    queryFn: ({ signal }) => firmApi.me(client, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /accounting-firm/organizations: the client organizations the caller may open. */
export function useFirmOrganizations(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<FirmOrganizationsResponse, ApiError>({
    queryKey: firmQueryKeys.organizations,
    queryFn: ({ signal }) => firmApi.organizations(client, signal),
    enabled: options.enabled ?? true,
  });
}

/**
 * POST /accounting-firm/add-organization. The new organization comes with its first workspace, of which the caller
 * is the Owner: the firm's list and the user's workspaces (GET /users/me) are both fetched again.
 */
export function useAddFirmOrganization() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<AddFirmOrganizationResponse, ApiError, AddFirmOrganizationBody>({
    mutationFn: (body) => firmApi.addOrganization(client, body),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: firmQueryKeys.all }), queryClient.invalidateQueries({ queryKey: queryKeys.me })]);
    },
  });
}

/** POST /accounting-firm/accept-invite/ for a signed-in user; the firm, its organizations and the user change. */
export function useAcceptFirmInvite() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<AcceptFirmInviteResponse, ApiError, string>({
    mutationFn: (token) => firmApi.acceptInvite(client, token),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: firmQueryKeys.all }), queryClient.invalidateQueries({ queryKey: queryKeys.me })]);
    },
  });
}

/** POST /verify-invite: ask about an invite link, or set the password that accepts it. */
export function useVerifyInvite() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<VerifyInviteResponse, ApiError, VerifyInviteBody>({
    mutationFn: (body) => firmApi.verifyInvite(client, body),
    onSuccess: async (answer) => {
      if (answer.status === 'accepted') await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
