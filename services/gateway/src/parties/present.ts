// Vendors and customers as the REST answers carry them (proto → JSON; money in decimal dollars).
import { centsToDollars } from '@ledgerline/platform';
import type { Customer, Vendor } from '@ledgerline/proto/parties/v1/parties_pb';

export const emailJson = (email: string) => ({ email });
export const metaJson = (json: string): Record<string, string | number> => (json ? (JSON.parse(json) as Record<string, string | number>) : {});

export function vendorJson(v: Vendor | undefined) {
  if (!v) throw new Error('the parties service answered no vendor');
  return {
    id: v.id,
    name: v.name,
    description: v.description,
    address: v.address,
    bankDetails: v.bankDetails,
    email: emailJson(v.email),
    is1099Eligible: v.is1099Eligible,
    ein: v.ein,
    status: v.status,
    metaData: metaJson(v.metaDataJson),
    isAdded: v.isAdded,
    createdOn: v.createdOn,
    updatedOn: v.updatedOn,
    transactionCount: v.transactionCount,
    spending: centsToDollars(v.spendingCents),
    inflow: centsToDollars(v.inflowCents),
    billCount: v.billCount,
    billAmount: centsToDollars(v.billAmountCents),
    dueBillCount: v.dueBillCount,
    dueBillAmount: centsToDollars(v.dueBillAmountCents),
    overdueAmount: centsToDollars(v.overdueAmountCents),
    vendorCreditCount: v.vendorCreditCount,
    vendorCreditTotal: centsToDollars(v.vendorCreditTotalCents),
    vendorCreditRemainingBalance: centsToDollars(v.vendorCreditRemainingCents),
    hasRule: v.hasRule,
    qboSynced: v.qboSynced,
    merchantNames: v.merchantNames,
  };
}

export function customerJson(c: Customer | undefined) {
  if (!c) throw new Error('the parties service answered no customer');
  return {
    id: c.id,
    name: c.name,
    companyName: c.companyName,
    email: emailJson(c.email),
    description: c.description,
    address: c.address,
    bankDetails: c.bankDetails,
    status: c.status,
    metaData: metaJson(c.metaDataJson),
    createdOn: c.createdOn,
    updatedOn: c.updatedOn,
    invoiceCount: c.invoiceCount,
    invoiceAmount: centsToDollars(c.invoiceAmountCents),
    dueInvoiceCount: c.dueInvoiceCount,
    dueInvoiceAmount: centsToDollars(c.dueInvoiceAmountCents),
    creditMemoCount: c.creditMemoCount,
    creditMemoAmount: centsToDollars(c.creditMemoAmountCents),
    overduePaymentAmount: centsToDollars(c.overduePaymentAmountCents),
    qboSynced: c.qboSynced,
  };
}

/** Body to the service's fields: present keys only (PATCH changes only what it names). */
