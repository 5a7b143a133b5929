// Vendor credits and credit memos (spec documents-parties-integrations §3 "Vendor credit" / "Credit memo", §5
// "Payment to vendor / from customer", §7): one shape for both, told apart by `CreditKind`. The generated OpenAPI
// shapes and one typed call per route; the hooks are in parties-hooks.ts.
import type { ApiClient } from './client';
import type { Schemas } from './types';

export type VendorCredit = Schemas['VendorCredit'];
export type CreditMemo = Schemas['CreditMemo'];
export type CreditLineItem = Schemas['CreditLineItem'];
export type CreditPageMeta = Schemas['CreditPageMeta'];
export type VendorCreditBody = Schemas['VendorCreditBody'];
export type CreditMemoBody = Schemas['CreditMemoBody'];

/** `vendor`: a vendor credit under /vendors; `customer`: a credit memo under /customers. */
export type CreditKind = 'vendor' | 'customer';

/** A vendor credit or a credit memo read the same way: the party (vendor or customer) under one name. */
export interface PartyCredit {
  id: string;
  paymentDate: string;
  description: string;
  /** The credit memo's reference number; '' for a vendor credit. */
  refNo: string;
  party: { id: string; name: string };
  totalAmount: number;
  appliedAmount: number;
  runningBalance: number;
  lineItems: CreditLineItem[];
  journalEntryId: string;
  createdOn: string;
  updatedOn: string;
}

/** What a create or an edit sends, whichever the kind (the party id goes out as vendorId or customerId). */
export interface PartyCreditBody {
  paymentDate: string;
  partyId: string;
  description: string;
  refNo: string;
  lineItems: { description: string; categoryId: string; amount: number }[];
}

export interface PartyCreditList {
  data: PartyCredit[];
  meta: CreditPageMeta;
}

/** Spec §9 lists page 20 at a time. */
export const CREDITS_PAGE_SIZE = 20;

export function partyCreditOf(c: VendorCredit | CreditMemo): PartyCredit {
  const memo = 'customer' in c;
  return {
    id: c.id,
    paymentDate: c.paymentDate,
    description: c.description,
    refNo: memo ? c.refNo : '',
    party: memo ? c.customer : c.vendor,
    totalAmount: c.totalAmount,
    appliedAmount: c.appliedAmount,
    runningBalance: c.runningBalance,
    lineItems: c.lineItems,
    journalEntryId: c.journalEntryId,
    createdOn: c.createdOn,
    updatedOn: c.updatedOn,
  };
}

/** The REST body of a kind: vendorId for a vendor credit; customerId and refNo for a credit memo. */
export function creditRestBody(kind: CreditKind, b: PartyCreditBody): VendorCreditBody | CreditMemoBody {
  const common = { paymentDate: b.paymentDate, description: b.description, lineItems: b.lineItems };
  return kind === 'vendor' ? { ...common, vendorId: b.partyId } : { ...common, customerId: b.partyId, refNo: b.refNo };
}

const PATHS = {
  vendor: { create: '/vendors/vendor-credit', one: '/vendors/vendor-credit/{id}', many: '/vendors/vendor-credits', key: 'vendorCredit' },
  customer: { create: '/customers/credit-memo', one: '/customers/credit-memo/{id}', many: '/customers/credit-memos', key: 'creditMemo' },
} as const;

interface RawAnswer {
  message: string;
  seq: number;
  vendorCredit?: VendorCredit;
  creditMemo?: CreditMemo;
}
export interface PartyCreditAnswer {
  message: string;
  seq: number;
  credit: PartyCredit;
}

const answerOf = (kind: CreditKind, a: RawAnswer): PartyCreditAnswer => {
  const credit = kind === 'vendor' ? a.vendorCredit : a.creditMemo;
  if (!credit) throw new Error(`the server answered no ${PATHS[kind].key}`);
  return { message: a.message, seq: a.seq, credit: partyCreditOf(credit) };
};

export const creditsApi = {
  list: async (client: ApiClient, kind: CreditKind, page: number, signal?: AbortSignal): Promise<PartyCreditList> => {
    const r = await client.get(PATHS[kind].many, { params: { query: { page, take: CREDITS_PAGE_SIZE } }, signal });
    return { data: (r.data as (VendorCredit | CreditMemo)[]).map(partyCreditOf), meta: r.meta };
  },
  get: async (client: ApiClient, kind: CreditKind, id: string, signal?: AbortSignal): Promise<PartyCredit> =>
    partyCreditOf(await client.get(PATHS[kind].one, { params: { path: { id } }, signal })),
  create: async (client: ApiClient, kind: CreditKind, body: PartyCreditBody): Promise<PartyCreditAnswer> =>
    answerOf(kind, await client.post(PATHS[kind].create, { body: creditRestBody(kind, body) as VendorCreditBody & CreditMemoBody })),
  update: async (client: ApiClient, kind: CreditKind, id: string, body: PartyCreditBody): Promise<PartyCreditAnswer> =>
    answerOf(kind, await client.patch(PATHS[kind].one, { params: { path: { id } }, body: creditRestBody(kind, body) as VendorCreditBody & CreditMemoBody })),
  remove: (client: ApiClient, kind: CreditKind, id: string) => client.delete(PATHS[kind].one, { params: { path: { id } } }),
};
