import {
  AppError,
  claimIdempotencyKey,
  ErrorKind,
  isReversedRange,
  isBusinessDate,
  isUuid,
  newId,
  pageMeta,
  paging,
  withTenant,
  writePostingRequested,
  type IdempotencyClaim,
  type Knex,
  type Logger,
  type TenantContext,
  assertCanEdit,
} from '@ledgerline/platform';
import type { DocumentLedger, DocumentPosting } from '../clients/ledger.js';
import type { PartyLookup } from '../clients/parties.js';
import { connectionsView, createPayments } from './payments.js';
import {
  balanceMessages,
  balanceOf,
  cleanDocument,
  DOC_MSG,
  entryDescription,
  isDocumentKind,
  KINDS,
  totalCents,
  type CleanDocument,
  type DocumentInput,
  type DocumentKind,
  type FieldProblem,
} from '../domain/documents.js';
import { differenceMessages, paymentStatus, type PaymentStatus } from '../domain/payment-status.js';
import { cleanConnections, type CleanConnections, type Connection } from '../domain/connections.js';
import { documentChanged, type DocumentChange } from '../events/document-changed.js';
import { rankSuggestions } from '../domain/suggestions.js';
import { cleanRecur, recurrenceRequested, type CleanRecur } from '../domain/recurrence.js';
import type { RecurrenceUseCases } from './recurrence.js';
import { nameSimilarity, suggestParty, type NamedParty } from '../domain/party-match.js';
import { setWrittenName, writtenNames } from '../store/written-names.js';
import { applicationsByPayer, applicationsOf, lockConnections, openDocuments, type ApplicationRow } from '../store/applications.js';
import {
  documentById,
  documentLines,
  documentPayments,
  insertDocument,
  listDocuments,
  markDeleted,
  markVoided,
  replaceLines,
  replacePayments,
  setJournalEntry,
  updateDocument,
  type DocumentLineRow,
  type DocumentRow,
  type PaymentRow,
} from '../store/documents.js';

export interface DocumentsDeps {
  db: Knex;
  logger: Logger;
  ledger: DocumentLedger;
  parties: PartyLookup;
  /** Saves a schedule in the document's own transaction (a create / PUT body with the recurrence fields). */
  schedules?: Pick<RecurrenceUseCases, 'saveIn' | 'saved'>;
}

export type Tenant = TenantContext & { workspaceId: string };

/** A document as the API shows it: its row, its lines, and its payment status (bills and invoices). */
export interface DocumentView {
  row: DocumentRow;
  lines: DocumentLineRow[];
  payments: PaymentRow[];
  status: 'Posted' | 'Voided';
  paidCents: number;
  paymentStatus: PaymentStatus | '';
  differenceMessages: string[];
  /** Bills and invoices: the manual journals and the credits (vendor credits / credit memos) paying it. */
  connectedManualEntries: Connection[];
  connectedCredits: Connection[];
  /** Manual journals: the bills and invoices it pays. */
  paidBills: Connection[];
  paidInvoices: Connection[];
}

/** What a caller of `create` writes in the document's own transaction (a draft's conversion consumes the draft there). */
export interface CreateHooks {
  within?: (trx: Knex.Transaction, documentId: string) => Promise<void>;
  /** The client's Idempotency-Key and its request's hash: a repeat answers the document the first request made. */
  idempotency?: IdempotencyClaim;
}

export interface DocumentChangeAnswer {
  document: DocumentView;
  seq: number;
}

function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length > 0) throw AppError.invalid(problems);
}
function notFound(message: string, field: string): AppError {
  return new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
}
function kindOf(kind: string): DocumentKind {
  if (!isDocumentKind(kind)) throw AppError.invalid([{ field: 'kind', message: DOC_MSG.kind }]);
  return kind;
}
/** billerName / customerName: at most the length of a vendor's or customer's name. */
const WRITTEN_NAME_MAX = 150;
const idProblems = (id: string): FieldProblem[] => (isUuid(id) ? [] : [{ field: 'id', message: DOC_MSG.uuid('id') }]);

/**
 * What is paid is the sum of what the connected transactions, manual journals and credits pay; the status follows by
 * the one rule (0.01 tolerance). `asPaid`: the document's payments by journals and credits; `asPayer`: what a journal pays.
 */
function viewOf(
  row: DocumentRow,
  lines: DocumentLineRow[],
  payments: PaymentRow[],
  asPaid: readonly ApplicationRow[] = [],
  asPayer: readonly ApplicationRow[] = [],
): DocumentView {
  const paidCents = payments.reduce((sum, p) => sum + p.amount_cents, 0) + asPaid.reduce((sum, a) => sum + a.amount_cents, 0);
  const party = row.kind !== 'manual_entry';
  return {
    row,
    lines,
    payments,
    status: row.voided_at ? 'Voided' : 'Posted',
    paidCents,
    paymentStatus: party ? paymentStatus(row.total_cents, paidCents) : '',
    differenceMessages: party && !row.voided_at ? differenceMessages(row.total_cents, paidCents) : [],
    ...connectionsView(asPaid, asPayer),
  };
}

async function load(trx: Knex.Transaction, row: DocumentRow): Promise<DocumentView> {
  return viewOf(
    row,
    (await documentLines(trx, [row.id])).get(row.id) ?? [],
    (await documentPayments(trx, [row.id])).get(row.id) ?? [],
    (await applicationsOf(trx, [row.id])).get(row.id) ?? [],
    (await applicationsByPayer(trx, [row.id])).get(row.id) ?? [],
  );
}

/** Two lists of connections are the same set with the same amounts, in the same order. */
const sameList = (a: readonly Connection[], b: readonly Connection[]) =>
  a.length === b.length && a.every((x, i) => x.id === b[i]?.id && x.amountCents === b[i]?.amountCents);

/** Bills and invoices send their whole set of payments with every version (the ledger links and releases); journals none. */
const paymentsOf = (kind: DocumentKind, d: CleanDocument) =>
  kind === 'manual_entry' ? undefined : d.payments.map((p) => ({ transactionId: p.transactionId, amountCents: p.amountCents }));
/** A void: no lines; a bill's or invoice's payments all released. */
const voiding = (kind: DocumentKind, id: string, version: number): DocumentPosting => ({
  sourceType: KINDS[kind].sourceType,
  documentId: id,
  version,
  date: '',
  description: '',
  lines: [],
  payments: kind === 'manual_entry' ? undefined : [],
});
const postingLines = (d: CleanDocument) => d.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents, direction: l.direction }));
/** A bill's or invoice's total; a manual journal's is its debits (= its credits). */
const totalOf = (kind: DocumentKind, d: CleanDocument) => (kind === 'manual_entry' ? balanceOf(d.lines).debitCents : totalCents(d.lines));

/**
 * Bills, invoices and manual journals (services/documents/README.md). Each version of a document is one balanced
 * ledger entry (PostDocument), booked as decision 0012 says: inside this service's transaction, with the row written
 * and locked, the ledger checks the version (a dry run: a refusal such as a category of another workspace leaves
 * nothing anywhere); the version's rows and a posting.requested event commit together; then the ledger is asked to book
 * it, for the answer's seq. If that call fails or never happens, the ledger books the version from the event, exactly
 * once. The vendor or customer is checked with the parties service first (another workspace's: 404 naming vendorId /
 * customerId).
 */
export function createUseCases({ db, ledger, parties, logger, schedules }: DocumentsDeps) {
  const pay = createPayments({ ledger, parties });

  /** The version's connections (payments by journals and credits, or what a journal pays), checked and written. */
  async function connect(trx: Knex.Transaction, tenant: Tenant, kind: DocumentKind, id: string, doc: CleanDocument, c: CleanConnections): Promise<void> {
    if (kind === 'manual_entry') await pay.setForJournal(trx, tenant, id, doc.lines, c);
    else await pay.setForDocument(trx, tenant, kind, id, doc.partyId, c);
  }

  /** Inside the version's transaction: the ledger's check, then the event that books it once this commits. */
  async function request(trx: Knex.Transaction, tenant: Tenant, p: DocumentPosting): Promise<void> {
    await ledger.check(tenant, p);
    await writePostingRequested(trx, 'documents', tenant.workspaceId, {
      sourceType: p.sourceType,
      sourceId: p.documentId,
      version: p.version,
      date: p.date,
      description: p.description,
      lines: p.lines,
      payments: p.payments,
    });
  }

  /** After the commit: books the version now; a failure leaves it to the event (the answer then carries seq 0). */
  async function book(tenant: Tenant, p: DocumentPosting, view: DocumentView): Promise<DocumentChangeAnswer> {
    try {
      const posted = await ledger.post(tenant, p);
      if (posted.entryId) await withTenant(db, tenant, (trx) => setJournalEntry(trx, p.documentId, posted.entryId, p.version));
      return { document: { ...view, row: { ...view.row, journal_entry_id: posted.entryId || view.row.journal_entry_id } }, seq: posted.seq };
    } catch (err) {
      logger?.warn(
        { err, sourceType: p.sourceType, documentId: p.documentId, version: p.version },
        'the ledger did not book the document now; its posting.requested event will',
      );
      return { document: view, seq: 0 };
    }
  }

  async function partyName(tenant: Tenant, kind: DocumentKind, partyId: string): Promise<string> {
    const k = KINDS[kind];
    if (!k.partyField || !k.party) return '';
    const party = kind === 'bill' ? await parties.vendor(tenant, partyId) : await parties.customer(tenant, partyId);
    if (!party) throw notFound(DOC_MSG.notFound(k.party), k.partyField);
    return party.name;
  }

  async function reload(trx: Knex.Transaction, kind: DocumentKind, id: string): Promise<DocumentView> {
    const row = await documentById(trx, kind, id);
    if (!row) throw new Error(`document ${id} vanished inside its own change`);
    return load(trx, row);
  }

  async function announce(trx: Knex.Transaction, tenant: Tenant, view: DocumentView, change: DocumentChange): Promise<void> {
    const r = view.row;
    await documentChanged(trx, tenant.workspaceId, {
      documentId: r.id,
      kind: r.kind,
      change,
      version: r.version,
      journalEntryId: r.journal_entry_id ?? '',
      state: {
        partyId: r.party_id,
        date: r.doc_date,
        dueDate: r.due_date,
        totalCents: Number(r.total_cents),
        paidCents: view.paidCents,
        voided: view.status === 'Voided',
        creditApplications: view.status === 'Voided' ? [] : view.connectedCredits,
      },
    });
  }

  /** The bills and invoices a manual journal pays now (none for other kinds): their paid amounts move with it. */
  async function paidTargets(trx: Knex.Transaction, kind: DocumentKind, id: string): Promise<{ kind: 'bill' | 'invoice'; id: string }[]> {
    if (kind !== 'manual_entry') return [];
    const row = await documentById(trx, kind, id);
    if (!row) return [];
    const view = await load(trx, row);
    return [...view.paidBills.map((c) => ({ kind: 'bill' as const, id: c.id })), ...view.paidInvoices.map((c) => ({ kind: 'invoice' as const, id: c.id }))];
  }

  /** Announces each of these bills and invoices (what a journal paid before and pays now) with its paid amount now. */
  async function announcePaid(trx: Knex.Transaction, tenant: Tenant, targets: readonly { kind: 'bill' | 'invoice'; id: string }[]): Promise<void> {
    const seen = new Set<string>();
    for (const t of targets) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      const row = await documentById(trx, t.kind, t.id);
      if (row) await announce(trx, tenant, await load(trx, row), 'updated');
    }
  }

  /** The body's recurrence fields, when it has any: the recur route's rules and messages (domain/recurrence.ts). */
  function recurrenceOf(input: DocumentInput): { value?: CleanRecur; problems: FieldProblem[] } {
    if (!recurrenceRequested(input.recurrence)) return { problems: [] };
    if (!schedules) throw new Error('the documents use cases were built without schedules');
    return cleanRecur(input.recurrence);
  }

  /** Inside the document's transaction: its requested schedule saved with it (so a crash cannot leave one without the other). */
  async function schedule(trx: Knex.Transaction, tenant: Tenant, kind: DocumentKind, id: string, recur: CleanRecur | undefined): Promise<void> {
    if (recur && schedules) await schedules.saveIn(trx, tenant, kind, id, recur);
  }

  /** billerName (bills) / customerName (invoices): undefined when not sent, null when sent blank. */
  function writtenOf(kind: DocumentKind, input: DocumentInput): { value: string | null | undefined; problems: FieldProblem[] } {
    if (input.billerName === undefined || kind === 'manual_entry') return { value: undefined, problems: [] };
    const value = input.billerName.trim();
    const field = kind === 'bill' ? 'billerName' : 'customerName';
    if (value.length > WRITTEN_NAME_MAX) return { value: undefined, problems: [{ field, message: `${field} must be at most ${WRITTEN_NAME_MAX} characters` }] };
    return { value: value === '' ? null : value, problems: [] };
  }

  function cleaned(kind: DocumentKind, input: DocumentInput): { doc: CleanDocument; connections: CleanConnections; recur?: CleanRecur } {
    const { value, problems } = cleanDocument(kind, input);
    const c = cleanConnections(kind, input.connections ?? {});
    const r = recurrenceOf(input);
    throwIfAny([...problems, ...c.problems, ...r.problems, ...writtenOf(kind, input).problems]);
    return { doc: value as CleanDocument, connections: c.value, recur: r.value };
  }

  return {
    async list(
      tenant: Tenant,
      q: { kind: string; page: number; take: number; status: string; partyId: string; startDate: string; endDate: string; all: boolean },
    ) {
      const kind = kindOf(q.kind);
      const k = KINDS[kind];
      const problems: FieldProblem[] = [];
      const page = q.page === 0 ? 1 : q.page;
      const take = q.take === 0 ? 20 : q.take;
      if (!Number.isInteger(page) || page < 1) problems.push({ field: 'page', message: DOC_MSG.page });
      if (!Number.isInteger(take) || take < 1 || take > 100) problems.push({ field: 'take', message: DOC_MSG.take });
      if (q.status !== '' && q.status !== 'Posted' && q.status !== 'Voided') problems.push({ field: 'status', message: DOC_MSG.status });
      if (q.partyId !== '' && k.partyField && !isUuid(q.partyId)) problems.push({ field: k.partyField, message: DOC_MSG.uuid(k.partyField) });
      if (q.startDate !== '' && !isBusinessDate(q.startDate)) problems.push({ field: 'startDate', message: DOC_MSG.dateFormat('startDate') });
      if (q.endDate !== '' && !isBusinessDate(q.endDate)) problems.push({ field: 'endDate', message: DOC_MSG.dateFormat('endDate') });
      else if (isReversedRange(q.startDate, q.endDate)) problems.push({ field: 'startDate', message: DOC_MSG.rangeOrder });
      throwIfAny(problems);
      if (q.partyId !== '' && k.partyField) await partyName(tenant, kind, q.partyId.toLowerCase());
      const p = paging(page, take);
      return withTenant(db, tenant, async (trx) => {
        const { rows, count } = await listDocuments(trx, {
          kind,
          status: q.status,
          partyId: k.partyField ? q.partyId.toLowerCase() : '',
          startDate: q.startDate,
          endDate: q.endDate,
          page: q.all ? undefined : p,
        });
        const lines = await documentLines(
          trx,
          rows.map((r) => r.id),
        );
        const payments = await documentPayments(
          trx,
          rows.map((r) => r.id),
        );
        const asPaid = await applicationsOf(
          trx,
          rows.map((r) => r.id),
        );
        const asPayer = await applicationsByPayer(
          trx,
          rows.map((r) => r.id),
        );
        return {
          data: rows.map((r) => viewOf(r, lines.get(r.id) ?? [], payments.get(r.id) ?? [], asPaid.get(r.id) ?? [], asPayer.get(r.id) ?? [])),
          meta: pageMeta(q.all ? { ...p, page: 1, take: Math.max(count, 1) } : p, count),
        };
      });
    },

    async get(tenant: Tenant, kindName: string, id: string): Promise<DocumentView> {
      const kind = kindOf(kindName);
      throwIfAny(idProblems(id));
      return withTenant(db, tenant, async (trx) => {
        const row = await documentById(trx, kind, id);
        if (!row) throw notFound(DOC_MSG.notFound(KINDS[kind].what), 'id');
        return load(trx, row);
      });
    },

    /** The document and its first version's entry, in one step. */
    async create(tenant: Tenant, kindName: string, input: DocumentInput, hooks: CreateHooks = {}): Promise<DocumentChangeAnswer> {
      const kind = kindOf(kindName);
      assertCanEdit(tenant);
      const { doc, connections, recur } = cleaned(kind, input);
      const name = await partyName(tenant, kind, doc.partyId);
      const id = newId();
      const changed = await withTenant(db, tenant, async (trx) => {
        await lockConnections(trx, tenant.workspaceId);
        const first = hooks.idempotency ? await claimIdempotencyKey(trx, tenant.workspaceId, `create:${kind}`, hooks.idempotency, id) : null;
        if (first) return { replay: await reload(trx, kind, first) };
        await insertDocument(trx, {
          id,
          workspaceId: tenant.workspaceId,
          kind,
          doc,
          partyName: name,
          totalCents: totalOf(kind, doc),
          createdBy: tenant.userId ?? null,
        });
        await replaceLines(trx, tenant.workspaceId, id, doc.lines);
        await hooks.within?.(trx, id);
        const p: DocumentPosting = {
          sourceType: KINDS[kind].sourceType,
          documentId: id,
          version: 1,
          date: doc.date,
          description: entryDescription(kind, name, doc.reference, doc.description),
          lines: postingLines(doc),
          payments: paymentsOf(kind, doc),
        };
        // The ledger's check first: it refuses a transaction linked to another document (409) before this row could clash.
        await request(trx, tenant, p);
        await replacePayments(trx, tenant.workspaceId, id, doc.payments);
        await connect(trx, tenant, kind, id, doc, connections);
        await schedule(trx, tenant, kind, id, recur);
        const written = writtenOf(kind, input).value;
        if (written) await setWrittenName(trx, id, written);
        const view = await reload(trx, kind, id);
        await announce(trx, tenant, view, 'created');
        await announcePaid(trx, tenant, await paidTargets(trx, kind, id));
        return { p, view };
      });
      if ('replay' in changed) {
        // The first request's document (deleted since: as the id of a document that is gone).
        const first = changed.replay;
        if (!first) throw notFound(DOC_MSG.notFound(KINDS[kind].what), 'Idempotency-Key');
        if (first.row.version !== 1) return { document: first, seq: 0 };
        // The same body makes the same posting, which the ledger answers idempotently with the first's entry and commit
        // sequence (booking it now if the first request has not yet), so every repeat answers what the first does.
        const p: DocumentPosting = {
          sourceType: KINDS[kind].sourceType,
          documentId: first.row.id,
          version: 1,
          date: doc.date,
          description: entryDescription(kind, name, doc.reference, doc.description),
          lines: postingLines(doc),
          payments: paymentsOf(kind, doc),
        };
        return book(tenant, p, first);
      }
      if (recur) schedules?.saved(recur);
      return book(tenant, changed.p, changed.view);
    },

    /**
     * PUT: the whole document again. A change is a new version: the ledger reverses the previous entry and posts the
     * new one (posted lines never change). Sending what is there already posts nothing. A voided document is not edited.
     */
    async update(tenant: Tenant, kindName: string, id: string, input: DocumentInput): Promise<DocumentChangeAnswer> {
      const kind = kindOf(kindName);
      assertCanEdit(tenant);
      throwIfAny(idProblems(id));
      const { value, problems } = cleanDocument(kind, input);
      const c = cleanConnections(kind, input.connections ?? {});
      const r = recurrenceOf(input);
      const w = writtenOf(kind, input);
      // Another workspace's document is a 404 whatever the body holds; then the fields' refusals (nothing changed).
      const seen = await withTenant(db, tenant, (trx) => documentById(trx, kind, id));
      if (!seen) throw notFound(DOC_MSG.notFound(KINDS[kind].what), 'id');
      throwIfAny([...problems, ...c.problems, ...r.problems, ...w.problems]);
      const doc = value as CleanDocument;
      const connections = c.value;
      const name = await partyName(tenant, kind, doc.partyId);
      const changed = await withTenant(db, tenant, async (trx): Promise<DocumentChangeAnswer | { p: DocumentPosting; view: DocumentView }> => {
        await lockConnections(trx, tenant.workspaceId);
        const row = await documentById(trx, kind, id, true);
        if (!row) throw notFound(DOC_MSG.notFound(KINDS[kind].what), 'id');
        if (row.voided_at)
          throw new AppError(ErrorKind.FailedPrecondition, DOC_MSG.voided(KINDS[kind].what), {
            fields: [{ field: 'id', message: DOC_MSG.voided(KINDS[kind].what) }],
          });
        // The body's schedule replaces the document's in this transaction; a body without one leaves it as it is.
        await schedule(trx, tenant, kind, id, r.value);
        // The name as written: replaced when sent (blank clears it), kept when not; no new version (it posts nothing).
        if (w.value !== undefined) await setWrittenName(trx, id, w.value);
        const current = (await documentLines(trx, [id])).get(id) ?? [];
        const currentPayments = (await documentPayments(trx, [id])).get(id) ?? [];
        const samePayments =
          doc.payments.length === currentPayments.length &&
          doc.payments.every((p, i) => p.transactionId === currentPayments[i]?.transaction_id && p.amountCents === currentPayments[i]?.amount_cents);
        const sameLines =
          doc.lines.length === current.length &&
          doc.lines.every((l, i) => {
            const c = current[i];
            return (
              !!c &&
              l.serviceName === c.service_name &&
              l.categoryId === c.category_id &&
              l.amountCents === c.amount_cents &&
              (l.direction || null) === c.direction &&
              (l.quantity === '' ? c.quantity === null : c.quantity !== null && Number(l.quantity) === Number(c.quantity)) &&
              (l.quantity === '' || l.rateCents === c.rate_cents)
            );
          });
        const unchanged =
          sameLines &&
          samePayments &&
          doc.date === row.doc_date &&
          (doc.dueDate || null) === row.due_date &&
          (doc.partyId || null) === row.party_id &&
          doc.reference === row.reference &&
          doc.description === row.description &&
          doc.companyName === row.company_name &&
          doc.companyAddress === row.company_address &&
          name === row.party_name;
        const before = await load(trx, row);
        const sameConnections =
          sameList(before.connectedManualEntries, connections.manualEntries) &&
          sameList(before.connectedCredits, connections.credits) &&
          sameList(before.paidBills, connections.bills) &&
          sameList(before.paidInvoices, connections.invoices);
        if (unchanged && sameConnections) return { document: before, seq: 0 };
        if (unchanged) {
          // Only the journals / credits changed: they post nothing, so no new version (decision 0020).
          const paidBefore = await paidTargets(trx, kind, id);
          await connect(trx, tenant, kind, id, doc, connections);
          const view = await reload(trx, kind, id);
          await announce(trx, tenant, view, 'updated');
          await announcePaid(trx, tenant, [...paidBefore, ...(await paidTargets(trx, kind, id))]);
          return { document: view, seq: 0 };
        }
        const version = row.version + 1;
        await updateDocument(trx, id, doc, name, totalOf(kind, doc), version);
        await replaceLines(trx, tenant.workspaceId, id, doc.lines);
        const p: DocumentPosting = {
          sourceType: KINDS[kind].sourceType,
          documentId: id,
          version,
          date: doc.date,
          description: entryDescription(kind, name, doc.reference, doc.description),
          lines: postingLines(doc),
          payments: paymentsOf(kind, doc),
        };
        // The ledger's check first: it refuses a transaction linked to another document (409) before this row could clash.
        await request(trx, tenant, p);
        const paidBefore = await paidTargets(trx, kind, id);
        await replacePayments(trx, tenant.workspaceId, id, doc.payments);
        await connect(trx, tenant, kind, id, doc, connections);
        const view = await reload(trx, kind, id);
        await announce(trx, tenant, view, 'updated');
        await announcePaid(trx, tenant, [...paidBefore, ...(await paidTargets(trx, kind, id))]);
        return { p, view };
      });
      if (r.value) schedules?.saved(r.value);
      if (!('p' in changed)) return changed;
      return book(tenant, changed.p, changed.view);
    },

    /** Void: the ledger reverses the entry; the document stays, status Voided. Voiding a voided one changes nothing. */
    async void(tenant: Tenant, kindName: string, id: string): Promise<DocumentChangeAnswer> {
      const kind = kindOf(kindName);
      assertCanEdit(tenant);
      throwIfAny(idProblems(id));
      const changed = await withTenant(db, tenant, async (trx): Promise<DocumentChangeAnswer | { p: DocumentPosting; view: DocumentView }> => {
        await lockConnections(trx, tenant.workspaceId);
        const row = await documentById(trx, kind, id, true);
        if (!row) throw notFound(DOC_MSG.notFound(KINDS[kind].what), 'id');
        if (row.voided_at) return { document: await load(trx, row), seq: 0 };
        const version = row.version + 1;
        // The reversal releases the payments: each connected transaction is booked back to its category.
        const p = voiding(kind, id, version);
        await request(trx, tenant, p);
        const paidBefore = await paidTargets(trx, kind, id);
        await markVoided(trx, id, version);
        await replacePayments(trx, tenant.workspaceId, id, []);
        // A voided document neither is paid nor pays: its journals and credits are released, and a journal's bills.
        await pay.release(trx, id);
        const view = await reload(trx, kind, id);
        await announce(trx, tenant, view, 'voided');
        await announcePaid(trx, tenant, paidBefore);
        return { p, view };
      });
      if (!('p' in changed)) return changed;
      return book(tenant, changed.p, changed.view);
    },

    /** Delete: the ledger reverses the entry (unless voided already); the document is no longer listed or found. */
    async remove(tenant: Tenant, kindName: string, id: string): Promise<DocumentChangeAnswer> {
      const kind = kindOf(kindName);
      assertCanEdit(tenant);
      throwIfAny(idProblems(id));
      const removed = await withTenant(db, tenant, async (trx) => {
        await lockConnections(trx, tenant.workspaceId);
        const row = await documentById(trx, kind, id, true);
        if (!row) throw notFound(DOC_MSG.notFound(KINDS[kind].what), 'id');
        const lines = (await documentLines(trx, [id])).get(id) ?? [];
        let p: DocumentPosting | undefined;
        let version = row.version;
        if (!row.voided_at) {
          version += 1;
          p = voiding(kind, id, version);
          await request(trx, tenant, p);
        }
        const paidBefore = await paidTargets(trx, kind, id);
        await markDeleted(trx, id, version);
        await replacePayments(trx, tenant.workspaceId, id, []);
        await pay.release(trx, id);
        await announcePaid(trx, tenant, paidBefore);
        const view = viewOf({ ...row, version, journal_entry_id: null, voided_at: row.voided_at ?? new Date() }, lines, []);
        await announce(trx, tenant, view, 'deleted');
        return { p, view };
      });
      if (!removed.p) return { document: removed.view, seq: 0 };
      const booked = await book(tenant, removed.p, removed.view);
      return { document: removed.view, seq: booked.seq };
    },

    /**
     * A manual journal's rules and balance, posting nothing: every field problem except the balance, then each line's
     * account must be of the workspace (else 404 naming it), then the balance and each account's difference.
     */
    async check(tenant: Tenant, input: DocumentInput) {
      const { problems } = cleanDocument('manual_entry', input);
      const rest = problems.filter((p) => p.field !== 'lineItems' || p.message === DOC_MSG.lineItemsRequired || p.message === DOC_MSG.tooManyLines);
      throwIfAny(rest);
      const lines = input.lineItems.map((l) => ({
        categoryId: (l.categoryId ?? '').trim().toLowerCase(),
        amountCents: Number(l.amountCents ?? 0),
        direction: (l.direction ?? '').trim(),
      }));
      // Balances as of the day before postingDate: what the journal opens on (the chart's rules, decision-free here).
      const dayBefore = new Date(Date.parse(`${(input.date ?? '').trim()}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const chart = await ledger.chart(tenant, dayBefore);
      const unknown = lines.findIndex((l) => !chart.balances.has(l.categoryId));
      if (unknown >= 0) throw notFound(DOC_MSG.categoryNotFound, `lineItems.${unknown}.categoryId`);
      // The bills and invoices it would pay must be the workspace's and open (404 / 409 naming them); nothing is written.
      const c = cleanConnections('manual_entry', input.connections ?? {});
      throwIfAny(c.problems);
      if (c.value.bills.length + c.value.invoices.length > 0) await withTenant(db, tenant, (trx) => pay.details(trx, c.value, ''));
      const b = balanceOf(lines);
      // Each account's balance before this journal's date (the chart's, in the account's normal direction).
      const differences = b.differences.map((d) => ({ ...d, openingBalanceCents: chart.balances.get(d.accountId) ?? 0 }));
      return { balanced: b.differenceCents === 0 && lines.length >= 2, ...b, differences, differenceMessages: balanceMessages(b) };
    },

    /**
     * The open bills (money out) or invoices (money in) the transaction most likely pays, best first
     * (domain/suggestions.ts). Another workspace's transaction is a 404 naming transactionId.
     */
    async suggest(tenant: Tenant, transactionId: string): Promise<{ view: DocumentView; score: number; reasons: string[] }[]> {
      if (!isUuid(transactionId)) throw AppError.invalid([{ field: 'transactionId', message: DOC_MSG.uuid('transactionId') }]);
      const t = await ledger.transaction(tenant, transactionId.toLowerCase());
      if (!t) throw notFound('Transaction not found', 'transactionId');
      if (t.amountCents === 0) return [];
      const kind = t.amountCents < 0 ? 'bill' : 'invoice';
      return withTenant(db, tenant, async (trx) => {
        const ranked = rankSuggestions(t, await openDocuments(trx, kind));
        const out: { view: DocumentView; score: number; reasons: string[] }[] = [];
        for (const r of ranked) {
          const row = await documentById(trx, kind, r.doc.id);
          if (row) out.push({ view: await load(trx, row), score: r.score, reasons: r.reasons });
        }
        return out;
      });
    },

    /** billerName / customerName of these documents, where one was given. */
    async writtenNames(tenant: Tenant, ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      return withTenant(db, tenant, (trx) => writtenNames(trx, ids));
    },

    /**
     * suggestedVendor / suggestedCustomer of one bill or invoice (domain/party-match.ts): the active party whose name
     * best matches the name written on it, when that is not its linked party's; null otherwise (and for journals).
     */
    async suggestedParty(tenant: Tenant, view: DocumentView, written: string | undefined): Promise<NamedParty | null> {
      const kind = view.row.kind;
      if (kind === 'manual_entry' || !written) return null;
      const linked = view.row.party_id ? { id: view.row.party_id, name: view.row.party_name } : null;
      // The written name is the linked party's own: nothing to ask the parties service.
      if (linked && nameSimilarity(written, linked.name) === 1) return null;
      try {
        return suggestParty(written, linked, await parties.active(tenant, kind === 'bill' ? 'vendor' : 'customer'));
      } catch (err) {
        // A suggestion is a hint: the bill is answered without it rather than not at all.
        logger.warn({ err, documentId: view.row.id }, 'no suggested party: the parties service did not answer');
        return null;
      }
    },

    /** POST /accounting/payment-details/check (usecases/payments.ts `details`): nothing is written. */
    async checkPayments(tenant: Tenant, input: { connections: DocumentInput['connections']; manualEntryId: string }) {
      const c = cleanConnections('manual_entry', input.connections ?? {});
      const problems = [...c.problems];
      if (input.manualEntryId !== '' && !isUuid(input.manualEntryId)) problems.push({ field: 'manualEntryId', message: DOC_MSG.uuid('manualEntryId') });
      throwIfAny(problems);
      return withTenant(db, tenant, async (trx) => {
        const manualEntryId = input.manualEntryId.toLowerCase();
        if (manualEntryId !== '' && !(await documentById(trx, 'manual_entry', manualEntryId)))
          throw notFound(DOC_MSG.notFound(KINDS.manual_entry.what), 'manualEntryId');
        return pay.details(trx, c.value, manualEntryId);
      });
    },
  };
}

export type DocumentsUseCases = ReturnType<typeof createUseCases>;
