import { useChartOfAccounts, useGroupsAndTags, useMe, type DateBreakdown, type MoneyType } from '@ledgerline/api';
import { useEffect, useMemo } from 'react';
import { Checkbox, DateRangePicker, MultiSelect, Select, type DateRange } from '@ledgerline/ui';
import { BREAKDOWN_OPTIONS, MONEY_TYPE_OPTIONS, groupsAndTagsOfClasses, type AccountClass, type FilterChangeOptions, type StoredFilters } from '../filters';

export interface ReportFiltersProps {
  period: DateRange;
  onPeriodChange: (period: DateRange) => void;
  filters: StoredFilters;
  onFiltersChange: (change: Partial<StoredFilters>, options?: FilterChangeOptions) => void;
  /** false leaves out the breakdown choice (a screen with one column). */
  breakdown?: boolean;
  /** The account classes the statement reports on: its groups and tags filters offer only theirs. None: no groups and tags filters. */
  accountClasses?: readonly AccountClass[] | null;
}

const choices = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

/** Spec §3 dashboard filter set on a report: period, breakdown (default Monthly), groups, tags, money type (default All), workspaces (default: this one), zero amounts hidden (default). */
export function ReportFilters({ period, onPeriodChange, filters, onFiltersChange, breakdown = true, accountClasses = null }: ReportFiltersProps) {
  const withGroupsAndTags = accountClasses !== null;
  const groupsAndTags = useGroupsAndTags();
  const chart = useChartOfAccounts();
  // Only the groups and tags of the statement's own accounts (the P&L offers no balance-sheet group).
  const offered = useMemo(
    () =>
      groupsAndTags.data && chart.data && accountClasses
        ? groupsAndTagsOfClasses(chart.data.chartOfAccounts, accountClasses, groupsAndTags.data)
        : { groups: [], tags: [] },
    [groupsAndTags.data, chart.data, accountClasses],
  );
  // A stored or linked choice the chart no longer has still filters: keep it listed so it can be taken off.
  const groups = [...new Set([...offered.groups, ...filters.groups])];
  const tags = [...new Set([...offered.tags, ...filters.tags])];
  // Workspaces the user can read; a stored one they no longer belong to is dropped (the server would answer 404).
  const mine = useMe().data?.workspaces;
  useEffect(() => {
    if (!mine) return;
    const ids = new Set(mine.map((w) => w.id));
    if (filters.workspaces.some((id) => !ids.has(id))) onFiltersChange({ workspaces: filters.workspaces.filter((id) => ids.has(id)) }, { replace: true });
  }, [mine, filters.workspaces, onFiltersChange]);
  return (
    <div className="flex flex-wrap items-end gap-4">
      <DateRangePicker label="Period" value={period} onChange={onPeriodChange} />
      {breakdown && (
        <Select<DateBreakdown>
          label="Breakdown"
          name="dateBreakdown"
          className="w-40"
          options={BREAKDOWN_OPTIONS}
          value={filters.dateBreakdown}
          onChange={(dateBreakdown) => onFiltersChange({ dateBreakdown })}
        />
      )}
      {withGroupsAndTags && groups.length > 0 && (
        <MultiSelect
          label="Groups"
          name="groups"
          className="w-44"
          options={choices(groups)}
          value={filters.groups}
          placeholder="All groups"
          onChange={(next) => onFiltersChange({ groups: next })}
        />
      )}
      {withGroupsAndTags && tags.length > 0 && (
        <MultiSelect
          label="Tags"
          name="tags"
          className="w-44"
          options={choices(tags)}
          value={filters.tags}
          placeholder="All tags"
          onChange={(next) => onFiltersChange({ tags: next })}
        />
      )}
      <Select<MoneyType>
        label="Money type"
        name="moneyType"
        className="w-40"
        options={MONEY_TYPE_OPTIONS}
        value={filters.moneyType}
        onChange={(moneyType) => onFiltersChange({ moneyType })}
      />
      {mine && mine.length > 1 && (
        <MultiSelect
          label="Workspaces"
          name="workspaces"
          className="w-48"
          options={mine.map((w) => ({ value: w.id, label: w.name }))}
          value={filters.workspaces}
          placeholder="This workspace"
          onChange={(next) => onFiltersChange({ workspaces: next })}
        />
      )}
      <Checkbox
        name="isZeroAmountHidden"
        label="Hide zero amounts"
        className="pb-2"
        checked={filters.isZeroAmountHidden}
        onChange={(e) => onFiltersChange({ isZeroAmountHidden: e.currentTarget.checked })}
      />
    </div>
  );
}
