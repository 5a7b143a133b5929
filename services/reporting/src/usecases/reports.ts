import { AppError, ErrorKind, withTenant, type FieldError, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { addDays, addMonths, MIN_DATE, monthEnd, todayUtc } from '../domain/dates.js';
import { segmentsFor, type Column, type Segment } from '../domain/periods.js';
import { parseQuery, type RawQuery, type ReportQuery } from '../domain/query.js';
import { cashAccounts, cashFlowStatement, cashSeries, runway, type CashSeries } from '../domain/cashflow.js';
import { balanceSheet, profitLoss, type Account, type DebitCredit, type ReportRow } from '../domain/report.js';
import { appliedSeq, dailyNetFlows, segmentSums } from '../store/balances.js';
import type { AccountDirectory } from './accounts.js';

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

export interface ReportDeps {
  db: Knex;
  logger: Logger;
  accounts: AccountDirectory;
  catchUpTimeoutMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ReportUseCases {
  constructor(private readonly deps: ReportDeps) {}

  /**
   * Read-after-write (ARCHITECTURE §3): with `seq` (the ledger's commit sequence a mutation answered),
   * wait until the read model has applied it, at most `catchUpTimeoutMs`; then answer either way and
   * say whether it had caught up.
   */
  async catchUp(workspaceId: string, seq: number | null): Promise<boolean> {
    if (seq === null) return true;
    const deadline = Date.now() + this.deps.catchUpTimeoutMs;
    for (let wait = 10; ; wait = Math.min(wait * 2, 100)) {
      const applied = await withTenant(this.deps.db, { workspaceId }, (trx) => appliedSeq(trx, workspaceId));
      if (applied >= seq) return true;
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(wait, Math.max(1, deadline - Date.now())));
    }
  }

  private async prepare(tenant: Tenant, raw: RawQuery) {
    const q = parseQuery(raw);
    const caughtUp = await this.catchUp(tenant.workspaceId, q.seq);
    return { q, caughtUp };
  }

  /** The sums of the segments and the sequence they reflect, read in one transaction (one snapshot). */
  private read(tenant: Tenant, segments: Segment[], columns: number) {
    return withTenant(this.deps.db, tenant, async (trx) => ({ sums: await segmentSums(trx, tenant.workspaceId, segments, columns), seq: await appliedSeq(trx, tenant.workspaceId) }));
  }

  async accountsFor(tenant: Tenant, sums: Iterable<ReadonlyMap<string, unknown>>): Promise<Account[]> {
    const ids = new Set<string>();
    for (const m of sums) for (const id of m.keys()) ids.add(id);
    const accounts = await this.deps.accounts.accounts(tenant, ids);
    const known = new Set(accounts.map((a) => a.id));
    const unknown = [...ids].filter((id) => !known.has(id));
    // Never a report that silently leaves out lines: the ledger will know the account in a moment.
    if (unknown.length) {
      this.deps.logger.warn({ workspaceId: tenant.workspaceId, unknown }, 'balances for accounts the ledger did not list');
      throw new AppError(ErrorKind.Unavailable, 'Reports are catching up with the chart of accounts; try again');
    }
    return accounts;
  }

  private header(name: ReportHeader['reportName'], q: ReportQuery, seq: number, caughtUp: boolean): ReportHeader {
    return { reportName: name, startDate: q.start, endDate: q.end, requestedPeriodicity: q.requested, periodicity: q.periodicity, currency: 'USD', seq, caughtUp };
  }

  /** Income and expenses per column, rolled up the account tree, and Net Income. */
  async profitLoss(tenant: Tenant, raw: RawQuery): Promise<Report & { income: number[]; expenses: number[]; netIncome: number[] }> {
    const { q, caughtUp } = await this.prepare(tenant, raw);
    const segments = q.columns.flatMap((c, i) => segmentsFor(i, c.start, c.end));
    const { sums, seq } = await this.read(tenant, segments, q.columns.length);
    const accounts = await this.accountsFor(tenant, [sums]);
    const pl = profitLoss({ accounts, sums, columns: q.columns.length, filter: q });
    return { header: this.header('ProfitAndLoss', q, seq, caughtUp), columns: q.columns, rows: pl.rows, income: pl.income, expenses: pl.expenses, netIncome: pl.netIncome };
  }

  /** Balances as of each column's end; earnings before startDate and within the period shown apart. */
  async balanceSheet(tenant: Tenant, raw: RawQuery): Promise<Report> {
    const { q, caughtUp, accounts, opening, sums, seq } = await this.withOpening(tenant, raw);
    const rows = balanceSheet({ accounts, opening, sums, columns: q.columns.length, filter: q });
    return { header: this.header('BalanceSheet', q, seq, caughtUp), columns: q.columns, rows };
  }

  /** Indirect method per column; groups and tags do not apply (the statement must reconcile to cash). */
  async cashFlowStatement(tenant: Tenant, raw: RawQuery): Promise<Report> {
    const { q, caughtUp, accounts, opening, sums, seq } = await this.withOpening(tenant, raw);
    const rows = cashFlowStatement({ accounts, opening, sums, columns: q.columns.length, excludeZeroes: q.excludeZeroes });
    return { header: this.header('CashFlowStatement', q, seq, caughtUp), columns: q.columns, rows };
  }

  /** Money into and out of the cash accounts per column, and the cash balance after each. */
  async cashFlow(tenant: Tenant, raw: RawQuery): Promise<{ header: ReportHeader; columns: Column[]; series: CashSeries }> {
    const { q, caughtUp, accounts, opening, seq } = await this.withOpening(tenant, raw);
    const cash = [...cashAccounts(accounts)];
    const flows = await withTenant(this.deps.db, tenant, (trx) => dailyNetFlows(trx, tenant.workspaceId, cash, q.columns));
    return { header: this.header('CashFlow', q, seq, caughtUp), columns: q.columns, series: cashSeries(accounts, opening, flows) };
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
    return { ...runway(r.series), avgMonths: months, month, seq: r.header.seq };
  }

  /** Sums per column plus, as one more column, everything before the period (the opening balances). */
  private async withOpening(tenant: Tenant, raw: RawQuery) {
    const { q, caughtUp } = await this.prepare(tenant, raw);
    const n = q.columns.length;
    const segments = q.columns.flatMap((c, i) => segmentsFor(i, c.start, c.end));
    // Column n holds everything before the period: the opening balances.
    const openingSegments = q.start > MIN_DATE ? segmentsFor(n, MIN_DATE, addDays(q.start, -1)) : [];
    const { sums: all, seq } = await this.read(tenant, [...segments, ...openingSegments], n + 1);
    const opening = new Map<string, DebitCredit>();
    for (const [id, list] of all) {
      const o = list[n];
      if (o) opening.set(id, o);
    }
    const accounts = await this.accountsFor(tenant, [all]);
    return { q, caughtUp, accounts, opening, sums: all, seq };
  }
}
