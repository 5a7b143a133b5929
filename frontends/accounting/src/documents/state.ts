// The document screens' own rules (spec documents-parties-integrations §2 tabs, modes and query parameters, §3 bill,
// invoice and manual journal, §5 their checks): their state in the URL, the forms, the checks made before saving,
// the totals and the payloads. Pure, tested in test/documents-state.test.ts.
import type {
  Bill,
  BillBody,
  DocumentKind,
  DocumentStatusFilter,
  Invoice,
  InvoiceBody,
  ManualEntry,
  ManualEntryBody,
  RecurrenceBody,
  RecurrenceInterval,
} from '@ledgerline/api';
import { CREDIT_SPECS, amountCents, amountText, creditSearch } from '../credits/state';

export interface DocumentSpec {
  kind: DocumentKind;
  /** The spec §2 tab value. */
  tab: 'bills' | 'invoices' | 'manual-journal';
  /** The spec §2 query parameter naming the open document. */
  param: 'bill' | 'invoice' | 'manualJournal';
  /** "Bill", "Invoice", "Manual journal". */
  what: string;
  /** The party, or null for a manual journal. */
  party: 'Vendor' | 'Customer' | null;
  /** The date's label. */
  dateLabel: string;
  /** Where a new category goes from a line's picker. */
  flow: 'outflow' | 'inflow' | 'all';
}

export const DOCUMENT_SPECS: Readonly<Record<DocumentKind, DocumentSpec>> = {
  bill: { kind: 'bill', tab: 'bills', param: 'bill', what: 'Bill', party: 'Vendor', dateLabel: 'Bill date', flow: 'outflow' },
  invoice: { kind: 'invoice', tab: 'invoices', param: 'invoice', what: 'Invoice', party: 'Customer', dateLabel: 'Invoice date', flow: 'inflow' },
  manualEntry: {
    kind: 'manualEntry',
    tab: 'manual-journal',
    param: 'manualJournal',
    what: 'Manual journal',
    party: null,
    dateLabel: 'Posting date',
    flow: 'all',
  },
};

/** Spec §2 modes (bulk-draft belongs to the drafts issue). */
export type DocumentMode = 'idle' | 'create' | 'view' | 'edit';

export interface DocumentScreen {
  openId: string | null;
  mode: DocumentMode;
  /** Spec §2 status filter (`filter`): Posted, Voided or '' for both. */
  status: DocumentStatusFilter;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tab's state from its query (`bill` / `invoice` / `manualJournal`, `mode`, `filter`); a malformed id opens nothing. */
export function documentScreenFromSearch(spec: DocumentSpec, params: URLSearchParams): DocumentScreen {
  const f = params.get('filter');
  const status: DocumentStatusFilter = f === 'Posted' || f === 'Voided' ? f : '';
  const mode = params.get('mode');
  if (mode === 'create') return { openId: null, mode: 'create', status };
  const id = params.get(spec.param);
  if (id === null || !UUID.test(id)) return { openId: null, mode: 'idle', status };
  return { openId: id.toLowerCase(), mode: mode === 'edit' ? 'edit' : 'view', status };
}

/** The tab's query: `tab`, the filter, then the open document with its mode (spec §2: ids go with mode=view). */
export function documentSearch(spec: DocumentSpec, screen: DocumentScreen): URLSearchParams {
  const p = new URLSearchParams({ tab: spec.tab });
  if (screen.status !== '') p.set('filter', screen.status);
  if (screen.mode === 'create') p.set('mode', 'create');
  else if (screen.openId !== null) {
    p.set(spec.param, screen.openId);
    p.set('mode', screen.mode === 'edit' ? 'edit' : 'view');
  }
  return p;
}

// ——— The form ———

export interface DocumentLineForm {
  key: string;
  /** serviceName (bill, invoice) or description (manual journal). */
  text: string;
  categoryId: string;
  /** As typed (digits, optional point). A bill's amount; an invoice's is quantity × rate. */
  amount: string;
  quantity: string;
  rate: string;
  /** A manual journal's two sides: one of them is filled. */
  debit: string;
  credit: string;
}

export interface PaymentForm {
  /** The paying (or, on a journal, the paid) record's id: a bank transaction, a journal, a credit, a bill, an invoice. */
  id: string;
  amount: string;
}

/**
 * The connections of a document besides its lines (spec §3, decision 0020), each a list of id and amount: a bill's or
 * invoice's bank transactions (`payments`), manual journals (`journals`) and vendor credits / credit memos
 * (`credits`); a manual journal's bills and invoices it pays (`bills`, `invoices`).
 */
export type ConnectionKey = 'payments' | 'journals' | 'credits' | 'bills' | 'invoices';

export interface DocumentForm {
  date: string;
  dueDate: string;
  partyId: string;
  /** invoiceCode (bill) or referenceNo (invoice). */
  reference: string;
  /** description, or a manual journal's memo. */
  description: string;
  companyName: string;
  companyAddress: string;
  lines: DocumentLineForm[];
  payments: PaymentForm[];
  journals: PaymentForm[];
  credits: PaymentForm[];
  bills: PaymentForm[];
  invoices: PaymentForm[];
}

let nextKey = 0;
export const emptyDocumentLine = (): DocumentLineForm => ({
  key: `doc-line-${++nextKey}`,
  text: '',
  categoryId: '',
  amount: '',
  quantity: '',
  rate: '',
  debit: '',
  credit: '',
});

const connectionForms = (list: readonly { id: string; amount: number }[] | undefined): PaymentForm[] =>
  (list ?? []).map((p) => ({ id: p.id, amount: amountText(p.amount) }));

const plusDays = (iso: string, days: number): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** A new document (dated today, a bill or invoice due in 30 days; two lines for a journal, one otherwise) or the one being edited. */
export function documentForm(kind: DocumentKind, doc: Bill | Invoice | ManualEntry | null, today: string): DocumentForm {
  const blank: DocumentForm = {
    date: today,
    dueDate: kind === 'manualEntry' ? '' : plusDays(today, 30),
    partyId: '',
    reference: '',
    description: '',
    companyName: '',
    companyAddress: '',
    lines: kind === 'manualEntry' ? [emptyDocumentLine(), emptyDocumentLine()] : [emptyDocumentLine()],
    payments: [],
    journals: [],
    credits: [],
    bills: [],
    invoices: [],
  };
  if (doc === null) return blank;
  if (kind === 'bill') {
    const b = doc as Bill;
    return {
      ...blank,
      date: b.billDate,
      dueDate: b.dueDate,
      partyId: b.vendor.id,
      reference: b.invoiceCode,
      description: b.description,
      lines: b.lineItems.map((l) => ({ ...emptyDocumentLine(), key: l.id, text: l.serviceName, categoryId: l.categoryId, amount: amountText(l.amount) })),
      payments: connectionForms(b.connectedTransactions),
      journals: connectionForms(b.connectedManualEntries),
      credits: connectionForms(b.connectedVendorCredits),
    };
  }
  if (kind === 'invoice') {
    const v = doc as Invoice;
    return {
      ...blank,
      date: v.invoiceDate,
      dueDate: v.dueDate,
      partyId: v.customer.id,
      reference: v.referenceNo,
      description: v.description,
      companyName: v.companyName,
      companyAddress: v.companyAddress,
      lines: v.lineItems.map((l) => ({
        ...emptyDocumentLine(),
        key: l.id,
        text: l.serviceName,
        categoryId: l.categoryId,
        quantity: String(l.quantity),
        rate: amountText(l.rate),
        amount: amountText(l.amount),
      })),
      payments: connectionForms(v.connectedTransactions),
      journals: connectionForms(v.connectedManualEntries),
      credits: connectionForms(v.connectedCreditMemos),
    };
  }
  const m = doc as ManualEntry;
  return {
    ...blank,
    date: m.postingDate,
    description: m.memo,
    bills: connectionForms(m.paidBills),
    invoices: connectionForms(m.paidInvoices),
    lines: m.lineItems.map((l) => ({
      ...emptyDocumentLine(),
      key: l.id,
      text: l.description,
      categoryId: l.categoryId,
      debit: l.type === 'debit' ? amountText(l.amount) : '',
      credit: l.type === 'credit' ? amountText(l.amount) : '',
    })),
  };
}

/** A quantity as typed: a positive number (decimals allowed), or null. */
export function quantityOf(text: string): number | null {
  const t = text.trim();
  if (!/^\d*(\.\d+)?$/.test(t) || t === '' || t === '.') return null;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Spec §5 "Enter Qty and Rate to update Amount": an invoice line's amount in cents, or null until both are valid. */
export function invoiceLineCents(line: Pick<DocumentLineForm, 'quantity' | 'rate'>): number | null {
  const q = quantityOf(line.quantity);
  const r = amountCents(line.rate);
  return q === null || r === null ? null : Math.round(q * r);
}

/** What an invoice line's Amount shows: quantity × rate, or '' until both are entered. */
export const invoiceLineAmount = (line: Pick<DocumentLineForm, 'quantity' | 'rate'>): string => {
  const c = invoiceLineCents(line);
  return c === null ? '' : (c / 100).toFixed(2);
};

const isBlank = (l: DocumentLineForm) => [l.text, l.categoryId, l.amount, l.quantity, l.rate, l.debit, l.credit].every((v) => v.trim() === '');

/** A line's amount in cents for the kind (bill: amount; invoice: qty × rate; journal: its debit or credit). */
export function lineCents(kind: DocumentKind, l: DocumentLineForm): number | null {
  if (kind === 'invoice') return invoiceLineCents(l);
  if (kind === 'bill') return amountCents(l.amount);
  return amountCents(l.debit) ?? amountCents(l.credit);
}

export interface DocumentTotals {
  total: number;
  /** Manual journal only. */
  debit: number;
  credit: number;
}

/** The totals of the lines as typed, in dollars (lines not yet valid count as 0). */
export function documentTotals(kind: DocumentKind, form: DocumentForm): DocumentTotals {
  let total = 0;
  let debit = 0;
  let credit = 0;
  for (const l of form.lines) {
    if (kind === 'manualEntry') {
      debit += amountCents(l.debit) ?? 0;
      credit += amountCents(l.credit) ?? 0;
    } else total += lineCents(kind, l) ?? 0;
  }
  return kind === 'manualEntry' ? { total: debit / 100, debit: debit / 100, credit: credit / 100 } : { total: total / 100, debit: 0, credit: 0 };
}

/** What the connected payments pay, in dollars. */
export const paidTotal = (payments: readonly PaymentForm[]): number => payments.reduce((s, p) => s + (amountCents(p.amount) ?? 0), 0) / 100;

/** What a bill or invoice being edited is paid by, all connections together (bank transactions, journals, credits), in dollars. */
export const documentPaid = (form: Pick<DocumentForm, 'payments' | 'journals' | 'credits'>): number =>
  Math.round((paidTotal(form.payments) + paidTotal(form.journals) + paidTotal(form.credits)) * 100) / 100;

/**
 * Spec §3 payment status of the form as it stands (PAID, PARTIALLY_PAID, OVERPAID, UNPAID within 0.01), what the
 * server will compute on save; the editor shows it beside "Paid … of …".
 */
export function paymentStatusOf(total: number, paid: number): 'PAID' | 'PARTIALLY_PAID' | 'OVERPAID' | 'UNPAID' {
  const cents = (n: number) => Math.round(n * 100);
  if (cents(paid) <= 0) return 'UNPAID';
  const diff = cents(paid) - cents(total);
  if (Math.abs(diff) <= 1) return 'PAID';
  return diff > 0 ? 'OVERPAID' : 'PARTIALLY_PAID';
}

/** What a new connection pays by default: what is still open when that is less than what the payer has, else all it has. */
export function defaultConnectionAmount(available: number, total: number, paid: number): string {
  const open = Math.round((total - paid) * 100) / 100;
  return amountText(open > 0 ? Math.min(available, open) : available);
}

// ——— Recurrence (spec §3 "Recurrence", §5) ———

export type RecurrenceEnd = 'never' | 'date' | 'count';

export interface RecurrenceForm {
  start: string;
  interval: RecurrenceInterval;
  end: RecurrenceEnd;
  endDate: string;
  count: string;
}

export const RECURRENCE_MESSAGES = {
  details: 'Please fill all recurring details',
  count: 'Recurrence occurrence count must be a positive integer',
  order: 'The end date cannot be before the start date',
} as const;

/** The recurrence's problems (spec §5): every detail filled, a positive whole count, an end after the start. */
export function validateRecurrence(f: RecurrenceForm): Partial<Record<'start' | 'endDate' | 'count', string>> {
  const e: Partial<Record<'start' | 'endDate' | 'count', string>> = {};
  if (f.start === '') e.start = RECURRENCE_MESSAGES.details;
  if (f.end === 'date') {
    if (f.endDate === '') e.endDate = RECURRENCE_MESSAGES.details;
    else if (f.start !== '' && f.endDate < f.start) e.endDate = RECURRENCE_MESSAGES.order;
  }
  if (f.end === 'count' && !/^[1-9]\d*$/.test(f.count.trim())) e.count = f.count.trim() === '' ? RECURRENCE_MESSAGES.details : RECURRENCE_MESSAGES.count;
  return e;
}

/** The recur call's body: the end as a date, a count, or neither (never). */
export function recurrenceBody(f: RecurrenceForm): RecurrenceBody {
  return {
    recurringStartDate: f.start,
    interval: f.interval,
    recurringEndType: f.end,
    ...(f.end === 'date' ? { recurringEndDate: f.endDate } : {}),
    ...(f.end === 'count' ? { recurringCount: Number(f.count.trim()) } : {}),
  };
}

export const DOCUMENT_MESSAGES = {
  partyRequired: (party: string) => `${party} is required`,
  dateRequired: (label: string) => `${label} is required`,
  dueBeforeDate: (label: string) => `Due date cannot be before the ${label.toLowerCase()}`,
  memoRequired: 'Memo is required',
  linesRequired: 'At least one line item is required',
  journalLines: 'A journal needs at least two lines',
  serviceRequired: 'Service name is required',
  serviceLength: 'Service name must be at most 150 characters',
  categoryRequired: 'Category is required',
  accountRequired: 'Account is required',
  amount: 'Amount must be greater than 0, with at most 2 decimals',
  quantity: 'Quantity must be greater than 0',
  rate: 'Rate must be greater than 0, with at most 2 decimals',
  side: 'Enter a debit or a credit',
  bothSides: 'Enter a debit or a credit, not both',
  referenceLength: 'Reference number must be at most 100 characters',
  companyNameLength: 'Company name must be at most 100 characters',
  companyAddressLength: 'Company address must be at most 300 characters',
  paymentAmount: 'Payment amount must be greater than 0',
} as const;

const CONNECTION_KEYS: readonly ConnectionKey[] = ['payments', 'journals', 'credits', 'bills', 'invoices'];

export type LineField = 'text' | 'categoryId' | 'amount' | 'quantity' | 'rate' | 'debit';
export type DocumentFormErrors = Partial<
  Record<'partyId' | 'date' | 'dueDate' | 'description' | 'reference' | 'companyName' | 'companyAddress' | 'lines' | ConnectionKey, string>
> & {
  line?: Record<string, Partial<Record<LineField, string>>>;
};

/** The spec §5 checks before saving (the server makes them again; balance is the server's to say). Every problem at once. */
export function validateDocumentForm(spec: DocumentSpec, form: DocumentForm): DocumentFormErrors {
  const e: DocumentFormErrors = {};
  const kind = spec.kind;
  if (spec.party !== null && form.partyId === '') e.partyId = DOCUMENT_MESSAGES.partyRequired(spec.party);
  if (form.date === '') e.date = DOCUMENT_MESSAGES.dateRequired(spec.dateLabel);
  if (kind !== 'manualEntry' && form.dueDate !== '' && form.date !== '' && form.dueDate < form.date)
    e.dueDate = DOCUMENT_MESSAGES.dueBeforeDate(spec.dateLabel);
  if (kind === 'manualEntry' && form.description.trim() === '') e.description = DOCUMENT_MESSAGES.memoRequired;
  if (kind !== 'manualEntry' && form.reference.trim().length > 100) e.reference = DOCUMENT_MESSAGES.referenceLength;
  if (kind === 'invoice' && form.companyName.trim().length > 100) e.companyName = DOCUMENT_MESSAGES.companyNameLength;
  if (kind === 'invoice' && form.companyAddress.trim().length > 300) e.companyAddress = DOCUMENT_MESSAGES.companyAddressLength;
  const lines = form.lines.filter((l) => !isBlank(l));
  if (lines.length === 0) e.lines = DOCUMENT_MESSAGES.linesRequired;
  else if (kind === 'manualEntry' && lines.length < 2) e.lines = DOCUMENT_MESSAGES.journalLines;
  for (const l of lines) {
    const p: Partial<Record<LineField, string>> = {};
    if (l.categoryId === '') p.categoryId = kind === 'manualEntry' ? DOCUMENT_MESSAGES.accountRequired : DOCUMENT_MESSAGES.categoryRequired;
    if (kind !== 'manualEntry') {
      if (l.text.trim() === '') p.text = DOCUMENT_MESSAGES.serviceRequired;
      else if (l.text.trim().length > 150) p.text = DOCUMENT_MESSAGES.serviceLength;
    }
    if (kind === 'bill' && amountCents(l.amount) === null) p.amount = DOCUMENT_MESSAGES.amount;
    if (kind === 'invoice') {
      if (quantityOf(l.quantity) === null) p.quantity = DOCUMENT_MESSAGES.quantity;
      if (amountCents(l.rate) === null) p.rate = DOCUMENT_MESSAGES.rate;
    }
    if (kind === 'manualEntry') {
      const d = l.debit.trim() !== '';
      const c = l.credit.trim() !== '';
      if (d && c) p.debit = DOCUMENT_MESSAGES.bothSides;
      else if (!d && !c) p.debit = DOCUMENT_MESSAGES.side;
      else if (amountCents(d ? l.debit : l.credit) === null) p.debit = DOCUMENT_MESSAGES.amount;
    }
    if (Object.keys(p).length > 0) (e.line ??= {})[l.key] = p;
  }
  for (const key of CONNECTION_KEYS) if (form[key].some((p) => amountCents(p.amount) === null)) e[key] = DOCUMENT_MESSAGES.paymentAmount;
  return e;
}

export const hasDocumentErrors = (e: DocumentFormErrors): boolean => Object.keys(e).length > 0;

const optional = (s: string) => (s.trim() === '' ? undefined : s.trim());
const dollars = (cents: number | null) => (cents ?? 0) / 100;
const connections = (list: readonly PaymentForm[]) => list.map((p) => ({ id: p.id, amount: dollars(amountCents(p.amount)) }));

/** The payload of a valid form: blank lines left out, empty optional text absent (spec §5), every payment sent (the whole set). */
export function billBody(form: DocumentForm): BillBody {
  return {
    billDate: form.date,
    dueDate: optional(form.dueDate),
    vendorId: form.partyId,
    invoiceCode: optional(form.reference),
    description: optional(form.description),
    lineItems: form.lines
      .filter((l) => !isBlank(l))
      .map((l) => ({ serviceName: l.text.trim(), categoryId: l.categoryId, amount: dollars(amountCents(l.amount)) })),
    connectedTransactions: connections(form.payments),
    connectedManualEntries: connections(form.journals),
    connectedVendorCredits: connections(form.credits),
  };
}

export function invoiceBody(form: DocumentForm): InvoiceBody {
  return {
    invoiceDate: form.date,
    dueDate: optional(form.dueDate),
    customerId: form.partyId,
    referenceNo: optional(form.reference),
    description: optional(form.description),
    companyName: optional(form.companyName),
    companyAddress: optional(form.companyAddress),
    lineItems: form.lines
      .filter((l) => !isBlank(l))
      .map((l) => ({
        serviceName: l.text.trim(),
        categoryId: l.categoryId,
        quantity: quantityOf(l.quantity) ?? 0,
        rate: dollars(amountCents(l.rate)),
        amount: dollars(invoiceLineCents(l)),
      })),
    connectedTransactions: connections(form.payments),
    connectedManualEntries: connections(form.journals),
    connectedCreditMemos: connections(form.credits),
  };
}

export function manualEntryBody(form: DocumentForm): ManualEntryBody {
  return {
    postingDate: form.date,
    memo: form.description.trim(),
    connectedBills: connections(form.bills),
    connectedInvoices: connections(form.invoices),
    lineItems: form.lines
      .filter((l) => !isBlank(l))
      .map((l) => {
        const debit = l.debit.trim() !== '';
        return {
          categoryId: l.categoryId,
          description: optional(l.text),
          type: debit ? 'debit' : 'credit',
          amount: dollars(amountCents(debit ? l.debit : l.credit)),
        };
      }),
  };
}

const FIELD_OF: Readonly<Record<string, keyof DocumentFormErrors>> = {
  billDate: 'date',
  invoiceDate: 'date',
  postingDate: 'date',
  dueDate: 'dueDate',
  vendorId: 'partyId',
  customerId: 'partyId',
  invoiceCode: 'reference',
  referenceNo: 'reference',
  description: 'description',
  memo: 'description',
  companyName: 'companyName',
  companyAddress: 'companyAddress',
  lineItems: 'lines',
};
const CONNECTION_FIELDS: readonly (readonly [RegExp, ConnectionKey])[] = [
  [/^connectedTransactions(\.|$)/, 'payments'],
  [/^connectedManualEntries(\.|$)/, 'journals'],
  [/^(connectedVendorCredits|connectedCreditMemos)(\.|$)/, 'credits'],
  [/^connectedBills(\.|$)/, 'bills'],
  [/^connectedInvoices(\.|$)/, 'invoices'],
];
const LINE_FIELD_OF: Readonly<Record<string, LineField>> = {
  serviceName: 'text',
  description: 'text',
  categoryId: 'categoryId',
  amount: 'amount',
  quantity: 'quantity',
  rate: 'rate',
  type: 'debit',
};

/**
 * A refusal from the server on the form: `lineItems.N.field` to the N-th sent line (a journal's amount to its side),
 * `connectedTransactions.N.*` to the payments, the other named fields to theirs; null when the form has no such field.
 */
export function documentErrorOnForm(kind: DocumentKind, form: DocumentForm, field: string | undefined, message: string): DocumentFormErrors | null {
  if (field === undefined) return null;
  const top = FIELD_OF[field];
  if (top !== undefined) return { [top]: message };
  const connection = CONNECTION_FIELDS.find(([re]) => re.test(field));
  if (connection) return { [connection[1]]: message };
  const m = /^lineItems\.(\d+)\.(\w+)$/.exec(field);
  const sent = form.lines.filter((l) => !isBlank(l));
  const line = m ? sent[Number(m[1])] : undefined;
  let lf = m ? LINE_FIELD_OF[m[2]!] : undefined;
  if (kind === 'manualEntry' && lf === 'amount') lf = 'debit';
  if (kind === 'invoice' && lf === 'amount') lf = 'rate';
  if (line && lf) return { line: { [line.key]: { [lf]: message } } };
  return null;
}

/** Spec §3 payment status words as a person reads them. */
export const PAYMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  PAID: 'PAID',
  PARTIALLY_PAID: 'PARTIALLY PAID',
  OVERPAID: 'OVERPAID',
  UNPAID: 'UNPAID',
};

/** The link from a transaction to the document it is linked to (spec platform-core §4: entityType, entityId), for the transaction drawer. */
export function documentLink(entityType: string, entityId: string): { to: string; what: string } | null {
  const kind: DocumentKind | null =
    entityType === 'Bill'
      ? 'bill'
      : entityType === 'Invoice'
        ? 'invoice'
        : entityType === 'ManualEntry' || entityType === 'ManualJournal'
          ? 'manualEntry'
          : null;
  if (kind === null || !UUID.test(entityId)) return null;
  const spec = DOCUMENT_SPECS[kind];
  return { to: `/accounting?${documentSearch(spec, { openId: entityId, mode: 'view', status: '' }).toString()}`, what: spec.what.toLowerCase() };
}

/** The way to a vendor credit (Expenses) or a credit memo (Revenue) that pays a bill or an invoice. */
export function creditLink(kind: 'vendor' | 'customer', id: string): string {
  const spec = CREDIT_SPECS[kind];
  return `${kind === 'vendor' ? '/expenses' : '/revenue'}?${creditSearch(spec, { openId: id, mode: 'view' }).toString()}`;
}

/** A document's recurrence as the view shows it (spec §3 recurrence fields); null when it never recurred. */
export type DocumentRecurrence = Bill['recurrence'];

/**
 * One line for the view: a template's schedule ("Monthly from 11/28/26, 3 times · Active · next 12/28/26"), or that
 * a schedule made the document; null for a document that never recurred. `date` formats a YYYY-MM-DD date.
 */
export function recurrenceSummary(r: DocumentRecurrence | undefined, date: (iso: string) => string): string | null {
  if (!r) return null;
  if (!r.isRecurredParent) return r.recurredFromId ? 'Made by a recurring schedule' : null;
  const interval = r.interval ? r.interval[0]!.toUpperCase() + r.interval.slice(1) : 'Monthly';
  const end =
    r.recurringEndType === 'count'
      ? `, ${r.recurringCount} ${r.recurringCount === 1 ? 'time' : 'times'}`
      : r.recurringEndType === 'date' && r.recurringEndDate
        ? `, until ${date(r.recurringEndDate)}`
        : ', no end date';
  const next = r.activity === 'Active' && r.nextRecurrenceDate ? ` · next ${date(r.nextRecurrenceDate)}` : '';
  return `${interval} from ${date(r.recurringStartDate)}${end} · ${r.activity || 'Active'}${next}`;
}
