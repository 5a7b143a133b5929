import { create } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { FixedAssetSchema, FixedAssetsService, type FixedAsset } from '@ledgerline/proto/documents/v1/fixed_assets_pb';
import type { AssetView, FixedAssetUseCases } from '../usecases/fixed-assets.js';

const tenantOf = (ctx: HandlerContext) => requireTenant(ctx);

export function fixedAssetMessage(v: AssetView): FixedAsset {
  const r = v.row;
  return create(FixedAssetSchema, {
    id: r.id,
    referenceWorkspaceTransaction: r.transaction_id,
    purchaseDate: r.purchase_date,
    description: r.description,
    assetTypeId: r.asset_account_id,
    assetTypeName: r.asset_account_name,
    depreciationStartDate: r.depreciation_start_date,
    usefulLife: r.useful_life,
    costCents: BigInt(r.cost_cents),
    salvageValueCents: BigInt(r.salvage_cents),
    totalEstimatedUnits: r.total_estimated_units,
    unitProducedPerYear: r.unit_produced_per_year,
    method: r.method,
    status: v.status,
    qboSynced: r.qbo_synced,
    stoppedOn: r.stopped_on ?? '',
    accumulatedDepreciationCents: BigInt(v.accumulatedCents),
    carryingValueCents: BigInt(r.cost_cents - v.accumulatedCents),
    merchantName: r.merchant_name,
    createdAt: r.created_at.toISOString(),
    schedule: (v.schedule ?? []).map((m) => ({
      id: m.id,
      depreciationDateTime: m.depreciation_date,
      depreciationAssetCents: BigInt(r.cost_cents),
      isDepreciated: m.posted_at !== null && m.reversed_at === null,
      beginningCarryingValueCents: BigInt(m.beginning_cents),
      endingCarryingValueCents: BigInt(m.ending_cents),
      depreciationAmountCents: BigInt(m.amount_cents),
      accumulatedDepreciationCents: BigInt(m.accumulated_cents),
      journalEntryId: m.journal_entry_id ?? '',
    })),
  });
}

const opt = (has: boolean, v: number) => (has ? v : undefined);

/** The fixed-asset RPCs (proto ledgerline/documents/v1/fixed_assets.proto): the caller's tenancy, one use case, the answer. */
export function fixedAssetRoutes(u: FixedAssetUseCases): (router: ConnectRouter) => void {
  return (router) =>
    router.service(FixedAssetsService, {
      async listFixedAssets(_req, ctx) {
        return { fixedAssets: (await u.list(tenantOf(ctx))).map(fixedAssetMessage) };
      },
      async getFixedAsset(req, ctx) {
        return { fixedAsset: fixedAssetMessage(await u.get(tenantOf(ctx), req.id)) };
      },
      async createFixedAsset(req, ctx) {
        const r = await u.create(tenantOf(ctx), {
          transactionId: req.transactionId,
          purchaseDate: req.purchaseDate,
          depreciationStartDate: req.depreciationStartDate,
          description: req.description,
          assetTypeId: req.assetTypeId,
          cost: opt(req.cost !== undefined, req.cost ?? 0),
          salvageValue: opt(req.salvageValue !== undefined, req.salvageValue ?? 0),
          usefulLife: opt(req.usefulLife !== undefined, req.usefulLife ?? 0),
          method: req.method,
          totalEstimatedUnits: opt(req.totalEstimatedUnits !== undefined, req.totalEstimatedUnits ?? 0),
          unitProducedPerYear: opt(req.unitProducedPerYear !== undefined, req.unitProducedPerYear ?? 0),
        });
        return { fixedAsset: fixedAssetMessage(r.view), seq: BigInt(r.seq) };
      },
      async stopFixedAsset(req, ctx) {
        return { fixedAsset: fixedAssetMessage(await u.stop(tenantOf(ctx), req.id)) };
      },
      async deleteFixedAsset(req, ctx) {
        return { seq: BigInt(await u.remove(tenantOf(ctx), req.id)) };
      },
      async listDepreciation(req, ctx) {
        const months = await u.depreciation(tenantOf(ctx), req.startDate, req.endDate);
        return {
          months: months.map((m) => ({
            assetId: m.asset_id,
            description: m.description,
            date: m.depreciation_date,
            amountCents: BigInt(m.amount_cents),
            isDepreciated: m.isDepreciated,
            accumulatedDepreciationCents: BigInt(m.accumulated_cents),
            carryingValueCents: BigInt(m.ending_cents),
          })),
        };
      },
    });
}
