import type { Knex } from '@ledgerline/platform';
import { monthStart } from '../domain/dates.js';
import type { Origin } from '../domain/origins.js';
import type { DebitCredit } from '../domain/report.js';
import type { Segment } from '../domain/periods.js';
import { applyMerchantEntries } from './merchants.js';
import type { PostedEntry } from './posted-entry.js';

/** One entry.posted as the projector applies it (its own module: merchants.ts reads it too). */
export type { PostedEntry } from './posted-entry.js';

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
    [
      cells.map((c) => c.workspaceId),
      cells.map((c) => c.period),
      cells.map((c) => c.accountId),
      cells.map((c) => c.origin),
      cells.map((c) => c.debit),
      cells.map((c) => c.credit),
      cells.map((c) => c.count),
    ],
  );
}

/**
 * Applies entries not applied before (by entry id: a redelivered or re-published entry counts once) to the
 * daily and monthly balances. Returns how many were new. Runs in the caller's transaction.
 */
export async function applyEntries(trx: Knex.Transaction, entries: readonly PostedEntry[]): Promise<number> {
  const unique = [...new Map(entries.map((e) => [e.entryId, e])).values()].sort((a, b) => (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0));
  if (unique.length === 0) return 0;
  const fresh = (
    await trx.raw(
      `insert into projected_entries (entry_id, workspace_id, seq, entry_date)
     select * from unnest(?::uuid[], ?::uuid[], ?::bigint[], ?::date[])
     on conflict (entry_id) do nothing returning entry_id`,
      [unique.map((e) => e.entryId), unique.map((e) => e.workspaceId), unique.map((e) => e.seq), unique.map((e) => e.date)],
    )
  ).rows as { entry_id: string }[];
  const freshIds = new Set(fresh.map((r) => r.entry_id));
  const toApply = unique.filter((e) => freshIds.has(e.entryId));
  await upsert(
    trx,
    'balances_daily',
    'day',
    aggregate(toApply, (d) => d),
  );
  await upsert(trx, 'balances_monthly', 'month', aggregate(toApply, monthStart));
  await applyMerchantEntries(trx, toApply);
  await bumpVersions(
    trx,
    toApply.map((e) => e.workspaceId),
  );
  return toApply.length;
}

/**
 * Debits and credits per column per account for the given segments: O(accounts × segments × origins)
 * rows read. `origins`: only rows of those origins (a money type); null: every row.
 */
export async function segmentSums(
  trx: Knex.Transaction,
  workspaceId: string,
  segments: readonly Segment[],
  columns: number,
  origins: readonly Origin[] | null = null,
): Promise<Map<string, (DebitCredit | undefined)[]>> {
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
    bindings.push(
      segs.map((s) => s.column),
      segs.map((s) => s.from),
      segs.map((s) => s.to),
      workspaceId,
    );
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

/** Whether the workspace's entry (or chart change, which takes a number from the same sequence) with this ledger sequence has been applied. */
export async function entryApplied(trx: Knex.Transaction, workspaceId: string, seq: number): Promise<boolean> {
  const r = (
    await trx.raw(
      `select exists (select 1 from projected_entries where workspace_id = ? and seq = ?)
         or exists (select 1 from chart_changes where workspace_id = ? and seq = ?) as applied`,
      [workspaceId, seq, workspaceId, seq],
    )
  ).rows as { applied: boolean }[];
  return r[0]?.applied === true;
}

/** The highest ledger sequence applied for a workspace, entries and chart changes (0 when none). */
export async function appliedSeq(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  const r = (
    await trx.raw(
      `select greatest((select coalesce(max(seq), 0) from projected_entries where workspace_id = ?),
                     (select coalesce(max(seq), 0) from chart_changes where workspace_id = ?))::bigint as seq`,
      [workspaceId, workspaceId],
    )
  ).rows as { seq: string }[];
  return Number(r[0]?.seq ?? 0);
}

/** The first day anything is booked in the workspace ('' when nothing is). */
export async function firstBookedDay(trx: Knex.Transaction, workspaceId: string): Promise<string> {
  const r = (
    await trx.raw("select to_char(min(day), 'YYYY-MM-DD') as day from balances_daily where workspace_id = ? and (debit_cents <> 0 or credit_cents <> 0)", [
      workspaceId,
    ])
  ).rows as { day: string | null }[];
  return r[0]?.day ?? '';
}

/**
 * Records a chart change (chart.changed) in the applying transaction: its sequence (report reads that
 * name it wait for it), a new chart version (every replica's chart cache compares it) and a new balances
 * version (cached reports and held answers of the workspace are stale: they were laid out on the old chart).
 */
export async function applyChartChange(trx: Knex.Transaction, workspaceId: string, seq: number): Promise<void> {
  if (seq > 0) await trx.raw('insert into chart_changes (workspace_id, seq) values (?, ?) on conflict do nothing', [workspaceId, seq]);
  await trx.raw(
    `insert into chart_versions (workspace_id, version) values (?, 1)
     on conflict (workspace_id) do update set version = chart_versions.version + 1, updated_at = now()`,
    [workspaceId],
  );
  await bumpVersions(trx, [workspaceId]);
}

/** Records a linked bank account's currency; a change bumps the chart version (the chart cache re-reads it). */
export async function recordBankCurrency(trx: Knex.Transaction, workspaceId: string, bankAccountId: string, isoCurrencyCode: string): Promise<void> {
  const changed = (
    await trx.raw(
      `insert into bank_account_currencies (workspace_id, bank_account_id, iso_currency_code) values (?, ?, ?)
     on conflict (workspace_id, bank_account_id) do update set iso_currency_code = excluded.iso_currency_code
     where bank_account_currencies.iso_currency_code is distinct from excluded.iso_currency_code returning 1`,
      [workspaceId, bankAccountId, isoCurrencyCode],
    )
  ).rows as unknown[];
  if (changed.length) await applyChartChange(trx, workspaceId, 0);
}

/**
 * A bank transaction's latest state as far as its currency goes: one in another currency than USD is kept
 * (live), one in USD or removed is not (kept as not live, so an older version arriving late changes
 * nothing). A change bumps the balances version: cached reports carry the notice, or lose it.
 */
export async function recordBankTransactionCurrency(
  trx: Knex.Transaction,
  workspaceId: string,
  t: { id: string; isoCurrencyCode: string; date: string; version: number; removed: boolean },
): Promise<void> {
  const live = !t.removed && t.isoCurrencyCode !== '' && t.isoCurrencyCode !== 'USD';
  const known = (await trx.raw('select live, version from foreign_bank_transactions where workspace_id = ? and bank_transaction_id = ?', [workspaceId, t.id]))
    .rows as { live: boolean; version: string }[];
  const before = known[0];
  if (before && Number(before.version) >= t.version) return;
  if (!before && !live) return;
  await trx.raw(
    `insert into foreign_bank_transactions (workspace_id, bank_transaction_id, iso_currency_code, txn_date, version, live) values (?, ?, ?, ?, ?, ?)
     on conflict (workspace_id, bank_transaction_id) do update set iso_currency_code = excluded.iso_currency_code, txn_date = excluded.txn_date, version = excluded.version, live = excluded.live`,
    [workspaceId, t.id, t.isoCurrencyCode || 'USD', t.date, t.version, live],
  );
  await bumpVersions(trx, [workspaceId]);
}

/** Per currency, the bank transactions not in USD dated in [start, end] (the books leave them out). */
export async function foreignTransactionsIn(
  trx: Knex.Transaction,
  workspaceId: string,
  start: string,
  end: string,
): Promise<{ currency: string; count: number }[]> {
  const rows = (
    await trx.raw(
      'select iso_currency_code as currency, count(*)::int as count from foreign_bank_transactions where workspace_id = ? and live and txn_date between ? and ? group by 1 order by 1',
      [workspaceId, start, end],
    )
  ).rows as { currency: string; count: number }[];
  return rows;
}

/** The currency of each linked bank account of the workspace (those a bank told us). */
export async function bankCurrencies(db: Knex, workspaceId: string): Promise<Map<string, string>> {
  const rows = await db.transaction(async (trx) => {
    await trx.raw("select set_config('app.workspace_id', ?, true)", [workspaceId]);
    return (await trx.raw('select bank_account_id, iso_currency_code from bank_account_currencies where workspace_id = ?', [workspaceId])).rows as {
      bank_account_id: string;
      iso_currency_code: string;
    }[];
  });
  return new Map(rows.map((r) => [r.bank_account_id, r.iso_currency_code]));
}

/** The workspace's chart version (0 before any chart.changed), read in one statement of its own. */
export async function currentChartVersion(db: Knex, workspaceId: string): Promise<number> {
  const r = (await db.raw('select reporting_chart_version(?) as version', [workspaceId])).rows as { version: string }[];
  return Number(r[0]?.version ?? 0);
}

/** Monthly debits and credits per account, for the check against the ledger. */
export async function monthlyBalances(
  trx: Knex.Transaction,
  workspaceId: string,
): Promise<{ month: string; accountId: string; debit: number; credit: number }[]> {
  const rows = (
    await trx.raw(
      "select to_char(month, 'YYYY-MM-DD') as month, account_id, sum(debit_cents)::bigint as d, sum(credit_cents)::bigint as c from balances_monthly where workspace_id = ? group by month, account_id order by month, account_id",
      [workspaceId],
    )
  ).rows as { month: string; account_id: string; d: string; c: string }[];
  return rows.map((r) => ({ month: r.month, accountId: r.account_id, debit: Number(r.d), credit: Number(r.c) }));
}

/** Months whose daily rows do not add up to the monthly row, origin by origin (should be none). */
export async function dailyMonthlyMismatches(trx: Knex.Transaction, workspaceId: string): Promise<{ month: string; accountId: string }[]> {
  const rows = (
    await trx.raw(
      `with d as (
       select date_trunc('month', day)::date as month, account_id, origin, sum(debit_cents) as d, sum(credit_cents) as c, sum(line_count) as n
       from balances_daily where workspace_id = ? group by 1, 2, 3)
     select to_char(coalesce(m.month, d.month), 'YYYY-MM-DD') as month, coalesce(m.account_id, d.account_id) as account_id
     from (select * from balances_monthly where workspace_id = ?) m full join d on d.month = m.month and d.account_id = m.account_id and d.origin = m.origin
     where m.debit_cents is distinct from d.d or m.credit_cents is distinct from d.c or m.line_count is distinct from d.n`,
      [workspaceId, workspaceId],
    )
  ).rows as { month: string; account_id: string }[];
  return rows.map((r) => ({ month: r.month, accountId: r.account_id }));
}

/** Workspaces the read model holds entries for. */
export async function projectedWorkspaces(trx: Knex.Transaction): Promise<string[]> {
  const rows = (await trx.raw('select distinct workspace_id from projected_entries order by 1')).rows as { workspace_id: string }[];
  return rows.map((r) => r.workspace_id);
}

/**
 * Money into and out of the given accounts taken together (the workspace's own money), per column,
 * netted per day over all of them: money moving among them the same day (a transfer between two bank
 * accounts, both legs of a transfer booked through a Transfer account) cancels, and the ledger dates a
 * reversal like the entry it reverses, so a re-categorisation (reversal + new entry) is not counted as
 * money in and out again.
 */
export async function dailyNetFlows(
  trx: Knex.Transaction,
  workspaceId: string,
  accountIds: readonly string[],
  columns: readonly { start: string; end: string }[],
  origins: readonly Origin[] | null = null,
): Promise<{ in: number[]; out: number[] }> {
  const out = { in: new Array<number>(columns.length).fill(0), out: new Array<number>(columns.length).fill(0) };
  if (accountIds.length === 0 || columns.length === 0) return out;
  const rows = (
    await trx.raw(
      // Netted over the origins read too: an account's day is one movement, whatever the entries' origins.
      `select n.col, sum(greatest(n.net, 0))::bigint as i, sum(greatest(-n.net, 0))::bigint as o from (
       select s.col, b.day, sum(b.debit_cents - b.credit_cents) as net
       from unnest(?::int[], ?::date[], ?::date[]) as s(col, f, t)
       join balances_daily b on b.workspace_id = ? and b.account_id = any(?::uuid[]) and b.day between s.f and s.t${origins ? ' and b.origin = any(?::smallint[])' : ''}
       group by s.col, b.day) n
     group by n.col`,
      [
        columns.map((_, i) => i),
        columns.map((c) => c.start),
        columns.map((c) => c.end),
        workspaceId,
        accountIds as string[],
        ...(origins ? [origins as number[]] : []),
      ],
    )
  ).rows as { col: number; i: string; o: string }[];
  for (const r of rows) {
    out.in[r.col] = Number(r.i);
    out.out[r.col] = Number(r.o);
  }
  return out;
}
