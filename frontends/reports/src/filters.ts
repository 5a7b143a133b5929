import { DATE_BREAKDOWNS, MONEY_TYPE_LABELS, MONEY_TYPES, REPORT_FILTER_DEFAULTS, isDateBreakdown, isMoneyType, type DateBreakdown, type MoneyType, type ReportFilterSet, type ReportScreenKey } from '@ledgerline/api';
import { presetRange, todayIso, type DateRange } from '@ledgerline/ui';
import { useCallback, useState } from 'react';

/** What a screen keeps besides its period (spec §3 filter set), stored per screen key. */
export type StoredFilters = Pick<ReportFilterSet, 'dateBreakdown' | 'isZeroAmountHidden' | 'groups' | 'tags'> & { moneyType: MoneyType; workspaces: string[] };

/** Spec §9: the client store persists to local storage under a root key; one entry per screen key below it. */
export const FILTERS_STORAGE_KEY = 'ledgerline:filters';

/** The reports' period when the URL names none: the year so far (the server's own default too). */
export function defaultReportPeriod(today: string = todayIso()): DateRange {
  return presetRange('Year to date', today);
}

const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null);

/** A stored filter set read back: each well-formed field kept, anything else from the defaults (spec §3). */
export function parseStoredFilters(raw: unknown): StoredFilters {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    dateBreakdown: isDateBreakdown(o.dateBreakdown) ? o.dateBreakdown : REPORT_FILTER_DEFAULTS.dateBreakdown,
    isZeroAmountHidden: typeof o.isZeroAmountHidden === 'boolean' ? o.isZeroAmountHidden : REPORT_FILTER_DEFAULTS.isZeroAmountHidden,
    groups: strings(o.groups) ?? [],
    tags: strings(o.tags) ?? [],
    moneyType: isMoneyType(o.moneyType) ? o.moneyType : 'ALL',
    workspaces: strings(o.workspaces) ?? [],
  };
}

function readAll(): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(FILTERS_STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The filter set of one screen key, kept across visits in local storage. */
export function useStoredFilters(screen: ReportScreenKey): [StoredFilters, (change: Partial<StoredFilters>) => void] {
  const [filters, setFilters] = useState<StoredFilters>(() => parseStoredFilters(readAll()[screen]));
  const update = useCallback(
    (change: Partial<StoredFilters>) => {
      setFilters((current) => {
        const next = { ...current, ...change };
        try {
          localStorage.setItem(FILTERS_STORAGE_KEY, JSON.stringify({ ...readAll(), [screen]: next }));
        } catch {
          // Storage full or disabled: the filters still apply for this visit.
        }
        return next;
      });
    },
    [screen],
  );
  return [filters, update];
}

export const BREAKDOWN_OPTIONS: readonly { value: DateBreakdown; label: string }[] = DATE_BREAKDOWNS.map((value) => ({ value, label: value }));
export const MONEY_TYPE_OPTIONS: readonly { value: MoneyType; label: string }[] = MONEY_TYPES.map((value) => ({ value, label: MONEY_TYPE_LABELS[value] }));
