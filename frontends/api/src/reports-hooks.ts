import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiClient, Download } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type { Schemas } from './types';
import type { Answer, QueryFor } from './typed';
import {
  REPORT_PATHS,
  reportExportPath,
  type ReportPath,
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
export function fetchReport<P extends ReportPath>(client: ApiClient, path: P, query: QueryFor<P>, signal?: AbortSignal): Promise<Answer<'get', P>> {
  // Typed at the signature; the seq added to a query of P's is still P's query (every report path takes `seq`).
  const get = client.get as unknown as (path: P, init: { params: { query: object }; signal?: AbortSignal | undefined }) => Promise<Answer<'get', P>>;
  return get(path, { params: { query: withSeq(query, client.ledgerSeq.current()) }, signal });
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

/** How a screen that fetches its widgets in one batch (the dashboard) holds a widget's own query back. */
export interface WidgetQueryOptions {
  /** False: not asked (yet); the batch is on its way. */
  enabled?: boolean;
  /** How long an answer (the batch's, seeded into the query) counts as fresh: not asked again on mount within it. */
  staleTime?: number;
}
const widget = (options: WidgetQueryOptions) => ({
  enabled: options.enabled ?? true,
  ...(options.staleTime === undefined ? {} : { staleTime: options.staleTime }),
});

/** The widgets GET /dashboard answers, each with its route's answer or its error (services/gateway/src/composite/dashboard.ts). */
export type DashboardWidget = 'profitLoss' | 'cashFlow' | 'assetBalanceGraph' | 'runway' | 'spending' | 'topMerchants';
export type DashboardAnswer = Record<DashboardWidget, { status: number; data?: unknown; error?: Schemas['ErrorResponse'] }>;

/** A batch answer stays fresh this long in the widgets' own queries (a change to the books invalidates them anyway). */
export const DASHBOARD_FRESH_MS = 30_000;

/**
 * GET /dashboard: the dashboard's report widgets in one request (issue #13). Each widget it answered is written into
 * that widget's own query (same key as its hook), so the widget's hook, enabled once this settles with
 * `staleTime: DASHBOARD_FRESH_MS`, shows it without asking again; a widget the batch could not answer is asked by
 * its own hook (its own error and Try again). The spending widgets' key is theirs (`spending`), the query sent is
 * the report query (the gateway hands each route its part).
 */
export function useDashboard(query: ReportQuery, spending: SpendingQuery) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useQuery<DashboardAnswer, ApiError>(dashboardOptions(client, queryClient, query, spending));
}

function dashboardOptions(client: ApiClient, queryClient: QueryClient, query: ReportQuery, spending: SpendingQuery) {
  return {
    queryKey: ['reports', 'dashboard', query, spending] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const answer = await client.get('/dashboard', { params: { query: withSeq(query, client.ledgerSeq.current()) }, signal });
      const seed = (key: readonly unknown[], w: DashboardAnswer[DashboardWidget] | undefined) => {
        if (w?.status === 200 && w.data !== undefined) queryClient.setQueryData(key, w.data);
      };
      seed(reportsQueryKeys.profitLoss(query), answer.profitLoss);
      seed(reportsQueryKeys.cashFlow(query), answer.cashFlow);
      seed(reportsQueryKeys.assetBalanceGraph(query), answer.assetBalanceGraph);
      seed(reportsQueryKeys.runway, answer.runway);
      seed(reportsQueryKeys.spending(spending), answer.spending);
      seed(reportsQueryKeys.topMerchants(spending), answer.topMerchants);
      return answer;
    },
    staleTime: DASHBOARD_FRESH_MS,
  };
}

/**
 * Asks GET /dashboard as the page first renders, for the shell: the widgets' data is then on its way while the reports
 * remote's code (which draws them, with `useDashboard` on the same key) is still loading, instead of after it. Asked
 * in the render, not in an effect: a navigation renders the page in a transition that commits (and runs effects)
 * only once the rest of the page's code has arrived. Harmless if that render is thrown away and redone: an answer
 * on its way or still fresh is not asked again. A failure is left to `useDashboard`, which asks again and shows it.
 */
export function usePrefetchDashboard(inputs: () => { query: ReportQuery; spending: SpendingQuery }) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  useState(() => {
    prefetchDashboard(client, queryClient, inputs());
    return null;
  });
}

/** Asks GET /dashboard into the cache `useDashboard` reads (not again while an answer is on its way or fresh). */
export function prefetchDashboard(client: ApiClient, queryClient: QueryClient, { query, spending }: { query: ReportQuery; spending: SpendingQuery }): void {
  void queryClient.prefetchQuery<DashboardAnswer, ApiError>(dashboardOptions(client, queryClient, query, spending));
}

/** GET /financial-data/profit-loss/v3: income and expenses by account tree per column, Net Income and the bar chart. */
export function useProfitLoss(query: ReportQuery, options: WidgetQueryOptions = {}) {
  const { client } = useApiContext();
  return useQuery<ProfitLossResponse, ApiError>({
    ...report,
    ...widget(options),
    queryKey: reportsQueryKeys.profitLoss(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.profitLoss, query, signal),
  });
}

/** GET /financial-data/balance-sheet/v2: balances as of each column's end, Assets = Liabilities + Equity. */
export function useBalanceSheet(query: ReportQuery, options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<BalanceSheetResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.balanceSheet(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.balanceSheet, query, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /financial-data/cash-flow-statement: operating, investing and financing activities per column, reconciled to the change in cash. */
export function useCashFlowStatement(query: ReportQuery, options: { enabled?: boolean } = {}) {
  const { client } = useApiContext();
  return useQuery<CashFlowStatementResponse, ApiError>({
    ...report,
    queryKey: reportsQueryKeys.cashFlowStatement(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.cashFlowStatement, query, signal),
    enabled: options.enabled ?? true,
  });
}

/** GET /financial-data/cash-flow: cash in, out, net and the closing balance per column. */
export function useCashFlow(query: ReportQuery, options: WidgetQueryOptions = {}) {
  const { client } = useApiContext();
  return useQuery<CashFlowResponse, ApiError>({
    ...report,
    ...widget(options),
    queryKey: reportsQueryKeys.cashFlow(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.cashFlow, query, signal),
  });
}

/** GET /financial-data/get-asset-balance-graph: the cash balance at each column's end. */
export function useAssetBalanceGraph(query: ReportQuery, options: WidgetQueryOptions = {}) {
  const { client } = useApiContext();
  return useQuery<AssetBalanceGraphResponse, ApiError>({
    ...report,
    ...widget(options),
    queryKey: reportsQueryKeys.assetBalanceGraph(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.assetBalanceGraph, query, signal),
  });
}

/** GET /financial-data/runway: months of cash left at the average net burn of the last complete months (the server's defaults). */
export function useRunway(options: WidgetQueryOptions = {}) {
  const { client } = useApiContext();
  return useQuery<RunwayResponse, ApiError>({
    ...widget(options),
    queryKey: reportsQueryKeys.runway,
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.runway, {}, signal),
  });
}

/** GET /financial-data/spending: money per expense category over the period (the 9 largest and Others beyond 10), with the workspace's latest seq like fetchReport. */
export function useSpending(query: SpendingQuery, options: WidgetQueryOptions = {}) {
  const { client } = useApiContext();
  return useQuery<SpendingResponse, ApiError>({
    ...report,
    ...widget(options),
    queryKey: reportsQueryKeys.spending(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.spending, query, signal),
  });
}

/** GET /financial-data/top-merchant: the merchants most money went to over the period. */
export function useTopMerchants(query: TopMerchantsQuery, options: WidgetQueryOptions = {}) {
  const { client } = useApiContext();
  return useQuery<TopMerchantsResponse, ApiError>({
    ...report,
    ...widget(options),
    queryKey: reportsQueryKeys.topMerchants(query),
    queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.topMerchant, query, signal),
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
    mutationFn: ({ tab, format, query }) =>
      client.download(reportExportPath(tab, format), { params: { query: withSeq({ ...query }, client.ledgerSeq.current()) } }),
  });
}

/** GET /categories/groups-and-tags: the groups and tags the chart's accounts carry (the reports' filter choices). */
export function useGroupsAndTags() {
  const { client } = useApiContext();
  return useQuery<Schemas['GroupsAndTagsResponse'], ApiError>({
    queryKey: reportsQueryKeys.groupsAndTags,
    queryFn: ({ signal }) => client.get('/categories/groups-and-tags', { signal }),
  });
}
