import { AppError, ErrorKind, withTenant, type FieldError, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { addDays, addMonths, MIN_DATE, monthEnd, todayUtc } from '../domain/dates.js';
import { segmentsFor, type Column, type Segment } from '../domain/periods.js';
import { parseQuery, type RawQuery, type ReportQuery } from '../domain/query.js';
import { cashAccounts, cashFlowStatement, cashSeries, runway, type CashSeries } from '../domain/cashflow.js';
import { consolidate, type ColumnSums } from '../domain/consolidate.js';
import { balanceSheet, profitLoss, type Account, type DebitCredit, type ReportRow } from '../domain/report.js';
import { appliedSeq, currentWorkspaceVersion, dailyNetFlows, entryApplied, originsUnclassified, segmentSums, workspaceVersion } from '../store/balances.js';
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
  private async cached<T extends { header: ReportHeader }>(kind: string, tenant: Tenant, q: ReportQuery, caughtUp: boolean, ifNoneMatch: string, build: () => Promise<{ value: T; version: string; generation: string }>): Promise<Conditional<T>> {
    const key = ReportCache.key(kind, tenant.workspaceId, q);
    if (ifNoneMatch || this.cache.has(key)) {
      // Every workspace read: a consolidated report is stale when any of them changed.
      const stamps = await Promise.all(this.tenantsOf(tenant, q).map(async (t) => {
        const [v, chart] = await Promise.all([currentWorkspaceVersion(this.deps.db, t.workspaceId), this.deps.accounts.chart(t)]);
        return { version: String(v), generation: chart.generation };
      }));
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
    const q = parseQuery(raw);
    const caughtUp = await this.catchUp(tenant.workspaceId, q.seq);
    return { q, caughtUp };
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
  private async read(tenant: Tenant, q: ReportQuery, segments: Segment[], columns: number) {
    const tenants = this.tenantsOf(tenant, q);
    const parts = await Promise.all(tenants.map(async (t) => {
      const r = await withTenant(this.deps.db, t, async (trx) => {
        if (q.origins && (await originsUnclassified(trx, t.workspaceId))) {
          throw new AppError(ErrorKind.Unavailable, `moneyType ${q.moneyType} needs the read model rebuilt: balances applied before origins were kept have none`);
        }
        return { sums: await segmentSums(trx, t.workspaceId, segments, columns, q.origins), seq: await appliedSeq(trx, t.workspaceId), version: await workspaceVersion(trx, t.workspaceId) };
      });
      return { ...r, ...(await this.accountsFor(t, [r.sums])), tenant: t };
    }));
    const own = parts.find((p) => p.tenant.workspaceId === tenant.workspaceId);
    const seq = own ? own.seq : await withTenant(this.deps.db, tenant, (trx) => appliedSeq(trx, tenant.workspaceId));
    const version = parts.map((p) => String(p.version)).join(',');
    const generation = parts.map((p) => p.generation).join(',');
    if (parts.length === 1) {
      const p = parts[0] as (typeof parts)[number];
      return { accounts: p.accounts, sums: p.sums as ColumnSums, seq, version, generation, parts, idMaps: [new Map(p.accounts.map((a) => [a.id, a.id]))] };
    }
    const merged = consolidate(parts, columns);
    return { accounts: merged.accounts, sums: merged.sums, seq, version, generation, parts, idMaps: merged.idMaps };
  }

  async accountsFor(tenant: Tenant, sums: Iterable<ReadonlyMap<string, unknown>>): Promise<{ accounts: Account[]; generation: string }> {
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
    return { accounts, generation };
  }

  private header(name: ReportHeader['reportName'], q: ReportQuery, seq: number, caughtUp: boolean): ReportHeader {
    return { reportName: name, startDate: q.start, endDate: q.end, requestedPeriodicity: q.requested, periodicity: q.periodicity, currency: 'USD', seq, caughtUp };
  }

  /** Income and expenses per column, rolled up the account tree, and Net Income. */
  async profitLoss(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<Report & { income: number[]; expenses: number[]; netIncome: number[] }>> {
    const { q, caughtUp } = await this.prepare(tenant, raw);
    return this.cached('pl', tenant, q, caughtUp, ifNoneMatch, async () => {
      const segments = q.columns.flatMap((c, i) => segmentsFor(i, c.start, c.end));
      const { accounts, sums, seq, version, generation } = await this.read(tenant, q, segments, q.columns.length);
      const pl = profitLoss({ accounts, sums, columns: q.columns.length, filter: q });
      return { version, generation, value: { header: this.header('ProfitAndLoss', q, seq, caughtUp), columns: q.columns, rows: pl.rows, income: pl.income, expenses: pl.expenses, netIncome: pl.netIncome } };
    });
  }

  /** Balances as of each column's end; earnings before startDate and within the period shown apart. */
  async balanceSheet(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<Report>> {
    const { q, caughtUp } = await this.prepare(tenant, raw);
    return this.cached('bs', tenant, q, caughtUp, ifNoneMatch, async () => {
      const { accounts, opening, sums, seq, version, generation } = await this.withOpening(tenant, q);
      const rows = balanceSheet({ accounts, opening, sums, columns: q.columns.length, filter: q });
      return { version, generation, value: { header: this.header('BalanceSheet', q, seq, caughtUp), columns: q.columns, rows } };
    });
  }

  /** Indirect method per column; groups and tags do not apply (the statement must reconcile to cash). */
  async cashFlowStatement(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<Report>> {
    const { q, caughtUp } = await this.prepare(tenant, raw);
    return this.cached('cfs', tenant, q, caughtUp, ifNoneMatch, async () => {
      const { accounts, opening, sums, seq, version, generation } = await this.withOpening(tenant, q);
      const rows = cashFlowStatement({ accounts, opening, sums, columns: q.columns.length, excludeZeroes: q.excludeZeroes });
      return { version, generation, value: { header: this.header('CashFlowStatement', q, seq, caughtUp), columns: q.columns, rows } };
    });
  }

  /** Money into and out of the cash accounts per column, and the cash balance after each. */
  async cashFlow(tenant: Tenant, raw: RawQuery, ifNoneMatch = ''): Promise<Conditional<CashFlowReport>> {
    const { q, caughtUp } = await this.prepare(tenant, raw);
    return this.cached('cf', tenant, q, caughtUp, ifNoneMatch, async () => {
      const { accounts, opening, seq, version, generation, parts } = await this.withOpening(tenant, q);
      // Read after the opening balances: a version bumped in between only makes the entry stale sooner.
      // Each workspace's own cash accounts under its own tenancy, added up.
      const flows = { in: new Array<number>(q.columns.length).fill(0), out: new Array<number>(q.columns.length).fill(0) };
      for (const p of parts) {
        const cash = [...cashAccounts(p.accounts)];
        const f = await withTenant(this.deps.db, p.tenant, (trx) => dailyNetFlows(trx, p.tenant.workspaceId, cash, q.columns, q.origins));
        f.in.forEach((v, i) => (flows.in[i] = (flows.in[i] ?? 0) + v));
        f.out.forEach((v, i) => (flows.out[i] = (flows.out[i] ?? 0) + v));
      }
      return { version, generation, value: { header: this.header('CashFlow', q, seq, caughtUp), columns: q.columns, series: cashSeries(accounts, opening, flows) } };
    });
  }

  /** Runway over the `months` complete months ending with `month` (default: the previous month, 3 months). */
  async runway(tenant: Tenant, input: { month: string; months: string; seq: string }, now = new Date()) {
    const problems: FieldError[] = [];
    if (input.month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(input.month)) problems.push({ field: 'month', message: 'month must be YYYY-MM' });
    if (input.months && !(/^\d{1,2}$/.test(input.months) && Number(input.months) >= 1 && Number(input.months) <= 24)) problems.push({ field: 'months', message: 'months must be a whole number from 1 to 24' });
    if (problems.length) throw AppError.invalid(problems);
    const month = input.month || addMonths(todayUtc(now), -1).slice(0, 7);
    const months = input.months ? Number(input.months) : 3;
    const start = addMonths(`${month}-01`, 1 - months);
    const r = await this.cashFlow(tenant, { startDate: start, endDate: monthEnd(`${month}-01`), breakdown: '', periodicity: 'monthly', groups: '', tags: '', excludeZeroes: '', seq: input.seq });
    // Asked without an etag, so always the report itself.
    if (r.notModified) throw new Error('runway: cash flow answered not modified to an unconditional request');
    return { ...runway(r.series), avgMonths: months, month, seq: r.header.seq };
  }

  /** Sums per column plus, as one more column, everything before the period (the opening balances). */
  private async withOpening(tenant: Tenant, q: ReportQuery) {
    const n = q.columns.length;
    const segments = q.columns.flatMap((c, i) => segmentsFor(i, c.start, c.end));
    // Column n holds everything before the period: the opening balances.
    const openingSegments = q.start > MIN_DATE ? segmentsFor(n, MIN_DATE, addDays(q.start, -1)) : [];
    const { accounts, sums: all, seq, version, generation, parts } = await this.read(tenant, q, [...segments, ...openingSegments], n + 1);
    const opening = new Map<string, DebitCredit>();
    for (const [id, list] of all) {
      const o = list[n];
      if (o) opening.set(id, o);
    }
    return { accounts, opening, sums: all, seq, version, generation, parts };
  }
}
