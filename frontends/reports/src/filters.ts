import {
  DATE_BREAKDOWNS,
  MONEY_TYPES,
  REPORT_FILTER_DEFAULTS,
  isMoneyType,
  parseStoredFilters,
  type AccountTreeNode,
  type DateBreakdown,
  type MoneyType,
  type StoredFilters,
} from '@ledgerline/api';
import { MONEY_TYPE_LABELS, type ReportScreenKey } from './reports/screen';
import { readStoredFilterSet, writeStoredFilterSet } from '@ledgerline/ui';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

// Shared with the shell, which asks for the dashboard's widgets before this remote's code arrives.
export { parseStoredFilters, type StoredFilters } from '@ledgerline/api';
export { defaultReportPeriod } from '@ledgerline/ui';

/** The filter set of one screen key, kept across visits in local storage (frontends/ui stored-filters). */
export function useStoredFilters(screen: ReportScreenKey): [StoredFilters, (change: Partial<StoredFilters>) => void] {
  const [filters, setFilters] = useState<StoredFilters>(() => parseStoredFilters(readStoredFilterSet(screen)));
  const update = useCallback(
    (change: Partial<StoredFilters>) => {
      setFilters((current) => {
        const next = { ...current, ...change };
        writeStoredFilterSet(screen, next);
        return next;
      });
    },
    [screen],
  );
  return [filters, update];
}

export const BREAKDOWN_OPTIONS: readonly { value: DateBreakdown; label: string }[] = DATE_BREAKDOWNS.map((value) => ({ value, label: value }));
export const MONEY_TYPE_OPTIONS: readonly { value: MoneyType; label: string }[] = MONEY_TYPES.map((value) => ({ value, label: MONEY_TYPE_LABELS[value] }));

/**
 * A report's filter set in the query string (issue #13), beside the period (startDate, endDate) and the tab, with
 * the spec §7 list filter names: breakdown (the periodicity: daily … totals_only), groups, tags, excludeZeroes,
 * moneyType, workspaces (lists comma-joined). Written whole whenever a filter changes, so a link shows the same
 * report to anyone; a URL without them shows the screen's stored filter set (spec §3).
 */
export const REPORT_FILTER_PARAMS = ['breakdown', 'groups', 'tags', 'excludeZeroes', 'moneyType', 'workspaces'] as const;

const breakdownParam = (b: DateBreakdown) => b.toLowerCase().replace(' ', '_');
const BREAKDOWN_OF_PARAM: Readonly<Record<string, DateBreakdown>> = Object.fromEntries(DATE_BREAKDOWNS.map((b) => [breakdownParam(b), b]));
/** Group and tag names from a link: trimmed, no blanks, no repeats, of a sane length. */
const names = (value: string | null): string[] =>
  value === null
    ? []
    : [
        ...new Set(
          value
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '' && s.length <= 100),
        ),
      ];
const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The filter set the URL names, or the stored one when it names none; a malformed value takes the spec §3 default. */
export function reportFiltersFromSearch(params: URLSearchParams, stored: StoredFilters): StoredFilters {
  if (!REPORT_FILTER_PARAMS.some((name) => params.has(name))) return stored;
  const moneyType = params.get('moneyType');
  const excludeZeroes = params.get('excludeZeroes');
  return {
    dateBreakdown: BREAKDOWN_OF_PARAM[params.get('breakdown') ?? ''] ?? REPORT_FILTER_DEFAULTS.dateBreakdown,
    isZeroAmountHidden: excludeZeroes === 'false' ? false : excludeZeroes === 'true' ? true : REPORT_FILTER_DEFAULTS.isZeroAmountHidden,
    groups: names(params.get('groups')),
    tags: names(params.get('tags')),
    moneyType: isMoneyType(moneyType) ? moneyType : 'ALL',
    workspaces: names(params.get('workspaces')).filter((id) => WORKSPACE_ID.test(id)),
  };
}

/** The query string with a filter set written in; tab, period and anything else are kept. */
export function reportFiltersSearch(filters: StoredFilters, current: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const name of REPORT_FILTER_PARAMS) next.delete(name);
  // Breakdown and zero amounts always: they mark the URL as carrying the whole set.
  next.set('breakdown', breakdownParam(filters.dateBreakdown));
  if (filters.groups.length > 0) next.set('groups', filters.groups.join(','));
  if (filters.tags.length > 0) next.set('tags', filters.tags.join(','));
  next.set('excludeZeroes', String(filters.isZeroAmountHidden));
  if (filters.moneyType !== 'ALL') next.set('moneyType', filters.moneyType);
  if (filters.workspaces.length > 0) next.set('workspaces', filters.workspaces.join(','));
  return next;
}

export interface FilterChangeOptions {
  /** Replace the current history entry (a correction the user did not make) instead of adding one. */
  replace?: boolean;
}

/**
 * A report screen's filter set: the URL's when it has one, else the stored default. A change goes into the URL
 * (one history entry) and becomes the screen's stored default too.
 */
export function useReportFilters(screen: ReportScreenKey): [StoredFilters, (change: Partial<StoredFilters>, options?: FilterChangeOptions) => void] {
  const [stored, store] = useStoredFilters(screen);
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const filters = useMemo(() => reportFiltersFromSearch(new URLSearchParams(search), stored), [search, stored]);
  const update = useCallback(
    (change: Partial<StoredFilters>, options: FilterChangeOptions = {}) => {
      const next = { ...filters, ...change };
      store(next);
      // A choice shows at once (a controlled checkbox would otherwise snap back until the navigation commits).
      const replace = options.replace ?? false;
      setParams((current) => reportFiltersSearch(next, current), { replace, flushSync: !replace });
    },
    [filters, store, setParams],
  );
  return [filters, update];
}

export type AccountClass = AccountTreeNode['type'];
/** The classes each statement reports on (services/reporting: the balance sheet is every class but income and expenses). */
export const PNL_CLASSES: readonly AccountClass[] = ['Income', 'Expenses'];
export const BALANCE_SHEET_CLASSES: readonly AccountClass[] = ['Assets', 'Liability', 'Equity', 'Transfer'];

/**
 * The groups and tags a statement's filter offers: those GET /categories/groups-and-tags lists that an account of
 * the statement's classes carries (the route does not tell classes apart), in the route's order.
 */
export function groupsAndTagsOfClasses(
  chart: readonly AccountTreeNode[],
  classes: readonly AccountClass[],
  served: { groups: readonly string[]; tags: readonly string[] },
): { groups: string[]; tags: string[] } {
  const wanted = new Set(classes);
  const groups = new Set<string>();
  const tags = new Set<string>();
  const walk = (nodes: readonly AccountTreeNode[]) => {
    for (const n of nodes) {
      if (wanted.has(n.type)) {
        if (n.group !== '') groups.add(n.group);
        if (n.tag !== '') tags.add(n.tag);
      }
      walk(n.children);
    }
  };
  walk(chart);
  return { groups: served.groups.filter((g) => groups.has(g)), tags: served.tags.filter((t) => tags.has(t)) };
}
