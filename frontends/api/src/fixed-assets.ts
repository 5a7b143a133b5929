// Fixed assets and schedules (spec documents-parties-integrations "Fixed asset", §2 Fixed Assets and Schedules tabs,
// §7; issue #19 items 6, 7): the generated OpenAPI shapes, one typed call per route, and their react-query hooks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** The four methods with their screen labels; straight line is the default (spec). */
export const DEPRECIATION_METHODS: readonly { value: DepreciationMethod; label: string }[] = [
  { value: 'STRAIGHT_LINE', label: 'Straight line' },
  { value: 'UNITS_OF_PRODUCTION', label: 'Units of production' },
  { value: 'DOUBLE_DECLINING_BALANCE', label: 'Double declining balance' },
  { value: 'SUM_OF_YEARS_DIGITS', label: 'Sum of years digits' },
];

export interface ScheduleQuery {
  ledgerAccount?: string | null;
  startDate: string;
  endDate: string;
}

const enc = encodeURIComponent;
const scheduleQuery = (q: ScheduleQuery) => ({ ledgerAccount: q.ledgerAccount || undefined, startDate: q.startDate || undefined, endDate: q.endDate || undefined });

export const fixedAssetsApi = {
  list: (client: ApiClient, signal?: AbortSignal): Promise<{ data: FixedAsset[] }> => client.request('GET', '/accounting/fixed-assets', { signal }),
  get: (client: ApiClient, id: string, signal?: AbortSignal): Promise<FixedAsset> => client.request('GET', `/accounting/fixed-asset/${enc(id)}`, { signal }),
  create: (client: ApiClient, body: FixedAssetBody): Promise<{ message: string; fixedAsset: FixedAsset; seq?: number }> => client.request('POST', '/accounting/fixed-asset', { body }),
  stop: (client: ApiClient, id: string): Promise<{ message: string; fixedAsset: FixedAsset }> => client.request('POST', `/accounting/fixed-asset/stop/${enc(id)}`),
  remove: (client: ApiClient, id: string): Promise<{ message: string; id: string; seq: number }> => client.request('DELETE', `/accounting/fixed-asset/${enc(id)}`),
  schedules: (client: ApiClient, q: ScheduleQuery, signal?: AbortSignal): Promise<SchedulesAnswer> => client.request('GET', '/accounting/schedules', { query: scheduleQuery(q), signal }),
  calendar: (client: ApiClient, q: ScheduleQuery, signal?: AbortSignal): Promise<SchedulesCalendarAnswer> => client.request('GET', '/accounting/schedules-calendar', { query: scheduleQuery(q), signal }),
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
  return useQuery<{ data: FixedAsset[] }, ApiError>({ queryKey: fixedAssetsQueryKeys.list, queryFn: ({ signal }) => fixedAssetsApi.list(client, signal) });
}
export function useFixedAsset(id: string | null) {
  const { client } = useApiContext();
  return useQuery<FixedAsset, ApiError>({ queryKey: fixedAssetsQueryKeys.one(id ?? ''), queryFn: ({ signal }) => fixedAssetsApi.get(client, id ?? '', signal), enabled: id !== null });
}
export function useSchedules(q: ScheduleQuery) {
  const { client } = useApiContext();
  return useQuery<SchedulesAnswer, ApiError>({ queryKey: fixedAssetsQueryKeys.schedules(q), queryFn: ({ signal }) => fixedAssetsApi.schedules(client, q, signal) });
}
export function useSchedulesCalendar(q: ScheduleQuery, enabled = true) {
  const { client } = useApiContext();
  return useQuery<SchedulesCalendarAnswer, ApiError>({ queryKey: fixedAssetsQueryKeys.calendar(q), queryFn: ({ signal }) => fixedAssetsApi.calendar(client, q, signal), enabled });
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
  return useMutation<{ message: string; fixedAsset: FixedAsset; seq?: number }, ApiError, FixedAssetBody>({ mutationFn: (body) => fixedAssetsApi.create(client, body), onSuccess: (a) => changed(a.seq) });
}
export function useStopFixedAsset() {
  const { client } = useApiContext();
  const changed = useFixedAssetsChanged();
  return useMutation<{ message: string; fixedAsset: FixedAsset }, ApiError, string>({ mutationFn: (id) => fixedAssetsApi.stop(client, id), onSuccess: () => changed() });
}
export function useDeleteFixedAsset() {
  const { client } = useApiContext();
  const changed = useFixedAssetsChanged();
  return useMutation<{ message: string; id: string; seq: number }, ApiError, string>({ mutationFn: (id) => fixedAssetsApi.remove(client, id), onSuccess: (a) => changed(a.seq) });
}
