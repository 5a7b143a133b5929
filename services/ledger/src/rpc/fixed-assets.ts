import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { LedgerFixedAssetService } from '@ledgerline/proto/ledger/v1/fixed_assets_pb';
import type { LedgerDeps } from '../usecases/context.js';
import { FixedAssetPostingUseCases } from '../usecases/fixed-asset-postings.js';

const tenantOf = (ctx: HandlerContext) => requireTenant(ctx);

/** The books of fixed assets (proto ledgerline/ledger/v1/fixed_assets.proto): thin edge over one use case each. */
export function fixedAssetPostingRoutes(deps: LedgerDeps) {
  const u = new FixedAssetPostingUseCases(deps);
  return (router: ConnectRouter) =>
    router.service(LedgerFixedAssetService, {
      async bookAssetPurchase(req, ctx) {
        const r = await u.bookPurchase(tenantOf(ctx), {
          assetId: req.assetId,
          transactionId: req.transactionId,
          assetAccountId: req.assetAccountId,
          dryRun: req.dryRun,
        });
        return { ...r, amountCents: BigInt(r.amountCents), seq: BigInt(r.seq) };
      },
      async releaseAssetPurchase(req, ctx) {
        const r = await u.releasePurchase(tenantOf(ctx), { assetId: req.assetId, transactionId: req.transactionId, categoryId: req.categoryId });
        return { seq: BigInt(r.seq) };
      },
      async postDepreciation(req, ctx) {
        const r = await u.postDepreciation(tenantOf(ctx), {
          sourceId: req.sourceId,
          version: req.version,
          date: req.date,
          amountCents: req.amountCents,
          description: req.description,
        });
        return { ...r, seq: BigInt(r.seq) };
      },
    });
}
