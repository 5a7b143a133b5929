// The bulk-draft review's own rules (spec documents-parties-integrations §2 mode=bulk-draft of the bills and invoices
// tabs, §3 Draft, §5 the first error, §8 the conversion messages; issue #19 item 5): the URL, a draft's row, the
// editor's form and the payload it saves, the import notices. Pure, tested in test/drafts-state.test.ts.
import { BULK_DRAFT_MODE, type Draft, type DraftEntity, type DraftMetaData } from '@ledgerline/api';
import type { NoticeInput } from '@ledgerline/ui';

/** The import notices (spec §4 / platform-core "Finished-import notices"), word for word. */
export const IMPORT_NOTICES = {
  importing: { title: 'Importing', description: 'Please wait while we finish uploading' },
  complete: { title: 'Import Complete!', description: 'Click here to review and save them', action: 'View' },
} as const;

/**
 * Spec §8 draft conversion message, as the server words it: none created and some failed → 'Failed to create {n}
 * bills'; otherwise '{created} bills created' with ', {failed} failed.' when any failed.
 */
export function conversionMessage(entity: DraftEntity, created: number, failed: number): string {
  const plural = `${entity}s`;
  return created === 0 && failed > 0 ? `Failed to create ${failed} ${plural}` : `${created} ${plural} created${failed > 0 ? `, ${failed} failed.` : ''}`;
}

export const DRAFT_TABS: Readonly<Record<DraftEntity, 'bills' | 'invoices'>> = { bill: 'bills', invoice: 'invoices' };

/** Whether the tab's query asks for the draft review (`mode=bulk-draft`). */
export const isBulkDraft = (params: URLSearchParams): boolean => params.get('mode') === BULK_DRAFT_MODE;

/** The query of the review (`?tab=bills&mode=bulk-draft`) and of the tab's list. */
export const bulkDraftSearch = (entity: DraftEntity): URLSearchParams => new URLSearchParams({ tab: DRAFT_TABS[entity], mode: BULK_DRAFT_MODE });
export const listSearch = (entity: DraftEntity): URLSearchParams => new URLSearchParams({ tab: DRAFT_TABS[entity] });

export interface DraftLine {
  key: string;
  serviceName: string;
  categoryId: string;
  amount: string;
  quantity: string;
  rate: string;
}

export interface DraftForm {
  date: string;
  dueDate: string;
  partyId: string;
  reference: string;
  description: string;
  lines: DraftLine[];
}

let nextKey = 0;
export const emptyDraftLine = (): DraftLine => ({ key: `draft-line-${++nextKey}`, serviceName: '', categoryId: '', amount: '', quantity: '', rate: '' });

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const lineList = (m: DraftMetaData): Record<string, unknown>[] => (Array.isArray(m.lineItems) ? (m.lineItems as Record<string, unknown>[]) : []);

/** The editor's form of a draft: what its metaData holds, blanks where it holds nothing. */
export function draftForm(entity: DraftEntity, m: DraftMetaData): DraftForm {
  const lines = lineList(m).map((l) => ({
    ...emptyDraftLine(),
    serviceName: text(l.serviceName) || text(l.description),
    categoryId: text(l.categoryId),
    amount: text(l.amount),
    quantity: text(l.quantity),
    rate: text(l.rate),
  }));
  return {
    date: text(entity === 'bill' ? m.billDate : m.invoiceDate),
    dueDate: text(m.dueDate),
    partyId: text(entity === 'bill' ? m.vendorId : m.customerId),
    reference: text(entity === 'bill' ? m.invoiceCode : m.referenceNo),
    description: text(m.description),
    lines: lines.length > 0 ? lines : [emptyDraftLine()],
  };
}

/** A number from the form's text, or undefined when blank or not a number (the server then names the field). */
const num = (s: string): number | undefined => {
  const t = s.trim().replace(/^\$/, '').replace(/,/g, '');
  if (t === '' || !/^\d+(\.\d+)?$/.test(t)) return undefined;
  return Number(t);
};
const opt = (s: string): string | undefined => (s.trim() === '' ? undefined : s.trim());

/**
 * The metaData the editor saves: the draft's own (upload, extracted fields, recurrence) with the form's fields over it.
 * Blank fields are left out (spec §5: empty optional text is absent); an invoice line's amount is quantity × rate when
 * both are given (spec §5 tooltip 'Enter Qty and Rate to update Amount').
 */
export function draftMetaData(entity: DraftEntity, before: DraftMetaData, f: DraftForm): DraftMetaData {
  const {
    billDate: _b,
    invoiceDate: _i,
    dueDate: _d,
    vendorId: _v,
    customerId: _c,
    invoiceCode: _ic,
    referenceNo: _r,
    description: _de,
    lineItems: _l,
    ...rest
  } = before;
  const lines = f.lines
    .filter((l) => l.serviceName.trim() !== '' || l.categoryId !== '' || l.amount.trim() !== '' || l.quantity.trim() !== '' || l.rate.trim() !== '')
    .map((l) => {
      const quantity = num(l.quantity);
      const rate = num(l.rate);
      const amount = entity === 'invoice' && quantity !== undefined && rate !== undefined ? Math.round(quantity * rate * 100) / 100 : num(l.amount);
      return {
        ...(opt(l.serviceName) ? { serviceName: opt(l.serviceName) } : {}),
        ...(l.categoryId ? { categoryId: l.categoryId } : {}),
        ...(amount !== undefined ? { amount } : {}),
        ...(entity === 'invoice' && quantity !== undefined ? { quantity } : {}),
        ...(entity === 'invoice' && rate !== undefined ? { rate } : {}),
      };
    });
  const date = opt(f.date);
  const party = opt(f.partyId);
  const reference = opt(f.reference);
  return {
    ...rest,
    ...(date ? (entity === 'bill' ? { billDate: date } : { invoiceDate: date }) : {}),
    ...(opt(f.dueDate) ? { dueDate: opt(f.dueDate) } : {}),
    ...(party ? (entity === 'bill' ? { vendorId: party } : { customerId: party }) : {}),
    ...(reference ? (entity === 'bill' ? { invoiceCode: reference } : { referenceNo: reference }) : {}),
    ...(opt(f.description) ? { description: opt(f.description) } : {}),
    lineItems: lines,
  };
}

export interface DraftRowView {
  id: string;
  date: string;
  partyId: string;
  /** What the file said the merchant was, when no vendor / customer is chosen yet. */
  merchant: string;
  reference: string;
  /** The lines' total in dollars, or null when no line has an amount. */
  total: number | null;
  /** The draft's first error as the table shows it ('' when ready to create). */
  error: string;
  errorField: string;
}

/** A row of the review table. `override`: the error the last conversion reported for it (a vendor deleted since...). */
export function draftRow(d: Draft, override?: { field: string; message: string } | null): DraftRowView {
  const entity = d.entityType as DraftEntity;
  const f = draftForm(entity, d.metaData);
  const amounts = f.lines.map((l) => num(l.amount)).filter((a): a is number => a !== undefined);
  const problem = override ?? d.firstError;
  return {
    id: d.id,
    date: f.date,
    partyId: f.partyId,
    merchant: nameRead(d),
    reference: f.reference,
    total: amounts.length > 0 ? Math.round(amounts.reduce((s, a) => s + a, 0) * 100) / 100 : null,
    error: problem?.message ?? '',
    errorField: problem?.field ?? '',
  };
}

/** The id both import notices share, so 'Import Complete!' replaces 'Importing' instead of stacking. */
export const IMPORT_NOTICE_ID = 'draft-import';

/**
 * The import notices (platform-core: 'Importing' / 'Please wait while we finish uploading' while files are read; then
 * 'Import Complete!' / 'Click here to review and save them' with a View action opening the review).
 */
export function importNotice(state: 'importing' | 'complete', onView: () => void): NoticeInput {
  if (state === 'importing')
    return { id: IMPORT_NOTICE_ID, type: 'info', title: IMPORT_NOTICES.importing.title, message: IMPORT_NOTICES.importing.description, duration: null };
  return {
    id: IMPORT_NOTICE_ID,
    type: 'success',
    title: IMPORT_NOTICES.complete.title,
    message: IMPORT_NOTICES.complete.description,
    duration: null,
    action: { label: IMPORT_NOTICES.complete.action, onClick: onView },
  };
}

/** The name of the vendor (bill) or customer (invoice) read off a draft's file, or ''. */
export function nameRead(d: Draft): string {
  const extracted = (d.metaData.extracted ?? {}) as Record<string, unknown>;
  return text(extracted.merchantName) || text(d.entityType === 'invoice' ? extracted.customerName : extracted.billerName) || text(extracted.merchant);
}

const LEGAL_FORMS = new Set(['inc', 'incorporated', 'llc', 'ltd', 'limited', 'co', 'corp', 'corporation', 'company', 'plc', 'gmbh', 'lp', 'llp', 'pty', 'sa']);

/** A name's words as compared: lower case, no accents or punctuation, '&' as 'and', no leading 'the', no trailing legal forms. */
export function partyNameWords(name: string): string[] {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  if (words[0] === 'the') words.shift();
  while (words.length > 1 && LEGAL_FORMS.has(words.at(-1)!)) words.pop();
  return words;
}

/** The word to ask the party list for (its longest), or '' when the name has none. */
export const partySearchWord = (name: string): string => partyNameWords(name).reduce((best, w) => (w.length > best.length ? w : best), '');

/**
 * The vendor / customer a draft's name read names (decision 0029): the one whose name is the same once compared by
 * partyNameWords, else the only one whose words all appear in the name read or the other way round (at least one word
 * of four letters or more in common). Null when none or several fit: the reviewer picks.
 */
export function suggestParty<P extends { id: string; name: string }>(written: string, candidates: readonly P[]): P | null {
  const key = partyNameWords(written);
  if (key.length === 0) return null;
  const same = candidates.filter((c) => partyNameWords(c.name).join(' ') === key.join(' '));
  if (same.length === 1) return same[0]!;
  if (same.length > 1) return null;
  const inside = (a: readonly string[], b: readonly string[]) => a.length > 0 && a.every((w) => b.includes(w)) && a.some((w) => w.length >= 4);
  const near = candidates.filter((c) => {
    const words = partyNameWords(c.name);
    return inside(words, key) || inside(key, words);
  });
  return near.length === 1 ? near[0]! : null;
}
