import { centsToDollars } from '@ledgerline/platform';
import type { PaymentDetail } from '@ledgerline/proto/documents/v1/documents_pb';
import { withAmounts, type Amounts } from '../../http/amounts.js';
import { authOf, WRITE } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DocumentsClient } from '../client.js';
import {
  A_KIND,
  ACCEPTED_LISTS,
  CONNECTION_BODIES,
  type ConnectionBodies,
  DetailsAnswerSchema,
  DetailsBodySchema,
  DetailSchema,
  type Kind,
  SuggestionsAnswerSchema,
  SuggestionSchema,
} from '../schemas.js';
import { documentJson } from '../present.js';

/**
 * Payments of bills and invoices other than bank transactions (issue #18 item 4; services/documents/README.md
 * "Payments"): the body lists and answer fields of manual journals, vendor credits and credit memos, and POST
 * /accounting/payment-details/check.
 */

/** A body list to the service's fields; amounts to cents (400 naming a bad one). */
function fieldList(a: Amounts, field: string, items: { id?: string; amount?: number }[] | undefined) {
  return (items ?? []).map((p, i) => {
    const amount = a.cents(`${field}.${i}.amount`, p.amount);
    return { id: p.id ?? '', hasAmount: amount !== undefined, amountCents: amount ?? 0n };
  });
}
export const misplacedListMessage = (field: string, k: Kind) => `${field} is not accepted on ${A_KIND[k]}`;

/**
 * Every payment list is in every body's schema (so that ajv does not silently drop one sent on the wrong kind of
 * document); a non-empty list the kind does not take is a 400 naming it, before anything is called.
 */
export function misplacedLists(a: Amounts, k: Kind, b: ConnectionBodies): void {
  for (const field of Object.keys(CONNECTION_BODIES) as (keyof ConnectionBodies)[]) {
    if (!ACCEPTED_LISTS[k].includes(field) && (b[field]?.length ?? 0) > 0) a.add(field, misplacedListMessage(field, k));
  }
}

export function connectionFieldsOf(a: Amounts, k: Kind, b: ConnectionBodies) {
  misplacedLists(a, k, b);
  return {
    connectedManualEntries: fieldList(a, 'connectedManualEntries', b.connectedManualEntries),
    connectedCredits:
      k === 'invoice' ? fieldList(a, 'connectedCreditMemos', b.connectedCreditMemos) : fieldList(a, 'connectedVendorCredits', b.connectedVendorCredits),
    connectedBills: fieldList(a, 'connectedBills', b.connectedBills),
    connectedInvoices: fieldList(a, 'connectedInvoices', b.connectedInvoices),
  };
}

/** POST /accounting/payment-details/check (spec §7, under manual journals): what a payment would leave of each bill and invoice. */
export function registerPaymentDetailsRoute(app: FastifyInstance, { client }: { client: DocumentsClient }): void {
  addSchemas(app, [DetailSchema, DetailsAnswerSchema, DetailsBodySchema]);
  const detail = (d: PaymentDetail) => ({
    id: d.id,
    kind: d.kind,
    party: { id: d.party?.id ?? '', name: d.party?.name ?? '' },
    reference: d.reference,
    totalAmount: centsToDollars(d.totalCents),
    paidAmount: centsToDollars(d.paidCents),
    amount: centsToDollars(d.amountCents),
    remainingAmount: centsToDollars(d.remainingCents),
    paymentStatus: d.paymentStatus,
    differenceMessages: d.differenceMessages,
  });
  app.post<{ Body: ConnectionBodies & { manualEntryId?: string } }>(
    '/accounting/payment-details/check',
    {
      // A check made while editing a journal: the edit ranking, as /accounting/manual-entry/check.
      config: WRITE,
      schema: {
        tags: ['documents'],
        security: [{ bearerAuth: [] }],
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'checkPaymentDetails',
        summary:
          "What a payment (a manual journal's bills and invoices with amounts) would leave of each: paid so far, remaining, the payment status; nothing is written",
        body: ref(DetailsBodySchema),
        response: responses(200, ref(DetailsAnswerSchema)),
      },
    },
    async (req: FastifyRequest<{ Body: ConnectionBodies & { manualEntryId?: string } }>) => {
      const body = req.body ?? {};
      const f = withAmounts((a) => connectionFieldsOf(a, 'manual_entry', body));
      const r = await client.checkPaymentDetails(
        { connectedBills: f.connectedBills, connectedInvoices: f.connectedInvoices, manualEntryId: body.manualEntryId ?? '' },
        { headers: authOf(req).rpcHeaders },
      );
      return { bills: r.bills.map(detail), invoices: r.invoices.map(detail), totalAmount: centsToDollars(r.totalCents) };
    },
  );
}

/**
 * GET /accounting/payment-suggestions?transactionId= (issue #18 item 4, "suggest the matching bill or invoice for a new
 * bank transaction"): the open bills (money out) or invoices (money in) it most likely pays, best first, at most 5.
 */
export function registerPaymentSuggestionsRoute(app: FastifyInstance, { client }: { client: DocumentsClient }): void {
  addSchemas(app, [SuggestionSchema, SuggestionsAnswerSchema]);
  app.get<{ Querystring: { transactionId: string } }>(
    '/accounting/payment-suggestions',
    {
      config: { auth: { workspace: 'required' as const } },
      schema: {
        tags: ['documents'],
        security: [{ bearerAuth: [] }],
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'suggestPaymentDocuments',
        summary: 'The open bills or invoices a bank transaction most likely pays (amount, vendor / customer, date), best first',
        querystring: {
          type: 'object',
          properties: { transactionId: { type: 'string', format: 'uuid' } },
          required: ['transactionId'],
          additionalProperties: false,
        },
        response: responses(200, ref(SuggestionsAnswerSchema)),
      },
    },
    async (req) => {
      const r = await client.suggestDocuments({ transactionId: req.query.transactionId }, { headers: authOf(req).rpcHeaders });
      return {
        suggestions: r.suggestions.map((x) => {
          const kind = x.document?.kind === 'invoice' ? 'invoice' : 'bill';
          return { kind, score: x.score, reasons: x.reasons, [kind]: documentJson(kind, x.document) };
        }),
      };
    },
  );
}
