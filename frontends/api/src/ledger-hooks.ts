import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import {
  TRANSACTIONS_PAGE_SIZE,
  type AccrualResponse,
  type AccrualSchedule,
  type BillersResponse,
  type BulkUpdateTransactionsBody,
  type Category,
  type CategoryResponse,
  type CreateAccrualBody,
  type CreateCategoryBody,
  type FinalizeTransactionsBody,
  type FinalizeTransactionsResponse,
  type SplitTransactionBody,
  type Transaction,
  type TransactionAuditLogsResponse,
  type TransactionUpdatedResponse,
  type TransactionsPage,
  type TransactionsQuery,
  type TransactionsUpdatedResponse,
  type UpdateAccrualBody,
  type UpdateSplitBody,
} from './ledger';
import { afterBooksChanged } from './reports-hooks';

export const ledgerQueryKeys = {
  /** Every query about the chart starts with this (GET /categories, the chart tree): one invalidation reaches them all. */
  categories: ['categories'] as const,
  categoryList: ['categories', 'list'] as const,
  billers: ['billers'] as const,
  /** Every query about workspace transactions (lists, details, audit logs) starts with this. */
  transactions: ['transactions'] as const,
  transactionList: (query: TransactionsQuery) => ['transactions', 'list', query] as const,
  transaction: (id: string) => ['transactions', 'detail', id] as const,
  auditLogs: (id: string) => ['transactions', 'audit-logs', id] as const,
  accrualSchedule: (id: string) => ['transactions', 'accrual-schedule', id] as const,
};

/** GET /categories: every account of the chart, flat, with level, parent and balance. */
export function useCategories(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<Category[], ApiError>({
    queryKey: ledgerQueryKeys.categoryList,
    queryFn: async ({ signal }) => (await client.get('/categories', { signal })).categories,
    enabled: options.enabled ?? true,
  });
}

/** POST /categories; the chart is fetched again. */
export function useCreateCategory() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<CategoryResponse, ApiError, CreateCategoryBody>({
    mutationFn: (body) => client.post('/categories', { body }),
    onSuccess: (answer) => {
      // Offered at once in every dropdown; the refetch then brings balances.
      queryClient.setQueryData<Category[]>(ledgerQueryKeys.categoryList, (list) =>
        list ? [...list.filter((c) => c.id !== answer.category.id), answer.category] : list,
      );
      void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.categories });
      void afterBooksChanged(client, queryClient);
    },
  });
}

/** GET /billers. */
export function useBillers(options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<BillersResponse['billers'], ApiError>({
    queryKey: ledgerQueryKeys.billers,
    queryFn: async ({ signal }) => (await client.get('/billers', { signal })).billers,
    enabled: options.enabled ?? true,
  });
}

/**
 * GET /transactions/v2 page by page (spec §9: `data` + `meta`, 20 a page) for a query: the screen's filters as the
 * route takes them (the accounting remote's `transactionsQuery`), with `transferStatus` for transfers to review or
 * paired ones.
 */
export function useTransactionList(query: TransactionsQuery) {
  const { client } = useApiContext();
  return useInfiniteQuery<TransactionsPage, ApiError, InfiniteData<TransactionsPage, number>, ReturnType<typeof ledgerQueryKeys.transactionList>, number>({
    queryKey: ledgerQueryKeys.transactionList(query),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      client.get('/transactions/v2', { params: { query: { ...query, page: pageParam, take: TRANSACTIONS_PAGE_SIZE } }, signal }),
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
  });
}

/** GET /transactions/v2/{id}; null disables it. */
export function useTransaction(id: string | null) {
  const { client } = useApiContext();
  return useQuery<Transaction, ApiError>({
    queryKey: ledgerQueryKeys.transaction(id ?? ''),
    queryFn: ({ signal }) => client.get('/transactions/v2/{id}', { params: { path: { id: id ?? '' } }, signal }),
    enabled: id !== null,
  });
}

/** GET /transactions/audit-logs for one transaction, newest first. */
export function useTransactionAuditLogs(id: string | null) {
  const { client } = useApiContext();
  return useQuery<TransactionAuditLogsResponse, ApiError>({
    queryKey: ledgerQueryKeys.auditLogs(id ?? ''),
    queryFn: ({ signal }) => client.get('/transactions/audit-logs', { params: { query: { transactionId: id, take: 50 } }, signal }),
    enabled: id !== null,
  });
}

/**
 * After any change to transactions: the changed ones are shown at once (details), then every list, detail and
 * audit log is fetched again, the chart (balances moved) and the reports, which wait for the change's `seq`.
 */
function afterTransactionsChanged(client: ApiClient, queryClient: QueryClient, changed: readonly Transaction[], seq: number): void {
  for (const t of changed) queryClient.setQueryData(ledgerQueryKeys.transaction(t.id), t);
  void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
  void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.categories });
  void afterBooksChanged(client, queryClient, seq);
}

/** PATCH /transactions/{id} (categoryId). */
export function useCategoriseTransaction() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<TransactionUpdatedResponse, ApiError, { id: string; categoryId: string }>({
    mutationFn: ({ id, categoryId }) => client.patch('/transactions/{id}', { params: { path: { id } }, body: { categoryId } }),
    onSuccess: (answer) => afterTransactionsChanged(client, queryClient, [answer.transaction], answer.seq),
  });
}

/** PATCH /transactions: bulk update, all or none. */
export function useBulkUpdateTransactions() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<TransactionsUpdatedResponse, ApiError, BulkUpdateTransactionsBody>({
    mutationFn: (body) => client.patch('/transactions', { body }),
    onSuccess: (answer) => afterTransactionsChanged(client, queryClient, answer.transactions, answer.seq),
  });
}

/** POST /transactions/finalize: finalize (isTxnFinalized true) or un-finalize (false). */
export function useFinalizeTransactions() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<FinalizeTransactionsResponse, ApiError, FinalizeTransactionsBody>({
    mutationFn: (body) => client.post('/transactions/finalize', { body }),
    onSuccess: (answer) => afterTransactionsChanged(client, queryClient, answer.transactions, answer.seq),
  });
}

/** POST /transactions/split. */
export function useSplitTransaction() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<TransactionUpdatedResponse, ApiError, SplitTransactionBody>({
    mutationFn: (body) => client.post('/transactions/split', { body }),
    onSuccess: (answer) => afterTransactionsChanged(client, queryClient, [answer.transaction], answer.seq),
  });
}

/** POST /transactions/update-split: change, add and delete parts. */
export function useUpdateSplit() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<TransactionUpdatedResponse, ApiError, UpdateSplitBody>({
    mutationFn: (body) => client.post('/transactions/update-split', { body }),
    onSuccess: (answer) => afterTransactionsChanged(client, queryClient, [answer.transaction], answer.seq),
  });
}

/** GET /transactions/accrual-schedule of an accrued transaction; null disables it. */
export function useAccrualSchedule(transactionId: string | null) {
  const { client } = useApiContext();
  return useQuery<AccrualSchedule, ApiError>({
    queryKey: ledgerQueryKeys.accrualSchedule(transactionId ?? ''),
    queryFn: ({ signal }) => client.get('/transactions/accrual-schedule', { params: { query: { transactionId } }, signal }),
    enabled: transactionId !== null,
  });
}

function afterAccrualChanged(client: ApiClient, queryClient: QueryClient, answer: AccrualResponse): void {
  queryClient.setQueryData(ledgerQueryKeys.accrualSchedule(answer.transaction.id), answer.schedule);
  afterTransactionsChanged(client, queryClient, [answer.transaction], answer.seq);
}

/** POST /transactions/create-accrual: the answer carries the schedule (every month, already in the books). */
export function useCreateAccrual() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<AccrualResponse, ApiError, CreateAccrualBody>({
    mutationFn: (body) => client.post('/transactions/create-accrual', { body }),
    onSuccess: (answer) => afterAccrualChanged(client, queryClient, answer),
  });
}

/** PATCH /transactions/update-accrual. */
export function useUpdateAccrual() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<AccrualResponse, ApiError, UpdateAccrualBody>({
    mutationFn: (body) => client.patch('/transactions/update-accrual', { body }),
    onSuccess: (answer) => afterAccrualChanged(client, queryClient, answer),
  });
}

/** PATCH /transactions/stop-accrual/{id}: later months are recognised today. */
export function useStopAccrual() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<AccrualResponse, ApiError, string>({
    mutationFn: (transactionId) => client.patch('/transactions/stop-accrual/{id}', { params: { path: { id: transactionId } } }),
    onSuccess: (answer) => afterAccrualChanged(client, queryClient, answer),
  });
}

/** DELETE /transactions/accrual-schedule: every month reversed, the transaction booked to its category again. */
export function useDeleteAccrual() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<TransactionUpdatedResponse, ApiError, string>({
    mutationFn: (transactionId) => client.delete('/transactions/accrual-schedule', { params: { query: { transactionId } } }),
    onSuccess: (answer) => {
      queryClient.removeQueries({ queryKey: ledgerQueryKeys.accrualSchedule(answer.transaction.id) });
      afterTransactionsChanged(client, queryClient, [answer.transaction], answer.seq);
    },
  });
}
