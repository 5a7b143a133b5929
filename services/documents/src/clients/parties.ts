import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { PartiesService } from '@ledgerline/proto/parties/v1/parties_pb';

export type PartiesClient = Client<typeof PartiesService>;

/**
 * Vendors and customers are the parties service's (decision 0009): a bill names a vendor and an invoice a customer
 * of the caller's workspace, asked for by id with the caller's tenancy. Undefined: not of this workspace (or gone).
 */
export interface PartyLookup {
  vendor(tenant: TenantContext, id: string): Promise<{ id: string; name: string } | undefined>;
  customer(tenant: TenantContext, id: string): Promise<{ id: string; name: string } | undefined>;
  /** A vendor credit or credit memo of the caller's workspace (decision 0010): its party, total and whether voided. */
  credit(tenant: TenantContext, kind: 'vendor_credit' | 'credit_memo', id: string): Promise<PartyCreditInfo | undefined>;
  /** The workspace's active vendors or customers (suggestedVendor / suggestedCustomer: domain/party-match.ts). */
  active(tenant: TenantContext, kind: 'vendor' | 'customer'): Promise<{ id: string; name: string }[]>;
}

export interface PartyCreditInfo {
  id: string;
  partyId: string;
  totalCents: number;
  voided: boolean;
}

async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (ConnectError.from(err).code === Code.NotFound) return undefined;
    throw err;
  }
}

export function partyLookup(client: PartiesClient): PartyLookup {
  return {
    async vendor(tenant, id) {
      const r = await orUndefined(client.getVendor({ id }, { headers: tenantHeaders(tenant) }));
      return r?.vendor ? { id: r.vendor.id, name: r.vendor.name } : undefined;
    },
    async customer(tenant, id) {
      const r = await orUndefined(client.getCustomer({ id }, { headers: tenantHeaders(tenant) }));
      return r?.customer ? { id: r.customer.id, name: r.customer.name } : undefined;
    },
    async credit(tenant, kind, id) {
      const headers = { headers: tenantHeaders(tenant) };
      const c =
        kind === 'vendor_credit'
          ? (await orUndefined(client.getVendorCredit({ id }, headers)))?.credit
          : (await orUndefined(client.getCreditMemo({ id }, headers)))?.credit;
      return c ? { id: c.id, partyId: c.party?.id ?? '', totalCents: Number(c.totalAmountCents), voided: c.voided } : undefined;
    },
    async active(tenant, kind) {
      const headers = { headers: tenantHeaders(tenant) };
      const r =
        kind === 'vendor'
          ? await client.listVendors({ all: true, status: 'active' }, headers)
          : await client.listCustomers({ all: true, status: 'active' }, headers);
      return r.data.map((p) => ({ id: p.id, name: p.name }));
    },
  };
}
