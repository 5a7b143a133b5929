// Bills, invoices and manual journals (spec documents-parties-integrations §3, §5, §7; issue #18): the generated
// OpenAPI shapes and one typed call per route. The hooks are in documents-hooks.ts.
import type { ApiClient, Download } from './client';
import type { Transaction } from './ledger';
import type { Schemas } from './types';

export type Bill = Schemas['Bill'];
export type Invoice = Schemas['Invoice'];
export type ManualEntry = Schemas['ManualEntry'];
export type BillBody = Schemas['BillBody'];
export type InvoiceBody = Schemas['InvoiceBody'];
export type ManualEntryBody = Schemas['ManualEntryBody'];
export type ManualEntryCheck = Schemas['ManualEntryCheck'];
export type DocumentPageMeta = Schemas['DocumentPageMeta'];
export type DocumentConnectedTransaction = Schemas['DocumentConnectedTransaction'];

/** The three documents, as the screens name them. */
export type DocumentKind = 'bill' | 'invoice' | 'manualEntry';

export interface DocumentOf {
  bill: Bill;
  invoice: Invoice;
  manualEntry: ManualEntry;
}
export interface DocumentBodyOf {
  bill: BillBody;
  invoice: InvoiceBody;
  manualEntry: ManualEntryBody;
}
export type AnyDocument = Bill | Invoice | ManualEntry;

/** Spec §4: a manual journal (and so every document) is Posted or Voided; '' lists both. */
export type DocumentStatusFilter = '' | 'Posted' | 'Voided';
export const DOCUMENT_STATUSES: readonly Exclude<DocumentStatusFilter, ''>[] = ['Posted', 'Voided'];

/** Spec §3 payment status of a bill or an invoice. */
export const PAYMENT_STATUSES = ['PAID', 'PARTIALLY_PAID', 'OVERPAID', 'UNPAID'] as const;

/** Spec §3 recurrence intervals (default monthly). */
export const RECURRENCE_INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type RecurrenceInterval = (typeof RECURRENCE_INTERVALS)[number];

/** What POST /accounting/{kind}/recur/{id} sends (spec §3 "Recurrence"): the end is never, a date, or a count. */
export type RecurrenceBody = Schemas['RecurBody'] & { recurringStartDate: string; interval: RecurrenceInterval };

/** The spec §3 ledger source type of each kind: what POST /accounting/stop-recurring/{id} sends as entityType. */
export const DOCUMENT_ENTITY_TYPES: Readonly<Record<DocumentKind, 'Bill' | 'Invoice' | 'ManualEntry'>> = {
  bill: 'Bill',
  invoice: 'Invoice',
  manualEntry: 'ManualEntry',
};

/** Spec §7 paths of each kind, as the OpenAPI document names them. */
export const DOCUMENT_PATHS = {
  bill: {
    one: '/accounting/bill/{id}',
    create: '/accounting/bill/v2',
    void: '/accounting/bill/void/{id}',
    recur: '/accounting/bill/recur/{id}',
    many: '/accounting/bills',
    csv: '/bills/csv',
  },
  invoice: {
    one: '/accounting/invoice/{id}',
    create: '/accounting/invoice/v2',
    void: '/accounting/invoice/void/{id}',
    recur: '/accounting/invoice/recur/{id}',
    many: '/accounting/invoices',
    csv: '/invoices/csv',
  },
  manualEntry: {
    one: '/accounting/manual-entry/{id}',
    create: '/accounting/manual-entry/v2',
    void: '/accounting/manual-entry/void/{id}',
    recur: '/accounting/manual-entry/recur/{id}',
    many: '/accounting/manual-entries',
    csv: null,
  },
} as const;

export interface DocumentListFilters {
  status: DocumentStatusFilter;
}

export interface DocumentList<K extends DocumentKind> {
  data: DocumentOf[K][];
  meta: DocumentPageMeta;
}

export interface DocumentAnswer<K extends DocumentKind> {
  message: string;
  seq: number;
  document: DocumentOf[K];
}

/** Lists page 20 at a time (spec §9). */
export const DOCUMENTS_PAGE_SIZE = 20;

type RawAnswer = { message: string; seq: number } & Partial<Record<DocumentKind, AnyDocument>>;
function answerOf<K extends DocumentKind>(kind: K, a: RawAnswer): DocumentAnswer<K> {
  const document = a[kind];
  if (!document) throw new Error(`the server answered no ${kind}`);
  return { message: a.message, seq: a.seq, document: document as DocumentOf[K] };
}

export const documentsApi = {
  list: <K extends DocumentKind>(client: ApiClient, kind: K, f: DocumentListFilters, page: number, signal?: AbortSignal): Promise<DocumentList<K>> =>
    client.get(DOCUMENT_PATHS[kind].many, { params: { query: { page, take: DOCUMENTS_PAGE_SIZE, status: f.status || undefined } }, signal }) as Promise<
      DocumentList<K>
    >,
  get: <K extends DocumentKind>(client: ApiClient, kind: K, id: string, signal?: AbortSignal): Promise<DocumentOf[K]> =>
    client.get(DOCUMENT_PATHS[kind].one, { params: { path: { id } }, signal }) as Promise<DocumentOf[K]>,
  create: async <K extends DocumentKind>(client: ApiClient, kind: K, body: DocumentBodyOf[K]): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.post(DOCUMENT_PATHS[kind].create, { body: body as BillBody & InvoiceBody & ManualEntryBody })),
  update: async <K extends DocumentKind>(client: ApiClient, kind: K, id: string, body: DocumentBodyOf[K]): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.put(DOCUMENT_PATHS[kind].one, { params: { path: { id } }, body: body as BillBody & InvoiceBody & ManualEntryBody })),
  void: async <K extends DocumentKind>(client: ApiClient, kind: K, id: string): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.post(DOCUMENT_PATHS[kind].void, { params: { path: { id } } })),
  remove: async <K extends DocumentKind>(client: ApiClient, kind: K, id: string): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.delete(DOCUMENT_PATHS[kind].one, { params: { path: { id } } })),
  /** POST /accounting/{bill|invoice|manual-entry}/recur/{id} (spec §7). */
  recur: (client: ApiClient, kind: DocumentKind, id: string, body: RecurrenceBody) =>
    client.post(DOCUMENT_PATHS[kind].recur, { params: { path: { id } }, body }),
  /** POST /accounting/stop-recurring/{id} with entityType (spec §7). */
  stopRecurring: (client: ApiClient, kind: DocumentKind, id: string) =>
    client.post('/accounting/stop-recurring/{id}', { params: { path: { id } }, body: { entityType: DOCUMENT_ENTITY_TYPES[kind] } }),
  /** GET /bills/csv or /invoices/csv with the list's filters; the server names the file. */
  csv: (client: ApiClient, kind: 'bill' | 'invoice', f: DocumentListFilters): Promise<Download> =>
    client.download(DOCUMENT_PATHS[kind].csv, { params: { query: { status: f.status || undefined } } }),
  /** GET /invoice/{id}/pdf (spec §7): the invoice as a PDF. */
  invoicePdf: (client: ApiClient, id: string): Promise<Download> => client.download('/invoice/{id}/pdf', { params: { path: { id } } }),
  /** POST /accounting/manual-entry/check: the journal's rules and balance without posting it. */
  checkManualEntry: (client: ApiClient, body: ManualEntryBody): Promise<ManualEntryCheck> => client.post('/accounting/manual-entry/check', { body }),
  /**
   * Bank transactions that can pay a bill (money out) or an invoice (money in): the newest 100 of that flow not
   * linked to another document (those linked to `documentId` stay, so an edit shows its own payments).
   */
  paymentCandidates: async (client: ApiClient, kind: 'bill' | 'invoice', documentId: string | null, signal?: AbortSignal): Promise<Transaction[]> => {
    const page = await client.get('/transactions/v2', { params: { query: { flow: kind === 'bill' ? 'outflow' : 'inflow', take: 100, page: 1 } }, signal });
    return page.data.filter((t) => !t.entityType || (documentId !== null && t.entityId === documentId));
  },
};
