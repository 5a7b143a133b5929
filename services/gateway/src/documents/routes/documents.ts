import { centsToDollars } from '@ledgerline/platform';
import type { Document, DocumentFields } from '@ledgerline/proto/documents/v1/documents_pb';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSV_BOM, csvRow } from '../../exports/csv.js';
import { contentDisposition, CONTENT_TYPES, exportFileName } from '../../exports/files.js';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { SEQ_PROPERTY } from '../../ledger/schemas.js';
import { BEARER, bool, ErrorResponseSchema, idParams, int, num, object, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { RECURRENCE_BODY, recurrenceJson, RecurrenceDateSchema, RecurrenceSchema } from '../schemas.js';
import {
  CONNECTION_BODIES,
  CONNECTION_PROPS,
  CONNECTION_REQUIRED,
  CONNECTION_SCHEMAS,
  connectionFieldsOf,
  connectionJson,
  MISPLACED,
  registerPaymentDetailsRoute,
  registerPaymentSuggestionsRoute,
  type ConnectionBodies,
} from './document-payments.js';
import type { DocumentsClient } from '../client.js';

/**
 * Spec documents-parties-integrations §3 (bill, invoice, manual journal, line item), §5 (their rules), §7 (calls);
 * issue #18 items 1–3 and 5. Bills under /accounting/bill(s), invoices under /accounting/invoice(s), manual journals
 * under /accounting/manual-entry / manual-entries; each route one DocumentsService RPC. Every create, PUT, void and
 * delete posts through the ledger (a balanced entry or its reversal, source Bill, Invoice or ManualEntry) and answers
 * its `seq`. Viewers read; writes need a role above Viewer. Dollars here, cents in the service. Bodies are checked for
 * shape only; the service owns the rules and their messages ('Line Item N: ...').
 */

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const strings = { type: 'array', items: str } as const;

export type Kind = 'bill' | 'invoice' | 'manual_entry';

const PartyRefSchema = { $id: 'DocumentParty', ...object({ id: str, name: str }, ['id', 'name']) };
const DocumentPageMetaSchema = {
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

const COMMON_PROPS = {
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
const ConnectedSchema = { $id: 'DocumentConnectedTransaction', ...object({ id: str, amount: num }, ['id', 'amount']) };
const PAYMENT_PROPS = {
  paymentStatus: { ...str, description: 'PAID, PARTIALLY_PAID, OVERPAID or UNPAID, from what the connected payments pay (within 0.01).' },
  paidAmount: num,
  differenceMessages: strings,
  connectedTransactions: {
    type: 'array',
    items: ref(ConnectedSchema),
    description: 'The bank transactions paying it (each re-booked against Accounts Payable / Receivable and locked), with what each pays.',
  },
} as const;
const CONNECTED_BODY = {
  type: 'array',
  maxItems: 500,
  description:
    'The whole set of bank transactions paying it (absent: none). Money out pays a bill, money in an invoice; each transaction pays one document, at most its own amount.',
  items: object({ id: { ...text(100), description: 'A transaction of the workspace.' }, amount: { ...num, description: 'Dollars, greater than 0.' } }),
} as const;
const COMMON_REQUIRED = ['id', 'voided', 'status', 'totalAmount', 'source', 'journalEntryId', 'version', 'createdOn', 'updatedOn', 'recurrence'];
const PAYMENT_REQUIRED = ['paymentStatus', 'paidAmount', 'differenceMessages', 'connectedTransactions'];

/** A suggested vendor / customer (GET of one bill / invoice): null when none is suggested. */
const suggestion = (what: string) =>
  ({
    anyOf: [ref(PartyRefSchema), { type: 'null' }],
    description: `Only in GET of one document: the existing ${what} whose name best matches the ${what === 'vendor' ? 'billerName' : 'customerName'}, when that does not name the linked ${what} (or there is none); else null.`,
  }) as const;
const BILLER_NAME_BODY = {
  ...text(150),
  description:
    "The biller's name as written on the bill (e.g. read from an upload); absent: the vendor's name. When it names another existing vendor better, GET answers it as suggestedVendor.",
} as const;
const CUSTOMER_NAME_BODY = {
  ...text(150),
  description:
    "The customer's name as written on the invoice (e.g. read from an upload); absent: the customer's name. When it names another existing customer better, GET answers it as suggestedCustomer.",
} as const;
const ACTIVITY_BODY = { ...text(10), description: 'With the recurrence fields: Active (default) or Paused.' } as const;

const BillLineSchema = {
  $id: 'BillLineItem',
  ...object({ id: str, serviceName: str, categoryId: str, amount: num }, ['id', 'serviceName', 'categoryId', 'amount']),
};
const InvoiceLineSchema = {
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
const ManualLineSchema = {
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

const BillSchema = {
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
const InvoiceSchema = {
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
const ManualEntrySchema = {
  $id: 'ManualEntry',
  type: 'object',
  additionalProperties: false,
  description: 'A manual journal (spec §3): its lines booked as given at postingDate (debits = credits). totalAmount is its debits.',
  properties: { ...COMMON_PROPS, ...CONNECTION_PROPS.manual_entry, postingDate: str, memo: str, lineItems: { type: 'array', items: ref(ManualLineSchema) } },
  required: [...COMMON_REQUIRED, ...CONNECTION_REQUIRED.manual_entry, 'postingDate', 'memo', 'lineItems'],
} as const;

const BillBodySchema = {
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
const InvoiceBodySchema = {
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
const ManualEntryBodySchema = {
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

const answerSchema = (k: Kind) => ({
  $id: `${KINDS[k].Name}Answer`,
  ...object({ message: str, [KINDS[k].one]: ref(KINDS[k].schema), seq: SEQ_PROPERTY }, ['message', KINDS[k].one, 'seq']),
});
const listSchema = (k: Kind) => ({
  $id: `${KINDS[k].Name}List`,
  ...object({ data: { type: 'array', items: ref(KINDS[k].schema) }, meta: ref(DocumentPageMetaSchema) }, ['data', 'meta']),
});
export const ANSWERS = { bill: answerSchema('bill'), invoice: answerSchema('invoice'), manual_entry: answerSchema('manual_entry') };
const LISTS = { bill: listSchema('bill'), invoice: listSchema('invoice'), manual_entry: listSchema('manual_entry') };

const CheckAnswerSchema = {
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

const listQuery = (k: Kind) =>
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
const csvQuery = (k: Kind) => {
  const { page: _page, take: _take, ...properties } = listQuery(k).properties;
  return { type: 'object', properties, additionalProperties: false } as const;
};

interface LineBody {
  serviceName?: string;
  description?: string;
  categoryId?: string;
  amount?: number;
  quantity?: number;
  rate?: number;
  type?: string;
}
interface DocBody extends ConnectionBodies {
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
interface ListQuery {
  page?: number;
  take?: number;
  status?: string;
  startDate?: string;
  endDate?: string;
  vendorId?: string;
  customerId?: string;
}
type PaymentInit = { id: string; hasAmount: boolean; amountCents: bigint }[];
type FieldsInit = Partial<
  Omit<
    DocumentFields,
    '$typeName' | '$unknown' | 'lineItems' | 'connectedTransactions' | 'connectedManualEntries' | 'connectedCredits' | 'connectedBills' | 'connectedInvoices'
  >
> & {
  connectedTransactions?: PaymentInit;
  connectedManualEntries?: PaymentInit;
  connectedCredits?: PaymentInit;
  connectedBills?: PaymentInit;
  connectedInvoices?: PaymentInit;
  lineItems?: {
    serviceName: string;
    categoryId: string;
    hasAmount: boolean;
    amountCents: bigint;
    hasQuantity: boolean;
    quantity: string;
    hasRate: boolean;
    rateCents: bigint;
    direction: string;
  }[];
};

/** A body to the service's fields; amounts to cents (400 naming a bad one). */
function fieldsOf(k: Kind, b: DocBody): FieldsInit {
  return withAmounts((a) => ({
    date: k === 'bill' ? b.billDate : k === 'invoice' ? b.invoiceDate : b.postingDate,
    dueDate: b.dueDate,
    partyId: k === 'bill' ? b.vendorId : b.customerId,
    reference: k === 'bill' ? b.invoiceCode : b.referenceNo,
    description: k === 'manual_entry' ? b.memo : b.description,
    companyName: b.companyName,
    companyAddress: b.companyAddress,
    lineItems: (b.lineItems ?? []).map((l, i) => {
      const amount = a.cents(`lineItems.${i}.amount`, l.amount);
      const rate = k === 'invoice' ? a.cents(`lineItems.${i}.rate`, l.rate) : undefined;
      return {
        serviceName: (k === 'manual_entry' ? l.description : (l.serviceName ?? l.description)) ?? '',
        categoryId: l.categoryId ?? '',
        hasAmount: amount !== undefined,
        amountCents: amount ?? 0n,
        hasQuantity: l.quantity !== undefined,
        quantity: l.quantity === undefined ? '' : String(l.quantity),
        hasRate: rate !== undefined,
        rateCents: rate ?? 0n,
        direction: l.type ?? '',
      };
    }),
    connectedTransactions: (b.connectedTransactions ?? []).map((p, i) => {
      const amount = a.cents(`connectedTransactions.${i}.amount`, p.amount);
      return { id: p.id ?? '', hasAmount: amount !== undefined, amountCents: amount ?? 0n };
    }),
    ...connectionFieldsOf(a, k, b),
    recurringStartDate: b.recurringStartDate,
    recurringEndDate: b.recurringEndDate,
    interval: b.interval,
    recurringEndType: b.recurringEndType,
    recurringCount: b.recurringCount,
    activity: b.activity,
    billerName: k === 'bill' ? b.billerName : k === 'invoice' ? b.customerName : undefined,
  }));
}

const dollarsOf = (c: bigint) => centsToDollars(c);

export function documentJson(k: Kind, d: Document | undefined): Record<string, unknown> {
  if (!d) throw new Error('the documents service answered no document');
  const common = {
    id: d.id,
    voided: d.voided,
    status: d.status,
    totalAmount: dollarsOf(d.totalCents),
    source: d.source,
    journalEntryId: d.journalEntryId,
    version: Number(d.version),
    createdOn: d.createdOn,
    updatedOn: d.updatedOn,
    recurrence: recurrenceJson(d.recurrence),
  };
  const payment = {
    paymentStatus: d.paymentStatus,
    paidAmount: dollarsOf(d.paidCents),
    differenceMessages: d.differenceMessages,
    connectedTransactions: d.connectedTransactions.map((p) => ({ id: p.id, amount: dollarsOf(p.amountCents) })),
  };
  const party = { id: d.party?.id ?? '', name: d.party?.name ?? '' };
  if (k === 'bill') {
    return {
      ...common,
      ...payment,
      ...connectionJson(k, d),
      billDate: d.date,
      dueDate: d.dueDate,
      description: d.description,
      vendor: party,
      billerName: d.billerName || party.name,
      suggestedVendor: d.suggestedParty ? { id: d.suggestedParty.id, name: d.suggestedParty.name } : null,
      invoiceCode: d.reference,
      lineItems: d.lines.map((l) => ({ id: l.id, serviceName: l.serviceName, categoryId: l.categoryId, amount: dollarsOf(l.amountCents) })),
    };
  }
  if (k === 'invoice') {
    return {
      ...common,
      ...payment,
      ...connectionJson(k, d),
      invoiceDate: d.date,
      dueDate: d.dueDate,
      customer: party,
      customerName: d.billerName || party.name,
      suggestedCustomer: d.suggestedParty ? { id: d.suggestedParty.id, name: d.suggestedParty.name } : null,
      referenceNo: d.reference,
      description: d.description,
      companyName: d.companyName,
      companyAddress: d.companyAddress,
      lineItems: d.lines.map((l) => ({
        id: l.id,
        serviceName: l.serviceName,
        categoryId: l.categoryId,
        quantity: Number(l.quantity),
        rate: dollarsOf(l.rateCents),
        amount: dollarsOf(l.amountCents),
      })),
    };
  }
  return {
    ...common,
    ...connectionJson(k, d),
    postingDate: d.date,
    memo: d.description,
    lineItems: d.lines.map((l) => ({
      id: l.id,
      description: l.serviceName,
      categoryId: l.categoryId,
      type: l.direction,
      amount: dollarsOf(l.amountCents),
      debit: l.direction === 'debit' ? dollarsOf(l.amountCents) : 0,
      credit: l.direction === 'credit' ? dollarsOf(l.amountCents) : 0,
    })),
  };
}

export const BILLS_CSV_HEADER = ['Bill date', 'Due date', 'Vendor', 'Invoice code', 'Description', 'Total', 'Status', 'Payment status', 'Bill id'];
export const INVOICES_CSV_HEADER = [
  'Invoice date',
  'Due date',
  'Customer',
  'Reference no',
  'Description',
  'Company name',
  'Total',
  'Status',
  'Payment status',
  'Invoice id',
];
const csvLine = (k: Kind, d: Document) =>
  k === 'bill'
    ? csvRow([d.date, d.dueDate, d.party?.name ?? '', d.reference, d.description, dollarsOf(d.totalCents).toFixed(2), d.status, d.paymentStatus, d.id])
    : csvRow([
        d.date,
        d.dueDate,
        d.party?.name ?? '',
        d.reference,
        d.description,
        d.companyName,
        dollarsOf(d.totalCents).toFixed(2),
        d.status,
        d.paymentStatus,
        d.id,
      ]);

function csvResponse(what: string) {
  return {
    200: {
      description: `${what}, as an attachment (file name in content-disposition).`,
      content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } },
    },
    default: ref(ErrorResponseSchema),
  };
}

const listRequest = (k: Kind, q: ListQuery) => ({
  kind: k,
  page: q.page ?? 0,
  take: q.take ?? 0,
  status: q.status ?? '',
  partyId: (k === 'bill' ? q.vendorId : k === 'invoice' ? q.customerId : '') ?? '',
  startDate: q.startDate ?? '',
  endDate: q.endDate ?? '',
});

/** REST routes of the documents service: each one RPC with the caller's tenancy headers. */
export async function registerDocumentsRoutes(app: FastifyInstance, { client }: { client: DocumentsClient }): Promise<void> {
  addSchemas(app, [
    RecurrenceDateSchema,
    RecurrenceSchema,
    ...CONNECTION_SCHEMAS,
    PartyRefSchema,
    ConnectedSchema,
    DocumentPageMetaSchema,
    BillLineSchema,
    InvoiceLineSchema,
    ManualLineSchema,
    BillSchema,
    InvoiceSchema,
    ManualEntrySchema,
    BillBodySchema,
    InvoiceBodySchema,
    ManualEntryBodySchema,
    ANSWERS.bill,
    ANSWERS.invoice,
    ANSWERS.manual_entry,
    LISTS.bill,
    LISTS.invoice,
    LISTS.manual_entry,
    CheckAnswerSchema,
  ]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['documents'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  for (const k of ['bill', 'invoice', 'manual_entry'] as const) {
    const K = KINDS[k];
    const what = K.what.toLowerCase();

    app.get<{ Querystring: ListQuery }>(
      K.plural,
      {
        config: READ,
        schema: {
          ...common,
          operationId: `list${K.Name}s`,
          summary: `A page of the workspace's ${what}s (20 by default), newest first; status Posted or Voided`,
          querystring: listQuery(k),
          response: responses(200, ref(LISTS[k])),
        },
      },
      async (req) => {
        const r = await client.listDocuments({ ...listRequest(k, req.query), all: false }, headers(req));
        return { data: r.data.map((d) => documentJson(k, d)), meta: r.meta };
      },
    );

    app.get<{ Params: { id: string } }>(
      `${K.singular}/:id`,
      { config: READ, schema: { ...common, operationId: `get${K.Name}`, summary: `One ${what}`, params: idParams, response: responses(200, ref(K.schema)) } },
      async (req) => documentJson(k, (await client.getDocument({ kind: k, id: req.params.id }, headers(req))).document),
    );

    app.post<{ Body: DocBody }>(
      `${K.singular}/v2`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `create${K.Name}`,
          summary: `Create a ${what}: one balanced ledger entry (source ${K.Name === 'ManualEntry' ? 'ManualEntry' : K.Name})`,
          body: ref(K.body),
          response: responses(201, ref(ANSWERS[k])),
        },
      },
      async (req, reply) => {
        const r = await client.createDocument({ kind: k, fields: fieldsOf(k, req.body ?? {}) }, headers(req));
        reply.code(201);
        return { message: `${K.what} created`, [K.one]: documentJson(k, r.document), seq: Number(r.seq) };
      },
    );

    app.put<{ Params: { id: string }; Body: DocBody }>(
      `${K.singular}/:id`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `update${K.Name}`,
          summary: `Replace a ${what}: the ledger reverses its entry and posts the new one`,
          params: idParams,
          body: ref(K.body),
          response: responses(200, ref(ANSWERS[k])),
        },
      },
      async (req) => {
        const r = await client.updateDocument({ kind: k, id: req.params.id, fields: fieldsOf(k, req.body ?? {}) }, headers(req));
        return { message: `${K.what} updated`, [K.one]: documentJson(k, r.document), seq: Number(r.seq) };
      },
    );

    app.post<{ Params: { id: string } }>(
      `${K.singular}/void/:id`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `void${K.Name}`,
          summary: `Void a ${what}: the ledger reverses its entry; it stays listed as Voided`,
          params: idParams,
          response: responses(200, ref(ANSWERS[k])),
        },
      },
      async (req) => {
        const r = await client.voidDocument({ kind: k, id: req.params.id }, headers(req));
        return { message: `${K.what} voided`, [K.one]: documentJson(k, r.document), seq: Number(r.seq) };
      },
    );

    app.delete<{ Params: { id: string } }>(
      `${K.singular}/:id`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `delete${K.Name}`,
          summary: `Delete a ${what}: the ledger reverses its entry; it is no longer listed`,
          params: idParams,
          response: responses(200, ref(ANSWERS[k])),
        },
      },
      async (req) => {
        const r = await client.deleteDocument({ kind: k, id: req.params.id }, headers(req));
        return { message: `${K.what} deleted`, [K.one]: documentJson(k, r.document), seq: Number(r.seq) };
      },
    );

    if (k !== 'manual_entry') {
      app.get<{ Querystring: ListQuery }>(
        K.csv,
        {
          config: READ,
          schema: {
            ...common,
            operationId: `export${K.Name}sCsv`,
            summary: `Every ${what} matching the filters, as CSV`,
            querystring: csvQuery(k),
            response: csvResponse(`The ${what}s`),
          },
        },
        async (req, reply: FastifyReply) => {
          const r = await client.listDocuments({ ...listRequest(k, req.query), all: true }, headers(req));
          const body = [CSV_BOM, csvRow(k === 'bill' ? BILLS_CSV_HEADER : INVOICES_CSV_HEADER), ...r.data.map((d) => csvLine(k, d))].join('');
          const fileName = exportFileName(`${k}s`, [new Date().toISOString().slice(0, 10)], 'csv');
          return reply.type(CONTENT_TYPES.csv).header('content-disposition', contentDisposition(fileName)).header('cache-control', 'no-store').send(body);
        },
      );
    }
  }

  app.post<{ Body: DocBody }>(
    '/accounting/manual-entry/check',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'checkManualEntry',
        summary: "Check a manual journal without posting it: its rules, whether it balances and each account's difference",
        body: ref(ManualEntryBodySchema),
        response: responses(200, ref(CheckAnswerSchema)),
      },
    },
    async (req) => {
      const r = await client.checkManualEntry({ fields: fieldsOf('manual_entry', req.body ?? {}) }, headers(req));
      return {
        balanced: r.balanced,
        totalDebit: dollarsOf(r.debitCents),
        totalCredit: dollarsOf(r.creditCents),
        difference: dollarsOf(r.differenceCents),
        differenceData: {
          differences: r.differences.map((d) => ({
            accountId: d.accountId,
            amount: dollarsOf(d.amountCents),
            flag: d.flag,
            openingBalance: dollarsOf(d.openingBalanceCents),
          })),
          differenceMessages: r.differenceMessages,
        },
      };
    },
  );

  registerPaymentDetailsRoute(app, { client });
  registerPaymentSuggestionsRoute(app, { client });
}
