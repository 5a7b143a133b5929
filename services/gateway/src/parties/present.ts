// Vendors, customers, their credits and vendor rules as the REST answers carry them (proto → JSON; money in decimal dollars).
import { centsToDollars } from '@ledgerline/platform';
import type { Customer, PartyCredit, Vendor, VendorRule } from '@ledgerline/proto/parties/v1/parties_pb';
import { KINDS, type Kind } from './schemas.js';

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

export function creditJson(kind: Kind, c: PartyCredit | undefined) {
  if (!c) throw new Error('the parties service answered no credit');
  return {
    id: c.id,
    paymentDate: c.paymentDate,
    description: c.description,
    ...(kind === 'customer' ? { refNo: c.refNo } : {}),
    [KINDS[kind].party]: { id: c.party?.id ?? '', name: c.party?.name ?? '' },
    totalAmount: centsToDollars(c.totalAmountCents),
    appliedAmount: centsToDollars(c.appliedAmountCents),
    runningBalance: centsToDollars(c.runningBalanceCents),
    lineItems: c.lineItems.map((l) => ({ id: l.id, description: l.description, categoryId: l.categoryId, amount: centsToDollars(l.amountCents) })),
    journalEntryId: c.journalEntryId,
    version: Number(c.version),
    createdOn: c.createdOn,
    updatedOn: c.updatedOn,
  };
}

export function vendorRuleJson(r: VendorRule | undefined) {
  if (!r) throw new Error('the parties service answered no vendor rule');
  return {
    id: r.id,
    name: r.name,
    vendor: r.vendorId ? { id: r.vendorId, name: r.vendorName } : null,
    category: { id: r.categoryId, name: r.categoryName },
    ruleApplyDateTime: r.ruleApplyDateTime,
    descriptionSign: r.descriptionSign,
    descriptionValue: r.descriptionValue,
    amountSign: r.amountSign,
    amountValue: centsToDollars(r.amountCents),
    upperAmountValue: centsToDollars(r.upperAmountCents),
    conditions: r.conditions,
    sourceAccount: r.sourceId ? { id: r.sourceId, name: r.sourceAccountName } : null,
    impactedTransactions: r.impacted.map((i) => ({
      id: i.id,
      description: i.description,
      amount: centsToDollars(i.amountCents),
      dateTime: i.date,
      categoryId: i.categoryId,
    })),
    impactedTransactionCount: r.impactedCount,
    vendorId: r.vendorId,
    categoryId: r.categoryId,
    sourceId: r.sourceId,
    createdOn: r.createdOn,
    updatedOn: r.updatedOn,
  };
}

/** Body to the service's fields: present keys only (PATCH changes only what it names); dollars to cents (a bad amount: 400). */
/** DELETE's answer: past categorisations stay (as in QuickBooks Online), and the answer says how many, in good English. */
export function ruleDeletedMessage(kept: number): string {
  if (kept <= 0) return 'Vendor rule deleted';
  if (kept === 1) return 'Vendor rule deleted. The 1 transaction it categorised keeps its category.';
  return `Vendor rule deleted. The ${kept.toLocaleString('en-US')} transactions it categorised keep their category.`;
}
