import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  CustomerSchema,
  PageMetaSchema,
  PartiesService as PartiesRpc,
  VendorSchema,
  type Customer,
  type CustomerFields,
  type Vendor,
  type VendorFields,
} from '@ledgerline/proto/parties/v1/parties_pb';
import type { CustomerInput, VendorInput } from '../domain/parties.js';
import type { CreditUseCases } from '../usecases/credits.js';
import type { CustomerView, ListAnswer, PartiesUseCases, VendorView } from '../usecases/index.js';
import type { VendorRuleUseCases } from '../usecases/vendor-rules.js';
import { creditHandlers } from './credits.js';
import { vendorRuleHandlers } from './vendor-rules.js';

export function vendorMessage(v: VendorView): Vendor {
  const r = v.row;
  return create(VendorSchema, {
    id: r.id,
    name: r.name,
    description: r.description,
    address: r.address,
    bankDetails: r.bank_details,
    email: r.email,
    is1099Eligible: r.is_1099_eligible,
    ein: r.ein,
    status: r.status,
    metaDataJson: JSON.stringify(r.meta_data),
    isAdded: r.is_added,
    createdOn: r.created_at.toISOString(),
    updatedOn: r.updated_at.toISOString(),
    transactionCount: v.activity.transactionCount,
    spendingCents: BigInt(v.activity.spendingCents),
    inflowCents: BigInt(v.activity.inflowCents),
    // Bills: the read model of the documents service's bills, as of today. Vendor credits and rules: this service's.
    billCount: v.bills?.count ?? 0,
    billAmountCents: BigInt(v.bills?.amountCents ?? 0),
    dueBillCount: v.bills?.dueCount ?? 0,
    dueBillAmountCents: BigInt(v.bills?.dueAmountCents ?? 0),
    overdueAmountCents: BigInt(v.bills?.overdueAmountCents ?? 0),
    hasRule: v.hasRule ?? false,
    vendorCreditCount: v.credits?.count ?? 0,
    vendorCreditTotalCents: BigInt(v.credits?.totalCents ?? 0),
    vendorCreditRemainingCents: BigInt(v.credits?.remainingCents ?? 0),
    qboSynced: r.qbo_synced,
    merchantNames: v.merchantNames,
  });
}

export function customerMessage(r: CustomerView): Customer {
  return create(CustomerSchema, {
    id: r.id,
    name: r.name,
    companyName: r.company_name,
    email: r.email,
    description: r.description,
    address: r.address,
    bankDetails: r.bank_details,
    status: r.status,
    metaDataJson: JSON.stringify(r.meta_data),
    createdOn: r.created_at.toISOString(),
    updatedOn: r.updated_at.toISOString(),
    // Invoices: the read model of the documents service's invoices, as of today. Credit memos: this service's (live ones).
    invoiceCount: r.invoices?.count ?? 0,
    invoiceAmountCents: BigInt(r.invoices?.amountCents ?? 0),
    dueInvoiceCount: r.invoices?.dueCount ?? 0,
    dueInvoiceAmountCents: BigInt(r.invoices?.dueAmountCents ?? 0),
    overduePaymentAmountCents: BigInt(r.invoices?.overdueAmountCents ?? 0),
    creditMemoCount: r.memoTotals?.count ?? 0,
    creditMemoAmountCents: BigInt(r.memoTotals?.totalCents ?? 0),
    qboSynced: r.qbo_synced,
  });
}

const metaOf = <T>(a: ListAnswer<T>) => create(PageMetaSchema, a.meta);

const vendorInput = (f: VendorFields | undefined): VendorInput => ({
  name: f?.name,
  description: f?.description,
  address: f?.address,
  bankDetails: f?.bankDetails,
  email: f?.email,
  is1099Eligible: f?.is1099Eligible,
  ein: f?.ein,
  status: f?.status,
  metaDataJson: f?.metaDataJson,
});
const customerInput = (f: CustomerFields | undefined): CustomerInput => ({
  name: f?.name,
  companyName: f?.companyName,
  email: f?.email,
  description: f?.description,
  address: f?.address,
  bankDetails: f?.bankDetails,
  status: f?.status,
  metaDataJson: f?.metaDataJson,
});

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function partiesRoutes(u: PartiesUseCases, credits: CreditUseCases, rules?: VendorRuleUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      PartiesRpc,
      withInputRules(PartiesRpc, {
        async listVendors(req, ctx) {
          const a = await u.listVendors(requireTenant(ctx), {
            page: req.page,
            take: req.take,
            search: req.search,
            status: req.status,
            filter: req.filter,
            all: req.all,
          });
          return { data: a.data.map(vendorMessage), meta: metaOf(a) };
        },
        async getVendor(req, ctx) {
          return { vendor: vendorMessage(await u.getVendor(requireTenant(ctx), req.id)) };
        },
        async createVendor(req, ctx) {
          return { vendor: vendorMessage(await u.createVendor(requireTenant(ctx), vendorInput(req.fields))) };
        },
        async updateVendor(req, ctx) {
          return { vendor: vendorMessage(await u.updateVendor(requireTenant(ctx), req.id, vendorInput(req.fields))) };
        },
        async deleteVendor(req, ctx) {
          const r = await u.deleteVendor(requireTenant(ctx), req.id);
          return { deleted: r.deleted, vendor: vendorMessage(r.vendor), message: r.message };
        },
        async mergeVendors(req, ctx) {
          const r = await u.mergeVendors(requireTenant(ctx), req.parentVendorId, req.mergingVendorsId);
          return { vendor: vendorMessage(r.vendor), movedTransactions: r.movedTransactions };
        },
        async listCustomers(req, ctx) {
          const a = await u.listCustomers(requireTenant(ctx), { page: req.page, take: req.take, search: req.search, status: req.status, all: req.all });
          return { data: a.data.map(customerMessage), meta: metaOf(a) };
        },
        async getCustomer(req, ctx) {
          return { customer: customerMessage(await u.getCustomer(requireTenant(ctx), req.id)) };
        },
        async createCustomer(req, ctx) {
          return { customer: customerMessage(await u.createCustomer(requireTenant(ctx), customerInput(req.fields))) };
        },
        async updateCustomer(req, ctx) {
          return { customer: customerMessage(await u.updateCustomer(requireTenant(ctx), req.id, customerInput(req.fields))) };
        },
        async deleteCustomer(req, ctx) {
          return u.deleteCustomer(requireTenant(ctx), req.id);
        },
        ...creditHandlers(credits),
        ...(rules ? vendorRuleHandlers(rules) : {}),
      }),
    );
  };
}
