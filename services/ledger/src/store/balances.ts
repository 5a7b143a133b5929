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

async function lineSums(trx: Knex.Transaction, from: string, to: string, accountId?: string): Promise<Map<string, Sums>> {
  const q = trx('journal_lines').where('entry_date', '>=', from).where('entry_date', '<=', to)
    .select('account_id')
    .select(trx.raw("coalesce(sum(amount_cents) filter (where direction = 'debit'), 0)::bigint as d"), trx.raw("coalesce(sum(amount_cents) filter (where direction = 'credit'), 0)::bigint as c"), trx.raw('count(*)::bigint as n'))
    .groupBy('account_id');
  if (accountId) q.where({ account_id: accountId });
  const out = new Map<string, Sums>();
  for (const r of (await q) as { account_id: string; d: number; c: number; n: number }[]) add(out, r.account_id, r.d, r.c, r.n);
  return out;
}

async function monthSums(trx: Knex.Transaction, fromMonth: string, toMonth: string, accountId?: string): Promise<Map<string, Sums>> {
  const q = trx('account_balances').where('month', '>=', fromMonth).where('month', '<=', toMonth)
    .select('account_id', trx.raw('sum(debit_cents)::bigint as d'), trx.raw('sum(credit_cents)::bigint as c'), trx.raw('sum(line_count)::bigint as n'))
    .groupBy('account_id');
  if (accountId) q.where({ account_id: accountId });
  const out = new Map<string, Sums>();
  for (const r of (await q) as { account_id: string; d: number; c: number; n: number }[]) add(out, r.account_id, r.d, r.c, r.n);
  return out;
}

/**
 * Debits, credits and line counts per account for lines dated in [from, to]: whole months from the
 * monthly balances table, the partial months at either end from the lines (STACK.md: O(accounts × months)).
 */
export async function sumRange(trx: Knex.Transaction, from: string, to: string, accountId?: string): Promise<Map<string, Sums>> {
  const out = new Map<string, Sums>();
  if (from > to) return out;
  const merge = (m: Map<string, Sums>) => {
    for (const [k, v] of m) add(out, k, v.debit, v.credit, v.count);
  };
  if (monthStart(from) === monthStart(to)) {
    const whole = from === monthStart(from) && (to === MAX_DATE || to === monthEnd(to));
    merge(whole ? await monthSums(trx, monthStart(from), monthStart(from), accountId) : await lineSums(trx, from, to, accountId));
    return out;
  }
  let firstWhole = monthStart(from);
  if (from !== monthStart(from)) {
    merge(await lineSums(trx, from, monthEnd(from), accountId));
    firstWhole = addMonths(from, 1);
  }
  let lastWhole = monthStart(to);
  if (to !== MAX_DATE && to !== monthEnd(to)) {
    merge(await lineSums(trx, monthStart(to), to, accountId));
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
