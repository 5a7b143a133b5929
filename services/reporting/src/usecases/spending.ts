import { withTenant, type Knex } from '@ledgerline/platform';
import { segmentsFor } from '../domain/periods.js';
import { merchantRows, parseOrder, parseSpendingQuery, spendingRows, type MerchantRow, type MoneyType, type Order, type RawSpendingQuery, type SpendingRow } from '../domain/spending.js';
import type { DebitCredit } from '../domain/report.js';
import { appliedSeq, segmentSums } from '../store/balances.js';
import { merchantSums } from '../store/merchants.js';
import type { ReportUseCases, Tenant } from './reports.js';

export interface SpendingHeader {
  startDate: string;
  endDate: string;
  moneyType: MoneyType;
  seq: number;
  caughtUp: boolean;
}

/** The dashboard's spending and top-merchants cards, read from the balances and the balances by merchant. */
export class SpendingUseCases {
  constructor(private readonly deps: { db: Knex; reports: ReportUseCases }) {}

  /** Money per category of the class (Expenses for money out, Income for money in) over the period. */
  async spending(tenant: Tenant, raw: RawSpendingQuery & { order: string }): Promise<{ header: SpendingHeader; order: Order; totalCents: number; rows: SpendingRow[] }> {
    const { order, problems } = parseOrder(raw.order);
    const q = parseSpendingQuery(raw, problems);
    const caughtUp = await this.deps.reports.catchUp(tenant.workspaceId, q.report.seq);
    const segments = segmentsFor(0, q.report.start, q.report.end);
    const { sums, seq } = await withTenant(this.deps.db, tenant, async (trx) => ({ sums: await segmentSums(trx, tenant.workspaceId, segments, 1), seq: await appliedSeq(trx, tenant.workspaceId) }));
    const accounts = await this.deps.reports.accountsFor(tenant, [sums]);
    const totals = new Map<string, DebitCredit>();
    for (const [id, list] of sums) if (list[0]) totals.set(id, list[0]);
    const r = spendingRows({ accounts, sums: totals, classGroup: q.classGroup, groups: q.report.groups, tags: q.report.tags, order });
    return { header: { startDate: q.report.start, endDate: q.report.end, moneyType: q.moneyType, seq, caughtUp }, order, ...r };
  }

  /** Money of the class by merchant over the period: the top merchants. */
  async topMerchants(tenant: Tenant, raw: RawSpendingQuery): Promise<{ header: SpendingHeader; totalCents: number; rows: MerchantRow[] }> {
    const q = parseSpendingQuery(raw);
    const caughtUp = await this.deps.reports.catchUp(tenant.workspaceId, q.report.seq);
    const segments = segmentsFor(0, q.report.start, q.report.end);
    const { merchants, seq } = await withTenant(this.deps.db, tenant, async (trx) => ({ merchants: await merchantSums(trx, tenant.workspaceId, segments), seq: await appliedSeq(trx, tenant.workspaceId) }));
    const accounts = await this.deps.reports.accountsFor(tenant, [new Map(merchants.map((m) => [m.accountId, true]))]);
    const r = merchantRows({ merchants, accounts, classGroup: q.classGroup, groups: q.report.groups, tags: q.report.tags });
    return { header: { startDate: q.report.start, endDate: q.report.end, moneyType: q.moneyType, seq, caughtUp }, ...r };
  }
}
