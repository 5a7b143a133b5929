import type { Knex } from '@ledgerline/platform';
import { addDays, addMonths, MAX_DATE, MIN_DATE, monthEnd, monthStart } from '../domain/dates.js';

export interface Sums {
  debit: number;
  credit: number;
  count: number;
}

const zero = (): Sums => ({ debit: 0, credit: 0, count: 0 });

function add(map: Map<string, Sums>, accountId: string, d: number, c: number, n: number) {
  const s = map.get(accountId) ?? zero();
  s.debit += d;
  s.credit += c;
  s.count += n;
  map.set(accountId, s);
}

/** Sums from the daily balances table for days in [from, to] (a partial month: at most 31 rows per account). */
async function daySums(trx: Knex.Transaction, from: string, to: string, accountId?: string): Promise<Map<string, Sums>> {
  const q = trx('account_day_balances')
    .where('day', '>=', from)
    .where('day', '<=', to)
    .select('account_id', trx.raw('sum(debit_cents)::bigint as d'), trx.raw('sum(credit_cents)::bigint as c'), trx.raw('sum(line_count)::bigint as n'))
    .groupBy('account_id');
  if (accountId) q.where({ account_id: accountId });
  const out = new Map<string, Sums>();
  for (const r of (await q) as { account_id: string; d: number; c: number; n: number }[]) add(out, r.account_id, r.d, r.c, r.n);
  return out;
}

async function monthSums(trx: Knex.Transaction, fromMonth: string, toMonth: string, accountId?: string): Promise<Map<string, Sums>> {
  const q = trx('account_balances')
    .where('month', '>=', fromMonth)
    .where('month', '<=', toMonth)
    .select('account_id', trx.raw('sum(debit_cents)::bigint as d'), trx.raw('sum(credit_cents)::bigint as c'), trx.raw('sum(line_count)::bigint as n'))
    .groupBy('account_id');
  if (accountId) q.where({ account_id: accountId });
  const out = new Map<string, Sums>();
  for (const r of (await q) as { account_id: string; d: number; c: number; n: number }[]) add(out, r.account_id, r.d, r.c, r.n);
  return out;
}

/**
 * Debits, credits and line counts per account for lines dated in [from, to]: whole months from the
 * monthly balances table, the partial months at either end from the daily one: O(accounts × (months + 62)).
 */
export async function sumRange(trx: Knex.Transaction, from: string, to: string, accountId?: string): Promise<Map<string, Sums>> {
  const out = new Map<string, Sums>();
  if (from > to) return out;
  const merge = (m: Map<string, Sums>) => {
    for (const [k, v] of m) add(out, k, v.debit, v.credit, v.count);
  };
  if (monthStart(from) === monthStart(to)) {
    const whole = from === monthStart(from) && (to === MAX_DATE || to === monthEnd(to));
    merge(whole ? await monthSums(trx, monthStart(from), monthStart(from), accountId) : await daySums(trx, from, to, accountId));
    return out;
  }
  let firstWhole = monthStart(from);
  if (from !== monthStart(from)) {
    merge(await daySums(trx, from, monthEnd(from), accountId));
    firstWhole = addMonths(from, 1);
  }
  let lastWhole = monthStart(to);
  if (to !== MAX_DATE && to !== monthEnd(to)) {
    merge(await daySums(trx, monthStart(to), to, accountId));
    lastWhole = addMonths(to, -1);
  }
  if (firstWhole <= lastWhole) merge(await monthSums(trx, firstWhole, lastWhole, accountId));
  return out;
}

/** Sums of lines dated before `date`. */
export function sumBefore(trx: Knex.Transaction, date: string, accountId?: string): Promise<Map<string, Sums>> {
  if (date <= MIN_DATE) return Promise.resolve(new Map());
  return sumRange(trx, MIN_DATE, addDays(date, -1), accountId);
}

export function sumsOf(map: Map<string, Sums>, accountId: string): Sums {
  return map.get(accountId) ?? zero();
}

/**
 * One account's balances row: a month (`period` = its first day) or a day. `count` is the lines the
 * ledger shows: every line, or in a bank register (`visible`) the lines not hidden; `hidden` the others.
 * Debits and credits are always of every line (hidden lines net to zero within their day).
 */
export interface PeriodRow {
  period: string;
  debit: number;
  credit: number;
  count: number;
  hidden: number;
}

/** One account's months in [fromMonth, toMonth] with lines to show, oldest first (the page seek's coarse steps). */
export async function accountMonths(
  trx: Knex.Transaction,
  workspaceId: string,
  accountId: string,
  fromMonth: string,
  toMonth: string,
  visible = false,
): Promise<PeriodRow[]> {
  if (fromMonth > toMonth) return [];
  const count = visible ? 'line_count - hidden_count' : 'line_count';
  return (await trx('account_balances')
    .where({ workspace_id: workspaceId, account_id: accountId })
    .where('month', '>=', fromMonth)
    .where('month', '<=', toMonth)
    .whereRaw(`${count} > 0`)
    .orderBy('month')
    .select(
      trx.raw("to_char(month, 'YYYY-MM-DD') as period"),
      'debit_cents as debit',
      'credit_cents as credit',
      trx.raw(`${count} as count`),
      trx.raw(`${visible ? 'hidden_count' : '0'} as hidden`),
    )) as PeriodRow[];
}

/** One account's days in [from, to] with lines to show, oldest first (the page seek's fine steps). */
export async function accountDays(
  trx: Knex.Transaction,
  workspaceId: string,
  accountId: string,
  from: string,
  to: string,
  visible = false,
): Promise<PeriodRow[]> {
  if (from > to) return [];
  const count = visible ? 'line_count - hidden_count' : 'line_count';
  return (await trx('account_day_balances')
    .where({ workspace_id: workspaceId, account_id: accountId })
    .where('day', '>=', from)
    .where('day', '<=', to)
    .whereRaw(`${count} > 0`)
    .orderBy('day')
    .select(
      trx.raw("to_char(day, 'YYYY-MM-DD') as period"),
      'debit_cents as debit',
      'credit_cents as credit',
      trx.raw(`${count} as count`),
      trx.raw(`${visible ? 'hidden_count' : '0'} as hidden`),
    )) as PeriodRow[];
}

/** The places and signed amounts (debit − credit) of one account × day's lines hidden from its register, in place order. */
export async function hiddenPlaces(
  trx: Knex.Transaction,
  workspaceId: string,
  accountId: string,
  day: string,
): Promise<{ day_seq: number; net_cents: number }[]> {
  return (await trx('register_hidden_lines')
    .where({ workspace_id: workspaceId, account_id: accountId, entry_date: day })
    .orderBy('day_seq')
    .select('day_seq', 'net_cents')) as { day_seq: number; net_cents: number }[];
}

/**
 * Net income (income credits − debits, less expense debits − credits) per month of lines dated before
 * `before` (a month's first day), oldest first, from the monthly balances: one row per month, whatever
 * the number of lines. Retained Earnings adds the months of closed fiscal years (a virtual close).
 */
export async function netIncomeByMonth(trx: Knex.Transaction, before: string): Promise<{ month: string; net: number }[]> {
  const rows = (
    await trx.raw(
      `select to_char(b.month, 'YYYY-MM-DD') as month, sum(b.credit_cents - b.debit_cents)::bigint as net
     from account_balances b join accounts a on a.id = b.account_id
     where a.class_group in ('Income', 'Expenses') and b.month < ?::date
     group by b.month having sum(b.line_count) > 0 order by b.month`,
      [before],
    )
  ).rows as { month: string; net: string }[];
  return rows.map((r) => ({ month: r.month, net: Number(r.net) }));
}
