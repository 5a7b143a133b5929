import { AppError, ErrorKind, withTenant, type FieldError, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { addDays, addMonths, fiscalYearStart, MIN_DATE, monthEnd, todayUtc } from '../domain/dates.js';
import { segmentsFor, type Column, type Segment } from '../domain/periods.js';
import { parseQuery, type RawQuery, type ReportQuery } from '../domain/query.js';
import { cashChangeOf, cashFlowStatement, cashSeries, ownMoneyAccounts, runway, type CashSeries } from '../domain/cashflow.js';
import { consolidate, type ColumnSums } from '../domain/consolidate.js';
import { balanceSheet, profitLoss, usdOnly, type Account, type DebitCredit, type ReportRow } from '../domain/report.js';
import {
  appliedSeq,
  currentWorkspaceVersion,
  dailyNetFlows,
  entryApplied,
  firstBookedDay,
  foreignTransactionsIn,
  originsUnclassified,
  segmentSums,
  workspaceVersion,
} from '../store/balances.js';
import { withTenantSnapshot } from '../store/projection.js';
import type { AccountDirectory } from './accounts.js';
import { ReportCache } from './report-cache.js';

export type Tenant = TenantContext & { workspaceId: string };

export interface ReportHeader {
  reportName: 'ProfitAndLoss' | 'BalanceSheet' | 'CashFlowStatement' | 'CashFlow';
  startDate: string;
  endDate: string;
  requestedPeriodicity: string;
  periodicity: string;
  currency: 'USD';
  seq: number;
  caughtUp: boolean;
  /** The first month of the workspace's fiscal year (1 = January). */
  fiscalYearStartMonth: number;
  /** What the reader must know about what the report leaves out (e.g. accounts in another currency). */
  notices: string[];
}

export interface Report {
  header: ReportHeader;
  columns: Column[];
  rows: ReportRow[];
}

/** The caller already holds the report with this etag and it is still current. */
export interface NotModified {
  notModified: true;
  etag: string;
}

export type Conditional<T> = (T & { etag: string; notModified?: false }) | NotModified;

export interface CashFlowReport {
  header: ReportHeader;
  columns: Column[];
  series: CashSeries;
}

export interface ReportDeps {
  db: Knex;
  logger: Logger;
  accounts: AccountDirectory;
  catchUpTimeoutMs: number;
  /** Reports kept per process (0: build every request); see report-cache.ts. */
  cacheEntries?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Spec §9: the books are USD; bank transactions in another currency are recorded by the ledger, never summed as USD. */
function foreignNotice(f: { currency: string; count: number }): string {
  return `${f.count} bank ${f.count === 1 ? 'transaction' : 'transactions'} in ${f.currency} in this period ${f.count === 1 ? 'is' : 'are'} not included: the books are kept in USD`;
}

export class ReportUseCases {
  private readonly cache: ReportCache;

  constructor(private readonly deps: ReportDeps) {
    this.cache = new ReportCache(deps.cacheEntries ?? 0);
  }

  /**
   * The report from the cache when the workspace's balances and chart are what it was built on, else
   * built by `build` (which says the version and chart generation it read) and kept. `caughtUp` is this
   * request's own. When `ifNoneMatch` names the report as it is now, only that is said (NotModified).
   */
  private async cached<T extends { header: ReportHeader }>(
    kind: string,
    tenant: Tenant,
    q: ReportQuery,
    caughtUp: boolean,
    ifNoneMatch: string,
    build: () => Promise<{ value: T; version: string; generation: string }>,
  ): Promise<Conditional<T>> {
    const key = ReportCache.key(kind, tenant.workspaceId, q);
    if (ifNoneMatch || this.cache.has(key)) {
      // Every workspace read: a consolidated report is stale when any of them changed.
      const stamps = await Promise.all(
        this.tenantsOf(tenant, q).map(async (t) => {
          const [v, chart] = await Promise.all([currentWorkspaceVersion(this.deps.db, t.workspaceId), this.deps.accounts.chart(t)]);
          return { version: String(v), generation: chart.generation };
        }),
      );
      const version = stamps.map((x) => x.version).join(',');
      const generation = stamps.map((x) => x.generation).join(',');
      const etag = ReportCache.etag(key, version, generation, caughtUp);
      if (ifNoneMatch === etag) return { notModified: true, etag };
      const hit = this.cache.get<T>(key, version, generation);
      if (hit) return { ...hit, header: { ...hit.header, caughtUp }, etag };
    }
    const built = await build();
    this.cache.set(key, built.version, built.generation, built.value);
    return { ...built.value, etag: ReportCache.etag(key, built.version, built.generation, caughtUp) };
  }

  /**
   * Read-after-write (ARCHITECTURE §3): with `seq` (the ledger's commit sequence a mutation answered),
   * wait until the read model has applied it, at most `catchUpTimeoutMs`; then answer either way and
   * say whether it had caught up. It waits for the entry with that sequence itself, not for the highest
   * applied one to pass it: the ledger numbers entries as it writes them, so another posting can take a
   * higher number, commit first and be applied before the caller's.
   */
  async catchUp(workspaceId: string, seq: number | null): Promise<boolean> {
    if (seq === null || seq <= 0) return true;
    const deadline = Date.now() + this.deps.catchUpTimeoutMs;
    for (let wait = 10; ; wait = Math.min(wait * 2, 100)) {
      if (await withTenant(this.deps.db, { workspaceId }, (trx) => entryApplied(trx, workspaceId, seq))) return true;
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(wait, Math.max(1, deadline - Date.now())));
    }
  }

  private async prepare(tenant: Tenant, raw: RawQuery) {
    // Validated first: a bad query is a 400 whatever the read model holds.
    let q = parseQuery(raw);
    const caughtUp = await this.catchUp(tenant.workspaceId, q.seq);
    // After the wait: a fiscal year changed by the write named in seq counts.
    const { fiscalYearStartMonth } = await this.deps.accounts.chart(tenant);
    if (!raw.startDate && fiscalYearStartMonth !== 1) q = parseQuery(raw, new Date(), fiscalYearStartMonth);
    return { q, caughtUp, fiscalYearStartMonth };
  }

  /**
   * The workspaces a report reads: the caller's, or those of `workspaces` (the gateway checked the caller
   * belongs to each) with the caller's first when listed (its chart lays the rows out), the rest sorted,
   * so the same set gives the same report whatever order it was written in.
   */
  tenantsOf(tenant: Tenant, q: ReportQuery): Tenant[] {
    if (q.workspaceIds.length === 0) return [tenant];
    const ids = [...q.workspaceIds].sort();
    const own = ids.indexOf(tenant.workspaceId);
    if (own > 0) ids.unshift(...ids.splice(own, 1));
    return ids.map((workspaceId) => ({ ...tenant, workspaceId }));
  }

  /**
   * Per workspace, in one transaction (one snapshot): the sums of the segments over the money type's
   * origins and the version they reflect; then each workspace's chart; consolidated when several.
   * `seq` is the caller's workspace's.
   */
  private async read<X = undefined>(
    tenant: Tenant,
    q: ReportQuery,
    segments: Segment[],
    columns: number,
    extra?: (trx: Knex.Transaction, t: Tenant) => Promise<X>,
  ) {
    const tenants = this.tenantsOf(tenant, q);
    const parts = await Promise.all(
      tenants.map(async (t) => {
        const r = await withTenantSnapshot(this.deps.db, t, async (trx) => {
          if (q.origins && (await originsUnclassified(trx, t.workspaceId))) {
            throw new AppError(
              ErrorKind.Unavailable,
              `moneyType ${q.moneyType} needs the read model rebuilt: balances applied before origins were kept have none`,
            );
          }
          return {
            sums: await segmentSums(trx, t.workspaceId, segments, columns, q.origins),
            seq: await appliedSeq(trx, t.workspaceId),
            version: await workspaceVersion(trx, t.workspaceId),
            firstBooked: await firstBookedDay(trx, t.workspaceId),
            extra: extra ? await extra(trx, t) : (undefined as X),
            foreign: await foreignTransactionsIn(trx, t.workspaceId, q.start, q.end),
          };
        });
        const chart = await this.accountsFor(t, [r.sums]);
        return { ...r, ...chart, notices: [...chart.notices, ...r.foreign.map(foreignNotice)], tenant: t };
      }),
    );
    const own = parts.find((p) => p.tenant.workspaceId === tenant.workspaceId);
    const seq = own ? own.seq : await withTenant(this.deps.db, tenant, (trx) => appliedSeq(trx, tenant.workspaceId));
    const firstBooked =
      parts
        .map((p) => p.firstBooked)
        .filter((d) => d !== '')
        .sort()[0] ?? '';
    const notices = [...new Set(parts.flatMap((p) => p.notices))];
    const version = parts.map((p) => String(p.version)).join(',');
    const generation = parts.map((p) => p.generation).join(',');
    if (parts.length === 1) {
      const p = parts[0] as (typeof parts)[number];
      return {
        accounts: p.accounts,
        sums: p.sums as ColumnSums,
        seq,
        version,
        generation,
        parts,
        firstBooked,
        notices,
        idMaps: [new Map(p.accounts.map((a) => [a.id, a.id]))],
      };
    }
    const merged = consolidate(parts, columns);
    return { accounts: merged.accounts, sums: merged.sums, seq, version, generation, parts, firstBooked, notices, idMaps: merged.idMaps };
  }

  async accountsFor(tenant: Tenant, sums: Iterable<ReadonlyMap<string, unknown>>): Promise<{ accounts: Account[]; generation: string; notices: string[] }> {
    const ids = new Set<string>();
    for (const m of sums) for (const id of m.keys()) ids.add(id);
    const { accounts, generation } = await this.deps.accounts.chart(tenant, ids);
    const known = new Set(accounts.map((a) => a.id));
    const unknown = [...ids].filter((id) => !known.has(id));
    // Never a report that silently leaves out lines: the ledger will know the account in a moment.
    if (unknown.length) {
      this.deps.logger.warn({ workspaceId: tenant.workspaceId, unknown }, 'balances for accounts the ledger did not list');
      throw new AppError(ErrorKind.Unavailable, 'Reports are catching up with the chart of accounts; try again');
    }
    // Bank accounts in another currency are left out, and said so (never summed as USD).
    const usd = usdOnly(accounts);
    for (const m of sums) for (const id of usd.excluded) (m as Map<string, unknown>).delete(id);
    return { accounts: usd.accounts, generation, notices: usd.notices };
  }

  private header(
    name: ReportHeader['reportName'],
    q: ReportQuery,
    seq: number,
    caughtUp: boolean,
    fiscalYearStartMonth: number,
    notices: string[] = [],
  ): ReportHeader {
    return {
      reportName: name,
      startDate: q.start,
      endDate: q.end,
      requestedPeriodicity: q.requested,
      periodicity: q.periodicity,
      currency: 'USD',
      seq,
      caughtUp,
      fiscalYearStartMonth,
      notices,
    };
  }

  /** Income and expenses per column, rolled up the account tree, and Net Income. */
  async profitLoss(
    tenant: Tenant,
    raw: RawQuery,
    ifNoneMatch = '',
  ): Promise<Conditional<Report & { income: number[]; expenses: number[]; netIncome: number[] }>> {
    const { q, caughtUp, fiscalYearStartMonth } = await this.prepare(tenant, raw);
    return this.cached('pl', tenant, q, caughtUp, ifNoneMatch, async () => {
      const segments = q.columns.flatMap((c, i) => segmentsFor(i, c.start, c.end));
      const { accounts, sums, seq, version, generation, notices } = await this.read(tenant, q, segments, q.columns.length);
      const pl = profitLoss({ accounts, sums, columns: q.columns.length, filter: q });
      return {
        version,
        generation,
        value: {
          header: this.header('ProfitAndLoss', q, seq, caughtUp, fiscalYearStartMonth, notices),
          columns: q.columns,
          rows: pl.rows,
          income: pl.income,
          expenses: pl.expenses,
          netIncome: pl.netIncome,
        },
      };
    });
  }

  /**
   * Balances as of each column's end, closed at each fiscal year end: Retained Earnings holds the net
   * income of every earlier fiscal year, Net Income the column's fiscal year to its date.
   */
  async balanceSheet(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<Report>> {
    const { q, caughtUp, fiscalYearStartMonth } = await this.prepare(tenant, raw);
    return this.cached('bs', tenant, q, caughtUp, ifNoneMatch, async () => {
      const n = q.columns.length;
      const fiscalYearStarts = q.columns.map((c) => fiscalYearStart(c.end, fiscalYearStartMonth));
      const distinct = [...new Set(fiscalYearStarts)];
      // Columns n + 1 + k: everything before the k-th fiscal year's first day.
      const before = distinct.flatMap((f, k) => (f > MIN_DATE ? segmentsFor(n + 1 + k, MIN_DATE, addDays(f, -1)) : []));
      const { accounts, opening, sums, seq, version, generation, firstBooked, notices } = await this.withOpening(tenant, q, before, distinct.length);
      const beforeFiscalYear = new Map(
        distinct.map((f, k) => {
          const m = new Map<string, DebitCredit>();
          for (const [id, list] of sums) {
            const d = list[n + 1 + k];
            if (d) m.set(id, d);
          }
          return [f, m] as const;
        }),
      );
      const rows = balanceSheet({
        accounts,
        opening,
        sums,
        columns: n,
        filter: q,
        fiscalYearStarts,
        beforeFiscalYear,
        columnEnds: q.columns.map((c) => c.end),
        firstBooked,
      });
      return { version, generation, value: { header: this.header('BalanceSheet', q, seq, caughtUp, fiscalYearStartMonth, notices), columns: q.columns, rows } };
    });
  }

  /** Indirect method per column; groups and tags do not apply (the statement must reconcile to cash). */
  async cashFlowStatement(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<Report>> {
    const { q, caughtUp, fiscalYearStartMonth } = await this.prepare(tenant, raw);
    return this.cached('cfs', tenant, q, caughtUp, ifNoneMatch, async () => {
      const { accounts, opening, sums, seq, version, generation, notices } = await this.withOpening(tenant, q);
      const rows = cashFlowStatement({ accounts, opening, sums, columns: q.columns.length, excludeZeroes: q.excludeZeroes });
      return {
        version,
        generation,
        value: { header: this.header('CashFlowStatement', q, seq, caughtUp, fiscalYearStartMonth, notices), columns: q.columns, rows },
      };
    });
  }

  /**
   * Money into and out of the workspace's own money (cash, bank and card accounts, transfers) per column
   * — what crossed its edge, so transfers among own accounts are neither — and the cash balance after each.
   */
  async cashFlow(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<CashFlowReport>> {
    const { q, caughtUp, fiscalYearStartMonth } = await this.prepare(tenant, raw);
    return this.cached('cf', tenant, q, caughtUp, ifNoneMatch, async () => {
      // Each workspace's own money under its own tenancy, in the same snapshot as its balances; added up.
      // The charts first: nothing waits on the ledger (or a second connection) while the snapshot is open.
      const own = new Map(
        await Promise.all(
          this.tenantsOf(tenant, q).map(
            async (t) => [t.workspaceId, [...ownMoneyAccounts(usdOnly((await this.deps.accounts.chart(t)).accounts).accounts)]] as const,
          ),
        ),
      );
      const { accounts, opening, sums, seq, version, generation, parts, notices } = await this.withOpening(tenant, q, [], 0, (trx, t) =>
        dailyNetFlows(trx, t.workspaceId, own.get(t.workspaceId) ?? [], q.columns, q.origins),
      );
      const flows = { in: new Array<number>(q.columns.length).fill(0), out: new Array<number>(q.columns.length).fill(0) };
      for (const p of parts) {
        p.extra.in.forEach((v, i) => (flows.in[i] = (flows.in[i] ?? 0) + v));
        p.extra.out.forEach((v, i) => (flows.out[i] = (flows.out[i] ?? 0) + v));
      }
      const series = cashSeries(accounts, opening, flows, cashChangeOf(accounts, sums, q.columns.length));
      return { version, generation, value: { header: this.header('CashFlow', q, seq, caughtUp, fiscalYearStartMonth, notices), columns: q.columns, series } };
    });
  }

  /** Runway over the `months` complete months ending with `month` (default: the previous month, 3 months). */
  async runway(tenant: Tenant, input: { month: string; months: string; seq: string }, now = new Date()) {
    const problems: FieldError[] = [];
    if (input.month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(input.month)) problems.push({ field: 'month', message: 'month must be YYYY-MM' });
    if (input.months && !(/^\d{1,2}$/.test(input.months) && Number(input.months) >= 1 && Number(input.months) <= 24))
      problems.push({ field: 'months', message: 'months must be a whole number from 1 to 24' });
    if (problems.length) throw AppError.invalid(problems);
    const month = input.month || addMonths(todayUtc(now), -1).slice(0, 7);
    const months = input.months ? Number(input.months) : 3;
    const start = addMonths(`${month}-01`, 1 - months);
    const r = await this.cashFlow(tenant, {
      startDate: start,
      endDate: monthEnd(`${month}-01`),
      breakdown: '',
      periodicity: 'monthly',
      groups: '',
      tags: '',
      excludeZeroes: '',
      seq: input.seq,
    });
    // Asked without an etag, so always the report itself.
    if (r.notModified) throw new Error('runway: cash flow answered not modified to an unconditional request');
    return { ...runway(r.series), avgMonths: months, month, seq: r.header.seq };
  }

  /**
   * Sums per column plus, as one more column, everything before the period (the opening balances), and
   * `moreColumns` columns of `more` segments after it; `extra` reads more in each workspace's snapshot.
   */
  private async withOpening<X = undefined>(
    tenant: Tenant,
    q: ReportQuery,
    more: Segment[] = [],
    moreColumns = 0,
    extra?: (trx: Knex.Transaction, t: Tenant) => Promise<X>,
  ) {
    const n = q.columns.length;
    const segments = q.columns.flatMap((c, i) => segmentsFor(i, c.start, c.end));
    // Column n holds everything before the period: the opening balances.
    const openingSegments = q.start > MIN_DATE ? segmentsFor(n, MIN_DATE, addDays(q.start, -1)) : [];
    const {
      accounts,
      sums: all,
      seq,
      version,
      generation,
      parts,
      firstBooked,
      notices,
    } = await this.read(tenant, q, [...segments, ...openingSegments, ...more], n + 1 + moreColumns, extra);
    const opening = new Map<string, DebitCredit>();
    for (const [id, list] of all) {
      const o = list[n];
      if (o) opening.set(id, o);
    }
    return { accounts, opening, sums: all, seq, version, generation, parts, firstBooked, notices };
  }
}
