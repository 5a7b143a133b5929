// Fixed assets and schedules (spec documents-parties-integrations "Fixed asset", §2 Fixed Assets and Schedules tabs,
// §7; issue #19 items 6, 7): the generated OpenAPI shapes, one typed call per route, and their react-query hooks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ApiClient } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { ledgerQueryKeys } from './ledger-hooks';
import { afterBooksChanged } from './reports-hooks';
import type { Schemas } from './types';

export type FixedAsset = Schemas['FixedAsset'];
export type FixedAssetBody = Schemas['FixedAssetBody'];
export type DepreciationRow = Schemas['DepreciationRow'];
export type Schedule = Schemas['Schedule'];
export type SchedulesAnswer = Schemas['SchedulesAnswer'];
export type SchedulesCalendarAnswer = Schemas['SchedulesCalendarAnswer'];
export type DepreciationMethod = NonNullable<FixedAssetBody['method']>;

export interface ScheduleQuery {
  ledgerAccount?: string | null;
  startDate: string;
  endDate: string;
}

const scheduleQuery = (q: ScheduleQuery) => ({
  ledgerAccount: q.ledgerAccount || undefined,
  startDate: q.startDate || undefined,
  endDate: q.endDate || undefined,
});

export const fixedAssetsApi = {
  list: (client: ApiClient, signal?: AbortSignal) => client.get('/accounting/fixed-assets', { signal }),
  get: (client: ApiClient, id: string, signal?: AbortSignal): Promise<FixedAsset> =>
    client.get('/accounting/fixed-asset/{id}', { params: { path: { id } }, signal }),
  create: (client: ApiClient, body: FixedAssetBody) => client.post('/accounting/fixed-asset', { body }),
  stop: (client: ApiClient, id: string) => client.post('/accounting/fixed-asset/stop/{id}', { params: { path: { id } } }),
  remove: (client: ApiClient, id: string) => client.delete('/accounting/fixed-asset/{id}', { params: { path: { id } } }),
  schedules: (client: ApiClient, q: ScheduleQuery, signal?: AbortSignal): Promise<SchedulesAnswer> =>
    client.get('/accounting/schedules', { params: { query: scheduleQuery(q) }, signal }),
  calendar: (client: ApiClient, q: ScheduleQuery, signal?: AbortSignal): Promise<SchedulesCalendarAnswer> =>
    client.get('/accounting/schedules-calendar', { params: { query: scheduleQuery(q) }, signal }),
};

export const fixedAssetsQueryKeys = {
  all: ['fixed-assets'] as const,
  list: ['fixed-assets', 'list'] as const,
  one: (id: string) => ['fixed-assets', 'one', id] as const,
  schedules: (q: ScheduleQuery) => ['fixed-assets', 'schedules', q] as const,
  calendar: (q: ScheduleQuery) => ['fixed-assets', 'calendar', q] as const,
};

export function useFixedAssets() {
  const { client } = useApiContext();
  return useQuery<{ data: FixedAsset[] }, ApiError>({
    queryKey: fixedAssetsQueryKeys.list,
    queryFn: ({ signal }) => fixedAssetsApi.list(client, signal),
    // A Pending asset's purchase is being booked: look again until it is Active.
    refetchInterval: (query) => (query.state.data?.data.some((a) => a.status === 'Pending') ? ASSET_POSTING_POLL_MS : false),
  });
}
/** How often an open asset is asked again while the scheduler has months of it to post (a new asset's past months post a moment after its create). */
export const ASSET_POSTING_POLL_MS = 3000;
const utcToday = () => new Date().toISOString().slice(0, 10);

export function useFixedAsset(id: string | null) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  const query = useQuery<FixedAsset, ApiError>({
    queryKey: fixedAssetsQueryKeys.one(id ?? ''),
    queryFn: ({ signal }) => fixedAssetsApi.get(client, id ?? '', signal),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && awaitingPosting(q.state.data, utcToday()) ? ASSET_POSTING_POLL_MS : false),
  });
  // A month the scheduler posted meanwhile changes the list's figures too: ask the list again.
  const posted = query.data ? `${query.data.status}:${query.data.accumulatedDepreciation}` : null;
  useEffect(() => {
    if (posted !== null) void queryClient.invalidateQueries({ queryKey: fixedAssetsQueryKeys.list });
  }, [posted, queryClient]);
  return query;
}
export function useSchedules(q: ScheduleQuery) {
  const { client } = useApiContext();
  return useQuery<SchedulesAnswer, ApiError>({
    queryKey: fixedAssetsQueryKeys.schedules(q),
    queryFn: ({ signal }) => fixedAssetsApi.schedules(client, q, signal),
  });
}
export function useSchedulesCalendar(q: ScheduleQuery, enabled = true) {
  const { client } = useApiContext();
  return useQuery<SchedulesCalendarAnswer, ApiError>({
    queryKey: fixedAssetsQueryKeys.calendar(q),
    queryFn: ({ signal }) => fixedAssetsApi.calendar(client, q, signal),
    enabled,
  });
}

/** After a change: the assets, the schedules, the transactions (a purchase is linked) and the reports are asked again. */
function useFixedAssetsChanged() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return async (seq?: number) => {
    await queryClient.invalidateQueries({ queryKey: fixedAssetsQueryKeys.all });
    await queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
    await afterBooksChanged(client, queryClient, seq);
  };
}
export function useCreateFixedAsset() {
  const { client } = useApiContext();
  const changed = useFixedAssetsChanged();
  return useMutation<{ message: string; fixedAsset: FixedAsset; seq?: number }, ApiError, FixedAssetBody>({
    mutationFn: (body) => fixedAssetsApi.create(client, body),
    onSuccess: (a) => changed(a.seq),
  });
}
export function useStopFixedAsset() {
  const { client } = useApiContext();
  const changed = useFixedAssetsChanged();
  return useMutation<{ message: string; fixedAsset: FixedAsset }, ApiError, string>({
    mutationFn: (id) => fixedAssetsApi.stop(client, id),
    onSuccess: () => changed(),
  });
}
export function useDeleteFixedAsset() {
  const { client } = useApiContext();
  const changed = useFixedAssetsChanged();
  return useMutation<{ message: string; id: string; seq: number }, ApiError, string>({
    mutationFn: (id) => fixedAssetsApi.remove(client, id),
    onSuccess: (a) => changed(a.seq),
  });
}

// ── Where an asset's schedule stands: what useFixedAsset polls by (the tabs' own rules are the accounting remote's) ──

/** Status values (decision 0025) in the order a list shows them. */
export const FIXED_ASSET_STATUSES = ['Pending', 'Active', 'Stopped', 'Fully Depreciated'] as const;

/** Where a month of the schedule stands: in the books, due (the scheduler posts it shortly), to come, or never (the asset was stopped before it). */
export type DepreciationRowState = 'Posted' | 'Due' | 'Scheduled' | 'Not posted';

export function depreciationRowState(
  row: Pick<DepreciationRow, 'isDepreciated' | 'depreciationDateTime'>,
  asset: Pick<FixedAsset, 'stoppedOn'>,
  today: string,
): DepreciationRowState {
  if (row.isDepreciated) return 'Posted';
  const date = row.depreciationDateTime.slice(0, 10);
  if (asset.stoppedOn && date > asset.stoppedOn.slice(0, 10)) return 'Not posted';
  return date <= today ? 'Due' : 'Scheduled';
}

/** Whether the scheduler still has a month of the asset to post by today (or its purchase to book). */
export function awaitingPosting(asset: Pick<FixedAsset, 'status' | 'stoppedOn' | 'schedule'>, today: string): boolean {
  if (asset.status === 'Pending') return true;
  return (asset.schedule ?? []).some((r) => depreciationRowState(r, asset, today) === 'Due');
}
