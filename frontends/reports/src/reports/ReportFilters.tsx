import type { DateBreakdown } from '@ledgerline/api';
import { Checkbox, DateRangePicker, Select, type DateRange } from '@ledgerline/ui';
import { BREAKDOWN_OPTIONS, type StoredFilters } from '../filters';

export interface ReportFiltersProps {
  period: DateRange;
  onPeriodChange: (period: DateRange) => void;
  filters: StoredFilters;
  onFiltersChange: (change: Partial<StoredFilters>) => void;
  /** false leaves out the breakdown choice (a screen with one column). */
  breakdown?: boolean;
}

/** Spec §3 dashboard filter set on a report: period, breakdown (default Monthly), zero amounts hidden (default). */
export function ReportFilters({ period, onPeriodChange, filters, onFiltersChange, breakdown = true }: ReportFiltersProps) {
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
