import { centsToDollars } from '@ledgerline/platform';
import type { Payment, PaymentDetail } from '@ledgerline/proto/documents/v1/documents_pb';
import { withAmounts, type Amounts } from '../../http/amounts.js';
import { authOf, WRITE } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { num, object, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documentJson } from './documents.js';
import type { DocumentsClient } from '../client.js';

/**
 * Payments of bills and invoices other than bank transactions (issue #18 item 4; services/documents/README.md
 * "Payments"): the body lists and answer fields of manual journals, vendor credits and credit memos, and POST
 * /accounting/payment-details/check.
 */

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

const ConnectionSchema = { $id: 'DocumentConnection', ...object({ id: str, amount: num }, ['id', 'amount']) };
const list = (description: string) => ({ type: 'array', items: ref(ConnectionSchema), description }) as const;
export const CONNECTION_PROPS = {
  bill: {
    connectedManualEntries: list('The manual journals paying it, with what each pays.'),
    connectedVendorCredits: list('The vendor credits applied to it, with what each pays.'),
  },
  invoice: {
    connectedManualEntries: list('The manual journals paying it, with what each pays.'),
    connectedCreditMemos: list('The credit memos applied to it, with what each pays.'),
  },
  manual_entry: { paidBills: list('The bills it pays, with what it pays of each.'), paidInvoices: list('The invoices it pays, with what it pays of each.') },
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
type Kind = 'bill' | 'invoice' | 'manual_entry';

/** A body list to the service's fields; amounts to cents (400 naming a bad one). */
function fieldList(a: Amounts, field: string, items: { id?: string; amount?: number }[] | undefined) {
  return (items ?? []).map((p, i) => {
    const amount = a.cents(`${field}.${i}.amount`, p.amount);
    return { id: p.id ?? '', hasAmount: amount !== undefined, amountCents: amount ?? 0n };
  });
}
/** The payment lists each kind takes; the others are refused by name (400), never dropped. */
export const ACCEPTED_LISTS: Record<Kind, readonly (keyof ConnectionBodies)[]> = {
  bill: ['connectedManualEntries', 'connectedVendorCredits'],
  invoice: ['connectedManualEntries', 'connectedCreditMemos'],
  manual_entry: ['connectedBills', 'connectedInvoices'],
};
const A_KIND: Record<Kind, string> = { bill: 'a bill', invoice: 'an invoice', manual_entry: 'a manual entry' };
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

/** Per kind, the lists it does not take, in its body schema only to be refused by name. */
const misplacedSchemas = (k: Kind) =>
  Object.fromEntries(
    (Object.keys(CONNECTION_BODIES) as (keyof ConnectionBodies)[])
      .filter((f) => !ACCEPTED_LISTS[k].includes(f))
      .map((f) => [f, connectionBody(`Not taken on ${A_KIND[k]}: a non-empty list is refused with a 400 naming it (an empty one is ignored).`)]),
  );
export const MISPLACED = { bill: misplacedSchemas('bill'), invoice: misplacedSchemas('invoice'), manual_entry: misplacedSchemas('manual_entry') };

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

const json = (list: readonly Payment[]) => list.map((p) => ({ id: p.id, amount: centsToDollars(p.amountCents) }));
export function connectionJson(
  k: Kind,
  d: { connectedManualEntries: Payment[]; connectedCredits: Payment[]; paidBills: Payment[]; paidInvoices: Payment[] },
): Record<string, unknown> {
  if (k === 'bill') return { connectedManualEntries: json(d.connectedManualEntries), connectedVendorCredits: json(d.connectedCredits) };
  if (k === 'invoice') return { connectedManualEntries: json(d.connectedManualEntries), connectedCreditMemos: json(d.connectedCredits) };
  return { paidBills: json(d.paidBills), paidInvoices: json(d.paidInvoices) };
}

const DetailSchema = {
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
const DetailsAnswerSchema = {
  $id: 'PaymentDetailsCheck',
  ...object({ bills: { type: 'array', items: ref(DetailSchema) }, invoices: { type: 'array', items: ref(DetailSchema) }, totalAmount: num }, [
    'bills',
    'invoices',
    'totalAmount',
  ]),
};
const DetailsBodySchema = {
  $id: 'PaymentDetailsBody',
  ...object({
    connectedBills: CONNECTION_BODIES.connectedBills,
    connectedInvoices: CONNECTION_BODIES.connectedInvoices,
    manualEntryId: { type: 'string', maxLength: 100, description: 'The manual journal being edited, if any: what it pays now is not counted twice.' },
  }),
};

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

const SuggestionSchema = {
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
const SuggestionsAnswerSchema = { $id: 'PaymentSuggestions', ...object({ suggestions: { type: 'array', items: ref(SuggestionSchema) } }, ['suggestions']) };

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
