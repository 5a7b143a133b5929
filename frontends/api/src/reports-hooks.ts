import { keepPreviousData, useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ApiClient, Download } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type { Schemas } from './types';
import {
  REPORT_PATHS,
  reportExportPath,
  type AssetBalanceGraphResponse,
  type BalanceSheetResponse,
  type CashFlowResponse,
  type CashFlowStatementResponse,
  type ExportFormat,
  type ProfitLossResponse,
  type ReportQuery,
  type ReportTab,
  type RunwayResponse,
  type SpendingQuery,
  type SpendingResponse,
  type TopMerchantsQuery,
  type TopMerchantsResponse,
} from './reports';
import { withSeq } from './seq';

export const reportsQueryKeys = {
  /** Every report query starts with this. */
  all: ['reports'] as const,
  profitLoss: (query: ReportQuery) => ['reports', 'profit-loss', query] as const,
  balanceSheet: (query: ReportQuery) => ['reports', 'balance-sheet', query] as const,
  cashFlowStatement: (query: ReportQuery) => ['reports', 'cash-flow-statement', query] as const,
  cashFlow: (query: ReportQuery) => ['reports', 'cash-flow', query] as const,
  assetBalanceGraph: (query: ReportQuery) => ['reports', 'asset-balance-graph', query] as const,
  runway: ['reports', 'runway'] as const,
  spending: (query: SpendingQuery) => ['reports', 'spending', query] as const,
  topMerchants: (query: TopMerchantsQuery) => ['reports', 'top-merchant', query] as const,
  // Under 'categories' with the chart's other queries: a chart change refreshes the choices.
  groupsAndTags: ['categories', 'groups-and-tags'] as const,
};

/**
 * GET a report with the workspace's latest `seq` (the highest a change answered): the server waits until the report
 * reflects it, so a report fetched right after a change shows it.
 */
export function fetchReport<T>(client: ApiClient, path: string, query: ReportQuery | Record<string, never>, signal?: AbortSignal): Promise<T> {
  return client.request<T>('GET', path, { query: withSeq(query, client.ledgerSeq.current()), ...(signal ? { signal } : {}) });
}

/**
 * After a change to the books (or the chart): remember the seq it answered, then fetch every report again; each
 * carries the seq, so none shows the books from before the change.
 */
export function afterBooksChanged(client: ApiClient, queryClient: QueryClient, seq?: number): Promise<void> {
  client.ledgerSeq.remember(seq);
  return queryClient.invalidateQueries({ queryKey: reportsQueryKeys.all });
}

// A changed filter keeps the last report on screen (dimmed by the caller) instead of flashing a spinner.
const report = { placeholderData: keepPreviousData } as const;

/** GET /financial-data/profit-loss/v3: income and expenses by account tree per column, Net Income and the bar chart. */
export function useProfitLoss(query: ReportQuery, options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<ProfitLossResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.profitLoss(query),
    queryFn: ({ signal }) => fetchReport<ProfitLossResponse>(client, REPORT_PATHS.profitLoss, query, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /financial-data/balance-sheet/v2: balances as of each column's end, Assets = Liabilities + Equity. */
export function useBalanceSheet(query: ReportQuery, options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<BalanceSheetResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.balanceSheet(query),
    queryFn: ({ signal }) => fetchReport<BalanceSheetResponse>(client, REPORT_PATHS.balanceSheet, query, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /financial-data/cash-flow-statement: operating, investing and financing activities per column, reconciled to the change in cash. */
export function useCashFlowStatement(query: ReportQuery, options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<CashFlowStatementResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.cashFlowStatement(query),
    queryFn: ({ signal }) => fetchReport<CashFlowStatementResponse>(client, REPORT_PATHS.cashFlowStatement, query, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /financial-data/cash-flow: cash in, out, net and the closing balance per column. */
export function useCashFlow(query: ReportQuery) {
  const { client } = useApiContext();
  return useQuery<CashFlowResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.cashFlow(query),
    queryFn: ({ signal }) => fetchReport<CashFlowResponse>(client, REPORT_PATHS.cashFlow, query, signal),
  });
}

/** GET /financial-data/get-asset-balance-graph: the cash balance at each column's end. */
export function useAssetBalanceGraph(query: ReportQuery) {
  const { client } = useApiContext();
  return useQuery<AssetBalanceGraphResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.assetBalanceGraph(query),
    queryFn: ({ signal }) => fetchReport<AssetBalanceGraphResponse>(client, REPORT_PATHS.assetBalanceGraph, query, signal),
  });
}

/** GET /financial-data/runway: months of cash left at the average net burn of the last complete months (the server's defaults). */
export function useRunway() {
  const { client } = useApiContext();
  return useQuery<RunwayResponse, ApiError>({
    queryKey: reportsQueryKeys.runway,
    queryFn: ({ signal }) => fetchReport<RunwayResponse>(client, REPORT_PATHS.runway, {}, signal),
  });
}

/** GET /financial-data/spending: money per expense category over the period (the 9 largest and Others beyond 10), with the workspace's latest seq like fetchReport. */
export function useSpending(query: SpendingQuery) {
  const { client } = useApiContext();
  return useQuery<SpendingResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.spending(query),
    queryFn: ({ signal }) => client.request<SpendingResponse>('GET', REPORT_PATHS.spending, { query: withSeq(query, client.ledgerSeq.current()), signal }),
  });
}

/** GET /financial-data/top-merchant: the merchants most money went to over the period. */
export function useTopMerchants(query: TopMerchantsQuery) {
  const { client } = useApiContext();
  return useQuery<TopMerchantsResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.topMerchants(query),
    queryFn: ({ signal }) => client.request<TopMerchantsResponse>('GET', REPORT_PATHS.topMerchant, { query: withSeq(query, client.ledgerSeq.current()), signal }),
  });
}

export interface ReportExportRequest {
  tab: ReportTab;
  format: ExportFormat;
  query: ReportQuery;
}

/** GET /income-expense|/balance-sheet|/cash-flow-statement/{csv|xlsx|pdf}: the file and the name the server gives it. */
export function useReportExport() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, ReportExportRequest>({
    mutationFn: ({ tab, format, query }) => client.download(reportExportPath(tab, format), withSeq({ ...query }, client.ledgerSeq.current())),
  });
}

/** GET /categories/groups-and-tags: the groups and tags the chart's accounts carry (the reports' filter choices). */
export function useGroupsAndTags() {
  const { client } = useApiContext();
  return useQuery<Schemas['GroupsAndTagsResponse'], ApiError>({
    queryKey: reportsQueryKeys.groupsAndTags,
    queryFn: ({ signal }) => client.request<Schemas['GroupsAndTagsResponse']>('GET', '/categories/groups-and-tags', { signal }),
  });
}
