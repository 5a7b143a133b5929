import type { CustomerFields, VendorFields } from '@ledgerline/proto/parties/v1/parties_pb';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSV_BOM, csvRow } from '../../exports/csv.js';
import { contentDisposition, CONTENT_TYPES, exportFileName } from '../../exports/files.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, ErrorResponseSchema, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { PartiesClient } from '../client.js';
import {
  CUSTOMER_LIST_QUERY,
  CustomerAnswerSchema,
  CustomerBodySchema,
  CustomerDeletedSchema,
  CustomerListSchema,
  CustomerSchema,
  LIST_QUERY,
  type ListQueryString,
  MergeBodySchema,
  PartiesPageMetaSchema,
  type PartyBody,
  VendorAnswerSchema,
  VendorBodySchema,
  VendorDeletedSchema,
  VendorListSchema,
  VendorMergedSchema,
  VendorSchema,
} from '../schemas.js';
import { vendorJson, customerJson } from '../present.js';

/**
 * Spec documents-parties-integrations §7 "Vendors" and "Customers" (issue #17): each route one PartiesService
 * RPC with the caller's tenancy headers. Viewers read; writes need a role above Viewer (spec §6), checked here
 * and again by the service. Money is decimal dollars here, cents in the service.
 */

const TAGS = ['parties'] as const;
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
