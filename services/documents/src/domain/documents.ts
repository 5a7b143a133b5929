import { dateMessage, isBusinessDate, isUuid, MAX_CENTS } from '@ledgerline/platform';
import type { ConnectionsInput } from './connections.js';
import type { RecurInput } from './recurrence.js';

/**
 * Bills, invoices and manual journals (spec documents-parties-integrations §3, §5; issue #18): the fields' rules,
 * pure. Every problem is reported at once, each naming its REST field; a line item's message starts with
 * "Line Item N" (N from 1).
 */
export type DocumentKind = 'bill' | 'invoice' | 'manual_entry';
export const DOCUMENT_KINDS: readonly DocumentKind[] = ['bill', 'invoice', 'manual_entry'];
export const isDocumentKind = (s: string): s is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(s);

export interface KindInfo {
  /** The ledger's source type. */
  sourceType: 'Bill' | 'Invoice' | 'ManualEntry';
  /** REST names of the date, party, reference and description fields. */
  dateField: 'billDate' | 'invoiceDate' | 'postingDate';
  partyField?: 'vendorId' | 'customerId';
  party?: 'Vendor' | 'Customer';
  referenceField?: 'invoiceCode' | 'referenceNo';
  descriptionField: 'description' | 'memo';
  what: string;
}

export const KINDS: Record<DocumentKind, KindInfo> = {
  bill: {
    sourceType: 'Bill',
    dateField: 'billDate',
    partyField: 'vendorId',
    party: 'Vendor',
    referenceField: 'invoiceCode',
    descriptionField: 'description',
    what: 'Bill',
  },
  invoice: {
    sourceType: 'Invoice',
    dateField: 'invoiceDate',
    partyField: 'customerId',
    party: 'Customer',
    referenceField: 'referenceNo',
    descriptionField: 'description',
    what: 'Invoice',
  },
  manual_entry: { sourceType: 'ManualEntry', dateField: 'postingDate', descriptionField: 'memo', what: 'Manual entry' },
};

/** Spec §5: service name 150, reference number 100, company name 100, company address 300; ours for the rest. */
export const LIMITS = { serviceName: 150, reference: 100, companyName: 100, companyAddress: 300, description: 1000, lineItems: 500 } as const;
/** Spec §9: amounts compare within 0.01. */
export const TOLERANCE_CENTS = 1;

export const DOC_MSG = {
  required: (field: string) => `${field} is required`,
  dateFormat: dateMessage,
  partyRequired: (party: string) => `${party} is required`,
  uuid: (field: string) => `${field} must be a UUID`,
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  dueBeforeDate: (dateField: string) => `dueDate cannot be before ${dateField}`,
  lineItemsRequired: 'At least one line item is required',
  tooManyLines: `A document holds at most ${LIMITS.lineItems} line items`,
  line: (i: number, text: string) => `Line Item ${i + 1}: ${text}`,
  payment: (i: number, text: string) => `Connected transaction ${i + 1}: ${text}`,
  tooManyPayments: `A document holds at most ${LIMITS.lineItems} connected transactions`,
  amountEqualsQtyRate: 'Amount must equal quantity multiplied by rate',
  totalTooLarge: 'The total of the line items must be less than 10000000000000',
  unbalanced: (debit: string, credit: string) => `Total debits (${debit}) must equal total credits (${credit})`,
  notFound: (what: string) => `${what} not found`,
  categoryNotFound: 'Category not found',
  voided: (what: string) => `A voided ${what.toLowerCase()} cannot be changed`,
  kind: 'kind must be one of: bill, invoice, manual_entry',
  status: 'status must be one of: Posted, Voided',
  page: 'page must be at least 1',
  take: 'take must be between 1 and 100',
  rangeOrder: 'Start date cannot be greater than End date',
} as const;

export interface FieldProblem {
  field: string;
  message: string;
}

export interface LineInput {
  serviceName?: string;
  categoryId?: string;
  amountCents?: bigint | number;
  /** Decimal text ("2", "2.5"). */
  quantity?: string;
  rateCents?: bigint | number;
  direction?: string;
}

export interface DocumentInput {
  date?: string;
  dueDate?: string;
  partyId?: string;
  reference?: string;
  description?: string;
  companyName?: string;
  companyAddress?: string;
  lineItems: LineInput[];
  /** Bills and invoices: the bank transactions paying it. */
  connectedTransactions?: { id?: string; amountCents?: bigint | number }[];
  /** Payments by manual journals and credits (bills, invoices), or the bills and invoices a journal pays (domain/connections.ts). */
  connections?: ConnectionsInput;
  /** The recurrence fields of the body (domain/recurrence.ts); none given: no change to the schedule. */
  recurrence?: RecurInput;
  /** Bills: the biller's name as written on it (domain/biller.ts). */
  billerName?: string;
}

export interface CleanPayment {
  transactionId: string;
  amountCents: number;
}

export interface CleanLine {
  serviceName: string;
  categoryId: string;
  amountCents: number;
  quantity: string;
  rateCents: number;
  direction: 'debit' | 'credit' | '';
}

export interface CleanDocument {
  date: string;
  dueDate: string;
  partyId: string;
  reference: string;
  description: string;
  companyName: string;
  companyAddress: string;
  lines: CleanLine[];
  payments: CleanPayment[];
}

const cents = (v: bigint | number | undefined): number | undefined =>
  v === undefined ? undefined : typeof v === 'bigint' ? (v > MAX_CENTS || v < -MAX_CENTS ? Number.NaN : Number(v)) : v;
const QUANTITY_RE = /^\d{1,9}(\.\d{1,6})?$/;

export const totalCents = (lines: readonly { amountCents: number; direction?: string }[]): number => lines.reduce((s, l) => s + l.amountCents, 0);

/** Whether amount = quantity × rate within the 0.01 tolerance (all in cents; quantity as decimal text). */
export function amountMatchesQuantityRate(amountCents: number, quantity: string, rateCents: number): boolean {
  return Math.abs(Number(quantity) * rateCents - amountCents) <= TOLERANCE_CENTS + 1e-9;
}

/**
 * The whole document's rules (create and PUT send the whole document). Empty optional text is absent (spec §5).
 * A manual journal's debits must equal its credits.
 */
export function cleanDocument(kind: DocumentKind, input: DocumentInput): { value?: CleanDocument; problems: FieldProblem[] } {
  const k = KINDS[kind];
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  const trim = (s: string | undefined) => (s ?? '').trim();

  const date = trim(input.date);
  if (date === '') add(k.dateField, DOC_MSG.required(k.dateField));
  else if (!isBusinessDate(date)) add(k.dateField, DOC_MSG.dateFormat(k.dateField));
  let dueDate = '';
  if (kind !== 'manual_entry') {
    dueDate = trim(input.dueDate);
    if (dueDate !== '' && !isBusinessDate(dueDate)) add('dueDate', DOC_MSG.dateFormat('dueDate'));
    else if (dueDate !== '' && isBusinessDate(date) && dueDate < date) add('dueDate', DOC_MSG.dueBeforeDate(k.dateField));
  }
  let partyId = '';
  if (k.partyField && k.party) {
    partyId = trim(input.partyId);
    if (partyId === '') add(k.partyField, DOC_MSG.partyRequired(k.party));
    else if (!isUuid(partyId)) add(k.partyField, DOC_MSG.uuid(k.partyField));
  }
  const reference = k.referenceField ? trim(input.reference) : '';
  if (k.referenceField && reference.length > LIMITS.reference) add(k.referenceField, DOC_MSG.tooLong(k.referenceField, LIMITS.reference));
  const description = trim(input.description);
  if (kind === 'manual_entry' && description === '') add('memo', DOC_MSG.required('memo'));
  if (description.length > LIMITS.description) add(k.descriptionField, DOC_MSG.tooLong(k.descriptionField, LIMITS.description));
  const companyName = kind === 'invoice' ? trim(input.companyName) : '';
  const companyAddress = kind === 'invoice' ? trim(input.companyAddress) : '';
  if (companyName.length > LIMITS.companyName) add('companyName', DOC_MSG.tooLong('companyName', LIMITS.companyName));
  if (companyAddress.length > LIMITS.companyAddress) add('companyAddress', DOC_MSG.tooLong('companyAddress', LIMITS.companyAddress));

  const lines: CleanLine[] = [];
  const items = input.lineItems;
  if (items.length === 0) add('lineItems', DOC_MSG.lineItemsRequired);
  else if (items.length > LIMITS.lineItems) add('lineItems', DOC_MSG.tooManyLines);
  else {
    items.forEach((l, i) => {
      const f = (name: string) => `lineItems.${i}.${name}`;
      const bad = (name: string, text: string) => {
        add(f(name), DOC_MSG.line(i, text));
        ok = false;
      };
      let ok = true;
      const serviceName = trim(l.serviceName);
      const categoryId = trim(l.categoryId);
      const amount = cents(l.amountCents);
      if (kind !== 'manual_entry' && serviceName === '') bad('serviceName', 'serviceName is required');
      else if (serviceName.length > LIMITS.serviceName) bad('serviceName', `serviceName must be at most ${LIMITS.serviceName} characters`);
      if (categoryId === '') bad('categoryId', 'categoryId is required');
      else if (!isUuid(categoryId)) bad('categoryId', 'categoryId must be a UUID');
      if (amount === undefined) bad('amount', 'amount is required');
      else if (!Number.isSafeInteger(amount) || amount <= 0) bad('amount', 'amount must be greater than 0');
      let quantity = '';
      let rateCents = 0;
      if (kind === 'invoice') {
        quantity = trim(l.quantity);
        const rate = cents(l.rateCents);
        if (quantity === '') bad('quantity', 'quantity is required');
        else if (!QUANTITY_RE.test(quantity) || Number(quantity) <= 0) bad('quantity', 'quantity must be greater than 0');
        if (rate === undefined) bad('rate', 'rate is required');
        else if (!Number.isSafeInteger(rate) || rate <= 0) bad('rate', 'rate must be greater than 0');
        else rateCents = rate;
        if (ok && !amountMatchesQuantityRate(amount as number, quantity, rateCents)) bad('amount', DOC_MSG.amountEqualsQtyRate);
      }
      let direction: CleanLine['direction'] = '';
      if (kind === 'manual_entry') {
        const t = trim(l.direction);
        if (t === '') bad('type', 'type is required');
        else if (t !== 'debit' && t !== 'credit') bad('type', 'type must be debit or credit');
        else direction = t;
      }
      if (ok) lines.push({ serviceName, categoryId: categoryId.toLowerCase(), amountCents: amount as number, quantity, rateCents, direction });
    });
    if (lines.length === items.length) {
      if (kind === 'manual_entry') {
        const b = balanceOf(lines);
        if (lines.length < 2 || b.debitCents !== b.creditCents) add('lineItems', DOC_MSG.unbalanced(dollars(b.debitCents), dollars(b.creditCents)));
        if (BigInt(b.debitCents) > MAX_CENTS) add('lineItems', DOC_MSG.totalTooLarge);
      } else if (BigInt(totalCents(lines)) > MAX_CENTS) add('lineItems', DOC_MSG.totalTooLarge);
    }
  }
  const payments: CleanPayment[] = [];
  if (kind !== 'manual_entry') {
    const connected = input.connectedTransactions ?? [];
    if (connected.length > LIMITS.lineItems) add('connectedTransactions', DOC_MSG.tooManyPayments);
    else {
      connected.forEach((p, i) => {
        const id = trim(p.id).toLowerCase();
        const amount = cents(p.amountCents);
        let ok = true;
        if (id === '') {
          add(`connectedTransactions.${i}.id`, DOC_MSG.payment(i, 'id is required'));
          ok = false;
        } else if (!isUuid(id)) {
          add(`connectedTransactions.${i}.id`, DOC_MSG.payment(i, 'id must be a UUID'));
          ok = false;
        } else if (connected.findIndex((q) => trim(q.id).toLowerCase() === id) !== i) {
          add(`connectedTransactions.${i}.id`, DOC_MSG.payment(i, 'is listed twice'));
          ok = false;
        }
        if (amount === undefined) {
          add(`connectedTransactions.${i}.amount`, DOC_MSG.payment(i, 'amount is required'));
          ok = false;
        } else if (!Number.isSafeInteger(amount) || amount <= 0) {
          add(`connectedTransactions.${i}.amount`, DOC_MSG.payment(i, 'amount must be greater than 0'));
          ok = false;
        }
        if (ok) payments.push({ transactionId: id, amountCents: amount as number });
      });
    }
  }
  if (problems.length > 0) return { problems };
  return { problems, value: { date, dueDate, partyId: partyId.toLowerCase(), reference, description, companyName, companyAddress, lines, payments } };
}

/** Cents as dollars with two decimals ("1234.50"). */
export function dollars(c: number): string {
  const sign = c < 0 ? '-' : '';
  const a = Math.abs(c);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

export interface Balance {
  debitCents: number;
  creditCents: number;
  /** debits − credits. */
  differenceCents: number;
  /** Per account, its net amount left on one side (accounts that net to zero are left out), in first-seen order. */
  differences: { accountId: string; amountCents: number; flag: 'debit' | 'credit' }[];
}

/** A manual journal's balance: totals per side and each account's net. */
export function balanceOf(lines: readonly { categoryId: string; amountCents: number; direction: string }[]): Balance {
  let debitCents = 0;
  let creditCents = 0;
  const net = new Map<string, number>();
  for (const l of lines) {
    const signed = l.direction === 'debit' ? l.amountCents : -l.amountCents;
    if (l.direction === 'debit') debitCents += l.amountCents;
    else creditCents += l.amountCents;
    net.set(l.categoryId, (net.get(l.categoryId) ?? 0) + signed);
  }
  const differences = [...net]
    .filter(([, n]) => n !== 0)
    .map(([accountId, n]) => ({ accountId, amountCents: Math.abs(n), flag: n > 0 ? ('debit' as const) : ('credit' as const) }));
  return { debitCents, creditCents, differenceCents: debitCents - creditCents, differences };
}

/** What a manual journal's check says when it does not balance (empty when it does). */
export function balanceMessages(b: Balance): string[] {
  if (b.differenceCents === 0) return [];
  const side = b.differenceCents > 0 ? 'debits exceed credits' : 'credits exceed debits';
  return [`The entry does not balance: ${side} by ${dollars(Math.abs(b.differenceCents))}`];
}

/** The ledger entry's description: what it is, whose, its reference and the user's description. */
export function entryDescription(kind: DocumentKind, partyName: string, reference: string, description: string): string {
  const k = KINDS[kind];
  const head = kind === 'manual_entry' ? k.what : `${k.what}${reference ? ` ${reference}` : ''}: ${partyName}`;
  return (description ? `${head} — ${description}` : head).slice(0, 1000);
}
