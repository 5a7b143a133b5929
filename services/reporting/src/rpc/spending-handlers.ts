import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import {
  MerchantRowSchema,
  SpendingHeaderSchema,
  SpendingRowSchema,
  type GetSpendingRequest,
  type GetTopMerchantsRequest,
  type SpendingQuery,
} from '@ledgerline/proto/reporting/v1/reporting_pb';
import type { RawSpendingQuery } from '../domain/spending.js';
import type { SpendingHeader, SpendingUseCases } from '../usecases/spending.js';

const raw = (q: SpendingQuery | undefined): RawSpendingQuery => ({
  startDate: q?.startDate ?? '',
  endDate: q?.endDate ?? '',
  groups: q?.groups ?? '',
  tags: q?.tags ?? '',
  moneyType: q?.moneyType ?? '',
  seq: q?.seq ?? '',
  workspaces: q?.workspaces ?? '',
});
const header = (h: SpendingHeader) => create(SpendingHeaderSchema, { ...h, seq: BigInt(h.seq) });

/** The ReportingService methods of the spending and top-merchants cards (thin: map, call one use case, map). */
export function spendingHandlers(s: SpendingUseCases) {
  return {
    async getSpending(req: GetSpendingRequest, ctx: HandlerContext) {
      const r = await s.spending(requireTenant(ctx), { ...raw(req.query), order: req.order });
      return {
        header: header(r.header),
        order: r.order,
        totalCents: BigInt(r.totalCents),
        rows: r.rows.map((x) =>
          create(SpendingRowSchema, { id: x.id ?? '', name: x.name, coaId: x.coaId ?? 0, amountCents: BigInt(x.amountCents), percentageBp: x.percentageBp }),
        ),
      };
    },
    async getTopMerchants(req: GetTopMerchantsRequest, ctx: HandlerContext) {
      const r = await s.topMerchants(requireTenant(ctx), raw(req.query));
      return {
        header: header(r.header),
        totalCents: BigInt(r.totalCents),
        rows: r.rows.map((x) =>
          create(MerchantRowSchema, {
            id: x.id ?? '',
            name: x.name,
            amountCents: BigInt(x.amountCents),
            percentageBp: x.percentageBp,
            transactionCount: BigInt(x.transactionCount),
          }),
        ),
      };
    },
  };
}
