// The documents service's REST shapes (bills, invoices, manual journals and their payments, recurrence, drafts, uploads,
// fixed assets and the schedules): JSON schemas of the routes in routes/ and the query and body types they validate.

import { bool, int, num, object, ref, str } from '../http/schemas.js';
import { SEQ_PROPERTY } from '../ledger/schemas.js';

/**
 * The recurrence fields of a bill, invoice or manual journal (spec documents-parties-integrations §3: isRecurredParent,
 * recurringStartDate, recurringEndDate, recurringSchedule of recurrenceDate and isRecurred, interval), with the end and
 * the activity (Active, Paused, Stopped). Shared by the documents' answers and the recurrence routes.
 */

/** A string of at most `maxLength` characters, with its description when given. */
export const text = (maxLength: number, description?: string) => ({ type: 'string', maxLength, ...(description ? { description } : {}) }) as const;

/** The schedule's fields of a recur body, and of a bill's, invoice's or manual journal's create / PUT body (spec §5 payloads). */
export const RECURRENCE_BODY = {
  recurringStartDate: text(10, 'YYYY-MM-DD: the first date of the schedule. Required when any recurrence field is given.'),
  recurringEndDate: text(10, 'YYYY-MM-DD, inclusive: the schedule ends on this date (recurringEndType date).'),
  interval: text(20, 'daily, weekly, monthly (default), quarterly or yearly.'),
  recurringEndType: text(10, 'never, date or count; absent: date with recurringEndDate, count with recurringCount, else never.'),
  recurringCount: { type: 'number', description: 'A positive integer: the number of occurrences in all (recurringEndType count).' },
} as const;

export const RecurrenceDateSchema = {
  $id: 'RecurrenceDate',
  type: 'object',
  additionalProperties: false,
  properties: {
    recurrenceDate: str,
    isRecurred: { ...bool, description: 'Whether this date was handled (its document created, or the template itself on its own date).' },
    documentId: str,
  },
  required: ['recurrenceDate', 'isRecurred', 'documentId'],
} as const;

export const RecurrenceSchema = {
  $id: 'Recurrence',
  type: 'object',
  additionalProperties: false,
  description: 'Its recurrence: as a template (isRecurredParent) or as a document a recurrence created (recurredFromId). Empty fields when it never recurred.',
  properties: {
    isRecurredParent: bool,
    recurringStartDate: str,
    recurringEndDate: str,
    interval: { ...str, description: 'daily, weekly, monthly, quarterly or yearly.' },
    recurringEndType: { ...str, description: 'never, date or count.' },
    recurringCount: { ...int, description: 'Occurrences in all, when it ends after a count.' },
    activity: { ...str, description: 'Active, Paused or Stopped.' },
    recurringSchedule: { type: 'array', items: { $ref: 'RecurrenceDate#' }, description: 'The dates handled so far, then the next ones (at most 12).' },
    nextRecurrenceDate: str,
    recurredFromId: str,
  },
  required: [
    'isRecurredParent',
    'recurringStartDate',
    'recurringEndDate',
    'interval',
    'recurringEndType',
    'recurringCount',
    'activity',
    'recurringSchedule',
    'nextRecurrenceDate',
    'recurredFromId',
  ],
} as const;

/** A body list of `{ id, amount }` (the whole set; absent: none). */
export const connectionBody = (description: string) =>
  ({
    type: 'array',
    maxItems: 500,
    description,
    items: object({
      id: { type: 'string', maxLength: 100, description: 'A UUID of the workspace.' },
      amount: { ...num, description: 'Dollars, greater than 0.' },
    }),
  }) as const;

export const CONNECTION_BODIES = {
  connectedManualEntries: connectionBody(
    'The whole set of manual journals paying it (absent: none). A journal pays at most its net debit to Accounts Payable (bills) / net credit to Accounts Receivable (invoices) not applied elsewhere.',
  ),
  connectedVendorCredits: connectionBody(
    "The whole set of vendor credits of the bill's vendor applied to it (absent: none), each at most its remaining balance.",
  ),
  connectedCreditMemos: connectionBody(
    "The whole set of credit memos of the invoice's customer applied to it (absent: none), each at most its remaining balance.",
  ),
  connectedBills: connectionBody('The whole set of bills this journal pays (absent: none); together at most its net debit to Accounts Payable.'),
  connectedInvoices: connectionBody('The whole set of invoices this journal pays (absent: none); together at most its net credit to Accounts Receivable.'),
} as const;

export const ConnectionSchema = { $id: 'DocumentConnection', ...object({ id: str, amount: num }, ['id', 'amount']) };

export const connectionList = (description: string) => ({ type: 'array', items: ref(ConnectionSchema), description }) as const;

export const CONNECTION_PROPS = {
  bill: {
    connectedManualEntries: connectionList('The manual journals paying it, with what each pays.'),
    connectedVendorCredits: connectionList('The vendor credits applied to it, with what each pays.'),
  },
  invoice: {
    connectedManualEntries: connectionList('The manual journals paying it, with what each pays.'),
    connectedCreditMemos: connectionList('The credit memos applied to it, with what each pays.'),
  },
  manual_entry: {
    paidBills: connectionList('The bills it pays, with what it pays of each.'),
    paidInvoices: connectionList('The invoices it pays, with what it pays of each.'),
  },
} as const;

export const CONNECTION_REQUIRED = {
  bill: ['connectedManualEntries', 'connectedVendorCredits'],
  invoice: ['connectedManualEntries', 'connectedCreditMemos'],
  manual_entry: ['paidBills', 'paidInvoices'],
};

export const CONNECTION_SCHEMAS = [ConnectionSchema];

export interface ConnectionBodies {
  connectedManualEntries?: { id?: string; amount?: number }[];
  connectedVendorCredits?: { id?: string; amount?: number }[];
  connectedCreditMemos?: { id?: string; amount?: number }[];
  connectedBills?: { id?: string; amount?: number }[];
  connectedInvoices?: { id?: string; amount?: number }[];
}

/** The payment lists each kind takes; the others are refused by name (400), never dropped. */
export const ACCEPTED_LISTS: Record<Kind, readonly (keyof ConnectionBodies)[]> = {
  bill: ['connectedManualEntries', 'connectedVendorCredits'],
  invoice: ['connectedManualEntries', 'connectedCreditMemos'],
  manual_entry: ['connectedBills', 'connectedInvoices'],
};

export const A_KIND: Record<Kind, string> = { bill: 'a bill', invoice: 'an invoice', manual_entry: 'a manual entry' };

/** Per kind, the lists it does not take, in its body schema only to be refused by name. */
export const misplacedSchemas = (k: Kind) =>
  Object.fromEntries(
    (Object.keys(CONNECTION_BODIES) as (keyof ConnectionBodies)[])
      .filter((f) => !ACCEPTED_LISTS[k].includes(f))
      .map((f) => [f, connectionBody(`Not taken on ${A_KIND[k]}: a non-empty list is refused with a 400 naming it (an empty one is ignored).`)]),
  );

export const MISPLACED = { bill: misplacedSchemas('bill'), invoice: misplacedSchemas('invoice'), manual_entry: misplacedSchemas('manual_entry') };

export const DetailSchema = {
  $id: 'PaymentDetail',
  ...object(
    {
      id: str,
      kind: { ...str, description: 'bill or invoice.' },
      party: object({ id: str, name: str }, ['id', 'name']),
      reference: str,
      totalAmount: num,
      paidAmount: { ...num, description: 'What its other payments pay already.' },
      amount: { ...num, description: 'What this payment would pay of it.' },
      remainingAmount: { ...num, description: 'totalAmount − paidAmount − amount (negative: overpaid).' },
      paymentStatus: { ...str, description: 'The status it would have.' },
      differenceMessages: { type: 'array', items: str },
    },
    ['id', 'kind', 'party', 'reference', 'totalAmount', 'paidAmount', 'amount', 'remainingAmount', 'paymentStatus', 'differenceMessages'],
  ),
};

export const DetailsAnswerSchema = {
  $id: 'PaymentDetailsCheck',
  ...object({ bills: { type: 'array', items: ref(DetailSchema) }, invoices: { type: 'array', items: ref(DetailSchema) }, totalAmount: num }, [
    'bills',
    'invoices',
    'totalAmount',
  ]),
};

export const DetailsBodySchema = {
  $id: 'PaymentDetailsBody',
  ...object({
    connectedBills: CONNECTION_BODIES.connectedBills,
    connectedInvoices: CONNECTION_BODIES.connectedInvoices,
    manualEntryId: { type: 'string', maxLength: 100, description: 'The manual journal being edited, if any: what it pays now is not counted twice.' },
  }),
};

export const SuggestionSchema = {
  $id: 'PaymentSuggestion',
  ...object(
    {
      kind: { ...str, description: 'bill (money out) or invoice (money in).' },
      score: {
        type: 'integer',
        description:
          '0–100: amount 60 (what is left to pay equals the transaction within 0.01; 25 within 5%), vendor / customer 25, due date within 7 days 15 (within 30: 5).',
      },
      reasons: { type: 'array', items: str, description: 'amount, amount within 5%, party, date, date within 30 days.' },
      bill: ref({ $id: 'Bill' }),
      invoice: ref({ $id: 'Invoice' }),
    },
    ['kind', 'score', 'reasons'],
  ),
};

export const SuggestionsAnswerSchema = {
  $id: 'PaymentSuggestions',
  ...object({ suggestions: { type: 'array', items: ref(SuggestionSchema) } }, ['suggestions']),
};

export const strings = { type: 'array', items: str } as const;

export type Kind = 'bill' | 'invoice' | 'manual_entry';

export const PartyRefSchema = { $id: 'DocumentParty', ...object({ id: str, name: str }, ['id', 'name']) };

export const DocumentPageMetaSchema = {
  $id: 'DocumentPageMeta',
  ...object({ page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool }, [
    'page',
    'take',
    'itemCount',
    'pageCount',
    'hasPreviousPage',
    'hasNextPage',
  ]),
};

export const COMMON_PROPS = {
  id: str,
  voided: bool,
  status: { ...str, description: 'Posted or Voided.' },
  totalAmount: num,
  source: str,
  journalEntryId: { ...str, description: 'The ledger entry booking the current version; empty once voided.' },
  version: int,
  createdOn: str,
  updatedOn: str,
  recurrence: ref(RecurrenceSchema),
} as const;

export const ConnectedSchema = { $id: 'DocumentConnectedTransaction', ...object({ id: str, amount: num }, ['id', 'amount']) };

export const PAYMENT_PROPS = {
  paymentStatus: { ...str, description: 'PAID, PARTIALLY_PAID, OVERPAID or UNPAID, from what the connected payments pay (within 0.01).' },
  paidAmount: num,
  differenceMessages: strings,
  connectedTransactions: {
    type: 'array',
    items: ref(ConnectedSchema),
    description: 'The bank transactions paying it (each re-booked against Accounts Payable / Receivable and locked), with what each pays.',
  },
} as const;

export const CONNECTED_BODY = {
  type: 'array',
  maxItems: 500,
  description:
    'The whole set of bank transactions paying it (absent: none). Money out pays a bill, money in an invoice; each transaction pays one document, at most its own amount.',
  items: object({ id: { ...text(100), description: 'A transaction of the workspace.' }, amount: { ...num, description: 'Dollars, greater than 0.' } }),
} as const;

export const COMMON_REQUIRED = ['id', 'voided', 'status', 'totalAmount', 'source', 'journalEntryId', 'version', 'createdOn', 'updatedOn', 'recurrence'];

export const PAYMENT_REQUIRED = ['paymentStatus', 'paidAmount', 'differenceMessages', 'connectedTransactions'];

/** A suggested vendor / customer (GET of one bill / invoice): null when none is suggested. */
export const suggestion = (what: string) =>
  ({
    anyOf: [ref(PartyRefSchema), { type: 'null' }],
    description: `Only in GET of one document: the existing ${what} whose name best matches the ${what === 'vendor' ? 'billerName' : 'customerName'}, when that does not name the linked ${what} (or there is none); else null.`,
  }) as const;

export const BILLER_NAME_BODY = {
  ...text(150),
  description:
    "The biller's name as written on the bill (e.g. read from an upload); absent: the vendor's name. When it names another existing vendor better, GET answers it as suggestedVendor.",
} as const;

export const CUSTOMER_NAME_BODY = {
  ...text(150),
  description:
    "The customer's name as written on the invoice (e.g. read from an upload); absent: the customer's name. When it names another existing customer better, GET answers it as suggestedCustomer.",
} as const;

export const ACTIVITY_BODY = { ...text(10), description: 'With the recurrence fields: Active (default) or Paused.' } as const;

export const BillLineSchema = {
  $id: 'BillLineItem',
  ...object({ id: str, serviceName: str, categoryId: str, amount: num }, ['id', 'serviceName', 'categoryId', 'amount']),
};

export const InvoiceLineSchema = {
  $id: 'InvoiceLineItem',
  ...object({ id: str, serviceName: str, categoryId: str, quantity: num, rate: num, amount: num }, [
    'id',
    'serviceName',
    'categoryId',
    'quantity',
    'rate',
    'amount',
  ]),
};

export const ManualLineSchema = {
  $id: 'ManualEntryLineItem',
  ...object({ id: str, description: str, categoryId: str, type: { ...str, description: 'debit or credit.' }, amount: num, debit: num, credit: num }, [
    'id',
    'description',
    'categoryId',
    'type',
    'amount',
    'debit',
    'credit',
  ]),
};

export const BillSchema = {
  $id: 'Bill',
  type: 'object',
  additionalProperties: false,
  description: "A bill (spec §3): money owed to a vendor, booked on the accrual basis at billDate (each line's category debited, Accounts Payable credited).",
  properties: {
    ...COMMON_PROPS,
    ...PAYMENT_PROPS,
    ...CONNECTION_PROPS.bill,
    billDate: str,
    dueDate: str,
    description: str,
    vendor: ref(PartyRefSchema),
    billerName: str,
    suggestedVendor: suggestion('vendor'),
    invoiceCode: str,
    lineItems: { type: 'array', items: ref(BillLineSchema) },
  },
  required: [
    ...COMMON_REQUIRED,
    ...PAYMENT_REQUIRED,
    ...CONNECTION_REQUIRED.bill,
    'billDate',
    'dueDate',
    'description',
    'vendor',
    'billerName',
    'invoiceCode',
    'lineItems',
  ],
} as const;

export const InvoiceSchema = {
  $id: 'Invoice',
  type: 'object',
  additionalProperties: false,
  description: "An invoice (spec §3): money owed by a customer, booked at invoiceDate (Accounts Receivable debited, each line's category credited).",
  properties: {
    ...COMMON_PROPS,
    ...PAYMENT_PROPS,
    ...CONNECTION_PROPS.invoice,
    invoiceDate: str,
    dueDate: str,
    customer: ref(PartyRefSchema),
    referenceNo: str,
    description: str,
    companyName: str,
    companyAddress: str,
    customerName: { ...str, description: "The customer's name as written on it (the customer's name when none was given)." },
    suggestedCustomer: suggestion('customer'),
    lineItems: { type: 'array', items: ref(InvoiceLineSchema) },
  },
  required: [
    ...COMMON_REQUIRED,
    ...PAYMENT_REQUIRED,
    ...CONNECTION_REQUIRED.invoice,
    'invoiceDate',
    'dueDate',
    'customer',
    'referenceNo',
    'description',
    'companyName',
    'companyAddress',
    'customerName',
    'lineItems',
  ],
} as const;

export const ManualEntrySchema = {
  $id: 'ManualEntry',
  type: 'object',
  additionalProperties: false,
  description: 'A manual journal (spec §3): its lines booked as given at postingDate (debits = credits). totalAmount is its debits.',
  properties: { ...COMMON_PROPS, ...CONNECTION_PROPS.manual_entry, postingDate: str, memo: str, lineItems: { type: 'array', items: ref(ManualLineSchema) } },
  required: [...COMMON_REQUIRED, ...CONNECTION_REQUIRED.manual_entry, 'postingDate', 'memo', 'lineItems'],
} as const;

export const BillBodySchema = {
  $id: 'BillBody',
  ...object({
    billDate: { ...text(10), description: 'YYYY-MM-DD. Required.' },
    dueDate: { ...text(10), description: 'YYYY-MM-DD, not before billDate.' },
    vendorId: { ...text(100), description: 'A vendor of the workspace. Required.' },
    invoiceCode: text(1000),
    description: text(1000),
    connectedTransactions: CONNECTED_BODY,
    connectedManualEntries: CONNECTION_BODIES.connectedManualEntries,
    connectedVendorCredits: CONNECTION_BODIES.connectedVendorCredits,
    ...MISPLACED.bill,
    ...RECURRENCE_BODY,
    activity: ACTIVITY_BODY,
    billerName: BILLER_NAME_BODY,
    lineItems: {
      type: 'array',
      maxItems: 500,
      description: 'At least one.',
      items: object({
        serviceName: text(1000),
        description: { ...text(1000), description: 'Taken as serviceName when serviceName is absent.' },
        categoryId: text(100),
        amount: { ...num, description: 'Dollars, greater than 0.' },
      }),
    },
  }),
};

export const InvoiceBodySchema = {
  $id: 'InvoiceBody',
  ...object({
    invoiceDate: { ...text(10), description: 'YYYY-MM-DD. Required.' },
    dueDate: { ...text(10), description: 'YYYY-MM-DD, not before invoiceDate.' },
    customerId: { ...text(100), description: 'A customer of the workspace. Required.' },
    referenceNo: text(1000),
    description: text(1000),
    companyName: text(1000),
    companyAddress: text(1000),
    connectedTransactions: CONNECTED_BODY,
    connectedManualEntries: CONNECTION_BODIES.connectedManualEntries,
    connectedCreditMemos: CONNECTION_BODIES.connectedCreditMemos,
    ...MISPLACED.invoice,
    customerName: CUSTOMER_NAME_BODY,
    ...RECURRENCE_BODY,
    activity: ACTIVITY_BODY,
    lineItems: {
      type: 'array',
      maxItems: 500,
      description: 'At least one.',
      items: object({
        serviceName: text(1000),
        description: { ...text(1000), description: 'Taken as serviceName when serviceName is absent.' },
        categoryId: text(100),
        quantity: { ...num, description: 'Greater than 0.' },
        rate: { ...num, description: 'Dollars, greater than 0.' },
        amount: { ...num, description: 'Dollars: quantity × rate within 0.01.' },
      }),
    },
  }),
};

export const ManualEntryBodySchema = {
  $id: 'ManualEntryBody',
  ...object({
    postingDate: { ...text(10), description: 'YYYY-MM-DD. Required.' },
    memo: { ...text(1000), description: 'Required.' },
    connectedBills: CONNECTION_BODIES.connectedBills,
    connectedInvoices: CONNECTION_BODIES.connectedInvoices,
    ...MISPLACED.manual_entry,
    ...RECURRENCE_BODY,
    activity: ACTIVITY_BODY,
    lineItems: {
      type: 'array',
      maxItems: 500,
      description: 'At least two; debits equal credits.',
      items: object({
        categoryId: text(100),
        description: text(1000),
        type: { ...text(10), description: 'debit or credit.' },
        amount: { ...num, description: 'Dollars, greater than 0.' },
      }),
    },
  }),
};

export const KINDS = {
  bill: {
    one: 'bill',
    schema: BillSchema,
    body: BillBodySchema,
    Name: 'Bill',
    what: 'Bill',
    singular: '/accounting/bill',
    plural: '/accounting/bills',
    csv: '/bills/csv',
    partyQuery: 'vendorId',
  },
  invoice: {
    one: 'invoice',
    schema: InvoiceSchema,
    body: InvoiceBodySchema,
    Name: 'Invoice',
    what: 'Invoice',
    singular: '/accounting/invoice',
    plural: '/accounting/invoices',
    csv: '/invoices/csv',
    partyQuery: 'customerId',
  },
  manual_entry: {
    one: 'manualEntry',
    schema: ManualEntrySchema,
    body: ManualEntryBodySchema,
    Name: 'ManualEntry',
    what: 'Manual entry',
    singular: '/accounting/manual-entry',
    plural: '/accounting/manual-entries',
    csv: '',
    partyQuery: '',
  },
} as const;

export const answerSchema = (k: Kind) => ({
  $id: `${KINDS[k].Name}Answer`,
  ...object({ message: str, [KINDS[k].one]: ref(KINDS[k].schema), seq: SEQ_PROPERTY }, ['message', KINDS[k].one, 'seq']),
});

export const listSchema = (k: Kind) => ({
  $id: `${KINDS[k].Name}List`,
  ...object({ data: { type: 'array', items: ref(KINDS[k].schema) }, meta: ref(DocumentPageMetaSchema) }, ['data', 'meta']),
});

export const ANSWERS = { bill: answerSchema('bill'), invoice: answerSchema('invoice'), manual_entry: answerSchema('manual_entry') };

export const LISTS = { bill: listSchema('bill'), invoice: listSchema('invoice'), manual_entry: listSchema('manual_entry') };

export const CheckAnswerSchema = {
  $id: 'ManualEntryCheck',
  ...object(
    {
      balanced: bool,
      totalDebit: num,
      totalCredit: num,
      difference: { ...num, description: 'Debits − credits.' },
      differenceData: object(
        {
          differences: {
            type: 'array',
            items: object(
              {
                accountId: str,
                amount: num,
                flag: { ...str, description: 'debit or credit: the side the account is left on.' },
                openingBalance: {
                  ...num,
                  description:
                    "The account's balance on the day before postingDate (the chart's: income and expenses for that fiscal year), in its normal direction.",
                },
              },
              ['accountId', 'amount', 'flag', 'openingBalance'],
            ),
          },
          differenceMessages: strings,
        },
        ['differences', 'differenceMessages'],
      ),
    },
    ['balanced', 'totalDebit', 'totalCredit', 'difference', 'differenceData'],
  ),
};

export const listQuery = (k: Kind) =>
  ({
    type: 'object',
    properties: {
      page: int,
      take: int,
      status: { ...text(10), description: 'Posted or Voided.' },
      startDate: text(10),
      endDate: text(10),
      ...(KINDS[k].partyQuery ? { [KINDS[k].partyQuery]: { ...text(100), description: `Only this ${k === 'bill' ? 'vendor' : 'customer'}'s.` } } : {}),
    },
    additionalProperties: false,
  }) as const;

export const csvQuery = (k: Kind) => {
  const { page: _page, take: _take, ...properties } = listQuery(k).properties;
  return { type: 'object', properties, additionalProperties: false } as const;
};

export interface LineBody {
  serviceName?: string;
  description?: string;
  categoryId?: string;
  amount?: number;
  quantity?: number;
  rate?: number;
  type?: string;
}

export interface DocBody extends ConnectionBodies {
  recurringStartDate?: string;
  recurringEndDate?: string;
  interval?: string;
  recurringEndType?: string;
  recurringCount?: number;
  activity?: string;
  billerName?: string;
  customerName?: string;
  billDate?: string;
  invoiceDate?: string;
  postingDate?: string;
  dueDate?: string;
  vendorId?: string;
  customerId?: string;
  invoiceCode?: string;
  referenceNo?: string;
  description?: string;
  memo?: string;
  companyName?: string;
  companyAddress?: string;
  lineItems?: LineBody[];
  connectedTransactions?: { id?: string; amount?: number }[];
}

export interface ListQuery {
  page?: number;
  take?: number;
  status?: string;
  startDate?: string;
  endDate?: string;
  vendorId?: string;
  customerId?: string;
}

export const DraftProblemSchema = {
  $id: 'DraftProblem',
  description: "A field of metaData (e.g. vendorId, lineItems.0.amount) and its message ('Line Item N: ...').",
  ...object({ field: str, message: str }, ['field', 'message']),
};

export const DraftMetaDataSchema = {
  $id: 'DraftMetaDataBody',
  description:
    'A bill or invoice payload in progress (the fields of POST /accounting/bill/v2 or /invoice/v2, every one optional), plus the recurrence, the upload it came from and what was read from the file.',
  ...object({
    billDate: text(10),
    invoiceDate: text(10),
    dueDate: text(10),
    vendorId: text(100, 'Bills: a vendor of the workspace.'),
    customerId: text(100, 'Invoices: a customer of the workspace.'),
    invoiceCode: text(1000),
    referenceNo: text(1000),
    description: text(1000),
    companyName: text(1000),
    companyAddress: text(1000),
    lineItems: {
      type: 'array',
      maxItems: 500,
      items: object({
        serviceName: text(1000),
        description: text(1000),
        categoryId: text(100, 'A category of the workspace.'),
        quantity: { ...num, description: 'Invoices.' },
        rate: { ...num, description: 'Invoices: dollars.' },
        amount: { ...num, description: 'Dollars.' },
      }),
    },
    isRecurring: { ...bool, description: 'With any recurring field given: the document recurs once created (start date, end date and interval all required).' },
    recurringStartDate: text(10),
    recurringEndDate: text(10),
    interval: text(20, 'daily, weekly, monthly, quarterly or yearly.'),
    uploadId: text(100, 'The uploaded file the draft was read from.'),
    extracted: {
      type: 'object',
      description: 'What was read from the file (merchant, date, total...), kept for review.',
      maxProperties: 50,
      additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
    },
  }),
};

export const DraftSchema = {
  $id: 'Draft',
  description:
    'A bill or invoice in progress (spec §3 Draft). It posts nothing. firstError: what converting it would refuse now (null when nothing is known to be wrong).',
  ...object(
    {
      id: str,
      draftType: str,
      entityType: { ...str, description: 'bill or invoice.' },
      metaData: ref(DraftMetaDataSchema),
      createdByUser: str,
      lastModifiedByUser: str,
      publishedDate: str,
      createdOn: str,
      updatedOn: str,
      bulkUploadId: str,
      firstError: { anyOf: [ref(DraftProblemSchema), { type: 'null' }] },
    },
    [
      'id',
      'draftType',
      'entityType',
      'metaData',
      'createdByUser',
      'lastModifiedByUser',
      'publishedDate',
      'createdOn',
      'updatedOn',
      'bulkUploadId',
      'firstError',
    ],
  ),
};

export const DraftPageMetaSchema = {
  $id: 'DraftPageMeta',
  ...object({ page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool }, [
    'page',
    'take',
    'itemCount',
    'pageCount',
    'hasPreviousPage',
    'hasNextPage',
  ]),
};

export const DraftListSchema = {
  $id: 'DraftList',
  ...object({ data: { type: 'array', items: ref(DraftSchema) }, meta: ref(DraftPageMetaSchema) }, ['data', 'meta']),
};

export const DraftAnswerSchema = { $id: 'DraftAnswer', ...object({ message: str, draft: ref(DraftSchema) }, ['message', 'draft']) };

export const DraftResultSchema = {
  $id: 'DraftResult',
  ...object({ draftId: str, documentId: str, error: { anyOf: [ref(DraftProblemSchema), { type: 'null' }] } }, ['draftId', 'documentId', 'error']),
};

export const DraftBatchSchema = {
  $id: 'DraftBatch',
  description:
    "Spec §3 batch result. Conversion: createdCount, failedCount, success (none failed), deletedCount (the drafts that left the list: the converted ones), and each draft's result in order.",
  ...object(
    { message: str, createdCount: int, failedCount: int, success: bool, deletedCount: int, results: { type: 'array', items: ref(DraftResultSchema) } },
    ['message', 'createdCount', 'failedCount', 'success', 'deletedCount', 'results'],
  ),
};

export const DraftBodySchema = {
  $id: 'DraftBody',
  ...object({
    entityType: text(20, 'bill or invoice. Required.'),
    draftType: text(20, 'manual (default), upload, bulk_upload or email.'),
    publishedAt: text(40, 'YYYY-MM-DD or an ISO date-time; absent: now.'),
    metaData: ref(DraftMetaDataSchema),
    bulkUploadId: text(100, 'The bulk upload the draft came from (a UUID).'),
  }),
};

export const DraftPatchSchema = {
  $id: 'DraftPatchBody',
  ...object({
    id: text(100, 'The draft. Required.'),
    metaData: { ...ref(DraftMetaDataSchema), description: "Replaces the draft's metaData as a whole." },
    draftType: text(20),
    publishedAt: text(40),
  }),
};

export const ConvertBodySchema = {
  $id: 'DraftConvertBody',
  ...object({ draftIds: { type: 'array', maxItems: 100, items: text(100), description: 'The drafts to convert, in order. At least one.' } }),
};

export const DRAFT_LIST_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: int,
    take: int,
    entityType: text(20, 'bill or invoice.'),
    draftType: text(20),
    bulkUploadId: text(100, 'Only the drafts of this bulk upload.'),
  },
} as const;

export const DRAFT_DELETE_QUERY = {
  type: 'object',
  additionalProperties: false,
  required: ['draftIds'],
  properties: { draftIds: text(4000, 'Comma-joined draft ids. At least one.') },
} as const;

export const DRAFT_BULK_QUERY = {
  type: 'object',
  additionalProperties: false,
  required: ['bulkUploadId'],
  properties: { bulkUploadId: text(100, 'The bulk upload whose open drafts are deleted.') },
} as const;

export interface DraftBody {
  entityType?: string;
  draftType?: string;
  publishedAt?: string;
  metaData?: Record<string, unknown>;
  bulkUploadId?: string;
}

export interface DraftPatch {
  id?: string;
  metaData?: Record<string, unknown>;
  draftType?: string;
  publishedAt?: string;
}

export const DEPRECIATION_METHODS = ['STRAIGHT_LINE', 'UNITS_OF_PRODUCTION', 'DOUBLE_DECLINING_BALANCE', 'SUM_OF_YEARS_DIGITS'] as const;

export const DepreciationRowSchema = {
  $id: 'DepreciationRow',
  type: 'object',
  additionalProperties: false,
  description: "One month of the schedule: posted (isDepreciated) by the scheduler at the month's last day, exactly once.",
  properties: {
    id: str,
    depreciationDateTime: { type: 'string', description: "The month's last day, YYYY-MM-DD: the date of its entry." },
    depreciationAsset: { type: 'string', description: "The asset's id." },
    isDepreciated: bool,
    beginningCarryingValue: num,
    endingCarryingValue: num,
    depreciationAmount: num,
    accumulatedDepreciation: num,
    journalEntryId: str,
  },
  required: [
    'id',
    'depreciationDateTime',
    'depreciationAsset',
    'isDepreciated',
    'beginningCarryingValue',
    'endingCarryingValue',
    'depreciationAmount',
    'accumulatedDepreciation',
    'journalEntryId',
  ],
} as const;

export const FixedAssetSchema = {
  $id: 'FixedAsset',
  type: 'object',
  additionalProperties: false,
  properties: {
    id: str,
    referenceWorkspaceTransaction: { type: 'string', description: 'The bank transaction of the purchase (linked: not editable directly).' },
    purchaseDate: str,
    description: str,
    assetType: {
      type: 'object',
      additionalProperties: false,
      properties: { id: str, name: str },
      required: ['id', 'name'],
      description: 'The asset account of the chart the purchase is booked to.',
    },
    depreciationStartDate: str,
    usefulLife: num,
    cost: num,
    salvageValue: num,
    totalEstimatedUnits: num,
    unitProducedPerYear: num,
    method: { type: 'string', enum: DEPRECIATION_METHODS },
    status: {
      type: 'string',
      enum: ['Pending', 'Active', 'Stopped', 'Fully Depreciated'],
      description: 'Pending: the purchase is being booked; Stopped: no further depreciation after stoppedOn.',
    },
    stoppedOn: { type: ['string', 'null'] },
    accumulatedDepreciation: { ...num, description: 'What is posted so far.' },
    carryingValue: { ...num, description: 'cost − accumulatedDepreciation.' },
    merchantName: str,
    qboSynced: bool,
    createdAt: str,
    schedule: { type: 'array', items: ref(DepreciationRowSchema), description: 'Only in GET /accounting/fixed-asset/{id} and the answers of create and stop.' },
  },
  required: [
    'id',
    'referenceWorkspaceTransaction',
    'purchaseDate',
    'description',
    'assetType',
    'depreciationStartDate',
    'usefulLife',
    'cost',
    'salvageValue',
    'totalEstimatedUnits',
    'unitProducedPerYear',
    'method',
    'status',
    'stoppedOn',
    'accumulatedDepreciation',
    'carryingValue',
    'merchantName',
    'qboSynced',
    'createdAt',
  ],
} as const;

export const FixedAssetBodySchema = {
  $id: 'FixedAssetBody',
  type: 'object',
  additionalProperties: false,
  properties: {
    transactionId: text(64, 'The bank transaction of the purchase (money out, editable). Required.'),
    purchaseDate: text(10, 'YYYY-MM-DD. Required.'),
    depreciationStartDate: text(10, 'YYYY-MM-DD, not before purchaseDate: its month is the first of the schedule. Required.'),
    description: text(500, 'What the asset is.'),
    assetTypeId: text(64, 'The asset account (chart of accounts, class Assets, e.g. Property and Equipment). Required.'),
    cost: { type: 'number', description: "The purchase transaction's amount. Required; not negative." },
    salvageValue: { type: 'number', description: 'Default 0; not negative, not more than cost.' },
    usefulLife: { type: 'number', description: 'Whole years (1 to 100); not negative. Required except for units of production.' },
    method: { type: 'string', enum: DEPRECIATION_METHODS, description: 'Default STRAIGHT_LINE.' },
    totalEstimatedUnits: { type: 'number', description: "Units of production: the units over the asset's life; not negative." },
    unitProducedPerYear: { type: 'number', description: 'Units of production: units a year (a twelfth a month); not negative.' },
  },
} as const;

export const FixedAssetAnswerSchema = {
  $id: 'FixedAssetAnswer',
  type: 'object',
  description: 'The fixed asset after a change that posts nothing (a stop: what is posted stays).',
  additionalProperties: false,
  properties: { message: str, fixedAsset: ref(FixedAssetSchema) },
  required: ['message', 'fixedAsset'],
} as const;

export const FixedAssetCreatedSchema = {
  $id: 'FixedAssetCreated',
  type: 'object',
  description: "The new fixed asset, a message to show and the seq of the purchase's re-booking (reports wait for it).",
  additionalProperties: false,
  properties: { message: str, fixedAsset: ref(FixedAssetSchema), seq: num },
  required: ['message', 'fixedAsset', 'seq'],
} as const;

export const FixedAssetListSchema = {
  $id: 'FixedAssetList',
  type: 'object',
  additionalProperties: false,
  properties: { data: { type: 'array', items: ref(FixedAssetSchema) } },
  required: ['data'],
} as const;

export const DeletedAnswerSchema = {
  $id: 'FixedAssetDeleted',
  type: 'object',
  additionalProperties: false,
  properties: { message: str, id: str, seq: num },
  required: ['message', 'id', 'seq'],
} as const;

export interface AssetBody {
  transactionId?: string;
  purchaseDate?: string;
  depreciationStartDate?: string;
  description?: string;
  assetTypeId?: string;
  cost?: number;
  salvageValue?: number;
  usefulLife?: number;
  method?: string;
  totalEstimatedUnits?: number;
  unitProducedPerYear?: number;
}

export const RecurBodySchema = {
  $id: 'RecurBody',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...RECURRENCE_BODY,
    activity: text(10, 'Active (default) or Paused. Active again after Paused or Stopped resumes from today: the dates that passed meanwhile are not created.'),
  },
} as const;

export const StopBodySchema = {
  $id: 'StopRecurringBody',
  type: 'object',
  additionalProperties: false,
  properties: { entityType: text(20, 'Bill, Invoice or ManualEntry. Required.') },
} as const;

export const StopAnswerSchema = {
  $id: 'StopRecurringAnswer',
  type: 'object',
  additionalProperties: false,
  properties: { message: str, id: str, entityType: str, recurrence: ref(RecurrenceSchema) },
  required: ['message', 'id', 'entityType', 'recurrence'],
} as const;

export const recurAnswer = (k: Kind) =>
  ({
    $id: `${KINDS[k].Name}RecurAnswer`,
    type: 'object',
    additionalProperties: false,
    properties: { message: str, [KINDS[k].one]: ref(KINDS[k].schema) },
    required: ['message', KINDS[k].one],
  }) as const;

export const RECUR_ANSWERS = { bill: recurAnswer('bill'), invoice: recurAnswer('invoice'), manual_entry: recurAnswer('manual_entry') };

export interface RecurBody {
  recurringStartDate?: string;
  recurringEndDate?: string;
  interval?: string;
  recurringEndType?: string;
  recurringCount?: number;
  activity?: string;
}

export const SCHEDULE_KINDS = ['Prepaid Expenses', 'Deferred Revenue', 'Accumulated Depreciation', 'Other'] as const;

export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

export const ScheduleQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ledgerAccount: text(
      64,
      "A ledger account id: only its schedule (the balance sheet's prepaid / deferred revenue rows open this). Default: Prepaid Expenses, Deferred Revenue and Accumulated Depreciation.",
    ),
    startDate: text(10, 'YYYY-MM-DD; default January 1 of this year.'),
    endDate: text(10, 'YYYY-MM-DD, inclusive; default December 31 of this year.'),
  },
} as const;

export const ScheduleLineSchema = {
  $id: 'ScheduleLine',
  type: 'object',
  additionalProperties: false,
  properties: {
    date: str,
    description: str,
    amount: {
      ...num,
      description:
        "Signed in the account's normal direction (a release is negative for Prepaid Expenses, Deferred Revenue; depreciation positive for Accumulated Depreciation, a contra account shown as its credit balance).",
    },
    runningBalance: num,
    journalEntryId: str,
    transactionId: str,
    sourceType: str,
    scheduled: { type: 'boolean', description: 'Not yet in the books (a depreciation month to come).' },
  },
  required: ['date', 'description', 'amount', 'runningBalance', 'journalEntryId', 'transactionId', 'sourceType', 'scheduled'],
} as const;

export const AccountRefSchema = {
  $id: 'ScheduleLedgerAccount',
  type: 'object',
  additionalProperties: false,
  properties: { id: str, name: str, coaId: int },
  required: ['id', 'name', 'coaId'],
} as const;

export const ScheduleSchema = {
  $id: 'Schedule',
  type: 'object',
  additionalProperties: false,
  properties: {
    ledgerAccount: ref(AccountRefSchema),
    kind: { type: 'string', enum: SCHEDULE_KINDS },
    txnCount: { ...int, description: 'Entries of the account in the range (scheduled months not counted).' },
    openingBalance: num,
    runningBalance: { ...num, description: 'The balance at endDate (what is still to be released).' },
    lines: { type: 'array', items: ref(ScheduleLineSchema) },
  },
  required: ['ledgerAccount', 'kind', 'txnCount', 'openingBalance', 'runningBalance', 'lines'],
} as const;

export const SchedulesAnswerSchema = {
  $id: 'SchedulesAnswer',
  type: 'object',
  additionalProperties: false,
  properties: { startDate: str, endDate: str, data: { type: 'array', items: ref(ScheduleSchema) } },
  required: ['startDate', 'endDate', 'data'],
} as const;

export const CalendarAnswerSchema = {
  $id: 'SchedulesCalendarAnswer',
  type: 'object',
  additionalProperties: false,
  properties: {
    startDate: str,
    endDate: str,
    months: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          month: { type: 'string', description: 'YYYY-MM' },
          schedules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              properties: {
                ledgerAccount: ref(AccountRefSchema),
                kind: { type: 'string', enum: SCHEDULE_KINDS },
                amount: num,
                scheduledAmount: num,
                txnCount: int,
                runningBalance: num,
              },
              required: ['ledgerAccount', 'kind', 'amount', 'scheduledAmount', 'txnCount', 'runningBalance'],
            },
          },
        },
        required: ['month', 'schedules'],
      },
    },
  },
  required: ['startDate', 'endDate', 'months'],
} as const;

export const TransactionSummarySchema = {
  $id: 'UploadTransactionSummary',
  ...object(
    {
      id: str,
      dateTime: str,
      amount: { ...num, description: 'Signed as the bank reports it: < 0 money out.' },
      merchantName: str,
      memo: str,
      accountId: str,
      isoCurrencyCode: str,
    },
    ['id', 'dateTime', 'amount', 'merchantName'],
  ),
};

export const UploadSuggestionSchema = {
  $id: 'UploadMatchSuggestion',
  ...object({ transaction: ref(TransactionSummarySchema), confidence: { ...num, description: '0 to 1.' }, reasons: { type: 'array', items: str } }, [
    'transaction',
    'confidence',
    'reasons',
  ]),
};

export const UploadSchema = {
  $id: 'WorkspaceUpload',
  ...object(
    {
      id: str,
      url: { ...str, description: 'The upload in this API (GET it for a fresh signedUrl).' },
      signedUrl: { ...str, description: 'A short-lived signed URL of the file (no bearer token needed); fetch a new one when it has expired.' },
      signedUrlExpiresAt: str,
      uploadType: { ...str, description: 'file, receipt, bill or invoice.' },
      dateTime: { type: ['string', 'null'], description: "The receipt's date (YYYY-MM-DD)." },
      merchantName: { type: ['string', 'null'] },
      amount: { type: ['number', 'null'], description: "The receipt's total." },
      workspaceId: str,
      matchedOn: { type: ['string', 'null'], description: 'When it was matched to a transaction.' },
      matchedTransaction: { anyOf: [ref(TransactionSummarySchema), { type: 'null' }] },
      receiptStatus: { ...str, description: 'matched, review (suggestions to confirm) or unmatched.' },
      matchedBy: { type: ['string', 'null'], description: 'auto or manual.' },
      matchConfidence: { type: ['number', 'null'] },
      suggestions: { type: 'array', items: ref(UploadSuggestionSchema) },
      fileName: str,
      contentType: str,
      sizeBytes: int,
      createdAt: str,
      createdBy: { type: ['string', 'null'] },
      readStatus: { type: ['string', 'null'] },
    },
    ['id', 'url', 'signedUrl', 'uploadType', 'workspaceId', 'receiptStatus', 'fileName', 'contentType', 'sizeBytes', 'createdAt'],
  ),
};

export const FailedFileSchema = { $id: 'UploadFailedFile', ...object({ fileName: str, reason: str }, ['fileName', 'reason']) };

export const UploadResultSchema = {
  $id: 'UploadResult',
  ...object(
    {
      message: str,
      results: object({ uploadedFiles: { type: 'array', items: ref(UploadSchema) }, failedFiles: { type: 'array', items: ref(FailedFileSchema) } }, [
        'uploadedFiles',
        'failedFiles',
      ]),
    },
    ['message', 'results'],
  ),
};

export const UploadPageMetaSchema = {
  $id: 'UploadPageMeta',
  ...object({ page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: { type: 'boolean' }, hasNextPage: { type: 'boolean' } }, [
    'page',
    'take',
    'itemCount',
    'pageCount',
    'hasPreviousPage',
    'hasNextPage',
  ]),
};

export const UploadListSchema = {
  $id: 'UploadList',
  ...object({ data: { type: 'array', items: ref(UploadSchema) }, meta: ref(UploadPageMetaSchema) }, ['data', 'meta']),
};

export const UploadAnswerSchema = { $id: 'UploadAnswer', ...object({ message: str, upload: ref(UploadSchema) }, ['message', 'upload']) };

export const UpdateUploadBodySchema = {
  $id: 'UpdateUploadBody',
  ...object({
    merchantName: { type: 'string', maxLength: 200 },
    dateTime: { type: 'string', maxLength: 40, description: 'YYYY-MM-DD or an ISO 8601 date and time.' },
    amount: { type: 'number', exclusiveMinimum: 0, description: "The receipt's total (until reading fills it)." },
  }),
};

export const MatchUploadBodySchema = {
  $id: 'MatchUploadBody',
  ...object({ transactionId: { type: 'string', minLength: 1, maxLength: 100 } }, ['transactionId']),
};

export const UPLOAD_LIST_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    uploadType: { type: 'string', maxLength: 200, description: 'Comma-separated: file, receipt, bill, invoice.' },
    receiptStatus: { type: 'string', maxLength: 200, description: 'Comma-separated: matched, review, unmatched.' },
    startDate: { type: 'string', maxLength: 10, description: "YYYY-MM-DD: the receipt's date (else the upload day) from." },
    endDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD, inclusive.' },
    transactionId: { type: 'string', maxLength: 100, description: 'Uploads matched to this transaction.' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    take: { type: 'integer', minimum: 1, maximum: 100 },
  },
} as const;
