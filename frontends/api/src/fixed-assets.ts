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

// ── The screens' pure parts (the Fixed Assets and Schedules tabs of the accounting remote; decision 0030) ───────────

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

export const methodLabel = (method: string): string => DEPRECIATION_METHODS.find((m) => m.value === method)?.label ?? method;

/** A bank transaction that can become a fixed asset: money out, not linked to a document or asset, not accrued, split, a transfer or an opening balance. */
export function isAssetPurchaseCandidate(t: {
  amount: number;
  entityType: string | null;
  isAccruedParent: boolean;
  isAccruedChildren: boolean;
  isSplittedParent: boolean;
  isSplittedChildren: boolean;
  isOpeningBalance: boolean;
  pending: boolean;
  transferStatus: string | null;
}): boolean {
  return (
    t.amount < 0 &&
    t.transferStatus === null &&
    t.entityType === null &&
    !t.isAccruedParent &&
    !t.isAccruedChildren &&
    !t.isSplittedParent &&
    !t.isSplittedChildren &&
    !t.isOpeningBalance &&
    !t.pending
  );
}

interface ChartNode {
  id: string;
  name: string;
  coaId: number;
  type: string;
  level: number;
  bankAccountId: string | null;
  systemKey: string | null;
  children: readonly ChartNode[];
}

/**
 * The accounts an asset can be booked to (decision 0025: `assetTypeId`): postable accounts of class Assets that are not
 * a bank account, not a system account (cash, prepaid expenses, accumulated depreciation…) and not the default chart's
 * unkeyed Accumulated Depreciation. Sorted by chart number.
 */
export function assetAccountOptions(chart: readonly ChartNode[]): { id: string; name: string; coaId: number }[] {
  const out: { id: string; name: string; coaId: number }[] = [];
  const stack = [...chart];
  for (let node = stack.pop(); node; node = stack.pop()) {
    stack.push(...node.children);
    if (node.type !== 'Assets' || node.level < 3 || node.children.length > 0 || node.bankAccountId !== null || node.systemKey !== null) continue;
    if (/^accumulated depreciation$/i.test(node.name)) continue;
    out.push({ id: node.id, name: node.name, coaId: node.coaId });
  }
  return out.sort((a, b) => a.coaId - b.coaId || a.name.localeCompare(b.name));
}

/** The account a new asset is booked to unless the person picks another: Property and Equipment, else the first. */
export function defaultAssetAccount(options: readonly { id: string; name: string }[]): string | null {
  return (options.find((o) => /^property and equipment$/i.test(o.name)) ?? options[0])?.id ?? null;
}

/** The create dialog's fields as typed. */
export interface FixedAssetDraft {
  transactionId: string | null;
  description: string;
  assetTypeId: string | null;
  method: DepreciationMethod;
  purchaseDate: string;
  depreciationStartDate: string;
  /** Dollars: the purchase's amount (decision 0025: cost equals the transaction). */
  cost: string;
  salvageValue: string;
  usefulLife: string;
  totalEstimatedUnits: string;
  unitProducedPerYear: string;
}

export type FixedAssetField = Exclude<keyof FixedAssetDraft, never>;
export type FixedAssetProblems = Partial<Record<FixedAssetField, string>>;

export const emptyFixedAssetDraft = (assetTypeId: string | null = null): FixedAssetDraft => ({
  transactionId: null,
  description: '',
  assetTypeId,
  method: 'STRAIGHT_LINE',
  purchaseDate: '',
  depreciationStartDate: '',
  cost: '',
  salvageValue: '0',
  usefulLife: '',
  totalEstimatedUnits: '',
  unitProducedPerYear: '',
});

/** The draft with a purchase chosen: its amount is the cost, its date the purchase and depreciation start dates, its merchant the name when none is typed. */
export function withPurchase(draft: FixedAssetDraft, t: { id: string; amount: number; dateTime: string }, name: string): FixedAssetDraft {
  const date = t.dateTime.slice(0, 10);
  return {
    ...draft,
    transactionId: t.id,
    cost: Math.abs(t.amount).toFixed(2),
    purchaseDate: date,
    depreciationStartDate: date,
    description: draft.description.trim() === '' ? name : draft.description,
  };
}

const isUnits = (d: Pick<FixedAssetDraft, 'method'>) => d.method === 'UNITS_OF_PRODUCTION';
const asNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.replace(/,/g, '')));

/**
 * What the dialog checks before sending (what is missing or negative, in the server's words); the rest — a whole number
 * of years, salvage not above cost, cost equal to the purchase — is the server's 400, shown on the field it names.
 */
export function validateFixedAssetDraft(d: FixedAssetDraft): FixedAssetProblems {
  const p: FixedAssetProblems = {};
  if (!d.transactionId) p.transactionId = 'Pick the purchase transaction';
  if (d.description.trim() === '') p.description = 'Name the asset';
  if (!d.assetTypeId) p.assetTypeId = 'assetTypeId is required';
  if (d.purchaseDate === '') p.purchaseDate = 'purchaseDate is required';
  if (d.depreciationStartDate === '') p.depreciationStartDate = 'depreciationStartDate is required';
  const numbers: [FixedAssetField, boolean][] = [
    ['salvageValue', false],
    ['usefulLife', !isUnits(d)],
    ['totalEstimatedUnits', isUnits(d)],
    ['unitProducedPerYear', isUnits(d)],
  ];
  for (const [field, required] of numbers) {
    const n = asNumber(d[field] as string);
    if (n === undefined) {
      if (required) p[field] = `${field} is required`;
    } else if (!Number.isFinite(n)) p[field] = `${field} must be a number`;
    else if (n < 0) p[field] = `${field} cannot be negative`;
  }
  return p;
}

/** POST /accounting/fixed-asset's body from a checked draft (units only for units of production, useful life only for the others). */
export function fixedAssetBody(d: FixedAssetDraft): FixedAssetBody {
  const units = isUnits(d);
  return {
    transactionId: d.transactionId ?? '',
    description: d.description.trim(),
    assetTypeId: d.assetTypeId ?? '',
    method: d.method,
    purchaseDate: d.purchaseDate,
    depreciationStartDate: d.depreciationStartDate,
    cost: asNumber(d.cost) ?? 0,
    salvageValue: asNumber(d.salvageValue) ?? 0,
    ...(units
      ? { totalEstimatedUnits: asNumber(d.totalEstimatedUnits), unitProducedPerYear: asNumber(d.unitProducedPerYear) }
      : { usefulLife: asNumber(d.usefulLife) }),
  };
}

const DRAFT_FIELDS: readonly string[] = [
  'transactionId',
  'description',
  'assetTypeId',
  'method',
  'purchaseDate',
  'depreciationStartDate',
  'cost',
  'salvageValue',
  'usefulLife',
  'totalEstimatedUnits',
  'unitProducedPerYear',
];

/** The dialog field a server refusal names (its `errors[0].field`), or null when it names none of them (shown above the buttons). */
export function fixedAssetFieldOf(field: string | undefined): FixedAssetField | null {
  return field !== undefined && DRAFT_FIELDS.includes(field) ? (field as FixedAssetField) : null;
}

// ── Schedules tab URL state ────────────────────────────────────────────────────────────────────────────────────────

/** Spec platform-core §3: the schedules screen key (its own default date range, kept across visits). */
export const SCHEDULES_SCREEN_KEY = 'schedules';
export type SchedulesView = 'list' | 'calendar';

/** The schedules' default range: the calendar year of today (the gateway's default too, decision 0025). */
export function defaultSchedulesRange(today: string): { startDate: string; endDate: string } {
  return { startDate: `${today.slice(0, 4)}-01-01`, endDate: `${today.slice(0, 4)}-12-31` };
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isRange = (v: unknown): v is { startDate: string; endDate: string } =>
  typeof v === 'object' &&
  v !== null &&
  ISO_DAY.test(String((v as Record<string, unknown>).startDate)) &&
  ISO_DAY.test(String((v as Record<string, unknown>).endDate)) &&
  String((v as Record<string, unknown>).startDate) <= String((v as Record<string, unknown>).endDate);

export interface SchedulesUrlState extends ScheduleQuery {
  view: SchedulesView;
}

/**
 * The tab's state from its URL: ledgerAccount, startDate, endDate (spec §2 drill-down) and view. A URL without a range
 * takes the stored one of the schedules screen key, else the calendar year.
 */
export function schedulesStateFromSearch(params: URLSearchParams, stored: unknown, today: string): SchedulesUrlState {
  const asked = { startDate: params.get('startDate') ?? '', endDate: params.get('endDate') ?? '' };
  const range = isRange(asked) ? asked : isRange(stored) ? { startDate: stored.startDate, endDate: stored.endDate } : defaultSchedulesRange(today);
  const ledgerAccount = params.get('ledgerAccount');
  return {
    ledgerAccount: ledgerAccount && ledgerAccount.trim() !== '' ? ledgerAccount : null,
    startDate: range.startDate,
    endDate: range.endDate,
    view: params.get('view') === 'calendar' ? 'calendar' : 'list',
  };
}

/** The URL of a state (tab kept; the list view, the default, left out). */
export function schedulesSearch(state: SchedulesUrlState): string {
  const p = new URLSearchParams({ tab: 'schedules' });
  if (state.ledgerAccount) p.set('ledgerAccount', state.ledgerAccount);
  p.set('startDate', state.startDate);
  p.set('endDate', state.endDate);
  if (state.view === 'calendar') p.set('view', 'calendar');
  return `?${p.toString()}`;
}

/** One schedule in one month of the calendar view. */
export interface ScheduleMonthCell {
  ledgerAccountId: string;
  name: string;
  kind: Schedule['kind'];
  /** Released to the P&L in the month (prepaid expenses, deferred revenue) or depreciated (posted), positive. */
  recognised: number;
  /** Newly deferred in the month (a prepaid purchase, an advance received), positive. */
  added: number;
  /** Depreciation of the month not posted yet. */
  scheduled: number;
  txnCount: number;
  /** The balance at the month's end (what is still to be released; for depreciation, what is accumulated, scheduled months included). */
  balance: number;
}

/** Cents-rounded, and never -0 (a month without releases would otherwise show '-$0.00'). */
const round2 = (n: number) => Math.round(n * 100) / 100 || 0;

/**
 * The calendar view's months: GET /accounting/schedules-calendar's balances, counts and scheduled amounts, with each
 * month's booked lines (GET /accounting/schedules) split into what was recognised and what was added — the calendar
 * answer's net amount would hide a month's release inside the purchase it releases.
 */
export function calendarMonths(calendar: SchedulesCalendarAnswer, schedules: SchedulesAnswer): { month: string; cells: ScheduleMonthCell[] }[] {
  const linesOf = new Map(schedules.data.map((s) => [s.ledgerAccount.id, s.lines.filter((l) => !l.scheduled)]));
  return calendar.months.map((m) => ({
    month: m.month,
    cells: m.schedules.map((c) => {
      const lines = (linesOf.get(c.ledgerAccount.id) ?? []).filter((l) => l.date.slice(0, 7) === m.month);
      const up = round2(lines.filter((l) => l.amount > 0).reduce((t, l) => t + l.amount, 0));
      const down = round2(-lines.filter((l) => l.amount < 0).reduce((t, l) => t + l.amount, 0));
      const depreciation = c.kind === 'Accumulated Depreciation';
      return {
        ledgerAccountId: c.ledgerAccount.id,
        name: c.ledgerAccount.name,
        kind: c.kind,
        recognised: depreciation ? up : down,
        added: depreciation ? 0 : up,
        scheduled: c.scheduledAmount,
        txnCount: c.txnCount,
        balance: c.runningBalance,
      };
    }),
  }));
}

/** "Jan 2026" of "2026-01". */
export function monthTitle(month: string): string {
  const names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return `${names[Number(month.slice(5, 7)) - 1] ?? month} ${month.slice(0, 4)}`;
}

/** The schedule accounts of a chart (decision 0025): Prepaid Expenses, Deferred Revenue and Accumulated Depreciation, by system key. */
export function scheduleAccountOptions(chart: readonly ChartNode[]): { id: string; name: string; coaId: number }[] {
  const keys = ['prepaid_expenses', 'deferred_revenue', 'accumulated_depreciation'];
  const out: { id: string; name: string; coaId: number; keyed: boolean }[] = [];
  const stack = [...chart];
  for (let node = stack.pop(); node; node = stack.pop()) {
    stack.push(...node.children);
    const keyed = node.systemKey !== null && keys.includes(node.systemKey);
    // The default chart's Accumulated Depreciation before the ledger keyed it (the gateway's rule too).
    const unkeyed = node.systemKey === null && node.coaId === 15300 && node.name === 'Accumulated Depreciation';
    if (keyed || unkeyed) out.push({ id: node.id, name: node.name, coaId: node.coaId, keyed });
  }
  const keyedDepreciation = out.some((a) => a.keyed && a.name === 'Accumulated Depreciation');
  return out
    .filter((a) => a.keyed || !keyedDepreciation)
    .map(({ id, name, coaId }) => ({ id, name, coaId }))
    .sort((a, b) => a.coaId - b.coaId);
}
