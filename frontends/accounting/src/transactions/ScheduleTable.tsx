import type { AccrualSchedule } from '@ledgerline/api';
import { formatMoney } from '@ledgerline/ui';
import { formatTxnDate } from './rules';

/** An accrual's months: when each is recognised, how much, whether it is in the books as of today, what is left. */
export function ScheduleTable({ schedule }: { schedule: AccrualSchedule }) {
  return (
    <div className="max-h-72 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="min-w-full text-sm">
        <caption className="sr-only">Accrual schedule</caption>
        <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-3 py-2">
              Recognised on
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Amount
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Left in {schedule.accrualCategory}
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {schedule.accruedChildren.map((m) => (
            <tr key={m.id}>
              <td className="px-3 py-1.5">{formatTxnDate(m.accrualDateTime)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(m.accrualAmount)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(m.runningBalance)}</td>
              <td className="px-3 py-1.5 text-slate-600 dark:text-slate-300">{m.isTransactionAdded ? 'Recognised' : 'Scheduled'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
