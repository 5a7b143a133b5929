import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { CashPeriodSchema, ReportColumnSchema, ReportHeaderSchema, ReportingService, ReportRowSchema, type ReportQuery, type ReportRow as ReportRowMessage } from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { RawQuery } from '../domain/query.js';
import type { ReportRow } from '../domain/report.js';
import type { Report, ReportUseCases } from '../usecases/reports.js';
import type { SpendingUseCases } from '../usecases/spending.js';
import { spendingHandlers } from './spending-handlers.js';

const raw = (q: ReportQuery | undefined): RawQuery => ({
  startDate: q?.startDate ?? '', endDate: q?.endDate ?? '', breakdown: q?.breakdown ?? '', periodicity: q?.periodicity ?? '',
  groups: q?.groups ?? '', tags: q?.tags ?? '', excludeZeroes: q?.excludeZeroes ?? '', seq: q?.seq ?? '',
});

export function rowMessage(r: ReportRow): ReportRowMessage {
  return create(ReportRowSchema, {
    id: r.id, name: r.name, coaId: r.coaId, type: r.type, level: r.level, group: r.group, tag: r.tag, rowType: r.rowType,
    amountsCents: r.amounts.map(BigInt), totalCents: BigInt(r.total), children: r.children.map(rowMessage),
  });
}

const reportMessage = (r: Report) => ({
  header: create(ReportHeaderSchema, { ...r.header, seq: BigInt(r.header.seq) }),
  columns: r.columns.map((c) => create(ReportColumnSchema, { label: c.label, startDate: c.start, endDate: c.end })),
  rows: r.rows.map(rowMessage),
});

/** Thin edge: map the message, call one use case, map the answer. Reading needs only a workspace (Viewers read). */
export function reportingRoutes(u: ReportUseCases, s: SpendingUseCases) {
  return (router: ConnectRouter) =>
    router.service(ReportingService, {
      ...spendingHandlers(s),
      async getProfitLoss(req, ctx) {
        return reportMessage(await u.profitLoss(requireTenant(ctx), raw(req.query)));
      },
      async getBalanceSheet(req, ctx) {
        return reportMessage(await u.balanceSheet(requireTenant(ctx), raw(req.query)));
      },
      async getCashFlowStatement(req, ctx) {
        return reportMessage(await u.cashFlowStatement(requireTenant(ctx), raw(req.query)));
      },
      async getCashFlow(req, ctx) {
        const r = await u.cashFlow(requireTenant(ctx), raw(req.query));
        return {
          header: create(ReportHeaderSchema, { ...r.header, seq: BigInt(r.header.seq) }),
          openingBalanceCents: BigInt(r.series.opening),
          periods: r.columns.map((c, i) => create(CashPeriodSchema, { label: c.label, startDate: c.start, endDate: c.end, inCents: BigInt(r.series.in[i] ?? 0), outCents: BigInt(r.series.out[i] ?? 0), closingBalanceCents: BigInt(r.series.closing[i] ?? 0) })),
        };
      },
      async getRunway(req, ctx) {
        const r = await u.runway(requireTenant(ctx), req);
        return { runwayInMonths: r.runwayInMonths ?? undefined, avgExpensesCents: BigInt(r.avgExpenses), avgMonths: r.avgMonths, assetBalCents: BigInt(r.assetBal), month: r.month, seq: BigInt(r.seq) };
      },
    });
}
