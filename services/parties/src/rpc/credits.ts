import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { PageMetaSchema, PartyCreditSchema, type PartyCredit, type PartyCreditFields } from '@ledgerline/proto/parties/v1/parties_pb';
import type { CreditInput, CreditKind } from '../domain/credits.js';
import type { CreditUseCases, CreditView } from '../usecases/credits.js';

export function creditMessage(v: CreditView): PartyCredit {
  const r = v.row;
  return create(PartyCreditSchema, {
    id: r.id,
    paymentDate: r.payment_date,
    description: r.description,
    party: { id: r.vendor_id ?? r.customer_id ?? '', name: r.party_name },
    refNo: r.ref_no,
    totalAmountCents: BigInt(r.total_cents),
    appliedAmountCents: BigInt(v.appliedCents),
    runningBalanceCents: BigInt(v.runningBalanceCents),
    lineItems: v.lines.map((l) => ({ id: l.id, description: l.description, categoryId: l.category_id, amountCents: BigInt(l.amount_cents) })),
    journalEntryId: r.journal_entry_id ?? '',
    version: BigInt(r.version),
    voided: r.voided_at !== null,
    createdOn: r.created_at.toISOString(),
    updatedOn: r.updated_at.toISOString(),
  });
}

const inputOf = (f: PartyCreditFields | undefined): CreditInput => ({
  paymentDate: f?.paymentDate,
  partyId: f?.partyId,
  description: f?.description,
  refNo: f?.refNo,
  lineItems: f?.hasLineItems ? f.lineItems.map((l) => ({ description: l.description, categoryId: l.categoryId, amountCents: l.amountCents })) : undefined,
});

interface ListReq {
  page: number;
  take: number;
  partyId: string;
}
interface IdReq {
  id: string;
}
interface FieldsReq {
  fields?: PartyCreditFields;
}
interface UpdateReq extends IdReq, FieldsReq {}

/** The ten credit RPCs (vendor credits and credit memos), spread into the PartiesService implementation. */
export function creditHandlers(u: CreditUseCases) {
  const handlers = (kind: CreditKind) => ({
    list: async (req: ListReq, ctx: HandlerContext) => {
      const a = await u.list(requireTenant(ctx), kind, { page: req.page, take: req.take, partyId: req.partyId });
      return { data: a.data.map(creditMessage), meta: create(PageMetaSchema, a.meta) };
    },
    get: async (req: IdReq, ctx: HandlerContext) => ({ credit: creditMessage(await u.get(requireTenant(ctx), kind, req.id)) }),
    create: async (req: FieldsReq, ctx: HandlerContext) => {
      const r = await u.create(requireTenant(ctx), kind, inputOf(req.fields));
      return { credit: creditMessage(r.credit), seq: BigInt(r.seq) };
    },
    update: async (req: UpdateReq, ctx: HandlerContext) => {
      const r = await u.update(requireTenant(ctx), kind, req.id, inputOf(req.fields));
      return { credit: creditMessage(r.credit), seq: BigInt(r.seq) };
    },
    remove: async (req: IdReq, ctx: HandlerContext) => {
      const r = await u.remove(requireTenant(ctx), kind, req.id);
      return { credit: creditMessage(r.credit), seq: BigInt(r.seq) };
    },
  });
  const vc = handlers('vendor_credit');
  const cm = handlers('credit_memo');
  return {
    createVendorCredit: vc.create,
    listVendorCredits: vc.list,
    getVendorCredit: vc.get,
    updateVendorCredit: vc.update,
    deleteVendorCredit: vc.remove,
    createCreditMemo: cm.create,
    listCreditMemos: cm.list,
    getCreditMemo: cm.get,
    updateCreditMemo: cm.update,
    deleteCreditMemo: cm.remove,
  };
}
