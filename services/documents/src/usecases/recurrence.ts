import {
  AppError,
  ErrorKind,
  isUuid,
  newId,
  withSystem,
  withTenant,
  writePostingRequested,
  type Knex,
  type Logger,
  type TenantContext,
  assertCanEdit,
} from '@ledgerline/platform';
import type { DocumentLedger, DocumentPosting } from '../clients/ledger.js';
import { DOC_MSG, entryDescription, isDocumentKind, KINDS, type CleanDocument, type DocumentKind, type FieldProblem } from '../domain/documents.js';
import {
  addDays,
  cleanRecur,
  daysBetween,
  kindOfEntityType,
  occurrenceDate,
  RECUR_MSG,
  type Activity,
  type CleanRecur,
  type EndType,
  type Interval,
  type RecurInput,
} from '../domain/recurrence.js';
import { documentChanged } from '../events/document-changed.js';
import { documentById, documentLines, insertDocument, replaceLines, setJournalEntry, type DocumentLineRow, type DocumentRow } from '../store/documents.js';
import {
  advanceRecurrence,
  claimOccurrence,
  documentKindById,
  dueTemplates,
  lockRecurrence,
  markRecurringSource,
  occurrencesOf,
  recurrencesOf,
  saveRecurrence,
  scheduleOf,
  setActivity,
  templatesOfOccurrences,
  type RecurrenceRow,
} from '../store/recurrence.js';

export interface RecurrenceDeps {
  db: Knex;
  logger: Logger;
  ledger: DocumentLedger;
  /** Today (UTC, YYYY-MM-DD) by the scheduler's clock; injectable for tests. */
  today: () => string;
  /** Asks the scheduler to run now (a schedule whose first dates are due is caught up at once). */
  wake?: () => void;
}

type Tenant = TenantContext & { workspaceId: string };

/** The recurrence of a document as the API shows it (spec §3 recurrence fields, plus its activity and end). */
export interface RecurrenceView {
  isRecurredParent: boolean;
  recurringStartDate: string;
  recurringEndDate: string;
  interval: Interval | '';
  recurringEndType: EndType | '';
  recurringCount: number;
  activity: Activity | '';
  /** The dates handled so far (isRecurred, with their document) and the next ones to come (at most UPCOMING). */
  recurringSchedule: { recurrenceDate: string; isRecurred: boolean; documentId: string }[];
  nextRecurrenceDate: string;
  /** Of a document a recurrence created: its template. */
  recurredFromId: string;
}

const UPCOMING = 12;
/** Templates one sweep takes at a time; a sweep goes on until none is due. */
const SWEEP_BATCH = 50;

export const NO_RECURRENCE: RecurrenceView = {
  isRecurredParent: false,
  recurringStartDate: '',
  recurringEndDate: '',
  interval: '',
  recurringEndType: '',
  recurringCount: 0,
  activity: '',
  recurringSchedule: [],
  nextRecurrenceDate: '',
  recurredFromId: '',
};

function invalid(problems: FieldProblem[]): void {
  if (problems.length > 0) throw AppError.invalid(problems);
}
function notFound(kind: DocumentKind): AppError {
  const message = DOC_MSG.notFound(KINDS[kind].what);
  return new AppError(ErrorKind.NotFound, message, { fields: [{ field: 'id', message }] });
}
function conflict(message: string, field = 'id'): AppError {
  return new AppError(ErrorKind.FailedPrecondition, message, { fields: [{ field, message }] });
}

/** The next dates an Active schedule will handle (at most UPCOMING): from where it stands, not those passed while paused or handled. */
function upcomingDates(r: RecurrenceRow, handled: ReadonlySet<string>): { index: number; date: string }[] {
  const out: { index: number; date: string }[] = [];
  const schedule = scheduleOf(r);
  for (let n = r.next_index; out.length < UPCOMING && n < r.next_index + 100_000; n += 1) {
    const date = occurrenceDate(schedule, n);
    if (date === undefined) break;
    if ((r.not_before && date < r.not_before) || handled.has(date)) continue;
    out.push({ index: n, date });
  }
  return out;
}

/** A template's lines and fields as a new document of the occurrence's date; the due date keeps its distance. */
function occurrenceOf(t: DocumentRow, lines: DocumentLineRow[], date: string): CleanDocument {
  return {
    date,
    dueDate: t.due_date ? addDays(date, daysBetween(t.doc_date, t.due_date)) : '',
    partyId: t.party_id ?? '',
    reference: t.reference,
    description: t.description,
    companyName: t.company_name,
    companyAddress: t.company_address,
    payments: [],
    lines: lines.map((l) => ({
      serviceName: l.service_name,
      categoryId: l.category_id,
      amountCents: l.amount_cents,
      quantity: l.quantity ?? '',
      rateCents: l.rate_cents ?? 0,
      direction: l.direction ?? '',
    })),
  };
}

/**
 * Recurrence of bills, invoices and manual journals (issue #18 item 6; services/documents/README.md "Recurrence"). A
 * document becomes a template with a schedule (POST .../recur/{id}); the scheduler (`runDue`, a job of the service)
 * creates one normal document per date of the schedule — each booked through the ledger exactly as a hand-made one
 * (decision 0012: checked, committed with posting.requested, then booked) — exactly once: the date is claimed in
 * `recurrence_occurrences`, unique on (template, date), in the transaction that writes the document.
 */
export function createRecurrenceUseCases({ db, logger, ledger, today, wake }: RecurrenceDeps) {
  async function viewsOf(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, RecurrenceView>> {
    const recurrences = await recurrencesOf(trx, ids);
    const occurrences = await occurrencesOf(trx, [...recurrences.keys()]);
    const parents = await templatesOfOccurrences(trx, ids);
    const out = new Map<string, RecurrenceView>();
    for (const id of ids) {
      const r = recurrences.get(id);
      const from = parents.get(id) ?? '';
      if (!r) {
        if (from) out.set(id, { ...NO_RECURRENCE, recurredFromId: from });
        continue;
      }
      const done = occurrences.get(id) ?? [];
      const handled = new Set(done.map((o) => o.occurrence_date));
      const upcoming = r.activity !== 'Active' || r.next_date === null ? [] : upcomingDates(r, handled);
      out.set(id, {
        isRecurredParent: true,
        recurringStartDate: r.start_date,
        recurringEndDate: r.end_date ?? '',
        interval: r.interval,
        recurringEndType: r.end_type,
        recurringCount: r.occurrence_count ?? 0,
        activity: r.activity,
        nextRecurrenceDate: upcoming[0]?.date ?? '',
        recurredFromId: from,
        recurringSchedule: [
          ...done.map((o) => ({ recurrenceDate: o.occurrence_date, isRecurred: true, documentId: o.document_id })),
          ...upcoming.map((o) => ({ recurrenceDate: o.date, isRecurred: false, documentId: '' })),
        ],
      });
    }
    return out;
  }

  /** After the commit: books the occurrence now; a failure leaves it to its posting.requested event (decision 0012). */
  async function book(tenant: Tenant, p: DocumentPosting): Promise<void> {
    try {
      const posted = await ledger.post(tenant, p);
      if (posted.entryId) await withTenant(db, tenant, (trx) => setJournalEntry(trx, p.documentId, posted.entryId, p.version));
    } catch (err) {
      logger.warn({ err, sourceType: p.sourceType, documentId: p.documentId }, 'the ledger did not book the occurrence now; its posting.requested event will');
    }
  }

  /**
   * One step of a template, in one transaction: its schedule locked (SKIP LOCKED: another replica working on it makes
   * this one move on), the next due date claimed and its document written, checked by the ledger and committed with
   * posting.requested. Dates before `not_before` (passed while paused) and dates already claimed are stepped over; the
   * template's own date is the template itself. Answers whether a document was created (then there may be more).
   */
  async function step(t: { document_id: string; workspace_id: string; created_by: string | null }, day: string): Promise<boolean> {
    const tenant: Tenant = { workspaceId: t.workspace_id, userId: t.created_by ?? undefined, role: 'Admin' };
    const made = await withTenant(db, tenant, async (trx): Promise<DocumentPosting | undefined> => {
      const r = await lockRecurrence(trx, t.document_id, true);
      if (!r || r.activity !== 'Active') return undefined;
      const template = await documentById(trx, r.kind, r.document_id);
      if (!template || template.voided_at) {
        // A voided or deleted template recurs no more.
        await setActivity(trx, r.document_id, 'Stopped');
        await advanceRecurrence(trx, r.document_id, r.next_index, null);
        return undefined;
      }
      const schedule = scheduleOf(r);
      for (let n = r.next_index; ; n += 1) {
        const date = occurrenceDate(schedule, n);
        if (date === undefined || date > day) {
          await advanceRecurrence(trx, r.document_id, n, date ?? null);
          return undefined;
        }
        if (r.not_before && date < r.not_before) continue;
        if (date === template.doc_date) {
          await claimOccurrence(trx, { workspaceId: r.workspace_id, templateId: r.document_id, date, index: n, documentId: r.document_id });
          continue;
        }
        const id = newId();
        if (!(await claimOccurrence(trx, { workspaceId: r.workspace_id, templateId: r.document_id, date, index: n, documentId: id }))) continue;
        const lines = (await documentLines(trx, [r.document_id])).get(r.document_id) ?? [];
        const doc = occurrenceOf(template, lines, date);
        await insertDocument(trx, {
          id,
          workspaceId: r.workspace_id,
          kind: r.kind,
          doc,
          partyName: template.party_name,
          totalCents: template.total_cents,
          createdBy: r.created_by,
        });
        await markRecurringSource(trx, id);
        await replaceLines(trx, r.workspace_id, id, doc.lines);
        const p: DocumentPosting = {
          sourceType: KINDS[r.kind].sourceType,
          documentId: id,
          version: 1,
          date,
          description: entryDescription(r.kind, template.party_name, doc.reference, doc.description),
          lines: doc.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents, direction: l.direction })),
          payments: r.kind === 'manual_entry' ? undefined : [],
        };
        await ledger.check(tenant, p);
        await writePostingRequested(trx, 'documents', r.workspace_id, {
          sourceType: p.sourceType,
          sourceId: id,
          version: 1,
          date,
          description: p.description,
          lines: p.lines,
          payments: p.payments,
        });
        await documentChanged(trx, r.workspace_id, {
          documentId: id,
          kind: r.kind,
          change: 'created',
          version: 1,
          journalEntryId: '',
          state: { partyId: doc.partyId || null, date, dueDate: doc.dueDate || null, totalCents: Number(template.total_cents), paidCents: 0, voided: false },
        });
        await advanceRecurrence(trx, r.document_id, n + 1, occurrenceDate(schedule, n + 1) ?? null);
        return p;
      }
    });
    if (!made) return false;
    await book(tenant, made);
    return true;
  }

  /**
   * Inside the caller's transaction, with the document's row locked: the document becomes a template with this schedule,
   * replacing any earlier one (Active from Paused or Stopped resumes from today). A document a recurrence made does not
   * recur itself (409). Used by the recur route and by a create or PUT whose body carries the recurrence fields.
   */
  async function saveIn(trx: Knex.Transaction, tenant: Tenant, kind: DocumentKind, id: string, clean: CleanRecur): Promise<void> {
    if ((await templatesOfOccurrences(trx, [id])).has(id)) throw conflict(RECUR_MSG.occurrence(KINDS[kind].what));
    const before = await lockRecurrence(trx, id);
    const notBefore = !before ? null : before.activity === 'Active' ? before.not_before : today();
    await saveRecurrence(trx, {
      documentId: id,
      workspaceId: tenant.workspaceId,
      kind,
      schedule: clean.schedule,
      endType: clean.endType,
      activity: clean.activity,
      notBefore,
      nextDate: occurrenceDate(clean.schedule, 0) ?? null,
      createdBy: tenant.userId ?? null,
    });
  }

  return {
    saveIn,
    /** After the commit of a saved schedule: an Active one is swept at once (its due dates caught up). */
    saved(clean: CleanRecur): void {
      if (clean.activity === 'Active') wake?.();
    },

    /** The recurrence fields of these documents (templates, and documents a recurrence created). */
    async views(tenant: Tenant, ids: readonly string[]): Promise<Map<string, RecurrenceView>> {
      if (ids.length === 0) return new Map();
      return withTenant(db, tenant, (trx) => viewsOf(trx, ids));
    },

    /**
     * POST /accounting/{bill|invoice|manual-entry}/recur/{id}: the document becomes a template with this schedule
     * (replacing any earlier one). Active from Paused or Stopped resumes from today: dates that passed meanwhile are not
     * created. A new schedule catches up every date from its start.
     */
    async recur(tenant: Tenant, kindName: string, id: string, input: RecurInput): Promise<RecurrenceView> {
      if (!isDocumentKind(kindName)) throw AppError.invalid([{ field: 'kind', message: DOC_MSG.kind }]);
      const kind = kindName;
      assertCanEdit(tenant);
      invalid(isUuid(id) ? [] : [{ field: 'id', message: DOC_MSG.uuid('id') }]);
      const { value, problems } = cleanRecur(input);
      const seen = await withTenant(db, tenant, (trx) => documentById(trx, kind, id));
      if (!seen) throw notFound(kind);
      invalid(problems);
      const clean = value!;
      const view = await withTenant(db, tenant, async (trx) => {
        const row = await documentById(trx, kind, id, true);
        if (!row) throw notFound(kind);
        if (row.voided_at) throw conflict(RECUR_MSG.voided(KINDS[kind].what));
        await saveIn(trx, tenant, kind, id, clean);
        return (await viewsOf(trx, [id])).get(id) ?? NO_RECURRENCE;
      });
      if (clean.activity === 'Active') wake?.();
      return view;
    },

    /** POST /accounting/stop-recurring/{id} with entityType: no more occurrences; those created stay. */
    async stop(tenant: Tenant, id: string, entityType: string): Promise<{ kind: DocumentKind; recurrence: RecurrenceView }> {
      assertCanEdit(tenant);
      invalid(isUuid(id) ? [] : [{ field: 'id', message: DOC_MSG.uuid('id') }]);
      const kind = kindOfEntityType(entityType);
      // Another workspace's document (or none) is a 404 whatever the body holds; then the body's problems.
      if (!(await withTenant(db, tenant, (trx) => documentKindById(trx, id)))) {
        const message = DOC_MSG.notFound(kind ? KINDS[kind].what : 'Document');
        throw new AppError(ErrorKind.NotFound, message, { fields: [{ field: 'id', message }] });
      }
      if (entityType.trim() === '') invalid([{ field: 'entityType', message: RECUR_MSG.entityTypeRequired }]);
      if (!kind) throw AppError.invalid([{ field: 'entityType', message: RECUR_MSG.entityType }]);
      const k = kind;
      const recurrence = await withTenant(db, tenant, async (trx) => {
        const row = await documentById(trx, k, id, true);
        if (!row) throw notFound(k);
        const r: RecurrenceRow | undefined = await lockRecurrence(trx, id);
        if (!r) throw conflict(RECUR_MSG.notRecurring(KINDS[k].what));
        if (r.activity !== 'Stopped') await setActivity(trx, id, 'Stopped');
        return (await viewsOf(trx, [id])).get(id) ?? NO_RECURRENCE;
      });
      return { kind: k, recurrence };
    },

    /**
     * The scheduler's sweep at the clock's `today`: every Active template of every workspace with a date due is brought up
     * to date, one occurrence per transaction. Safe to run on any number of replicas at once. Answers how many documents
     * it created. A template whose occurrence the ledger refuses (a category deleted since) is logged and tried again at
     * the next sweep; the others go on.
     */
    async runDue(day = today()): Promise<number> {
      let created = 0;
      const failed = new Set<string>();
      for (;;) {
        const due = (await withSystem(db, (trx) => dueTemplates(trx, day, SWEEP_BATCH + failed.size))).filter((t) => !failed.has(t.document_id));
        if (due.length === 0) return created;
        let progressed = false;
        for (const t of due) {
          try {
            while (await step(t, day)) {
              created += 1;
              progressed = true;
            }
          } catch (err) {
            failed.add(t.document_id);
            logger.error(
              { err, templateId: t.document_id, workspaceId: t.workspace_id },
              'recurrence: the next occurrence could not be created; it is tried again at the next sweep',
            );
          }
        }
        // Templates another replica holds are still listed as due: leave them to it rather than spin.
        if (!progressed) return created;
      }
    },
  };
}

export type RecurrenceUseCases = ReturnType<typeof createRecurrenceUseCases>;
