import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  LEDGER_PAGE_SIZE,
  type AccountTreeNode,
  type ChartOfAccountsResponse,
  type DeleteCategoriesResponse,
  type GeneralLedgerAccount,
  type LedgerTransactionsResponse,
  type MoveCategoryBody,
  type UpdateCategoryBody,
} from './accounting';
import type { ApiClient } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { afterBooksChanged } from './reports-hooks';
import type { Schemas } from './types';

type CategoryResponse = Schemas['CategoryResponse'];
type CreateCategoryBody = Schemas['CreateCategoryBody'];

/** How often an empty chart is fetched again while the workspace's default chart is being seeded. */
const CHART_SEED_POLL_MS = 2_000;

export const accountingQueryKeys = {
  // Under 'categories' with every other chart query (the transactions screens' category lists), so a change
  // made from either screen refreshes both.
  chart: ['categories', 'chart'] as const,
  chartAsOf: (endDate: string | null) => ['categories', 'chart', endDate] as const,
  /** Every general-ledger query starts with this. */
  ledger: ['ledger'] as const,
  generalLedger: (startDate: string, endDate: string) => ['ledger', 'general', startDate, endDate] as const,
  ledgerLines: (ledgerAccountId: string, startDate: string, endDate: string) => ['ledger', 'lines', ledgerAccountId, startDate, endDate] as const,
};

/** GET /categories/chart-of-accounts: the tree with balances (as of `endDate`, else today), and the accounts that may hold others. */
export function useChartOfAccounts(endDate: string | null = null) {
  const { client } = useApiContext();
  return useQuery<ChartOfAccountsResponse, ApiError>({
    queryKey: accountingQueryKeys.chartAsOf(endDate),
    queryFn: ({ signal }) => client.get('/categories/chart-of-accounts', { params: { query: { endDate } }, signal }),
    // A new workspace's chart is seeded from an event a moment after sign-up: look again until it is there.
    refetchInterval: (query) => (query.state.data?.chartOfAccounts.length === 0 ? CHART_SEED_POLL_MS : false),
  });
}

/** A chart change alters names and places in the ledger views and the reports too. */
function refreshChart(client: ApiClient, queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['categories'] }),
    queryClient.invalidateQueries({ queryKey: accountingQueryKeys.ledger }),
    afterBooksChanged(client, queryClient),
  ]).then(() => undefined);
}

/** POST /categories (name, coaId, parentId). */
export function useAddChartAccount() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<CategoryResponse, ApiError, CreateCategoryBody>({
    mutationFn: (body) => client.post('/categories', { body }),
    onSuccess: () => refreshChart(client, queryClient),
  });
}

/** PATCH /categories/update (id with name, coaId, group, tag). */
export function useUpdateChartAccount() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<CategoryResponse, ApiError, UpdateCategoryBody>({
    mutationFn: (body) => client.patch('/categories/update', { body }),
    onSuccess: () => refreshChart(client, queryClient),
  });
}

/** PATCH /categories/move (categoryId under parentId). */
export function useMoveChartAccount() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<CategoryResponse, ApiError, MoveCategoryBody>({
    mutationFn: (body) => client.patch('/categories/move', { body }),
    onSuccess: () => refreshChart(client, queryClient),
  });
}

/** DELETE /categories/delete (categoryIds); refused by the server for an account with lines. */
export function useDeleteChartAccounts() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<DeleteCategoriesResponse, ApiError, string[]>({
    mutationFn: (categoryIds) => client.delete('/categories/delete', { body: { categoryIds } }),
    onSuccess: (_answer, ids) => {
      queryClient.setQueriesData<ChartOfAccountsResponse>({ queryKey: accountingQueryKeys.chart }, (chart) =>
        chart ? { ...chart, chartOfAccounts: withoutNodes(chart.chartOfAccounts, new Set(ids)) } : chart,
      );
      return refreshChart(client, queryClient);
    },
  });
}

function withoutNodes(nodes: AccountTreeNode[], ids: ReadonlySet<string>): AccountTreeNode[] {
  return nodes.filter((n) => !ids.has(n.id)).map((n) => ({ ...n, children: withoutNodes(n.children, ids) }));
}

/** GET /ledger/get-general-ledger: every account's opening, debits, credits and closing for the period. */
export function useGeneralLedger(startDate: string, endDate: string) {
  const { client } = useApiContext();
  return useQuery<GeneralLedgerAccount[], ApiError>({
    queryKey: accountingQueryKeys.generalLedger(startDate, endDate),
    queryFn: async ({ signal }) => (await client.get('/ledger/get-general-ledger', { params: { query: { startDate, endDate } }, signal })).data,
  });
}

/** GET /ledger/get-ledger-transactions page by page (page 1 starts with the opening-balance row). Null disables it. */
export function useLedgerLines(ledgerAccountId: string | null, startDate: string, endDate: string) {
  const { client } = useApiContext();
  return useInfiniteQuery<LedgerTransactionsResponse, ApiError>({
    queryKey: accountingQueryKeys.ledgerLines(ledgerAccountId ?? '', startDate, endDate),
    queryFn: ({ pageParam, signal }) =>
      client.get('/ledger/get-ledger-transactions', {
        params: { query: { ledgerAccountId, startDate, endDate, page: pageParam as number, take: LEDGER_PAGE_SIZE } },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
    enabled: ledgerAccountId !== null,
  });
}
