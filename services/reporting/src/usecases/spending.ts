import { AppError, ErrorKind, withTenant, type Knex } from '@ledgerline/platform';
import { segmentsFor } from '../domain/periods.js';
import {
  categoryAmounts,
  classAccountIds,
  merchantAmounts,
  mergeCategories,
  mergeMerchants,
  parseOrder,
  parseSpendingQuery,
  rankMerchants,
  rankSpending,
  SPENDING_CLASS,
  type MerchantRow,
  type Order,
  type RawSpendingQuery,
  type SpendingQuery,
  type SpendingRow,
} from '../domain/spending.js';
import type { MoneyType } from '../domain/origins.js';
import type { DebitCredit } from '../domain/report.js';
import { appliedSeq, originsUnclassified, segmentSums } from '../store/balances.js';
import { merchantSums } from '../store/merchants.js';
import type { ReportUseCases, Tenant } from './reports.js';

export interface SpendingHeader {
  startDate: string;
  endDate: string;
  moneyType: MoneyType;
  seq: number;
  caughtUp: boolean;
}

/**
 * The dashboard's spending and top-merchants cards, read from the balances and the balances by merchant.
 * With `workspaces` (the gateway has checked the caller belongs to each), each workspace is read under
 * its own tenancy and the answers are summed; `seq` and the wait are the caller's workspace's.
 */
export class SpendingUseCases {
  constructor(private readonly deps: { db: Knex; reports: ReportUseCases }) {}

  private async prepare(tenant: Tenant, q: SpendingQuery) {
    if (q.report.origins) {
      for (const workspaceId of q.workspaceIds.length ? q.workspaceIds : [tenant.workspaceId]) {
        if (await withTenant(this.deps.db, { ...tenant, workspaceId }, (trx) => originsUnclassified(trx, workspaceId))) {
          throw new AppError(
            ErrorKind.Unavailable,
            `moneyType ${q.moneyType} needs the read model rebuilt: balances applied before origins were kept have none`,
          );
        }
      }
    }
    const caughtUp = await this.deps.reports.catchUp(tenant.workspaceId, q.report.seq);
    const seq = await withTenant(this.deps.db, tenant, (trx) => appliedSeq(trx, tenant.workspaceId));
    const tenants: Tenant[] = q.workspaceIds.length ? q.workspaceIds.map((workspaceId) => ({ ...tenant, workspaceId })) : [tenant];
    const header: SpendingHeader = { startDate: q.report.start, endDate: q.report.end, moneyType: q.moneyType, seq, caughtUp };
    return { tenants, header, segments: segmentsFor(0, q.report.start, q.report.end) };
  }

  /** Money spent per Expenses category over the period, of the money type's origins. */
  async spending(
    tenant: Tenant,
    raw: RawSpendingQuery & { order: string },
  ): Promise<{ header: SpendingHeader; order: Order; totalCents: number; rows: SpendingRow[] }> {
    const { order, problems } = parseOrder(raw.order);
    const q = parseSpendingQuery(raw, problems);
    const { tenants, header, segments } = await this.prepare(tenant, q);
    const lists = await Promise.all(
      tenants.map(async (t) => {
        const sums = await withTenant(this.deps.db, t, (trx) => segmentSums(trx, t.workspaceId, segments, 1, q.report.origins));
        const { accounts } = await this.deps.reports.accountsFor(t, [sums]);
        const totals = new Map<string, DebitCredit>();
        for (const [id, list] of sums) if (list[0]) totals.set(id, list[0]);
        return categoryAmounts({ accounts, sums: totals, classGroup: SPENDING_CLASS, groups: q.report.groups, tags: q.report.tags });
      }),
    );
    return { header, order, ...rankSpending(lists.length === 1 ? (lists[0] ?? []) : mergeCategories(lists), order) };
  }

  /** Money spent by merchant over the period, of the money type's origins: the top merchants. */
  async topMerchants(tenant: Tenant, raw: RawSpendingQuery): Promise<{ header: SpendingHeader; totalCents: number; rows: MerchantRow[] }> {
    const q = parseSpendingQuery(raw);
    const { tenants, header, segments } = await this.prepare(tenant, q);
    const lists = await Promise.all(
      tenants.map(async (t) => {
        const read = async (mustKnow: string[]) => {
          const { accounts } = await this.deps.reports.accountsFor(t, [new Map(mustKnow.map((id) => [id, true]))]);
          const ids = classAccountIds(accounts, SPENDING_CLASS, q.report);
          return withTenant(this.deps.db, t, (trx) =>
            merchantSums(
              trx,
              t.workspaceId,
              segments,
              ids,
              accounts.map((a) => a.id),
              q.report.origins,
            ),
          );
        };
        let r = await read([]);
        // Lines on an account the cached chart does not know: ask the ledger again (accountsFor answers 503 if it still does not).
        if (r.unknown.length) r = await read(r.unknown);
        return merchantAmounts(r.sums, SPENDING_CLASS);
      }),
    );
    return { header, ...rankMerchants(lists.length === 1 ? (lists[0] ?? []) : mergeMerchants(lists)) };
  }
}
