// The parties service's REST shapes (vendors, customers): JSON schemas of the routes in routes/parties.ts and the
// query and body types they validate.
import { bool, int, num, object, ref, str } from '../http/schemas.js';

export const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

export const EmailSchema = {
  type: 'object',
  description: 'The email, as spec §3 writes it ({email}); lower-cased; an empty string clears it.',
  properties: { email: text(254) },
  required: ['email'],
  additionalProperties: false,
} as const;
export const MetaDataSchema = {
  type: 'object',
  description: 'Free keys with string or number values (at most 50).',
  maxProperties: 50,
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }] },
} as const;

export const VendorSchema = {
  $id: 'Vendor',
  type: 'object',
  description:
    "A vendor (spec §3). transactionCount, spending (money out) and inflow (money in) come from the ledger's transactions linked to the vendor (their own vendorId, else their merchant's vendor). " +
    "billCount / billAmount: the vendor's live (not voided) bills and their total; dueBillCount / dueBillAmount: those with money still owed and what is owed (total − paid); overdueAmount: what is owed on bills whose due date (else bill date) is before today (UTC), decided at each read. " +
    "They follow a bill's change a moment later (a read model fed by the documents service's events). hasRule: the vendor has a vendor rule; vendorCreditCount, vendorCreditTotal and vendorCreditRemainingBalance are the live vendor credits' count, total and total − applied. isAdded: made or edited by a user (false: made from a bank merchant).",
  properties: {
    id: str,
    name: str,
    description: str,
    address: str,
    bankDetails: str,
    email: EmailSchema,
    is1099Eligible: bool,
    ein: str,
    status: { type: 'string', enum: ['active', 'inactive'] },
    metaData: MetaDataSchema,
    isAdded: bool,
    createdOn: str,
    updatedOn: str,
    transactionCount: int,
    spending: num,
    inflow: num,
    billCount: int,
    billAmount: num,
    dueBillCount: int,
    dueBillAmount: num,
    overdueAmount: num,
    vendorCreditCount: int,
    vendorCreditTotal: num,
    vendorCreditRemainingBalance: num,
    hasRule: bool,
    qboSynced: bool,
    merchantNames: { type: 'array', items: str },
  },
  required: [
    'id',
    'name',
    'description',
    'address',
    'bankDetails',
    'email',
    'is1099Eligible',
    'ein',
    'status',
    'metaData',
    'isAdded',
    'createdOn',
    'updatedOn',
    'transactionCount',
    'spending',
    'inflow',
    'billCount',
    'billAmount',
    'dueBillCount',
    'dueBillAmount',
    'overdueAmount',
    'vendorCreditCount',
    'vendorCreditTotal',
    'vendorCreditRemainingBalance',
    'hasRule',
    'qboSynced',
    'merchantNames',
  ],
  additionalProperties: false,
} as const;

export const CustomerSchema = {
  $id: 'Customer',
  type: 'object',
  description:
    'A customer (spec §3). invoiceCount / invoiceAmount: the live (not voided) invoices and their total; dueInvoiceCount / dueInvoiceAmount: those with money still owed and what is owed (total − paid); ' +
    "overduePaymentAmount: what is owed on invoices whose due date (else invoice date) is before today (UTC), decided at each read; they follow an invoice's change a moment later (a read model fed by the documents service's events). creditMemoCount and creditMemoAmount are the live credit memos' count and total.",
  properties: {
    id: str,
    name: str,
    companyName: str,
    email: EmailSchema,
    description: str,
    address: str,
    bankDetails: str,
    status: { type: 'string', enum: ['active', 'inactive'] },
    metaData: MetaDataSchema,
    createdOn: str,
    updatedOn: str,
    invoiceCount: int,
    invoiceAmount: num,
    dueInvoiceCount: int,
    dueInvoiceAmount: num,
    creditMemoCount: int,
    creditMemoAmount: num,
    overduePaymentAmount: num,
    qboSynced: bool,
  },
  required: [
    'id',
    'name',
    'companyName',
    'email',
    'description',
    'address',
    'bankDetails',
    'status',
    'metaData',
    'createdOn',
    'updatedOn',
    'invoiceCount',
    'invoiceAmount',
    'dueInvoiceCount',
    'dueInvoiceAmount',
    'creditMemoCount',
    'creditMemoAmount',
    'overduePaymentAmount',
    'qboSynced',
  ],
  additionalProperties: false,
} as const;

export const PartiesPageMetaSchema = {
  $id: 'PartiesPageMeta',
  type: 'object',
  description: 'Paging of a vendor or customer list (page from 1; take 1–100, default 20).',
  properties: { page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool },
  required: ['page', 'take', 'itemCount', 'pageCount', 'hasPreviousPage', 'hasNextPage'],
  additionalProperties: false,
} as const;

export const VendorListSchema = {
  $id: 'VendorList',
  ...object({ data: { type: 'array', items: ref(VendorSchema) }, meta: ref(PartiesPageMetaSchema) }, ['data', 'meta']),
};
export const CustomerListSchema = {
  $id: 'CustomerList',
  ...object({ data: { type: 'array', items: ref(CustomerSchema) }, meta: ref(PartiesPageMetaSchema) }, ['data', 'meta']),
};
export const VendorAnswerSchema = { $id: 'VendorAnswer', ...object({ message: str, vendor: ref(VendorSchema) }, ['message', 'vendor']) };
export const VendorDeletedSchema = {
  $id: 'VendorDeleted',
  ...object(
    {
      message: {
        ...str,
        description: "'Vendor deleted', or what keeps it (its transactions, bills and vendor credits, counted) and that it was made inactive instead.",
      },
      deleted: { ...bool, description: 'false: the vendor has transactions, bills or vendor credits and was made inactive instead.' },
      vendor: ref(VendorSchema),
    },
    ['message', 'deleted', 'vendor'],
  ),
};
export const CustomerDeletedSchema = {
  $id: 'CustomerDeleted',
  ...object(
    {
      message: { ...str, description: "'Customer deleted', or what keeps it (its invoices and credit memos, counted) and that it was made inactive instead." },
      deleted: { ...bool, description: 'false: the customer has invoices or credit memos and was made inactive instead.' },
    },
    ['message', 'deleted'],
  ),
};
export const VendorMergedSchema = {
  $id: 'VendorMerged',
  ...object({ message: str, vendor: ref(VendorSchema), movedTransactions: int }, ['message', 'vendor', 'movedTransactions']),
};
export const CustomerAnswerSchema = { $id: 'CustomerAnswer', ...object({ message: str, customer: ref(CustomerSchema) }, ['message', 'customer']) };

// Bodies: shape only (as every body, services/gateway/src/http/schemas.ts); the service owns the rules and messages.
export const partyText = {
  name: text(200),
  description: text(1000),
  address: text(300),
  bankDetails: text(500),
  email: EmailSchema,
  status: text(20),
  metaData: MetaDataSchema,
};
export const VendorBodySchema = { $id: 'VendorBody', ...object({ ...partyText, is1099Eligible: bool, ein: text(20) }) };
export const CustomerBodySchema = { $id: 'CustomerBody', ...object({ ...partyText, companyName: text(100) }) };
export const MergeBodySchema = {
  $id: 'VendorMergeBody',
  ...object({
    parentVendorId: text(100),
    mergingVendorsId: { type: 'array', maxItems: 100, items: text(100), description: 'The vendors merged into the parent (at least one).' },
  }),
};

export const LIST_QUERY = {
  type: 'object',
  properties: {
    page: int,
    take: int,
    search: text(200),
    status: text(20),
    filter: { ...text(20), description: 'Vendors: added or not-added (the Added filter).' },
  },
  additionalProperties: false,
} as const;
export const CUSTOMER_LIST_QUERY = {
  type: 'object',
  properties: { page: int, take: int, search: { ...text(200), description: 'Part of the name or company name.' }, status: text(20) },
  additionalProperties: false,
} as const;
export interface ListQueryString {
  page?: number;
  take?: number;
  search?: string;
  status?: string;
  filter?: string;
}

export interface EmailBody {
  email?: string;
}
export interface PartyBody {
  name?: string;
  description?: string;
  address?: string;
  bankDetails?: string;
  email?: EmailBody;
  status?: string;
  metaData?: Record<string, string | number>;
  is1099Eligible?: boolean;
  ein?: string;
  companyName?: string;
}
