import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { packWholeNumbers, requireTenant, withInputRules } from '@ledgerline/platform';
import {
  CashPeriodSchema,
  ReportColumnSchema,
  ReportHeaderSchema,
  ReportingService,
  ReportTableSchema,
  RowDrillSchema,
  RowType,
  type ReportQuery,
  type ReportTable,
  type RowDrill,
} from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { RawQuery } from '../domain/query.js';
import type { ReportRow } from '../domain/report.js';
import type { Conditional, Report, ReportUseCases } from '../usecases/reports.js';
import type { SpendingUseCases } from '../usecases/spending.js';
import { spendingHandlers } from './spending-handlers.js';

const raw = (q: ReportQuery | undefined): RawQuery => ({
  startDate: q?.startDate ?? '',
  endDate: q?.endDate ?? '',
  breakdown: q?.breakdown ?? '',
  periodicity: q?.periodicity ?? '',
  groups: q?.groups ?? '',
  tags: q?.tags ?? '',
  excludeZeroes: q?.excludeZeroes ?? '',
  seq: q?.seq ?? '',
  moneyType: q?.moneyType ?? '',
  workspaces: q?.workspaces ?? '',
});

const ROW_TYPES = { section: RowType.SECTION, account: RowType.ACCOUNT, summary: RowType.SUMMARY, computed: RowType.COMPUTED } as const;

/** The row tree as one flat table (depth first, each row's parent by index): see ReportTable in the proto. */
export function tableMessage(rows: readonly ReportRow[]): ReportTable {
  const t = {
    ids: [] as string[],
    names: [] as string[],
    coaIds: [] as number[],
    types: [] as string[],
    levels: [] as number[],
    groups: [] as string[],
    tags: [] as string[],
    rowTypes: [] as RowType[],
    parents: [] as number[],
  };
  const amounts: number[] = [];
  const totals: number[] = [];
  const drills: RowDrill[] = [];
  let grouped = false;
  let tagged = false;
  const visit = (r: ReportRow, parent: number) => {
    const index = t.ids.length;
    t.ids.push(r.id);
    t.names.push(r.name);
    t.coaIds.push(r.coaId);
    t.types.push(r.type);
    t.levels.push(r.level);
    t.groups.push(r.group);
    t.tags.push(r.tag);
    t.rowTypes.push(ROW_TYPES[r.rowType]);
    t.parents.push(parent);
    grouped ||= r.group !== '';
    tagged ||= r.tag !== '';
    for (const a of r.amounts) amounts.push(a);
    totals.push(r.total);
    if (r.drill) drills.push(create(RowDrillSchema, { row: index, report: r.drill.report, startDates: r.drill.startDates, endDates: r.drill.endDates }));
    for (const c of r.children) visit(c, index);
  };
  for (const r of rows) visit(r, -1);
  return create(ReportTableSchema, {
    ...t,
    groups: grouped ? t.groups : [],
    tags: tagged ? t.tags : [],
    amountsCents: packWholeNumbers(amounts),
    totalsCents: packWholeNumbers(totals),
    drills,
  });
}

// A cached report keeps its rows array: its table is built once.
const tables = new WeakMap<readonly ReportRow[], ReportTable>();
const tableOf = (rows: readonly ReportRow[]) => {
  let t = tables.get(rows);
  if (!t) tables.set(rows, (t = tableMessage(rows)));
  return t;
};

const reportMessage = (r: Conditional<Report>) =>
  r.notModified
    ? { notModified: true, etag: r.etag }
    : {
        header: create(ReportHeaderSchema, { ...r.header, seq: BigInt(r.header.seq) }),
        columns: r.columns.map((c) => create(ReportColumnSchema, { label: c.label, startDate: c.start, endDate: c.end })),
        table: tableOf(r.rows),
        etag: r.etag,
      };

/** Thin edge: map the message, call one use case, map the answer. Reading needs only a workspace (Viewers read). */
export function reportingRoutes(u: ReportUseCases, s: SpendingUseCases) {
  return (router: ConnectRouter) =>
    router.service(
      ReportingService,
      withInputRules(ReportingService, {
        ...spendingHandlers(s),
        async getProfitLoss(req, ctx) {
          const r = await u.profitLoss(requireTenant(ctx), raw(req.query), req.query?.ifNoneMatch);
          if (r.notModified) return reportMessage(r);
          // The chart's series go as computed: the gateway draws them without matching row names.
          return {
            ...reportMessage(r),
            incomeCents: packWholeNumbers(r.income),
            expensesCents: packWholeNumbers(r.expenses),
            netIncomeCents: packWholeNumbers(r.netIncome),
          };
        },
        async getBalanceSheet(req, ctx) {
          return reportMessage(await u.balanceSheet(requireTenant(ctx), raw(req.query), req.query?.ifNoneMatch));
        },
        async getCashFlowStatement(req, ctx) {
          return reportMessage(await u.cashFlowStatement(requireTenant(ctx), raw(req.query), req.query?.ifNoneMatch));
        },
        async getCashFlow(req, ctx) {
          const r = await u.cashFlow(requireTenant(ctx), raw(req.query), req.query?.ifNoneMatch);
          if (r.notModified) return { notModified: true, etag: r.etag };
          return {
            etag: r.etag,
            header: create(ReportHeaderSchema, { ...r.header, seq: BigInt(r.header.seq) }),
            openingBalanceCents: BigInt(r.series.opening),
            periods: r.columns.map((c, i) =>
              create(CashPeriodSchema, {
                label: c.label,
                startDate: c.start,
                endDate: c.end,
                inCents: BigInt(r.series.in[i] ?? 0),
                outCents: BigInt(r.series.out[i] ?? 0),
                closingBalanceCents: BigInt(r.series.closing[i] ?? 0),
              }),
            ),
          };
        },
        async getRunway(req, ctx) {
          const r = await u.runway(requireTenant(ctx), req);
          return {
            runwayInMonths: r.runwayInMonths ?? undefined,
            avgExpensesCents: BigInt(r.avgExpenses),
            avgMonths: r.avgMonths,
            assetBalCents: BigInt(r.assetBal),
            month: r.month,
            seq: BigInt(r.seq),
          };
        },
      }),
    );
}
