import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { IN_PROGRESS_JOB_STATUSES, JOB_POLL_INTERVAL_MS, importState, isJobInProgress } from './banking';
import type { JobsFilter } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type {
  BankAccount,
  Job,
  LinkAccountsBody,
  LinkAccountsResponse,
  LinkTokenResponse,
  RemoveAccountResponse,
  SyncResponse,
  UpdateMeBody,
  UpdatePasswordBody,
  UpdatePasswordResponse,
  SecuritySettings,
  UpdateSecuritySettingsBody,
  User,
} from './types';

export const queryKeys = {
  me: ['users', 'me'] as const,
  security: ['users', 'me', 'security'] as const,
  bankAccounts: ['bank-accounts'] as const,
  /** Every GET /jobs query starts with this, so one invalidation reaches them all. */
  jobs: ['jobs'] as const,
  jobsOf: (filter: JobsFilter) => ['jobs', filter.accountId ?? null, filter.status?.join(',') ?? null] as const,
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

/** GET /users/me/security: whether every sign-in asks for the emailed code. */
export function useSecuritySettings() {
  const { client } = useApiContext();
  return useQuery<SecuritySettings, ApiError>({
    queryKey: queryKeys.security,
    queryFn: ({ signal }) => client.get('/users/me/security', { signal }),
  });
}

export function useUpdateSecuritySettings() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<SecuritySettings, ApiError, UpdateSecuritySettingsBody>({
    mutationFn: (body) => client.patch('/users/me/security', { body }),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.security, settings),
  });
}

// ── Banking ──────────────────────────────────────────────────────────────────────────────────────────

/** GET /accounts: the workspace's linked accounts. */
export function useBankAccounts(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<BankAccount[], ApiError>({
    queryKey: queryKeys.bankAccounts,
    queryFn: async ({ signal }) => (await client.listAccounts(signal)).accounts,
    enabled: options.enabled ?? true,
  });
}

/** Accounts and jobs change together: after a link, a removal, a sync request or a finished sync. */
function refreshBanking(queryClient: QueryClient): Promise<void> {
  return Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts }), queryClient.invalidateQueries({ queryKey: queryKeys.jobs })]).then(
    () => undefined,
  );
}

const IN_PROGRESS_FILTER: JobsFilter = { status: IN_PROGRESS_JOB_STATUSES };

/**
 * The workspace's bank sync jobs in progress (spec §4: waiting or active), polled while any remains and no
 * longer once none does. When the last one finishes the accounts are fetched again (balances, last synced).
 * Any banking mutation invalidates this query, which starts the polling again.
 */
export function useSyncJobsInProgress(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  const queryKey = queryKeys.jobsOf(IN_PROGRESS_FILTER);
  return useQuery<Job[], ApiError>({
    queryKey,
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<Job[]>(queryKey);
      const jobs = (await client.listJobs(IN_PROGRESS_FILTER, signal)).jobs.filter(isJobInProgress);
      if (before !== undefined && before.length > 0 && jobs.length === 0) void queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts });
      return jobs;
    },
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? JOB_POLL_INTERVAL_MS : false),
    enabled: options.enabled ?? true,
  });
}

/**
 * The jobs of one account (every status), polled while the import that `startedJobIds` began is not over
 * (see importState). Null disables it.
 */
export function useImportJobs(accountId: string | null, startedJobIds: readonly string[]) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  const filter: JobsFilter = accountId === null ? {} : { accountId };
  return useQuery<Job[], ApiError>({
    queryKey: queryKeys.jobsOf(filter),
    queryFn: async ({ signal }) => {
      const jobs = (await client.listJobs(filter, signal)).jobs;
      if (importState(jobs, startedJobIds) !== 'importing') void queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts });
      return jobs;
    },
    enabled: accountId !== null,
    refetchInterval: (query) => (query.state.data === undefined || importState(query.state.data, startedJobIds) === 'importing' ? JOB_POLL_INTERVAL_MS : false),
  });
}

/** POST /plaid/link-token. */
export function useCreateLinkToken() {
  const { client } = useApiContext();
  return useMutation<LinkTokenResponse, ApiError, void>({ mutationFn: () => client.createLinkToken() });
}

/** POST /plaid/update-token: a Link token in update mode, to reconnect the account's bank login. */
export function useCreateUpdateToken() {
  const { client } = useApiContext();
  return useMutation<LinkTokenResponse, ApiError, string>({ mutationFn: (accountId) => client.createUpdateToken(accountId) });
}

/** POST /accounts with what Link returned. */
export function useLinkAccounts() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<LinkAccountsResponse, ApiError, LinkAccountsBody>({
    mutationFn: (body) => client.linkAccounts(body),
    onSuccess: (answer) => {
      if (answer.accounts.length === 0) return;
      // Shown at once; the refetch then brings the server's full list.
      queryClient.setQueryData<BankAccount[]>(queryKeys.bankAccounts, (accounts) => {
        const linked = new Set(answer.accounts.map((a) => a.id));
        return [...(accounts ?? []).filter((a) => !linked.has(a.id)), ...answer.accounts];
      });
      void refreshBanking(queryClient);
    },
  });
}

/** DELETE /accounts/{id}. */
export function useRemoveAccount() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<RemoveAccountResponse, ApiError, string>({
    mutationFn: (id) => client.removeAccount(id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<BankAccount[]>(queryKeys.bankAccounts, (accounts) => accounts?.filter((a) => a.id !== id));
      void refreshBanking(queryClient);
    },
  });
}

/** POST /transactions/sync: the account's bank feed, now, as a job. */
export function useSyncTransactions() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<SyncResponse, ApiError, string>({
    mutationFn: (accountId) => client.syncTransactions(accountId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.jobs }),
  });
}
