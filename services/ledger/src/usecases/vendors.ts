import { assertCanEdit } from '@ledgerline/platform';
import { Problems } from '../domain/validation.js';
import { forgetVendor, mergeVendors, registerVendors, registeredVendors, vendorActivity, type VendorActivityRow } from '../store/vendors-store.js';
import { assertReferences } from './references.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';

/**
 * The parties service's side of the transaction → vendor link (issue #17). The parties service owns vendors;
 * the ledger owns transactions and keeps which vendor each is linked to (`workspace_transactions.vendor_id`,
 * set by PATCH /transactions `vendorId`, else the vendor of its merchant, `billers.vendor_id`). The parties
 * service calls these with the user's role (a Viewer is refused) or, acting on its own (a merchant becoming a
 * vendor), with none.
 */
export class VendorLinkUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async register(tenant: Tenant, vendors: readonly { vendorId: string; billerIds: readonly string[] }[]): Promise<void> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const p = new Problems();
    vendors.forEach((v, i) => {
      p.uuid(`vendors.${i}.vendorId`, v.vendorId, { required: true });
      p.uuids(`vendors.${i}.billerIds`, v.billerIds);
    });
    p.throwIfAny();
    await inWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(
        trx,
        vendors.map((v, i) => ({ field: `vendors.${i}.billerIds`, kind: 'biller' as const, ids: v.billerIds })),
      );
      await registerVendors(trx, tenant.workspaceId, vendors);
    });
  }

  async merge(tenant: Tenant, parentId: string, mergingIds: readonly string[]): Promise<{ movedTransactions: number }> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const p = new Problems();
    p.uuid('parentVendorId', parentId, { required: true });
    if (mergingIds.length === 0) p.add('mergingVendorsId', 'Vendor merge needs a non-empty list of vendor ids');
    p.uuids('mergingVendorsId', mergingIds);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, [{ field: 'parentVendorId', kind: 'vendor', ids: [parentId] }]);
      // A merging id already merged (a retried merge) is simply gone: nothing of it is left to move.
      const known = await registeredVendors(trx, mergingIds);
      const merging = mergingIds.filter((id) => known.has(id) && id !== parentId);
      if (merging.length === 0) return { movedTransactions: 0 };
      return { movedTransactions: await mergeVendors(trx, parentId, merging) };
    });
  }

  async forget(tenant: Tenant, vendorId: string): Promise<void> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const p = new Problems();
    p.uuid('vendorId', vendorId, { required: true });
    p.throwIfAny();
    await inWorkspace(this.deps.db, tenant, (trx) => forgetVendor(trx, vendorId));
  }

  async activity(tenant: Tenant, vendorIds: readonly string[]): Promise<VendorActivityRow[]> {
    const p = new Problems();
    p.uuids('vendorIds', vendorIds);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, (trx) => vendorActivity(trx, vendorIds));
  }
}

/** The parties service passes the user's role on a user's change; none when it acts on its own. */
