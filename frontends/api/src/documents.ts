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

/** Spec §7 paths of each kind. */
export const DOCUMENT_PATHS = {
  bill: { one: '/accounting/bill', many: '/accounting/bills', csv: '/bills/csv' },
  invoice: { one: '/accounting/invoice', many: '/accounting/invoices', csv: '/invoices/csv' },
  manualEntry: { one: '/accounting/manual-entry', many: '/accounting/manual-entries', csv: null },
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

const enc = encodeURIComponent;

type RawAnswer = { message: string; seq: number } & Partial<Record<DocumentKind, AnyDocument>>;
function answerOf<K extends DocumentKind>(kind: K, a: RawAnswer): DocumentAnswer<K> {
  const document = a[kind];
  if (!document) throw new Error(`the server answered no ${kind}`);
  return { message: a.message, seq: a.seq, document: document as DocumentOf[K] };
}

export const documentsApi = {
  list: <K extends DocumentKind>(client: ApiClient, kind: K, f: DocumentListFilters, page: number, signal?: AbortSignal): Promise<DocumentList<K>> =>
    client.request('GET', DOCUMENT_PATHS[kind].many, { query: { page, take: DOCUMENTS_PAGE_SIZE, status: f.status || undefined }, signal }),
  get: <K extends DocumentKind>(client: ApiClient, kind: K, id: string, signal?: AbortSignal): Promise<DocumentOf[K]> =>
    client.request('GET', `${DOCUMENT_PATHS[kind].one}/${enc(id)}`, { signal }),
  create: async <K extends DocumentKind>(client: ApiClient, kind: K, body: DocumentBodyOf[K]): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.request<RawAnswer>('POST', `${DOCUMENT_PATHS[kind].one}/v2`, { body })),
  update: async <K extends DocumentKind>(client: ApiClient, kind: K, id: string, body: DocumentBodyOf[K]): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.request<RawAnswer>('PUT', `${DOCUMENT_PATHS[kind].one}/${enc(id)}`, { body })),
  void: async <K extends DocumentKind>(client: ApiClient, kind: K, id: string): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.request<RawAnswer>('POST', `${DOCUMENT_PATHS[kind].one}/void/${enc(id)}`)),
  remove: async <K extends DocumentKind>(client: ApiClient, kind: K, id: string): Promise<DocumentAnswer<K>> =>
    answerOf(kind, await client.request<RawAnswer>('DELETE', `${DOCUMENT_PATHS[kind].one}/${enc(id)}`)),
  /** POST /accounting/{bill|invoice|manual-entry}/recur/{id} (spec §7). */
  recur: (client: ApiClient, kind: DocumentKind, id: string, body: RecurrenceBody): Promise<{ message: string }> =>
    client.request('POST', `${DOCUMENT_PATHS[kind].one}/recur/${enc(id)}`, { body }),
  /** POST /accounting/stop-recurring/{id} with entityType (spec §7). */
  stopRecurring: (client: ApiClient, kind: DocumentKind, id: string): Promise<{ message: string }> =>
    client.request('POST', `/accounting/stop-recurring/${enc(id)}`, { body: { entityType: DOCUMENT_ENTITY_TYPES[kind] } }),
  /** GET /bills/csv or /invoices/csv with the list's filters; the server names the file. */
  csv: (client: ApiClient, kind: 'bill' | 'invoice', f: DocumentListFilters): Promise<Download> =>
    client.download(DOCUMENT_PATHS[kind].csv, { status: f.status || undefined }),
  /** GET /invoice/{id}/pdf (spec §7): the invoice as a PDF. */
  invoicePdf: (client: ApiClient, id: string): Promise<Download> => client.download(`/invoice/${enc(id)}/pdf`),
  /** POST /accounting/manual-entry/check: the journal's rules and balance without posting it. */
  checkManualEntry: (client: ApiClient, body: ManualEntryBody): Promise<ManualEntryCheck> => client.request('POST', '/accounting/manual-entry/check', { body }),
  /**
   * Bank transactions that can pay a bill (money out) or an invoice (money in): the newest 100 of that flow not
   * linked to another document (those linked to `documentId` stay, so an edit shows its own payments).
   */
  paymentCandidates: async (client: ApiClient, kind: 'bill' | 'invoice', documentId: string | null, signal?: AbortSignal): Promise<Transaction[]> => {
    const page = await client.request<{ data: Transaction[] }>('GET', '/transactions/v2', {
      query: { flow: kind === 'bill' ? 'outflow' : 'inflow', take: 100, page: 1 },
      signal,
    });
    return page.data.filter((t) => !t.entityType || (documentId !== null && t.entityId === documentId));
  },
};
