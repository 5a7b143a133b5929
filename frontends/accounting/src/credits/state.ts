// The credit screens' own rules (spec documents-parties-integrations §2 query parameters, §3 "Vendor credit" /
// "Credit memo", §5 "Payment to vendor / from customer"): their state in the URL, the form, its checks and totals.
// One set for both kinds: a vendor credit (Expenses → Vendor Credit) and a credit memo (Revenue → Credit Memo).
// Pure, tested in test/credits-state.test.ts.
import type { CreditKind, PartyCredit, PartyCreditBody } from '@ledgerline/api';

/** What tells the two kinds apart on screen: the tab, the URL key of the open one, the words. */
export interface CreditSpec {
  kind: CreditKind;
  /** The spec §2 tab value. */
  tab: 'vendor-credit' | 'credit-memo';
  /** The spec §2 query parameter naming the open credit. */
  param: 'vendorCredit' | 'creditMemo';
  /** "Vendor credit", "Credit memo". */
  what: string;
  /** "Vendor", "Customer". */
  party: 'Vendor' | 'Customer';
  /** Where a new category goes from the line's picker: a vendor credit gives back what was spent, a credit memo what was earned. */
  flow: 'outflow' | 'inflow';
  /** A credit memo has a reference number. */
  hasRefNo: boolean;
}

export const CREDIT_SPECS: Readonly<Record<CreditKind, CreditSpec>> = {
  vendor: { kind: 'vendor', tab: 'vendor-credit', param: 'vendorCredit', what: 'Vendor credit', party: 'Vendor', flow: 'outflow', hasRefNo: false },
  customer: { kind: 'customer', tab: 'credit-memo', param: 'creditMemo', what: 'Credit memo', party: 'Customer', flow: 'inflow', hasRefNo: true },
};

/** Spec §2 modes: the list (idle), a new one (create), one open (view) or being edited (edit). */
export type CreditMode = 'idle' | 'create' | 'view' | 'edit';

export interface CreditScreen {
  openId: string | null;
  mode: CreditMode;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tab's state from its query (`vendorCredit` / `creditMemo`, `mode`); a malformed id opens nothing. */
export function creditScreenFromSearch(spec: CreditSpec, params: URLSearchParams): CreditScreen {
  const mode = params.get('mode');
  if (mode === 'create') return { openId: null, mode: 'create' };
  const id = params.get(spec.param);
  if (id === null || !UUID.test(id)) return { openId: null, mode: 'idle' };
  return { openId: id.toLowerCase(), mode: mode === 'edit' ? 'edit' : 'view' };
}

/** The tab's query: `tab` first, then the open credit and its mode (view, the default for an open one, is not written). */
export function creditSearch(spec: CreditSpec, screen: CreditScreen): URLSearchParams {
  const p = new URLSearchParams({ tab: spec.tab });
  if (screen.mode === 'create') p.set('mode', 'create');
  else if (screen.openId !== null) {
    p.set(spec.param, screen.openId);
    if (screen.mode === 'edit') p.set('mode', 'edit');
  }
  return p;
}

// ——— The form ———

export interface CreditLineForm {
  /** A key for the row on screen (not sent). */
  key: string;
  description: string;
  categoryId: string;
  /** As typed: digits with an optional decimal point (the ui kit's AmountInput). */
  amount: string;
}

export interface CreditForm {
  paymentDate: string;
  partyId: string;
  description: string;
  refNo: string;
  lines: CreditLineForm[];
}

let nextKey = 0;
export const emptyLine = (): CreditLineForm => ({ key: `line-${++nextKey}`, description: '', categoryId: '', amount: '' });

/** A new credit (dated `today`, one empty line) or the one being edited. */
export function creditForm(credit: PartyCredit | null, today: string): CreditForm {
  if (credit === null) return { paymentDate: today, partyId: '', description: '', refNo: '', lines: [emptyLine()] };
  return {
    paymentDate: credit.paymentDate,
    partyId: credit.party.id,
    description: credit.description,
    refNo: credit.refNo,
    lines: credit.lineItems.map((l) => ({ key: l.id, description: l.description, categoryId: l.categoryId, amount: amountText(l.amount) })),
  };
}

/** 12.5 → "12.50": what the amount input shows for a saved amount. */
export const amountText = (amount: number): string => (Math.round(amount * 100) / 100).toFixed(2);

const isBlank = (l: CreditLineForm) => l.description.trim() === '' && l.categoryId === '' && l.amount.trim() === '';

/** An amount as typed in cents, or null when it is not a positive amount of at most 2 decimals. */
export function amountCents(text: string): number | null {
  const t = text.trim();
  if (!/^\d*(\.\d{0,2})?$/.test(t) || t === '' || t === '.') return null;
  const cents = Math.round(Number(t) * 100);
  return Number.isSafeInteger(cents) && cents > 0 ? cents : null;
}

/** The total of the lines whose amount is valid, in dollars (what the form shows as it is typed). */
export function formTotal(form: CreditForm): number {
  return form.lines.reduce((sum, l) => sum + (amountCents(l.amount) ?? 0), 0) / 100;
}

export const CREDIT_MESSAGES = {
  partyRequired: (spec: CreditSpec) => `${spec.party} is required`,
  dateRequired: 'Payment date is required',
  linesRequired: 'At least one line item is required',
  categoryRequired: 'Category is required',
  amount: 'Amount must be greater than 0, with at most 2 decimals',
  refNoLength: 'Reference number must be at most 100 characters',
  descriptionLength: 'Description must be at most 1000 characters',
} as const;

export type CreditFormErrors = Partial<Record<'partyId' | 'paymentDate' | 'description' | 'refNo' | 'lines', string>> & {
  /** Per line, by its key. */
  line?: Record<string, Partial<Record<'categoryId' | 'amount' | 'description', string>>>;
};

/**
 * The spec §5 checks before saving (the server makes them again): the party, the date, at least one line (blank
 * lines are left out), each with a category and an amount above 0. Every problem at once.
 */
export function validateCreditForm(spec: CreditSpec, form: CreditForm): CreditFormErrors {
  const e: CreditFormErrors = {};
  if (form.partyId === '') e.partyId = CREDIT_MESSAGES.partyRequired(spec);
  if (form.paymentDate === '') e.paymentDate = CREDIT_MESSAGES.dateRequired;
  if (form.description.trim().length > 1000) e.description = CREDIT_MESSAGES.descriptionLength;
  if (spec.hasRefNo && form.refNo.trim().length > 100) e.refNo = CREDIT_MESSAGES.refNoLength;
  const lines = form.lines.filter((l) => !isBlank(l));
  if (lines.length === 0) e.lines = CREDIT_MESSAGES.linesRequired;
  for (const l of lines) {
    const problems: Partial<Record<'categoryId' | 'amount' | 'description', string>> = {};
    if (l.categoryId === '') problems.categoryId = CREDIT_MESSAGES.categoryRequired;
    if (amountCents(l.amount) === null) problems.amount = CREDIT_MESSAGES.amount;
    if (l.description.trim().length > 1000) problems.description = CREDIT_MESSAGES.descriptionLength;
    if (Object.keys(problems).length > 0) (e.line ??= {})[l.key] = problems;
  }
  return e;
}

export const hasErrors = (e: CreditFormErrors): boolean => Object.keys(e).length > 0;

/** The payload of a valid form: blank lines left out, amounts in dollars of whole cents. Every field is sent, so an edit replaces them all. */
export function creditBody(spec: CreditSpec, form: CreditForm): PartyCreditBody {
  return {
    paymentDate: form.paymentDate,
    partyId: form.partyId,
    description: form.description.trim(),
    refNo: spec.hasRefNo ? form.refNo.trim() : '',
    lineItems: form.lines
      .filter((l) => !isBlank(l))
      .map((l) => ({ description: l.description.trim(), categoryId: l.categoryId, amount: (amountCents(l.amount) ?? 0) / 100 })),
  };
}

/**
 * A refusal from the server on the form: `lineItems.N.field` goes to the N-th sent line (blank lines are not sent),
 * the other named fields to theirs; null when the field is not one of the form's (shown above the buttons).
 */
export function serverErrorOnForm(spec: CreditSpec, form: CreditForm, field: string | undefined, message: string): CreditFormErrors | null {
  if (field === undefined) return null;
  const partyField = spec.kind === 'vendor' ? 'vendorId' : 'customerId';
  if (field === partyField) return { partyId: message };
  if (field === 'paymentDate' || field === 'description' || (field === 'refNo' && spec.hasRefNo)) return { [field]: message };
  if (field === 'lineItems') return { lines: message };
  const m = /^lineItems\.(\d+)\.(categoryId|amount|description)$/.exec(field);
  const sent = form.lines.filter((l) => !isBlank(l));
  const line = m ? sent[Number(m[1])] : undefined;
  if (m && line) return { line: { [line.key]: { [m[2] as 'categoryId' | 'amount' | 'description']: message } } };
  return null;
}
