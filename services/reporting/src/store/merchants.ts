import type { Knex } from '@ledgerline/platform';
import { monthStart } from '../domain/dates.js';
import type { Origin } from '../domain/origins.js';
import type { Segment } from '../domain/periods.js';
import type { PostedEntry } from './posted-entry.js';

/** The biller id of money booked without a merchant (a key column cannot be null). */
export const NO_MERCHANT = '00000000-0000-0000-0000-000000000000';

interface Cell {
  workspaceId: string;
  period: string;
  accountId: string;
  billerId: string;
  origin: Origin;
  debit: number;
  credit: number;
  lines: number;
  /** Entries booking the account for the merchant, a reversal counting −1. */
  txns: number;
}

function aggregate(entries: readonly PostedEntry[], periodOf: (date: string) => string): Cell[] {
  const cells = new Map<string, Cell>();
  for (const e of entries) {
    const period = periodOf(e.date);
    const billerId = e.billerId || NO_MERCHANT;
    const counted = new Set<string>();
    for (const l of e.lines) {
      const key = `${e.workspaceId}|${period}|${l.accountId}|${billerId}|${e.origin}`;
      const c = cells.get(key) ?? {
        workspaceId: e.workspaceId,
        period,
        accountId: l.accountId,
        billerId,
        origin: e.origin,
        debit: 0,
        credit: 0,
        lines: 0,
        txns: 0,
      };
      if (l.direction === 'debit') c.debit += l.amountCents;
      else c.credit += l.amountCents;
      c.lines++;
      // An entry counts once per account, however many lines it has there.
      if (!counted.has(key)) c.txns += e.reversesEntryId ? -1 : 1;
      counted.add(key);
      cells.set(key, c);
    }
  }
  // Key order, so concurrent batches lock rows in the same order and never deadlock.
  return [...cells.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

async function upsert(
  trx: Knex.Transaction,
  table: 'merchant_balances_daily' | 'merchant_balances_monthly',
  period: 'day' | 'month',
  cells: Cell[],
): Promise<void> {
  if (cells.length === 0) return;
  await trx.raw(
    `insert into ${table} (workspace_id, ${period}, account_id, biller_id, origin, debit_cents, credit_cents, line_count, txn_count)
     select * from unnest(?::uuid[], ?::date[], ?::uuid[], ?::uuid[], ?::smallint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[])
     on conflict (workspace_id, ${period}, account_id, biller_id, origin) do update set
       debit_cents = ${table}.debit_cents + excluded.debit_cents,
       credit_cents = ${table}.credit_cents + excluded.credit_cents,
       line_count = ${table}.line_count + excluded.line_count,
       txn_count = ${table}.txn_count + excluded.txn_count`,
    [
      cells.map((c) => c.workspaceId),
      cells.map((c) => c.period),
      cells.map((c) => c.accountId),
      cells.map((c) => c.billerId),
      cells.map((c) => c.origin),
      cells.map((c) => c.debit),
      cells.map((c) => c.credit),
      cells.map((c) => c.lines),
      cells.map((c) => c.txns),
    ],
  );
}

/**
 * Adds entries (already known to be new: the caller's projected_entries insert decided) to the balances
 * by merchant, and keeps each merchant's latest name. Runs in the caller's transaction, so it is exactly
 * as idempotent as the balances.
 */
export async function applyMerchantEntries(trx: Knex.Transaction, entries: readonly PostedEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await upsert(
    trx,
    'merchant_balances_daily',
    'day',
    aggregate(entries, (d) => d),
  );
  await upsert(trx, 'merchant_balances_monthly', 'month', aggregate(entries, monthStart));
  const names = new Map<string, { workspaceId: string; billerId: string; name: string; seq: number }>();
  for (const e of entries) {
    if (!e.billerId) continue;
    const key = `${e.workspaceId}|${e.billerId}`;
    const prev = names.get(key);
    if (!prev || prev.seq <= e.seq) names.set(key, { workspaceId: e.workspaceId, billerId: e.billerId, name: e.billerName, seq: e.seq });
  }
  const rows = [...names.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r);
  if (rows.length === 0) return;
  // The name of the highest sequence wins, so a replay or a late batch never brings back an old name.
  await trx.raw(
    `insert into merchants (workspace_id, biller_id, name, seq)
     select * from unnest(?::uuid[], ?::uuid[], ?::text[], ?::bigint[])
     on conflict (workspace_id, biller_id) do update set name = excluded.name, seq = excluded.seq where merchants.seq <= excluded.seq`,
    [rows.map((r) => r.workspaceId), rows.map((r) => r.billerId), rows.map((r) => r.name), rows.map((r) => r.seq)],
  );
}

export interface MerchantSum {
  billerId: string;
  name: string;
  debit: number;
  credit: number;
  txns: number;
}

/**
 * Debits, credits and transactions per merchant over the segments (one column), on the given accounts
 * only, summed in the database (an answer of one row per merchant). `unknown`: accounts with lines in
 * the period that are not among `knownIds` (a category created a moment ago), so the caller can refresh
 * the chart rather than leave lines out.
 */
export async function merchantSums(
  trx: Knex.Transaction,
  workspaceId: string,
  segments: readonly Segment[],
  accountIds: readonly string[],
  knownIds: readonly string[],
  origins: readonly Origin[] | null = null,
): Promise<{ sums: MerchantSum[]; unknown: string[] }> {
  if (segments.length === 0) return { sums: [], unknown: [] };
  const parts: string[] = [];
  const bindings: unknown[] = [];
  const part = (table: string, period: string, segs: readonly Segment[]) => {
    if (segs.length === 0) return;
    parts.push(`select b.biller_id, b.account_id, b.debit_cents, b.credit_cents, b.txn_count
      from unnest(?::date[], ?::date[]) as s(f, t)
      join ${table} b on b.workspace_id = ? and b.${period} between s.f and s.t${origins ? ' and b.origin = any(?::smallint[])' : ''}`);
    bindings.push(
      segs.map((s) => s.from),
      segs.map((s) => s.to),
      workspaceId,
    );
    if (origins) bindings.push(origins as number[]);
  };
  part(
    'merchant_balances_monthly',
    'month',
    segments.filter((s) => s.table === 'monthly'),
  );
  part(
    'merchant_balances_daily',
    'day',
    segments.filter((s) => s.table === 'daily'),
  );
  const rows = (
    await trx.raw(
      `with x as materialized (${parts.join(' union all ')}),
     s as (
       select x.biller_id, sum(x.debit_cents)::bigint as d, sum(x.credit_cents)::bigint as c, sum(x.txn_count)::bigint as n
       from x where x.account_id = any(?::uuid[]) group by x.biller_id)
     select s.biller_id, coalesce(m.name, '') as name, s.d, s.c, s.n, null::uuid[] as unknown
     from s left join merchants m on m.workspace_id = ? and m.biller_id = s.biller_id
     union all
     select null, null, null, null, null, array_agg(distinct x.account_id) from x where not (x.account_id = any(?::uuid[])) having count(*) > 0`,
      [...bindings, accountIds as string[], workspaceId, knownIds as string[]] as Knex.RawBinding[],
    )
  ).rows as { biller_id: string | null; name: string; d: string; c: string; n: string; unknown: string[] | null }[];
  const unknown = rows.find((r) => r.unknown)?.unknown ?? [];
  const sums = rows
    .filter((r) => r.biller_id !== null)
    .map((r) => ({
      billerId: r.biller_id === NO_MERCHANT ? '' : (r.biller_id as string),
      name: r.name,
      debit: Number(r.d),
      credit: Number(r.c),
      txns: Number(r.n),
    }));
  return { sums, unknown };
}

/**
 * (period, account, origin) cells where the merchant balances summed over merchants differ from the
 * balances (daily and monthly; should be none): the merchant tables hold the same lines, split by merchant.
 */
export async function merchantMismatches(trx: Knex.Transaction, workspaceId: string): Promise<{ period: string; accountId: string }[]> {
  const out: { period: string; accountId: string }[] = [];
  for (const [table, merchantTable, period] of [
    ['balances_monthly', 'merchant_balances_monthly', 'month'],
    ['balances_daily', 'merchant_balances_daily', 'day'],
  ] as const) {
    const rows = (
      await trx.raw(
        `with m as (
         select ${period} as p, account_id, origin, sum(debit_cents) as d, sum(credit_cents) as c, sum(line_count) as n
         from ${merchantTable} where workspace_id = ? group by 1, 2, 3)
       select to_char(coalesce(b.${period}, m.p), 'YYYY-MM-DD') as period, coalesce(b.account_id, m.account_id) as account_id
       from (select * from ${table} where workspace_id = ?) b full join m on m.p = b.${period} and m.account_id = b.account_id and m.origin = b.origin
       where b.debit_cents is distinct from m.d or b.credit_cents is distinct from m.c or b.line_count is distinct from m.n`,
        [workspaceId, workspaceId],
      )
    ).rows as { period: string; account_id: string }[];
    out.push(...rows.map((r) => ({ period: r.period, accountId: r.account_id })));
  }
  return out;
}
