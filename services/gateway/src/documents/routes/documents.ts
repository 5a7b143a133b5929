import type { Document, DocumentFields } from '@ledgerline/proto/documents/v1/documents_pb';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSV_BOM, csvRow } from '../../exports/csv.js';
import { contentDisposition, CONTENT_TYPES, exportFileName } from '../../exports/files.js';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, ErrorResponseSchema, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { connectionFieldsOf, registerPaymentDetailsRoute, registerPaymentSuggestionsRoute } from './document-payments.js';
import type { DocumentsClient } from '../client.js';
import {
  ANSWERS,
  BillBodySchema,
  BillLineSchema,
  BillSchema,
  CheckAnswerSchema,
  ConnectedSchema,
  csvQuery,
  type DocBody,
  DocumentPageMetaSchema,
  InvoiceBodySchema,
  InvoiceLineSchema,
  InvoiceSchema,
  type Kind,
  KINDS,
  listQuery,
  type ListQuery,
  LISTS,
  ManualEntryBodySchema,
  ManualEntrySchema,
  ManualLineSchema,
  PartyRefSchema,
  RecurrenceDateSchema,
  RecurrenceSchema,
  CONNECTION_SCHEMAS,
} from '../schemas.js';
import { documentJson } from '../present.js';
import { centsToDollars } from '@ledgerline/platform';

/**
 * Spec documents-parties-integrations §3 (bill, invoice, manual journal, line item), §5 (their rules), §7 (calls);
 * issue #18 items 1–3 and 5. Bills under /accounting/bill(s), invoices under /accounting/invoice(s), manual journals
 * under /accounting/manual-entry / manual-entries; each route one DocumentsService RPC. Every create, PUT, void and
 * delete posts through the ledger (a balanced entry or its reversal, source Bill, Invoice or ManualEntry) and answers
 * its `seq`. Viewers read; writes need a role above Viewer. Dollars here, cents in the service. Bodies are checked for
 * shape only; the service owns the rules and their messages ('Line Item N: ...').
 */

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
    ? csvRow([d.date, d.dueDate, d.party?.name ?? '', d.reference, d.description, centsToDollars(d.totalCents).toFixed(2), d.status, d.paymentStatus, d.id])
    : csvRow([
        d.date,
        d.dueDate,
        d.party?.name ?? '',
        d.reference,
        d.description,
        d.companyName,
        centsToDollars(d.totalCents).toFixed(2),
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
        totalDebit: centsToDollars(r.debitCents),
        totalCredit: centsToDollars(r.creditCents),
        difference: centsToDollars(r.differenceCents),
        differenceData: {
          differences: r.differences.map((d) => ({
            accountId: d.accountId,
            amount: centsToDollars(d.amountCents),
            flag: d.flag,
            openingBalance: centsToDollars(d.openingBalanceCents),
          })),
          differenceMessages: r.differenceMessages,
        },
      };
    },
  );

  registerPaymentDetailsRoute(app, { client });
  registerPaymentSuggestionsRoute(app, { client });
}
