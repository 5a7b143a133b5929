import { describeError, ledgerSearch, useChartOfAccounts, useSchedules, useSchedulesCalendar, type Schedule } from '@ledgerline/api';
import {
  SCHEDULES_SCREEN_KEY,
  calendarMonths,
  monthTitle,
  scheduleAccountOptions,
  schedulesSearch,
  schedulesStateFromSearch,
  type SchedulesUrlState,
  type SchedulesView,
} from './rules';
import {
  Button,
  Card,
  EmptyState,
  Select,
  Spinner,
  TextField,
  cx,
  formatMoney,
  formatShortDate,
  readStoredFilterSet,
  todayIso,
  useSearchWriter,
  writeStoredFilterSet,
} from '@ledgerline/ui';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';

const ALL = 'all';

/**
 * /accounting?tab=schedules (spec §2 Schedules tab; platform-core drill-down): prepaid expenses, deferred revenue and
 * depreciation, each with ledgerAccount, txnCount and runningBalance; a list of each schedule's lines or a calendar
 * of what each month recognises (`view=calendar`). ledgerAccount, startDate and endDate come from the URL (the
 * balance sheet's rows open it so); without a range the schedules screen key's stored one, else the calendar year.
 */
export function SchedulesTab() {
  const [params, writeSearch] = useSearchWriter();
  const state = useMemo(() => schedulesStateFromSearch(params, readStoredFilterSet(SCHEDULES_SCREEN_KEY), todayIso()), [params]);
  const query = { ledgerAccount: state.ledgerAccount, startDate: state.startDate, endDate: state.endDate };
  const list = useSchedules(query);
  const calendar = useSchedulesCalendar(query, state.view === 'calendar');
  const chart = useChartOfAccounts();
  const accounts = useMemo(() => scheduleAccountOptions(chart.data?.chartOfAccounts ?? []), [chart.data]);

  const write = (next: Partial<SchedulesUrlState>) => {
    const merged = { ...state, ...next };
    if (next.startDate !== undefined || next.endDate !== undefined)
      writeStoredFilterSet(SCHEDULES_SCREEN_KEY, { startDate: merged.startDate, endDate: merged.endDate });
    writeSearch((latest) => {
      const out = new URLSearchParams(schedulesSearch(merged));
      // Keep what other parts of the page put in the URL.
      for (const [k, v] of latest) if (!out.has(k) && !['ledgerAccount', 'startDate', 'endDate', 'view'].includes(k)) out.set(k, v);
      return out;
    });
  };

  const accountOptions = [{ value: ALL, label: 'All schedules' }, ...accounts.map((a) => ({ value: a.id, label: `${a.name} (${a.coaId})` }))];
  if (state.ledgerAccount && !accounts.some((a) => a.id === state.ledgerAccount)) {
    const named = list.data?.data.find((s) => s.ledgerAccount.id === state.ledgerAccount)?.ledgerAccount;
    accountOptions.push({ value: state.ledgerAccount, label: named ? `${named.name} (${named.coaId})` : 'This account' });
  }

  return (
    <Card
      title="Schedules"
      description="Prepaid expenses and deferred revenue released month by month, and the depreciation of fixed assets."
      actions={<ViewToggle view={state.view} onChange={(view) => write({ view })} />}
    >
      <div className="mb-4 flex flex-wrap items-start gap-3">
        <Select<string>
          label="Schedule"
          name="ledgerAccount"
          className="w-full sm:w-64"
          options={accountOptions}
          value={state.ledgerAccount ?? ALL}
          onChange={(v) => write({ ledgerAccount: v === ALL ? null : v })}
        />
        <RangeInputs startDate={state.startDate} endDate={state.endDate} onChange={(range) => write(range)} />
      </div>
      {list.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label="Loading the schedules" />
        </div>
      )}
      {list.isError && (
        <EmptyState
          title="The schedules could not be loaded"
          description={describeError(list.error)?.message}
          action={
            <Button variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {list.isSuccess && list.data.data.length === 0 && (
        <EmptyState
          title="No schedules"
          description="Accrue a transaction (prepaid expense or deferred revenue) or make a fixed asset: its schedule shows here."
        />
      )}
      {list.isSuccess && list.data.data.length > 0 && state.view === 'list' && (
        <div className="space-y-6">
          {list.data.data.map((s) => (
            <ScheduleSection key={s.ledgerAccount.id} schedule={s} startDate={state.startDate} endDate={state.endDate} />
          ))}
        </div>
      )}
      {list.isSuccess && list.data.data.length > 0 && state.view === 'calendar' && (
        <>
          {calendar.isPending && (
            <div className="flex justify-center py-10">
              <Spinner label="Loading the calendar" />
            </div>
          )}
          {calendar.isError && <EmptyState title="The calendar could not be loaded" description={describeError(calendar.error)?.message} />}
          {calendar.isSuccess && <Calendar months={calendarMonths(calendar.data, list.data)} />}
        </>
      )}
    </Card>
  );
}

function ViewToggle({ view, onChange }: { view: SchedulesView; onChange: (view: SchedulesView) => void }) {
  const option = (value: SchedulesView, label: string) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className={cx(
        'px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50',
        view === value ? 'bg-brand-600 text-white' : 'bg-white text-slate-700 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
      )}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="View" className="inline-flex overflow-hidden rounded-lg border border-slate-300 dark:border-slate-700">
      {option('list', 'List')}
      {option('calendar', 'Calendar')}
    </div>
  );
}

/** From and To (YYYY-MM-DD through the browser's date input); a range whose end is before its start is not applied and says so. */
function RangeInputs({
  startDate,
  endDate,
  onChange,
}: {
  startDate: string;
  endDate: string;
  onChange: (range: { startDate: string; endDate: string }) => void;
}) {
  const [typed, setTyped] = useState<{ startDate: string; endDate: string } | null>(null);
  const shown = typed ?? { startDate, endDate };
  const reversed = shown.startDate !== '' && shown.endDate !== '' && shown.endDate < shown.startDate;
  const change = (next: { startDate: string; endDate: string }) => {
    setTyped(next);
    if (next.startDate !== '' && next.endDate !== '' && next.startDate <= next.endDate) {
      onChange(next);
      setTyped(null);
    }
  };
  return (
    <div className="grid w-full grid-cols-2 gap-3 sm:w-auto">
      <TextField label="From" name="startDate" type="date" value={shown.startDate} onChange={(e) => change({ ...shown, startDate: e.target.value })} />
      <TextField
        label="To"
        name="endDate"
        type="date"
        value={shown.endDate}
        onChange={(e) => change({ ...shown, endDate: e.target.value })}
        error={reversed ? 'End date cannot be less than Start date' : undefined}
      />
    </div>
  );
}

const headRow = 'border-b border-slate-200 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400';

/** One schedule: its account, txnCount, opening and running balance, and its lines (booked, then the months to come). */
function ScheduleSection({ schedule: s, startDate, endDate }: { schedule: Schedule; startDate: string; endDate: string }) {
  const title = `${s.ledgerAccount.name} (${s.ledgerAccount.coaId})`;
  return (
    <section aria-label={s.ledgerAccount.name} className="rounded-lg border border-slate-200 dark:border-slate-800">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900 dark:text-slate-100">{title}</h3>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {s.kind} · {s.txnCount} {s.txnCount === 1 ? 'entry' : 'entries'} in the period ·{' '}
            <Link
              to={`/accounting${ledgerSearch({ ledgerAccount: s.ledgerAccount.id, startDate, endDate })}`}
              className="font-medium text-brand-700 hover:underline dark:text-brand-300"
            >
              Open in the general ledger
            </Link>
          </p>
        </div>
        <dl className="flex gap-6 text-right text-sm">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Opening</dt>
            <dd className="tabular-nums">{formatMoney(s.openingBalance)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">{s.kind === 'Accumulated Depreciation' ? 'Accumulated' : 'Balance'}</dt>
            <dd className="font-semibold tabular-nums" data-testid="running-balance">
              {formatMoney(s.runningBalance)}
            </dd>
          </div>
        </dl>
      </header>
      {s.lines.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500 dark:text-slate-400">Nothing was booked to this schedule in the period.</p>
      ) : (
        <div className="max-h-[50vh] overflow-auto">
          <table className="w-full min-w-[36rem] text-sm" aria-label={`${s.ledgerAccount.name} schedule`}>
            <thead className="sticky top-0 bg-white dark:bg-slate-900">
              <tr className={headRow}>
                <th scope="col" className="px-4 py-2">
                  Date
                </th>
                <th scope="col" className="px-3 py-2">
                  Description
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Amount
                </th>
                <th scope="col" className="px-4 py-2 text-right">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {s.lines.map((l, i) => (
                <tr
                  key={l.journalEntryId ? `${l.journalEntryId}-${i}` : `scheduled-${i}`}
                  className={cx('border-b border-slate-100 last:border-0 dark:border-slate-800/70', l.scheduled && 'text-slate-500 italic dark:text-slate-400')}
                >
                  <td className="px-4 py-1.5 whitespace-nowrap tabular-nums">{formatShortDate(l.date.slice(0, 10))}</td>
                  <td className="px-3 py-1.5">
                    {l.transactionId ? (
                      <Link to={`/transactions?txn=${encodeURIComponent(l.transactionId)}`} className="text-slate-900 hover:underline dark:text-slate-100">
                        {l.description || '(no description)'}
                      </Link>
                    ) : (
                      l.description || '(no description)'
                    )}
                    {l.scheduled && <span className="ml-2 text-xs not-italic">Scheduled</span>}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(l.amount)}</td>
                  <td className="px-4 py-1.5 text-right tabular-nums">{formatMoney(l.runningBalance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Month by month: what each schedule recognised (or depreciated), what was added, what is still scheduled, and its balance at the month's end. */
function Calendar({ months }: { months: ReturnType<typeof calendarMonths> }) {
  return (
    <ol aria-label="Schedules calendar" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {months.map((m) => {
        const quiet = m.cells.every((c) => c.recognised === 0 && c.added === 0 && c.scheduled === 0);
        return (
          <li
            key={m.month}
            aria-label={monthTitle(m.month)}
            className={cx(
              'rounded-lg border p-3',
              quiet ? 'border-slate-200 dark:border-slate-800' : 'border-brand-200 bg-brand-50/40 dark:border-brand-900 dark:bg-brand-950/30',
            )}
          >
            <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{monthTitle(m.month)}</h3>
            <ul className="space-y-2">
              {m.cells.map((c) => (
                <li key={c.ledgerAccountId} className="text-sm">
                  <div className="truncate font-medium text-slate-700 dark:text-slate-300">{c.name}</div>
                  <dl className="grid grid-cols-[1fr_auto] gap-x-3 text-slate-600 dark:text-slate-400">
                    <dt>{c.kind === 'Accumulated Depreciation' ? 'Depreciated' : 'Recognised'}</dt>
                    <dd className="text-right text-slate-900 tabular-nums dark:text-slate-100">{formatMoney(c.recognised)}</dd>
                    {c.added !== 0 && (
                      <>
                        <dt>Added</dt>
                        <dd className="text-right tabular-nums">{formatMoney(c.added)}</dd>
                      </>
                    )}
                    {c.scheduled !== 0 && (
                      <>
                        <dt>Scheduled</dt>
                        <dd className="text-right tabular-nums">{formatMoney(c.scheduled)}</dd>
                      </>
                    )}
                    <dt>{c.kind === 'Accumulated Depreciation' ? 'Accumulated' : 'Balance'}</dt>
                    <dd className="text-right tabular-nums">{formatMoney(c.balance)}</dd>
                  </dl>
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}
