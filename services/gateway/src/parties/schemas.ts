// The parties service's REST shapes (vendors, customers, vendor credits and credit memos, vendor rules): JSON schemas
// of the routes in routes/ and the query and body types they validate.
import { bool, int, num, object, ref, str } from '../http/schemas.js';
import { SEQ_PROPERTY } from '../ledger/schemas.js';

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

export type Kind = 'vendor' | 'customer';

export const KINDS = {
  vendor: {
    tag: 'parties',
    one: 'vendorCredit',
    many: 'vendorCredits',
    party: 'vendor',
    partyId: 'vendorId',
    schemaId: 'VendorCredit',
    what: 'Vendor credit',
    base: '/vendors',
  },
  customer: {
    tag: 'parties',
    one: 'creditMemo',
    many: 'creditMemos',
    party: 'customer',
    partyId: 'customerId',
    schemaId: 'CreditMemo',
    what: 'Credit memo',
    base: '/customers',
  },
} as const;

export const LineItemSchema = {
  $id: 'CreditLineItem',
  ...object({ id: str, description: str, categoryId: str, amount: num }, ['id', 'description', 'categoryId', 'amount']),
};

export const PartyRefSchema = { $id: 'CreditParty', ...object({ id: str, name: str }, ['id', 'name']) };

export function creditSchema(kind: Kind) {
  const k = KINDS[kind];
  const memo = kind === 'customer' ? { refNo: str } : {};
  return {
    $id: k.schemaId,
    type: 'object',
    description:
      `A ${k.what.toLowerCase()} (spec §3). totalAmount is the sum of the line items; appliedAmount what live bills (vendor credits) or invoices (credit memos) apply of it (connectedVendorCredits / connectedCreditMemos; follows a document's change within moments); ` +
      'runningBalance = totalAmount − appliedAmount. journalEntryId: the ledger entry booking its current version.',
    properties: {
      id: str,
      paymentDate: str,
      description: str,
      ...memo,
      [k.party]: ref(PartyRefSchema),
      totalAmount: num,
      appliedAmount: num,
      runningBalance: num,
      lineItems: { type: 'array', items: ref(LineItemSchema) },
      journalEntryId: str,
      version: int,
      createdOn: str,
      updatedOn: str,
    },
    required: [
      'id',
      'paymentDate',
      'description',
      ...Object.keys(memo),
      k.party,
      'totalAmount',
      'appliedAmount',
      'runningBalance',
      'lineItems',
      'journalEntryId',
      'version',
      'createdOn',
      'updatedOn',
    ],
    additionalProperties: false,
  } as const;
}

export const VendorCreditSchema = creditSchema('vendor');

export const CreditMemoSchema = creditSchema('customer');

export const CreditPageMetaSchema = {
  $id: 'CreditPageMeta',
  ...object({ page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool }, [
    'page',
    'take',
    'itemCount',
    'pageCount',
    'hasPreviousPage',
    'hasNextPage',
  ]),
};

export const LineItemBody = object({
  description: text(1000),
  categoryId: { ...text(100), description: 'A category (level 3 or 4) of the workspace.' },
  amount: { ...num, description: 'Dollars, greater than 0, at most 2 decimals.' },
});

export function bodySchema(kind: Kind) {
  const k = KINDS[kind];
  return {
    $id: `${k.schemaId}Body`,
    ...object({
      paymentDate: { ...text(10), description: 'YYYY-MM-DD.' },
      [k.partyId]: text(100),
      description: text(1000),
      ...(kind === 'customer' ? { refNo: text(100) } : {}),
      lineItems: { type: 'array', maxItems: 500, items: LineItemBody, description: 'At least one line item.' },
    }),
  };
}

export const VendorCreditBodySchema = bodySchema('vendor');

export const CreditMemoBodySchema = bodySchema('customer');

export const answerSchema = (kind: Kind, schema: { $id: string }) => {
  const k = KINDS[kind];
  return { $id: `${k.schemaId}Answer`, ...object({ message: str, [k.one]: ref(schema), seq: SEQ_PROPERTY }, ['message', k.one, 'seq']) };
};

export const listSchema = (kind: Kind, schema: { $id: string }) => ({
  $id: `${KINDS[kind].schemaId}List`,
  ...object({ data: { type: 'array', items: ref(schema) }, meta: ref(CreditPageMetaSchema) }, ['data', 'meta']),
});

export const deletedSchema = (kind: Kind) => ({ $id: `${KINDS[kind].schemaId}Deleted`, ...object({ message: str, seq: SEQ_PROPERTY }, ['message', 'seq']) });

export const VendorCreditAnswerSchema = answerSchema('vendor', VendorCreditSchema);

export const CreditMemoAnswerSchema = answerSchema('customer', CreditMemoSchema);

export const VendorCreditListSchema = listSchema('vendor', VendorCreditSchema);

export const CreditMemoListSchema = listSchema('customer', CreditMemoSchema);

export const VendorCreditDeletedSchema = deletedSchema('vendor');

export const CreditMemoDeletedSchema = deletedSchema('customer');

export const listQuery = (kind: Kind) =>
  ({
    type: 'object',
    properties: { page: int, take: int, [KINDS[kind].partyId]: { ...text(100), description: `Only this ${KINDS[kind].party}'s.` } },
    additionalProperties: false,
  }) as const;

export interface LineBody {
  description?: string;
  categoryId?: string;
  amount?: number;
}

export interface CreditBody {
  paymentDate?: string;
  vendorId?: string;
  customerId?: string;
  description?: string;
  refNo?: string;
  lineItems?: LineBody[];
}

export const named = (description: string) =>
  ({ type: ['object', 'null'], description, properties: { id: str, name: str }, required: ['id', 'name'], additionalProperties: false }) as const;

export const ImpactedSchema = {
  $id: 'VendorRuleImpactedTransaction',
  ...object({ id: str, description: str, amount: num, dateTime: str, categoryId: str }, ['id', 'description', 'amount', 'dateTime', 'categoryId']),
};

export const VendorRuleSchema = {
  $id: 'VendorRule',
  type: 'object',
  description:
    'A vendor rule (spec §3). conditions: the rule in words. impactedTransactions: the transactions it categorised (appliedRuleId = the rule), newest first, at most 100; ' +
    "impactedTransactionCount: all of them. Amounts compare with the transaction amount's absolute value; descriptions case-insensitively.",
  properties: {
    id: str,
    name: str,
    vendor: named('The vendor the rule gives its transactions, or null.'),
    category: named('The category the rule gives its transactions.'),
    ruleApplyDateTime: str,
    descriptionSign: str,
    descriptionValue: str,
    amountSign: str,
    amountValue: num,
    upperAmountValue: num,
    conditions: { type: 'array', items: str },
    sourceAccount: named('The bank account the transactions must come from, or null.'),
    impactedTransactions: { type: 'array', items: ref(ImpactedSchema) },
    impactedTransactionCount: int,
    vendorId: str,
    categoryId: str,
    sourceId: str,
    createdOn: str,
    updatedOn: str,
  },
  required: [
    'id',
    'name',
    'vendor',
    'category',
    'ruleApplyDateTime',
    'descriptionSign',
    'descriptionValue',
    'amountSign',
    'amountValue',
    'upperAmountValue',
    'conditions',
    'sourceAccount',
    'impactedTransactions',
    'impactedTransactionCount',
    'vendorId',
    'categoryId',
    'sourceId',
    'createdOn',
    'updatedOn',
  ],
  additionalProperties: false,
} as const;

export const VendorRuleListSchema = {
  $id: 'VendorRuleList',
  ...object(
    {
      data: { type: 'array', items: ref(VendorRuleSchema) },
      meta: ref({ $id: 'PartiesPageMeta' }),
    },
    ['data', 'meta'],
  ),
};

export const VendorRuleAnswerSchema = {
  $id: 'VendorRuleAnswer',
  ...object({ message: str, rule: ref(VendorRuleSchema), categorised: { ...int, description: 'Transactions this change categorised (or re-marked) now.' } }, [
    'message',
    'rule',
    'categorised',
  ]),
};

export const VendorRuleDeletedSchema = {
  $id: 'VendorRuleDeleted',
  ...object({ message: str, deleted: bool, keptCategorisations: { ...int, description: 'Transactions that keep the category the rule gave them.' } }, [
    'message',
    'deleted',
    'keptCategorisations',
  ]),
};

// Body: shape only; the parties service owns the rules and messages (spec §5).
export const VendorRuleBodySchema = {
  $id: 'VendorRuleBody',
  ...object({
    name: text(200),
    vendorId: text(100),
    categoryId: text(100),
    ruleApplyDateTime: { ...text(40), description: 'The rule applies to transactions dated on or after this day (YYYY-MM-DD or an ISO date and time).' },
    descriptionSign: { ...text(20), description: 'equals or contains (default contains).' },
    descriptionValue: text(200),
    amountSign: { ...text(20), description: 'equals, greater_than, less_than or between (default equals).' },
    amountValue: { ...num, description: 'Dollars; 0 or absent: no amount condition.' },
    upperAmountValue: { ...num, description: 'Dollars; for between, above amountValue.' },
    sourceId: { ...text(100), description: 'A bank account id: only transactions of that account.' },
  }),
};

export const VENDOR_RULE_LIST_QUERY = { type: 'object', properties: { page: int, take: int, vendorId: text(100) }, additionalProperties: false } as const;

export interface RuleBody {
  name?: string;
  vendorId?: string;
  categoryId?: string;
  ruleApplyDateTime?: string;
  descriptionSign?: string;
  descriptionValue?: string;
  amountSign?: string;
  amountValue?: number;
  upperAmountValue?: number;
  sourceId?: string;
}
