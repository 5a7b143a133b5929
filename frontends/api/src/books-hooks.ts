// react-query hooks for the books' tie to the bank (issue #12): GET /accounts with its tie-out, the transfer
// routes and an account's opening balance (the list by transfer status is useTransactionList's `transferStatus`).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { queryKeys } from './hooks';
import { ledgerQueryKeys } from './ledger-hooks';
import { afterBooksChanged } from './reports-hooks';
import type { Schemas } from './types';
import type { PairTransferBody, PairTransferResponse, TiedAccountsResponse, TransferCandidate, UnpairTransferResponse } from './books';

type OpeningBalanceResponse = Schemas['OpeningBalanceResponse'];
type OpeningBalanceChanged = Schemas['OpeningBalanceChanged'];
type OpeningBalanceBody = Schemas['OpeningBalanceBody'];

export const booksQueryKeys = {
  // Under the bank accounts' key: a link, removal or finished sync refreshes the tie-out too.
  tieOut: [...queryKeys.bankAccounts, 'tie-out'] as const,
  transferCandidates: (transactionId: string) => ['transactions', 'transfer-candidates', transactionId] as const,
  openingBalance: (categoryId: string) => ['categories', 'opening-balance', categoryId] as const,
};

/** How often the tie-out is asked again while an account is catching up with the bank. */
export const TIE_OUT_POLL_MS = 3_000;

/** GET /accounts with each account's tie-out and the workspace's; polled while any account is catching up. */
export function useAccountsTieOut(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<TiedAccountsResponse, ApiError>({
    queryKey: booksQueryKeys.tieOut,
    queryFn: ({ signal }) => client.get('/accounts', { signal }),
    refetchInterval: (query) =>
      query.state.data?.accounts.some((a) => a.tieOut?.status === 'catching_up') || query.state.data?.tieOut?.status === 'catching_up'
        ? TIE_OUT_POLL_MS
        : false,
    enabled: options.enabled ?? true,
  });
}

/** GET /transactions/transfer-candidates: the other sides a one-sided transfer may have. Null disables it. */
export function useTransferCandidates(transactionId: string | null) {
  const { client } = useApiContext();
  return useQuery<TransferCandidate[], ApiError>({
    queryKey: booksQueryKeys.transferCandidates(transactionId ?? ''),
    queryFn: async ({ signal }) => (await client.get('/transactions/transfer-candidates', { params: { query: { transactionId } }, signal })).data,
    enabled: transactionId !== null,
  });
}

/** Both sides of a transfer changed: every transaction query, the chart's balances, the reports and the tie-out. */
function afterTransferChanged(client: ApiClient, queryClient: QueryClient, seq: number | undefined): void {
  void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
  void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.categories });
  void queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts });
  void afterBooksChanged(client, queryClient, seq);
}

/** POST /transactions/pair-transfer. */
export function usePairTransfer() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<PairTransferResponse, ApiError, PairTransferBody>({
    mutationFn: (body) => client.post('/transactions/pair-transfer', { body }),
    onSuccess: (answer) => afterTransferChanged(client, queryClient, answer.seq),
  });
}

/** POST /transactions/unpair-transfer: both sides go back to uncategorised and can be edited again. */
export function useUnpairTransfer() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UnpairTransferResponse, ApiError, string>({
    mutationFn: (transactionId) => client.post('/transactions/unpair-transfer', { body: { transactionId } }),
    onSuccess: (answer) => afterTransferChanged(client, queryClient, answer.seq),
  });
}

/** GET /categories/{id}/opening-balance (null when the account has none). Null disables it. */
export function useOpeningBalance(categoryId: string | null) {
  const { client } = useApiContext();
  return useQuery<OpeningBalanceResponse, ApiError>({
    queryKey: booksQueryKeys.openingBalance(categoryId ?? ''),
    queryFn: ({ signal }) => client.get('/categories/{id}/opening-balance', { params: { path: { id: categoryId ?? '' } }, signal }),
    enabled: categoryId !== null,
    retry: false,
  });
}

/** PUT /categories/{id}/opening-balance: a reversal and a new entry when it changes; 0 removes it. */
export function useSetOpeningBalance() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<OpeningBalanceChanged, ApiError, { categoryId: string } & OpeningBalanceBody>({
    mutationFn: ({ categoryId, ...body }) => client.put('/categories/{id}/opening-balance', { params: { path: { id: categoryId } }, body }),
    onSuccess: (answer, { categoryId }) => {
      queryClient.setQueryData(booksQueryKeys.openingBalance(categoryId), { openingBalance: answer.openingBalance });
      void queryClient.invalidateQueries({ queryKey: ['categories'] });
      void queryClient.invalidateQueries({ queryKey: ['ledger'] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts });
      void afterBooksChanged(client, queryClient, answer.seq);
    },
  });
}
