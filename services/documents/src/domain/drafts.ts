import { isUuid, parseDollars } from '@ledgerline/platform';
import { cleanDocument, type DocumentInput, type FieldProblem } from './documents.js';
import { cleanRecur, RECUR_MSG, type CleanRecur } from './recurrence.js';

/**
 * Drafts (spec documents-parties-integrations §3 Draft, §5, §8; issue #19 item 5), pure. A draft's metaData is a bill or
 * invoice payload in progress, with the REST names and dollars of POST /accounting/bill/v2 and /invoice/v2, every field
 * optional, plus the recurrence fields, uploadId and what was read from the file (`extracted`). Its rules are the
 * document's own (`cleanDocument`, not a copy) and the recurrence's; a draft is reported by its FIRST problem.
 */
export type DraftEntity = 'bill' | 'invoice';
export const DRAFT_ENTITIES: readonly DraftEntity[] = ['bill', 'invoice'];
export const isDraftEntity = (s: string): s is DraftEntity => (DRAFT_ENTITIES as readonly string[]).includes(s);

/**
 * Draft types (the spec does not list them): where the draft came from, as QuickBooks' and Xero's inboxes tell them
 * apart: `manual` (made on the screen or through the API), `upload` (one uploaded file), `bulk_upload` (one file of a
 * batch, with its bulkUploadId), `email` (a document forwarded by mail).
 */
export const DRAFT_TYPES = ['manual', 'upload', 'bulk_upload', 'email'] as const;
export type DraftType = (typeof DRAFT_TYPES)[number];
export const DEFAULT_DRAFT_TYPE: DraftType = 'manual';
export const isDraftType = (s: string): s is DraftType => (DRAFT_TYPES as readonly string[]).includes(s);

const plural = (e: DraftEntity) => `${e}s`;

export const DRAFT_MSG = {
  entityType: 'entityType must be one of: bill, invoice',
  entityTypeRequired: 'entityType is required',
  draftType: `draftType must be one of: ${DRAFT_TYPES.join(', ')}`,
  publishedAt: 'publishedAt must be a date (YYYY-MM-DD) or an ISO date-time',
  metaData: 'metaData must be a JSON object',
  draftIdsRequired: 'At least one draft is required',
  draftIds: 'draftIds must hold UUIDs',
  tooManyDrafts: 'At most 100 drafts at a time',
  notFound: 'Draft not found',
  bulkUploadNotFound: 'Bulk upload not found',
  uploadNotFound: 'Upload not found',
  converted: 'This draft was converted already',
  otherEntity: (draft: DraftEntity, wanted: DraftEntity) =>
    `This draft is ${draft === 'invoice' ? 'an invoice' : 'a bill'}, not ${wanted === 'invoice' ? 'an invoice' : 'a bill'}`,
  /** Spec §8, exactly. */
  noneCreated: (e: DraftEntity, n: number) => `Failed to create ${n} ${plural(e)}`,
  created: (e: DraftEntity, created: number, failed: number) => `${created} ${plural(e)} created${failed > 0 ? `, ${failed} failed.` : ''}`,
  deleted: (n: number) => `${n} draft${n === 1 ? '' : 's'} deleted`,
} as const;

/** The most drafts one call converts or deletes (each conversion is a ledger posting). */
export const MAX_DRAFTS_PER_CALL = 100;

/** Spec §8: none created and some failed → 'Failed to create {n} bills'; otherwise '{created} bills created' (+ ', {failed} failed.'). */
export function conversionMessage(e: DraftEntity, created: number, failed: number): string {
  return created === 0 && failed > 0 ? DRAFT_MSG.noneCreated(e, failed) : DRAFT_MSG.created(e, created, failed);
}

/** The draftIds of DELETE /drafts (comma-joined) and of the conversions: at least one, each a UUID, duplicates once. */
export function cleanDraftIds(ids: readonly string[]): { value: string[]; problems: FieldProblem[] } {
  const value = [...new Set(ids.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))];
  if (value.length === 0) return { value, problems: [{ field: 'draftIds', message: DRAFT_MSG.draftIdsRequired }] };
  if (value.length > MAX_DRAFTS_PER_CALL) return { value, problems: [{ field: 'draftIds', message: DRAFT_MSG.tooManyDrafts }] };
  if (!value.every(isUuid)) return { value, problems: [{ field: 'draftIds', message: DRAFT_MSG.draftIds }] };
  return { value, problems: [] };
}

/** publishedAt: a business date or an ISO date-time; absent is now. */
export function parsePublishedAt(text: string, now: Date): Date | undefined {
  const t = text.trim();
  if (t === '') return now;
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** metaData as JSON text: an object, or a problem. */
export function parseMetaData(text: string): { value?: Record<string, unknown>; problem?: FieldProblem } {
  if (text.trim() === '') return { value: {} };
  try {
    const v: unknown = JSON.parse(text);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return { value: v as Record<string, unknown> };
  } catch {
    // not JSON: the problem below
  }
  return { problem: { field: 'metaData', message: DRAFT_MSG.metaData } };
}

const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
/** Dollars to cents; a value that is not an amount becomes NaN, which the document's rules refuse for its field. */
const centsOf = (v: unknown): number | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  const p = parseDollars(v);
  return 'cents' in p ? Number(p.cents) : Number.NaN;
};
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>) : {})) : [];

/** The draft's metaData as the document use case's input, exactly as the bill / invoice route builds it from its body. */
export function draftDocumentInput(e: DraftEntity, m: Record<string, unknown>): DocumentInput {
  return {
    date: textOf(e === 'bill' ? m.billDate : m.invoiceDate),
    dueDate: textOf(m.dueDate),
    partyId: textOf(e === 'bill' ? m.vendorId : m.customerId),
    reference: textOf(e === 'bill' ? m.invoiceCode : m.referenceNo),
    description: textOf(m.description),
    companyName: textOf(m.companyName),
    companyAddress: textOf(m.companyAddress),
    lineItems: list(m.lineItems).map((l) => ({
      serviceName: textOf(l.serviceName) ?? textOf(l.description),
      categoryId: textOf(l.categoryId),
      amountCents: centsOf(l.amount),
      quantity: e === 'invoice' ? textOf(l.quantity) : undefined,
      rateCents: e === 'invoice' ? centsOf(l.rate) : undefined,
    })),
  };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The recurrence a draft asks for, if any. It is active when metaData says isRecurring or gives any recurring field;
 * then start date, end date and interval are all required (spec §5: 'Please fill all recurring details').
 */
export function draftRecurrence(m: Record<string, unknown>): { active: boolean; value?: CleanRecur; problems: FieldProblem[] } {
  const fields = ['recurringStartDate', 'recurringEndDate', 'interval'] as const;
  const active = m.isRecurring === true || fields.some((f) => !blank(m[f]));
  if (!active) return { active, problems: [] };
  const missing = fields.find((f) => blank(m[f]));
  if (missing) return { active, problems: [{ field: missing, message: RECUR_MSG.fillAll }] };
  const r = cleanRecur({ recurringStartDate: textOf(m.recurringStartDate), recurringEndDate: textOf(m.recurringEndDate), interval: textOf(m.interval) });
  return { active, value: r.value, problems: r.problems };
}

/**
 * A draft's first problem as a bill or invoice (what conversion would refuse before asking the parties service and the
 * ledger): the document's rules in their order, then the recurrence's. Undefined when none.
 */
export function firstDraftProblem(e: DraftEntity, m: Record<string, unknown>): FieldProblem | undefined {
  const doc = cleanDocument(e, draftDocumentInput(e, m));
  return doc.problems[0] ?? draftRecurrence(m).problems[0];
}
