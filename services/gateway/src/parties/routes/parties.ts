import { centsToDollars } from '@ledgerline/platform';
import type { Customer, CustomerFields, Vendor, VendorFields } from '@ledgerline/proto/parties/v1/parties_pb';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSV_BOM, csvRow } from '../../exports/csv.js';
import { contentDisposition, CONTENT_TYPES, exportFileName } from '../../exports/files.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { ErrorResponseSchema, ref, responses, WORKSPACE_HEADER_SCHEMA, BEARER, uuid } from '../../http/schemas.js';
import type { PartiesClient } from '../client.js';

/**
 * Spec documents-parties-integrations §7 "Vendors" and "Customers" (issue #17): each route one PartiesService
 * RPC with the caller's tenancy headers. Viewers read; writes need a role above Viewer (spec §6), checked here
 * and again by the service. Money is decimal dollars here, cents in the service.
 */

const TAGS = ['parties'] as const;
const idParams = { type: 'object', properties: { id: uuid }, required: ['id'], additionalProperties: false } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
const str = { type: 'string' } as const;

const EmailSchema = {
  type: 'object',
  description: 'The email, as spec §3 writes it ({email}); lower-cased; an empty string clears it.',
  properties: { email: text(254) },
  required: ['email'],
  additionalProperties: false,
} as const;
const MetaDataSchema = {
  type: 'object',
  description: 'Free keys with string or number values (at most 50).',
  maxProperties: 50,
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }] },
} as const;

const VendorSchema = {
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

const CustomerSchema = {
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

const PartiesPageMetaSchema = {
  $id: 'PartiesPageMeta',
  type: 'object',
  description: 'Paging of a vendor or customer list (page from 1; take 1–100, default 20).',
  properties: { page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool },
  required: ['page', 'take', 'itemCount', 'pageCount', 'hasPreviousPage', 'hasNextPage'],
  additionalProperties: false,
} as const;

const object = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;
const VendorListSchema = {
  $id: 'VendorList',
  ...object({ data: { type: 'array', items: ref(VendorSchema) }, meta: ref(PartiesPageMetaSchema) }, ['data', 'meta']),
};
const CustomerListSchema = {
  $id: 'CustomerList',
  ...object({ data: { type: 'array', items: ref(CustomerSchema) }, meta: ref(PartiesPageMetaSchema) }, ['data', 'meta']),
};
const VendorAnswerSchema = { $id: 'VendorAnswer', ...object({ message: str, vendor: ref(VendorSchema) }, ['message', 'vendor']) };
const VendorDeletedSchema = {
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
const CustomerDeletedSchema = {
  $id: 'CustomerDeleted',
  ...object(
    {
      message: { ...str, description: "'Customer deleted', or what keeps it (its invoices and credit memos, counted) and that it was made inactive instead." },
      deleted: { ...bool, description: 'false: the customer has invoices or credit memos and was made inactive instead.' },
    },
    ['message', 'deleted'],
  ),
};
const VendorMergedSchema = {
  $id: 'VendorMerged',
  ...object({ message: str, vendor: ref(VendorSchema), movedTransactions: int }, ['message', 'vendor', 'movedTransactions']),
};
const CustomerAnswerSchema = { $id: 'CustomerAnswer', ...object({ message: str, customer: ref(CustomerSchema) }, ['message', 'customer']) };

// Bodies: shape only (as every body, services/gateway/src/http/schemas.ts); the service owns the rules and messages.
const partyText = {
  name: text(200),
  description: text(1000),
  address: text(300),
  bankDetails: text(500),
  email: EmailSchema,
  status: text(20),
  metaData: MetaDataSchema,
};
const VendorBodySchema = { $id: 'VendorBody', ...object({ ...partyText, is1099Eligible: bool, ein: text(20) }) };
const CustomerBodySchema = { $id: 'CustomerBody', ...object({ ...partyText, companyName: text(100) }) };
const MergeBodySchema = {
  $id: 'VendorMergeBody',
  ...object({
    parentVendorId: text(100),
    mergingVendorsId: { type: 'array', maxItems: 100, items: text(100), description: 'The vendors merged into the parent (at least one).' },
  }),
};

const LIST_QUERY = {
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
const CUSTOMER_LIST_QUERY = {
  type: 'object',
  properties: { page: int, take: int, search: { ...text(200), description: 'Part of the name or company name.' }, status: text(20) },
  additionalProperties: false,
} as const;
interface ListQueryString {
  page?: number;
  take?: number;
  search?: string;
  status?: string;
  filter?: string;
}

interface EmailBody {
  email?: string;
}
interface PartyBody {
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

const emailJson = (email: string) => ({ email });
const metaJson = (json: string): Record<string, string | number> => (json ? (JSON.parse(json) as Record<string, string | number>) : {});

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
type FieldsInit = { [K in keyof Omit<VendorFields, '$typeName' | '$unknown'>]?: VendorFields[K] } & { companyName?: CustomerFields['companyName'] };
function fieldsOf(b: PartyBody): FieldsInit {
  const f: FieldsInit = {};
  if (b.name !== undefined) f.name = b.name;
  if (b.description !== undefined) f.description = b.description;
  if (b.address !== undefined) f.address = b.address;
  if (b.bankDetails !== undefined) f.bankDetails = b.bankDetails;
  if (b.email !== undefined) f.email = b.email.email ?? '';
  if (b.status !== undefined) f.status = b.status;
  if (b.metaData !== undefined) f.metaDataJson = JSON.stringify(b.metaData);
  if (b.is1099Eligible !== undefined) f.is1099Eligible = b.is1099Eligible;
  if (b.ein !== undefined) f.ein = b.ein;
  if (b.companyName !== undefined) f.companyName = b.companyName;
  return f;
}

const listRequest = (q: ListQueryString) => ({ page: q.page ?? 0, take: q.take ?? 0, search: q.search ?? '', status: q.status ?? '', filter: q.filter ?? '' });

function csvResponse(what: string) {
  return {
    200: {
      description: `${what}, as an attachment (file name in content-disposition).`,
      content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } },
    },
    default: ref(ErrorResponseSchema),
  };
}
function sendCsv(reply: FastifyReply, base: string, body: string) {
  const fileName = exportFileName(base, [new Date().toISOString().slice(0, 10)], 'csv');
  return reply.type(CONTENT_TYPES.csv).header('content-disposition', contentDisposition(fileName)).header('cache-control', 'no-store').send(body);
}

export const VENDORS_CSV_HEADER = [
  'Name',
  'Status',
  'Email',
  'Description',
  'Address',
  'Bank details',
  '1099 eligible',
  'EIN',
  'Transactions',
  'Spending',
  'Inflow',
  'Bills',
  'Due bills',
  'Overdue amount',
  'Vendor credits',
  'Vendor credit balance',
];
export const CUSTOMERS_CSV_HEADER = [
  'Name',
  'Company',
  'Status',
  'Email',
  'Description',
  'Address',
  'Bank details',
  'Invoices',
  'Invoice amount',
  'Due invoices',
  'Due invoice amount',
  'Credit memos',
  'Credit memo amount',
  'Overdue payment amount',
];

export async function registerPartiesRoutes(app: FastifyInstance, { client }: { client: PartiesClient }): Promise<void> {
  addSchemas(app, [
    VendorSchema,
    CustomerSchema,
    PartiesPageMetaSchema,
    VendorListSchema,
    CustomerListSchema,
    VendorAnswerSchema,
    VendorDeletedSchema,
    CustomerDeletedSchema,
    VendorMergedSchema,
    CustomerAnswerSchema,
    VendorBodySchema,
    CustomerBodySchema,
    MergeBodySchema,
  ]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  // Vendors.
  app.get<{ Querystring: ListQueryString }>(
    '/vendors',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listVendors',
        summary: "A page of the workspace's vendors (20 by default) with their totals from the books",
        querystring: LIST_QUERY,
        response: responses(200, ref(VendorListSchema)),
      },
    },
    async (req) => {
      const r = await client.listVendors({ ...listRequest(req.query), all: false }, headers(req));
      return { data: r.data.map(vendorJson), meta: r.meta };
    },
  );

  app.get<{ Querystring: ListQueryString }>(
    '/vendors/csv',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'exportVendorsCsv',
        summary: 'Every vendor matching the filters, as CSV',
        querystring: LIST_QUERY,
        response: csvResponse('The vendors'),
      },
    },
    async (req, reply) => {
      const r = await client.listVendors({ ...listRequest(req.query), all: true }, headers(req));
      const rows = r.data.map((v) =>
        csvRow([
          v.name,
          v.status,
          v.email,
          v.description,
          v.address,
          v.bankDetails,
          v.is1099Eligible,
          v.ein,
          v.transactionCount,
          v.spendingCents,
          v.inflowCents,
          v.billCount,
          v.dueBillCount,
          v.overdueAmountCents,
          v.vendorCreditCount,
          v.vendorCreditRemainingCents,
        ]),
      );
      return sendCsv(reply, 'vendors', [CSV_BOM, csvRow(VENDORS_CSV_HEADER), ...rows].join(''));
    },
  );

  app.post<{ Body: PartyBody }>(
    '/vendors',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createVendor',
        summary: 'Add a vendor',
        body: ref(VendorBodySchema),
        response: responses(201, ref(VendorAnswerSchema)),
      },
    },
    async (req, reply) => {
      const r = await client.createVendor({ fields: fieldsOf(req.body ?? {}) }, headers(req));
      reply.code(201);
      return { message: 'Vendor created', vendor: vendorJson(r.vendor) };
    },
  );

  app.post<{ Body: { parentVendorId?: string; mergingVendorsId?: string[] } }>(
    '/vendors/merge',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'mergeVendors',
        summary: 'Merge vendors into a parent: their transactions move to it and they go',
        body: ref(MergeBodySchema),
        response: responses(200, ref(VendorMergedSchema)),
      },
    },
    async (req) => {
      const r = await client.mergeVendors({ parentVendorId: req.body?.parentVendorId ?? '', mergingVendorsId: req.body?.mergingVendorsId ?? [] }, headers(req));
      return { message: 'Vendors merged', vendor: vendorJson(r.vendor), movedTransactions: r.movedTransactions };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/vendors/:id',
    {
      config: READ,
      schema: { ...common, operationId: 'getVendor', summary: 'One vendor with its totals', params: idParams, response: responses(200, ref(VendorSchema)) },
    },
    async (req) => vendorJson((await client.getVendor({ id: req.params.id }, headers(req))).vendor),
  );

  app.patch<{ Params: { id: string }; Body: PartyBody }>(
    '/vendors/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateVendor',
        summary: 'Change a vendor (only the fields sent)',
        params: idParams,
        body: ref(VendorBodySchema),
        response: responses(200, ref(VendorAnswerSchema)),
      },
    },
    async (req) => {
      const r = await client.updateVendor({ id: req.params.id, fields: fieldsOf(req.body ?? {}) }, headers(req));
      return { message: 'Vendor updated', vendor: vendorJson(r.vendor) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/vendors/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteVendor',
        summary: 'Delete a vendor; one with transactions, bills or vendor credits is made inactive instead',
        params: idParams,
        response: responses(200, ref(VendorDeletedSchema)),
      },
    },
    async (req) => {
      const r = await client.deleteVendor({ id: req.params.id }, headers(req));
      return { message: r.message, deleted: r.deleted, vendor: vendorJson(r.vendor) };
    },
  );

  // Customers.
  app.get<{ Querystring: ListQueryString }>(
    '/customers',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listCustomers',
        summary: "A page of the workspace's customers (20 by default)",
        querystring: CUSTOMER_LIST_QUERY,
        response: responses(200, ref(CustomerListSchema)),
      },
    },
    async (req) => {
      const r = await client.listCustomers({ ...listRequest(req.query), all: false }, headers(req));
      return { data: r.data.map(customerJson), meta: r.meta };
    },
  );

  app.get<{ Querystring: ListQueryString }>(
    '/customers/csv',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'exportCustomersCsv',
        summary: 'Every customer matching the filters, as CSV',
        querystring: CUSTOMER_LIST_QUERY,
        response: csvResponse('The customers'),
      },
    },
    async (req, reply) => {
      const r = await client.listCustomers({ ...listRequest(req.query), all: true }, headers(req));
      const rows = r.data.map((c) =>
        csvRow([
          c.name,
          c.companyName,
          c.status,
          c.email,
          c.description,
          c.address,
          c.bankDetails,
          c.invoiceCount,
          c.invoiceAmountCents,
          c.dueInvoiceCount,
          c.dueInvoiceAmountCents,
          c.creditMemoCount,
          c.creditMemoAmountCents,
          c.overduePaymentAmountCents,
        ]),
      );
      return sendCsv(reply, 'customers', [CSV_BOM, csvRow(CUSTOMERS_CSV_HEADER), ...rows].join(''));
    },
  );

  app.post<{ Body: PartyBody }>(
    '/customers',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createCustomer',
        summary: 'Add a customer',
        body: ref(CustomerBodySchema),
        response: responses(201, ref(CustomerAnswerSchema)),
      },
    },
    async (req, reply) => {
      const r = await client.createCustomer({ fields: fieldsOf(req.body ?? {}) }, headers(req));
      reply.code(201);
      return { message: 'Customer created', customer: customerJson(r.customer) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/customers/:id',
    {
      config: READ,
      schema: { ...common, operationId: 'getCustomer', summary: 'One customer', params: idParams, response: responses(200, ref(CustomerSchema)) },
    },
    async (req) => customerJson((await client.getCustomer({ id: req.params.id }, headers(req))).customer),
  );

  app.patch<{ Params: { id: string }; Body: PartyBody }>(
    '/customers/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateCustomer',
        summary: 'Change a customer (only the fields sent)',
        params: idParams,
        body: ref(CustomerBodySchema),
        response: responses(200, ref(CustomerAnswerSchema)),
      },
    },
    async (req) => {
      const r = await client.updateCustomer({ id: req.params.id, fields: fieldsOf(req.body ?? {}) }, headers(req));
      return { message: 'Customer updated', customer: customerJson(r.customer) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/customers/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteCustomer',
        summary: 'Delete a customer; one with invoices or credit memos is made inactive instead',
        params: idParams,
        response: responses(200, ref(CustomerDeletedSchema)),
      },
    },
    async (req) => {
      const r = await client.deleteCustomer({ id: req.params.id }, headers(req));
      return { message: r.message, deleted: r.deleted };
    },
  );
}
