import type { Knex } from '@ledgerline/platform';
import { monthStart } from '../domain/dates.js';
import type { Origin } from '../domain/origins.js';
import type { DebitCredit } from '../domain/report.js';
import type { Segment } from '../domain/periods.js';
import { applyMerchantEntries } from './merchants.js';

/** One entry.posted, decoded and checked, as the projector applies it. */
export interface PostedEntry {
  workspaceId: string;
  entryId: string;
  seq: number;
  date: string;
  /** Where the entry came from (its source type): bank, document or adjustment. */
  origin: Origin;
  lines: { accountId: string; direction: 'debit' | 'credit'; amountCents: number }[];
  /** The entry it reverses ('' for none). */
  reversesEntryId: string;
  /** The merchant of the entry ('' for none) and its name then. */
  billerId: string;
  billerName: string;
}

interface Cell {
  workspaceId: string;
  period: string;
  accountId: string;
  origin: Origin;
  debit: number;
  credit: number;
  count: number;
}

function aggregate(entries: readonly PostedEntry[], periodOf: (date: string) => string): Cell[] {
  const cells = new Map<string, Cell>();
  for (const e of entries) {
    const period = periodOf(e.date);
    for (const l of e.lines) {
      const key = `${e.workspaceId}|${period}|${l.accountId}|${e.origin}`;
      const c = cells.get(key) ?? { workspaceId: e.workspaceId, period, accountId: l.accountId, origin: e.origin, debit: 0, credit: 0, count: 0 };
      if (l.direction === 'debit') c.debit += l.amountCents;
      else c.credit += l.amountCents;
      c.count++;
      cells.set(key, c);
    }
  }
  // Key order, so concurrent batches lock rows in the same order and never deadlock.
  return [...cells.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

async function upsert(trx: Knex.Transaction, table: 'balances_daily' | 'balances_monthly', period: 'day' | 'month', cells: Cell[]): Promise<void> {
  if (cells.length === 0) return;
  // One statement per batch (STACK.md: set-based upserts, never one per row).
  await trx.raw(
    `insert into ${table} (workspace_id, ${period}, account_id, origin, debit_cents, credit_cents, line_count)
     select * from unnest(?::uuid[], ?::date[], ?::uuid[], ?::smallint[], ?::bigint[], ?::bigint[], ?::bigint[])
     on conflict (workspace_id, ${period}, account_id, origin) do update set
       debit_cents = ${table}.debit_cents + excluded.debit_cents,
       credit_cents = ${table}.credit_cents + excluded.credit_cents,
       line_count = ${table}.line_count + excluded.line_count`,
    [cells.map((c) => c.workspaceId), cells.map((c) => c.period), cells.map((c) => c.accountId), cells.map((c) => c.origin), cells.map((c) => c.debit), cells.map((c) => c.credit), cells.map((c) => c.count)],
  );
}

/**
 * Applies entries not applied before (by entry id: a redelivered or re-published entry counts once) to the
 * daily and monthly balances. Returns how many were new. Runs in the caller's transaction.
 */
export async function applyEntries(trx: Knex.Transaction, entries: readonly PostedEntry[]): Promise<number> {
  const unique = [...new Map(entries.map((e) => [e.entryId, e])).values()].sort((a, b) => (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0));
  if (unique.length === 0) return 0;
  const fresh = (await trx.raw(
    `insert into projected_entries (entry_id, workspace_id, seq, entry_date)
     select * from unnest(?::uuid[], ?::uuid[], ?::bigint[], ?::date[])
     on conflict (entry_id) do nothing returning entry_id`,
    [unique.map((e) => e.entryId), unique.map((e) => e.workspaceId), unique.map((e) => e.seq), unique.map((e) => e.date)],
  )).rows as { entry_id: string }[];
  const freshIds = new Set(fresh.map((r) => r.entry_id));
  const toApply = unique.filter((e) => freshIds.has(e.entryId));
  await upsert(trx, 'balances_daily', 'day', aggregate(toApply, (d) => d));
  await upsert(trx, 'balances_monthly', 'month', aggregate(toApply, monthStart));
  await applyMerchantEntries(trx, toApply);
  await bumpVersions(trx, toApply.map((e) => e.workspaceId));
  return toApply.length;
}

/**
 * Debits and credits per column per account for the given segments: O(accounts × segments × origins)
 * rows read. `origins`: only rows of those origins (a money type); null: every row.
 */
export async function segmentSums(trx: Knex.Transaction, workspaceId: string, segments: readonly Segment[], columns: number, origins: readonly Origin[] | null = null): Promise<Map<string, (DebitCredit | undefined)[]>> {
  const out = new Map<string, (DebitCredit | undefined)[]>();
  const monthly = segments.filter((s) => s.table === 'monthly');
  const daily = segments.filter((s) => s.table === 'daily');
  const parts: string[] = [];
  const bindings: unknown[] = [];
  const part = (table: string, period: string, segs: readonly Segment[]) => {
    parts.push(`select s.col, b.account_id, sum(b.debit_cents)::bigint as d, sum(b.credit_cents)::bigint as c
      from unnest(?::int[], ?::date[], ?::date[]) as s(col, f, t)
      join ${table} b on b.workspace_id = ? and b.${period} between s.f and s.t${origins ? ' and b.origin = any(?::smallint[])' : ''}
      group by s.col, b.account_id`);
    bindings.push(segs.map((s) => s.column), segs.map((s) => s.from), segs.map((s) => s.to), workspaceId);
    if (origins) bindings.push(origins as number[]);
  };
  if (monthly.length) part('balances_monthly', 'month', monthly);
  if (daily.length) part('balances_daily', 'day', daily);
  if (parts.length === 0) return out;
  const rows = (await trx.raw(parts.join(' union all '), bindings as Knex.RawBinding[])).rows as { col: number; account_id: string; d: string; c: string }[];
  for (const r of rows) {
    const list = out.get(r.account_id) ?? new Array<DebitCredit | undefined>(columns).fill(undefined);
    const prev = list[r.col] ?? { debit: 0, credit: 0 };
    list[r.col] = { debit: prev.debit + Number(r.d), credit: prev.credit + Number(r.c) };
    out.set(r.account_id, list);
  }
  return out;
}

/** A new version for each workspace whose balances changed (sorted: concurrent batches lock in one order). */
export async function bumpVersions(trx: Knex.Transaction, workspaceIds: readonly string[]): Promise<void> {
  const ids = [...new Set(workspaceIds)].sort();
  if (ids.length === 0) return;
  await trx.raw(
    `insert into workspace_versions (workspace_id, version)
     select id, 1 from unnest(?::uuid[]) as t(id)
     on conflict (workspace_id) do update set version = workspace_versions.version + 1, updated_at = now()`,
    [ids],
  );
}

/** The version of a workspace's balances, read in one statement of its own (no transaction needed). */
export async function currentWorkspaceVersion(db: Knex, workspaceId: string): Promise<number> {
  const r = (await db.raw('select reporting_workspace_version(?) as version', [workspaceId])).rows as { version: string }[];
  return Number(r[0]?.version ?? 0);
}

/** The version of a workspace's balances (0 before the first entry). */
export async function workspaceVersion(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  const r = (await trx.raw('select version from workspace_versions where workspace_id = ?', [workspaceId])).rows as { version: string }[];
  return Number(r[0]?.version ?? 0);
}

/** Whether the workspace holds balances applied before origins were kept (money types need a rebuild). */
export async function originsUnclassified(trx: Knex.Transaction, workspaceId: string): Promise<boolean> {
  const r = (await trx.raw('select exists (select 1 from origins_unclassified where workspace_id = ?) as u', [workspaceId])).rows as { u: boolean }[];
  return r[0]?.u === true;
}

/** Whether the workspace's entry with this ledger sequence has been applied. */
export async function entryApplied(trx: Knex.Transaction, workspaceId: string, seq: number): Promise<boolean> {
  const r = (await trx.raw('select exists (select 1 from projected_entries where workspace_id = ? and seq = ?) as applied', [workspaceId, seq])).rows as { applied: boolean }[];
  return r[0]?.applied === true;
}

/** The highest ledger sequence applied for a workspace (0 when none). */
export async function appliedSeq(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  const r = (await trx.raw('select coalesce(max(seq), 0)::bigint as seq from projected_entries where workspace_id = ?', [workspaceId])).rows as { seq: string }[];
  return Number(r[0]?.seq ?? 0);
}

/** Monthly debits and credits per account, for the check against the ledger. */
export async function monthlyBalances(trx: Knex.Transaction, workspaceId: string): Promise<{ month: string; accountId: string; debit: number; credit: number }[]> {
  const rows = (await trx.raw(
    "select to_char(month, 'YYYY-MM-DD') as month, account_id, sum(debit_cents)::bigint as d, sum(credit_cents)::bigint as c from balances_monthly where workspace_id = ? group by month, account_id order by month, account_id",
    [workspaceId],
  )).rows as { month: string; account_id: string; d: string; c: string }[];
  return rows.map((r) => ({ month: r.month, accountId: r.account_id, debit: Number(r.d), credit: Number(r.c) }));
}

/** Months whose daily rows do not add up to the monthly row, origin by origin (should be none). */
export async function dailyMonthlyMismatches(trx: Knex.Transaction, workspaceId: string): Promise<{ month: string; accountId: string }[]> {
  const rows = (await trx.raw(
    `with d as (
       select date_trunc('month', day)::date as month, account_id, origin, sum(debit_cents) as d, sum(credit_cents) as c, sum(line_count) as n
       from balances_daily where workspace_id = ? group by 1, 2, 3)
     select to_char(coalesce(m.month, d.month), 'YYYY-MM-DD') as month, coalesce(m.account_id, d.account_id) as account_id
     from (select * from balances_monthly where workspace_id = ?) m full join d on d.month = m.month and d.account_id = m.account_id and d.origin = m.origin
     where m.debit_cents is distinct from d.d or m.credit_cents is distinct from d.c or m.line_count is distinct from d.n`,
    [workspaceId, workspaceId],
  )).rows as { month: string; account_id: string }[];
  return rows.map((r) => ({ month: r.month, accountId: r.account_id }));
}

/** Workspaces the read model holds entries for. */
export async function projectedWorkspaces(trx: Knex.Transaction): Promise<string[]> {
  const rows = (await trx.raw('select distinct workspace_id from projected_entries order by 1')).rows as { workspace_id: string }[];
  return rows.map((r) => r.workspace_id);
}

/**
 * Money in and out of the given accounts per column, netted per account and day: the ledger dates a
 * reversal like the entry it reverses, so a re-categorisation (reversal + new entry) is not counted as
 * money in and out again.
 */
export async function dailyNetFlows(trx: Knex.Transaction, workspaceId: string, accountIds: readonly string[], columns: readonly { start: string; end: string }[], origins: readonly Origin[] | null = null): Promise<{ in: number[]; out: number[] }> {
  const out = { in: new Array<number>(columns.length).fill(0), out: new Array<number>(columns.length).fill(0) };
  if (accountIds.length === 0 || columns.length === 0) return out;
  const rows = (await trx.raw(
    // Netted over the origins read too: an account's day is one movement, whatever the entries' origins.
    `select n.col, sum(greatest(n.d - n.c, 0))::bigint as i, sum(greatest(n.c - n.d, 0))::bigint as o from (
       select s.col, b.account_id, b.day, sum(b.debit_cents) as d, sum(b.credit_cents) as c
       from unnest(?::int[], ?::date[], ?::date[]) as s(col, f, t)
       join balances_daily b on b.workspace_id = ? and b.account_id = any(?::uuid[]) and b.day between s.f and s.t${origins ? ' and b.origin = any(?::smallint[])' : ''}
       group by s.col, b.account_id, b.day) n
     group by n.col`,
    [columns.map((_, i) => i), columns.map((c) => c.start), columns.map((c) => c.end), workspaceId, accountIds as string[], ...(origins ? [origins as number[]] : [])],
  )).rows as { col: number; i: string; o: string }[];
  for (const r of rows) {
    out.in[r.col] = Number(r.i);
    out.out[r.col] = Number(r.o);
  }
  return out;
}
