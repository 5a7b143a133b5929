import type { Client } from '@connectrpc/connect';
import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';

export type LedgerClient = Client<typeof LedgerService>;

export interface VendorActivity {
  transactionCount: number;
  spendingCents: number;
  inflowCents: number;
}

/**
 * What the parties service asks of the ledger, which owns transactions and keeps their vendor link
 * (services/ledger/README.md, "Vendors"): every call carries the caller's tenancy (and role, when a user acts).
 */
export interface LedgerLink {
  register(tenant: TenantContext, vendors: { vendorId: string; billerIds: string[] }[]): Promise<void>;
  merge(tenant: TenantContext, parentId: string, mergingIds: string[]): Promise<number>;
  forget(tenant: TenantContext, vendorId: string): Promise<void>;
  /** Per vendor id; all of the workspace's when `vendorIds` is undefined. */
  activity(tenant: TenantContext, vendorIds?: string[]): Promise<Map<string, VendorActivity>>;
}

export function ledgerLink(client: LedgerClient): LedgerLink {
  const call = (tenant: TenantContext) => ({ headers: tenantHeaders(tenant) });
  return {
    async register(tenant, vendors) {
      await client.registerVendors({ vendors }, call(tenant));
    },
    async merge(tenant, parentId, mergingIds) {
      return (await client.mergeVendors({ parentVendorId: parentId, mergingVendorIds: mergingIds }, call(tenant))).movedTransactions;
    },
    async forget(tenant, vendorId) {
      await client.forgetVendor({ vendorId }, call(tenant));
    },
    async activity(tenant, vendorIds) {
      const out = new Map<string, VendorActivity>();
      if (vendorIds && vendorIds.length === 0) return out;
      const r = await client.getVendorActivity({ vendorIds: vendorIds ?? [] }, call(tenant));
      for (const a of r.activity)
        out.set(a.vendorId, { transactionCount: a.transactionCount, spendingCents: Number(a.spendingCents), inflowCents: Number(a.inflowCents) });
      return out;
    },
  };
}
