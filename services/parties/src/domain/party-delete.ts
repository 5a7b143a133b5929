/**
 * What keeps a vendor or customer from being deleted, in the answer's words. As in QuickBooks Online (a name used on
 * transactions can only be made inactive) and Xero (a contact with transactions can only be archived), DELETE makes such
 * a party inactive instead, and the answer names everything that holds it, with counts, so the user knows why and
 * where to look: "This vendor has 3 transactions, 1 bill and 2 vendor credits, so it was made inactive instead of
 * deleted". Pure; `test/party-delete.test.ts`.
 */

/** What a vendor has in the books (live transactions, live bills, live vendor credits). */
export interface VendorHoldings {
  transactions: number;
  bills: number;
  vendorCredits: number;
}

/** What a customer has (live invoices, live credit memos). */
export interface CustomerHoldings {
  invoices: number;
  creditMemos: number;
}

export const DELETED = { vendor: 'Vendor deleted', customer: 'Customer deleted' } as const;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "a", "a and b", "a, b and c". */
function listed(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function kept(kind: 'vendor' | 'customer', parts: readonly string[], wasInactive: boolean): string | null {
  if (parts.length === 0) return null;
  const outcome = wasInactive ? 'so it stays inactive instead of being deleted' : 'so it was made inactive instead of deleted';
  return `This ${kind} has ${listed(parts)}, ${outcome}`;
}

/** Null when nothing holds the vendor (it may be deleted); else the answer's message. */
export function vendorKeptMessage(h: VendorHoldings, wasInactive: boolean): string | null {
  const parts: string[] = [];
  if (h.transactions > 0) parts.push(count(h.transactions, 'transaction', 'transactions'));
  if (h.bills > 0) parts.push(count(h.bills, 'bill', 'bills'));
  if (h.vendorCredits > 0) parts.push(count(h.vendorCredits, 'vendor credit', 'vendor credits'));
  return kept('vendor', parts, wasInactive);
}

/** Null when nothing holds the customer (it may be deleted); else the answer's message. */
export function customerKeptMessage(h: CustomerHoldings, wasInactive: boolean): string | null {
  const parts: string[] = [];
  if (h.invoices > 0) parts.push(count(h.invoices, 'invoice', 'invoices'));
  if (h.creditMemos > 0) parts.push(count(h.creditMemos, 'credit memo', 'credit memos'));
  return kept('customer', parts, wasInactive);
}
