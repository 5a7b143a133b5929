import type { FixedAsset } from '@ledgerline/api';
import { cx } from '@ledgerline/ui';

/** Years, or the units a year for units of production (useful life does not apply there). */
export function lifeOf(a: Pick<FixedAsset, 'method' | 'usefulLife' | 'totalEstimatedUnits' | 'unitProducedPerYear'>): string {
  if (a.method === 'UNITS_OF_PRODUCTION') return `${a.totalEstimatedUnits.toLocaleString('en-US')} units`;
  return `${a.usefulLife} ${a.usefulLife === 1 ? 'year' : 'years'}`;
}

const STATUS_TONE: Record<string, string> = {
  Active: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-300',
  Pending: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-300',
  Stopped: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300',
  'Fully Depreciated': 'bg-brand-50 text-brand-800 ring-brand-600/20 dark:bg-brand-950 dark:text-brand-300',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cx('inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', STATUS_TONE[status] ?? STATUS_TONE.Stopped)}
    >
      {status}
    </span>
  );
}
