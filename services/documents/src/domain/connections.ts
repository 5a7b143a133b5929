import { isUuid } from '@ledgerline/platform';
import { dollars, LIMITS, type DocumentKind, type FieldProblem } from './documents.js';

/**
 * Payments of a bill or invoice other than bank transactions (spec §3, §5; issue #18 item 4): manual journals
 * (connectedManualEntries), vendor credits on a bill (connectedVendorCredits), credit memos on an invoice
 * (connectedCreditMemos); and, seen from a manual journal, the bills and invoices it pays (connectedBills,
 * connectedInvoices; shown as paidBills / paidInvoices). Each is an id and the amount it pays. Pure rules.
 */
export type PayerKind = 'manual_entry' | 'vendor_credit' | 'credit_memo';

export interface ConnectionInput {
  id?: string;
  amountCents?: bigint | number;
}
export interface ConnectionsInput {
  manualEntries?: ConnectionInput[];
  credits?: ConnectionInput[];
  bills?: ConnectionInput[];
  invoices?: ConnectionInput[];
}
export interface Connection {
  id: string;
  amountCents: number;
}
export interface CleanConnections {
  manualEntries: Connection[];
  credits: Connection[];
  bills: Connection[];
  invoices: Connection[];
}

/** The REST field of each list, by the document's kind. */
export function connectionFields(kind: DocumentKind) {
  return {
    manualEntries: 'connectedManualEntries',
    credits: kind === 'invoice' ? 'connectedCreditMemos' : 'connectedVendorCredits',
    bills: 'connectedBills',
    invoices: 'connectedInvoices',
  } as const;
}
const WHAT = { manualEntries: 'Connected manual entry', credits: '', bills: 'Connected bill', invoices: 'Connected invoice' } as const;
const creditWhat = (kind: DocumentKind) => (kind === 'invoice' ? 'Connected credit memo' : 'Connected vendor credit');

export const CONNECTION_MSG = {
  item: (what: string, i: number, text: string) => `${what} ${i + 1}: ${text}`,
  tooMany: (field: string) => `${field} holds at most ${LIMITS.lineItems} items`,
  notForKind: (field: string, what: string) => `${field} is not accepted on a ${what.toLowerCase()}`,
  manualEntryNotFound: 'Manual entry not found',
  billNotFound: 'Bill not found',
  invoiceNotFound: 'Invoice not found',
  vendorCreditNotFound: 'Vendor credit not found',
  creditMemoNotFound: 'Credit memo not found',
  voided: (what: string) => `A voided ${what} cannot pay anything`,
  voidedTarget: (what: string) => `A voided ${what} cannot be paid`,
  otherParty: (credit: string, party: string) => `The ${credit} is of another ${party}`,
  creditExceeded: (credit: string, remaining: number) => `amount exceeds the ${credit}'s remaining balance of ${dollars(remaining)}`,
  journalExceeded: (side: string, capacity: number) => `amount exceeds what the manual entry's ${side} leave to apply (${dollars(capacity)})`,
  journalTotal: (field: string, side: string, total: number, capacity: number) =>
    `${field} pay ${dollars(total)}, more than the manual entry's ${side} (${dollars(capacity)})`,
} as const;

const trim = (s: string | undefined) => (s ?? '').trim();
function cents(v: bigint | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'bigint' ? Number(v) : v;
}

/**
 * The lists a document of this kind accepts, cleaned: each id a UUID listed once, each amount above 0. A bill or
 * invoice takes manual entries and credits; a manual journal takes bills and invoices; any other list is refused.
 */
export function cleanConnections(kind: DocumentKind, input: ConnectionsInput): { problems: FieldProblem[]; value: CleanConnections } {
  const problems: FieldProblem[] = [];
  const value: CleanConnections = { manualEntries: [], credits: [], bills: [], invoices: [] };
  const fields = connectionFields(kind);
  const accepted: (keyof CleanConnections)[] = kind === 'manual_entry' ? ['bills', 'invoices'] : ['manualEntries', 'credits'];
  for (const key of ['manualEntries', 'credits', 'bills', 'invoices'] as const) {
    const list = input[key] ?? [];
    const field = fields[key];
    if (!accepted.includes(key)) {
      if (list.length > 0) problems.push({ field, message: CONNECTION_MSG.notForKind(field, kind === 'manual_entry' ? 'Manual entry' : kind) });
      continue;
    }
    if (list.length > LIMITS.lineItems) {
      problems.push({ field, message: CONNECTION_MSG.tooMany(field) });
      continue;
    }
    const what = key === 'credits' ? creditWhat(kind) : WHAT[key];
    list.forEach((c, i) => {
      const id = trim(c.id).toLowerCase();
      const amount = cents(c.amountCents);
      let ok = true;
      const add = (sub: string, text: string) => {
        problems.push({ field: `${field}.${i}.${sub}`, message: CONNECTION_MSG.item(what, i, text) });
        ok = false;
      };
      if (id === '') add('id', 'id is required');
      else if (!isUuid(id)) add('id', 'id must be a UUID');
      else if (list.findIndex((q) => trim(q.id).toLowerCase() === id) !== i) add('id', 'is listed twice');
      if (amount === undefined) add('amount', 'amount is required');
      else if (!Number.isSafeInteger(amount) || amount <= 0) add('amount', 'amount must be greater than 0');
      if (ok) value[key].push({ id, amountCents: amount as number });
    });
  }
  return { problems, value };
}

/**
 * What a manual journal can pay: its net debit to Accounts Payable (it pays bills) and its net credit to Accounts
 * Receivable (it pays invoices). A journal that does not move AP / AR pays nothing — else a bill would show PAID while
 * the books still owe it.
 */
export function journalCapacity(
  lines: readonly { categoryId: string; amountCents: number; direction: string }[],
  payableId: string | undefined,
  receivableId: string | undefined,
) {
  let ap = 0;
  let ar = 0;
  for (const l of lines) {
    const signed = l.direction === 'debit' ? l.amountCents : -l.amountCents;
    if (payableId && l.categoryId === payableId) ap += signed;
    if (receivableId && l.categoryId === receivableId) ar -= signed;
  }
  return { billsCents: Math.max(0, ap), invoicesCents: Math.max(0, ar) };
}

export const sumOf = (list: readonly { amountCents: number }[]) => list.reduce((s, c) => s + c.amountCents, 0);
