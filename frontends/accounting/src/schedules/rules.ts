// The Schedules tab's rules (decision 0030; moved from @ledgerline/api by issue #14 item 8, decision 0034): its URL
// state, the calendar view's months and the schedule accounts of a chart. The calls and hooks stay in @ledgerline/api.
import type { Schedule, ScheduleQuery, SchedulesAnswer, SchedulesCalendarAnswer } from '@ledgerline/api';
import type { ChartNode } from '../assets/rules';

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
