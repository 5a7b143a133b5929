import { create, toJson } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { IDEMPOTENCY_HEADER, requestHash, requireTenant, withInputRules } from '@ledgerline/platform';
import {
  DocumentFieldsSchema,
  DocumentSchema,
  DocumentsService as DocumentsRpc,
  PageMetaSchema,
  type Document,
  type DocumentFields,
  type PaymentFields,
} from '@ledgerline/proto/documents/v1/documents_pb';
import type { DocumentInput } from '../domain/documents.js';
import type { DocumentsUseCases, DocumentView } from '../usecases/index.js';
import type { RecurrenceUseCases, RecurrenceView } from '../usecases/recurrence.js';
import type { PaymentDetail } from '../usecases/payments.js';

const payment = (c: { id: string; amountCents: number }) => ({ id: c.id, amountCents: BigInt(c.amountCents) });
const connectionsOf = (list: readonly PaymentFields[] | undefined) =>
  (list ?? []).map((p) => ({ id: p.id, amountCents: p.hasAmount ? p.amountCents : undefined }));

export function documentMessage(
  v: DocumentView,
  recurrence?: RecurrenceView,
  extra: { billerName?: string; suggested?: { id: string; name: string } | null } = {},
): Document {
  const r = v.row;
  return create(DocumentSchema, {
    id: r.id,
    kind: r.kind,
    date: r.doc_date,
    dueDate: r.due_date ?? '',
    party: r.party_id ? { id: r.party_id, name: r.party_name } : undefined,
    reference: r.reference,
    description: r.description,
    companyName: r.company_name,
    companyAddress: r.company_address,
    totalCents: BigInt(r.total_cents),
    voided: r.voided_at !== null,
    status: v.status,
    paymentStatus: v.paymentStatus,
    paidCents: BigInt(v.paidCents),
    differenceMessages: v.differenceMessages,
    lines: v.lines.map((l) => ({
      id: l.id,
      serviceName: l.service_name,
      categoryId: l.category_id,
      amountCents: BigInt(l.amount_cents),
      quantity: l.quantity ?? '',
      rateCents: BigInt(l.rate_cents ?? 0),
      direction: l.direction ?? '',
    })),
    connectedTransactions: v.payments.map((p) => ({ id: p.transaction_id, amountCents: BigInt(p.amount_cents) })),
    connectedManualEntries: v.connectedManualEntries.map(payment),
    connectedCredits: v.connectedCredits.map(payment),
    paidBills: v.paidBills.map(payment),
    paidInvoices: v.paidInvoices.map(payment),
    journalEntryId: r.journal_entry_id ?? '',
    version: BigInt(r.version),
    source: r.source,
    createdOn: r.created_at.toISOString(),
    updatedOn: r.updated_at.toISOString(),
    recurrence,
    billerName: extra.billerName ?? '',
    suggestedParty: extra.suggested ?? undefined,
  });
}

const inputOf = (f: DocumentFields | undefined): DocumentInput => ({
  date: f?.date,
  dueDate: f?.dueDate,
  partyId: f?.partyId,
  reference: f?.reference,
  description: f?.description,
  companyName: f?.companyName,
  companyAddress: f?.companyAddress,
  lineItems: (f?.lineItems ?? []).map((l) => ({
    serviceName: l.serviceName,
    categoryId: l.categoryId,
    amountCents: l.hasAmount ? l.amountCents : undefined,
    quantity: l.hasQuantity ? l.quantity : undefined,
    rateCents: l.hasRate ? l.rateCents : undefined,
    direction: l.direction,
  })),
  connectedTransactions: (f?.connectedTransactions ?? []).map((p) => ({ id: p.id, amountCents: p.hasAmount ? p.amountCents : undefined })),
  connections: {
    manualEntries: connectionsOf(f?.connectedManualEntries),
    credits: connectionsOf(f?.connectedCredits),
    bills: connectionsOf(f?.connectedBills),
    invoices: connectionsOf(f?.connectedInvoices),
  },
  recurrence: {
    recurringStartDate: f?.recurringStartDate,
    recurringEndDate: f?.recurringEndDate,
    interval: f?.interval,
    recurringEndType: f?.recurringEndType,
    recurringCount: f?.recurringCount,
    activity: f?.activity,
  },
  billerName: f?.billerName,
});

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function documentsRoutes(u: DocumentsUseCases, rec: RecurrenceUseCases): (router: ConnectRouter) => void {
  type Tenant = ReturnType<typeof requireTenant>;
  /** Documents with their recurrence fields (templates, and documents a recurrence created). */
  const messages = async (tenant: Tenant, views: DocumentView[]) => {
    const ids = views.map((v) => v.row.id);
    const recurrences = await rec.views(tenant, ids);
    const written = await u.writtenNames(tenant, ids);
    return views.map((v) => documentMessage(v, recurrences.get(v.row.id), { billerName: written.get(v.row.id) }));
  };
  const one = async (tenant: Tenant, v: DocumentView) => (await messages(tenant, [v]))[0];
  /** GET of one document: with its suggested vendor / customer. */
  const withSuggestion = async (tenant: Tenant, v: DocumentView) => {
    const written = (await u.writtenNames(tenant, [v.row.id])).get(v.row.id);
    const recurrences = await rec.views(tenant, [v.row.id]);
    return documentMessage(v, recurrences.get(v.row.id), { billerName: written, suggested: await u.suggestedParty(tenant, v, written) });
  };
  const changeOf = async (tenant: Tenant, r: { document: DocumentView; seq: number }) => ({ document: await one(tenant, r.document), seq: BigInt(r.seq) });
  return (router) => {
    router.service(
      DocumentsRpc,
      withInputRules(DocumentsRpc, {
        async listDocuments(req, ctx: HandlerContext) {
          const tenant = requireTenant(ctx);
          const a = await u.list(tenant, {
            kind: req.kind,
            page: req.page,
            take: req.take,
            status: req.status,
            partyId: req.partyId,
            startDate: req.startDate,
            endDate: req.endDate,
            all: req.all,
          });
          return { data: await messages(tenant, a.data), meta: create(PageMetaSchema, a.meta) };
        },
        async getDocument(req, ctx) {
          const tenant = requireTenant(ctx);
          return { document: await withSuggestion(tenant, await u.get(tenant, req.kind, req.id)) };
        },
        async createDocument(req, ctx) {
          const tenant = requireTenant(ctx);
          const input = inputOf(req.fields);
          const key = ctx.requestHeader.get(IDEMPOTENCY_HEADER);
          return changeOf(
            tenant,
            await u.create(
              tenant,
              req.kind,
              input,
              key
                ? {
                    idempotency: {
                      key,
                      hash: requestHash({ kind: req.kind, fields: toJson(DocumentFieldsSchema, req.fields ?? create(DocumentFieldsSchema)) }),
                    },
                  }
                : {},
            ),
          );
        },
        async updateDocument(req, ctx) {
          const tenant = requireTenant(ctx);
          return changeOf(tenant, await u.update(tenant, req.kind, req.id, inputOf(req.fields)));
        },
        async voidDocument(req, ctx) {
          const tenant = requireTenant(ctx);
          return changeOf(tenant, await u.void(tenant, req.kind, req.id));
        },
        async deleteDocument(req, ctx) {
          const tenant = requireTenant(ctx);
          return changeOf(tenant, await u.remove(tenant, req.kind, req.id));
        },
        async recurDocument(req, ctx) {
          const tenant = requireTenant(ctx);
          const recurrence = await rec.recur(tenant, req.kind, req.id, {
            recurringStartDate: req.recurringStartDate,
            recurringEndDate: req.recurringEndDate,
            interval: req.interval,
            recurringEndType: req.recurringEndType,
            recurringCount: req.recurringCount,
            activity: req.activity,
          });
          return { document: documentMessage(await u.get(tenant, req.kind, req.id), recurrence) };
        },
        async stopRecurring(req, ctx) {
          const tenant = requireTenant(ctx);
          const r = await rec.stop(tenant, req.id, req.entityType);
          return { document: documentMessage(await u.get(tenant, r.kind, req.id), r.recurrence) };
        },
        async checkManualEntry(req, ctx) {
          const r = await u.check(requireTenant(ctx), inputOf(req.fields));
          return {
            balanced: r.balanced,
            debitCents: BigInt(r.debitCents),
            creditCents: BigInt(r.creditCents),
            differenceCents: BigInt(r.differenceCents),
            differences: r.differences.map((d) => ({
              accountId: d.accountId,
              amountCents: BigInt(d.amountCents),
              flag: d.flag,
              openingBalanceCents: BigInt(d.openingBalanceCents),
            })),
            differenceMessages: r.differenceMessages,
          };
        },
        async suggestDocuments(req, ctx) {
          const r = await u.suggest(requireTenant(ctx), req.transactionId);
          return { suggestions: r.map((x) => ({ document: documentMessage(x.view), score: x.score, reasons: x.reasons })) };
        },
        async checkPaymentDetails(req, ctx) {
          const r = await u.checkPayments(requireTenant(ctx), {
            connections: { bills: connectionsOf(req.connectedBills), invoices: connectionsOf(req.connectedInvoices) },
            manualEntryId: req.manualEntryId,
          });
          const detail = (d: PaymentDetail) => ({
            id: d.id,
            kind: d.kind,
            party: d.partyId ? { id: d.partyId, name: d.partyName } : undefined,
            reference: d.reference,
            totalCents: BigInt(d.totalCents),
            paidCents: BigInt(d.paidCents),
            amountCents: BigInt(d.amountCents),
            remainingCents: BigInt(d.remainingCents),
            paymentStatus: d.paymentStatus,
            differenceMessages: d.differenceMessages,
          });
          return { bills: r.bills.map(detail), invoices: r.invoices.map(detail), totalCents: BigInt(r.totalCents) };
        },
      }),
    );
  };
}
