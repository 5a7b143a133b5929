import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type { UpdateMeBody, UpdatePasswordBody, UpdatePasswordResponse, User } from './types';

export const queryKeys = {
  me: ['users', 'me'] as const,
};

export function useMe(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<User, ApiError>({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => client.getMe(signal),
    enabled: options.enabled ?? true,
  });
}

export function useUpdateMe() {
  const { client, onUserChange } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<User, ApiError, UpdateMeBody>({
    mutationFn: (body) => client.updateMe(body),
    onSuccess: async (user) => {
      // An older GET /users/me still in flight must not put the previous name back.
      await queryClient.cancelQueries({ queryKey: queryKeys.me });
      queryClient.setQueryData(queryKeys.me, user);
      onUserChange(user);
    },
  });
}

export function useUpdatePasswordByExistingPassword() {
  const { client } = useApiContext();
  return useMutation<UpdatePasswordResponse, ApiError, UpdatePasswordBody>({
    mutationFn: (body) => client.updatePasswordByExistingPassword(body),
  });
}
