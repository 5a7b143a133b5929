import type { Client } from '@connectrpc/connect';
import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { LedgerFixedAssetService } from '@ledgerline/proto/ledger/v1/fixed_assets_pb';

export type LedgerFixedAssetClient = Client<typeof LedgerFixedAssetService>;

export interface PurchaseAnswer {
  previousCategoryId: string;
  amountCents: number;
  date: string;
  seq: number;
  assetAccountName: string;
  merchantName: string;
}

/**
 * The ledger's side of fixed assets (proto ledgerline/ledger/v1/fixed_assets.proto): the purchase re-booked to the asset
 * account and linked (dry run first: its refusals are this service's answer, naming transactionId / assetTypeId), its
 * release on delete, and each month's depreciation (idempotent on the schedule row's id and version).
 */
export interface FixedAssetLedger {
  bookPurchase(tenant: TenantContext, p: { assetId: string; transactionId: string; assetAccountId: string; dryRun: boolean }): Promise<PurchaseAnswer>;
  releasePurchase(tenant: TenantContext, p: { assetId: string; transactionId: string; categoryId: string }): Promise<number>;
  postDepreciation(
    tenant: TenantContext,
    p: { monthId: string; version: 1 | 2; date: string; amountCents: number; description: string },
  ): Promise<{ entryId: string; seq: number; accumulatedAccountId: string; expenseAccountId: string }>;
}

export function fixedAssetLedger(client: LedgerFixedAssetClient): FixedAssetLedger {
  return {
    async bookPurchase(tenant, p) {
      const r = await client.bookAssetPurchase(
        { assetId: p.assetId, transactionId: p.transactionId, assetAccountId: p.assetAccountId, dryRun: p.dryRun },
        { headers: tenantHeaders(tenant) },
      );
      return {
        previousCategoryId: r.previousCategoryId,
        amountCents: Number(r.amountCents),
        date: r.date,
        seq: Number(r.seq),
        assetAccountName: r.assetAccountName,
        merchantName: r.merchantName,
      };
    },
    async releasePurchase(tenant, p) {
      return Number((await client.releaseAssetPurchase(p, { headers: tenantHeaders(tenant) })).seq);
    },
    async postDepreciation(tenant, p) {
      const r = await client.postDepreciation(
        {
          sourceId: p.monthId,
          version: BigInt(p.version),
          date: p.version === 2 ? '' : p.date,
          amountCents: BigInt(p.version === 2 ? 0 : p.amountCents),
          description: p.description,
        },
        { headers: tenantHeaders(tenant) },
      );
      return { entryId: r.entryId, seq: Number(r.seq), accumulatedAccountId: r.accumulatedAccountId, expenseAccountId: r.expenseAccountId };
    },
  };
}
