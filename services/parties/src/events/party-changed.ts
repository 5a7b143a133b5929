import { EventType, writeEvent, writePostingRequested, type Knex, type RequestedPosting } from '@ledgerline/platform';

export type VendorChange = 'created' | 'updated' | 'deleted' | 'merged';

/** Writes vendor.changed to the outbox in the caller's transaction: published if and only if it commits. */
export function vendorChanged(
  trx: Knex.Transaction,
  workspaceId: string,
  v: { id: string; name: string; status: string },
  change: VendorChange,
  mergedInto = '',
): Promise<string> {
  return writeEvent(trx, 'parties', {
    type: EventType.VendorChanged,
    workspaceId,
    payload: { vendorId: v.id, change, name: v.name, status: v.status, mergedIntoVendorId: mergedInto },
  });
}

export function customerChanged(
  trx: Knex.Transaction,
  workspaceId: string,
  c: { id: string; name: string; status: string },
  change: 'created' | 'updated' | 'deleted',
): Promise<string> {
  return writeEvent(trx, 'parties', { type: EventType.CustomerChanged, workspaceId, payload: { customerId: c.id, change, name: c.name, status: c.status } });
}

/** One version of a credit the ledger books (decision 0012): written with the version's rows, so the ledger books it once it commits. */
export function postingRequested(trx: Knex.Transaction, workspaceId: string, p: RequestedPosting): Promise<string> {
  return writePostingRequested(trx, 'parties', workspaceId, p);
}
