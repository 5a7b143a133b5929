import { AppError, ErrorKind, isUuid, newId, withTenant, type Knex, type Logger, assertCanEdit } from '@ledgerline/platform';
import { postingRequested } from '../events/party-changed.js';
import type { CreditLedger, CreditPosting } from '../clients/ledger-credits.js';
import {
  balanceOf,
  cleanCredit,
  CREDIT_KINDS,
  CREDIT_MSG,
  entryDescription,
  totalCents,
  type CleanLine,
  type CreditInput,
  type CreditKind,
} from '../domain/credits.js';
import { MSG, pageMeta, PAGE_MAX, PAGE_SIZE, type FieldProblem } from '../domain/parties.js';
import {
  creditById,
  creditLines,
  insertCredit,
  listCredits,
  replaceLines,
  setJournalEntry,
  updateCredit,
  voidCredit,
  type CreditLineRow,
  type CreditRow,
} from '../store/credits.js';
import { customerById } from '../store/customers.js';
import { vendorById } from '../store/vendors.js';
import type { ListAnswer, Tenant } from './index.js';

/** A credit as the API shows it: its row (with the party's name and what was applied) and its line items. */
export interface CreditView {
  row: CreditRow;
  lines: CreditLineRow[];
  appliedCents: number;
  runningBalanceCents: number;
}

export interface CreditChange {
  credit: CreditView;
  /** The commit seq of the last entry the change posted (reporting waits on it); 0 when it posted nothing. */
  seq: number;
}

function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length > 0) throw AppError.invalid(problems);
}
function notFound(message: string, field: string): AppError {
  return new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
}
const idProblems = (id: string): FieldProblem[] => (isUuid(id) ? [] : [{ field: 'id', message: MSG.uuid('id') }]);

const viewOf = (row: CreditRow, lines: CreditLineRow[]): CreditView => {
  const { appliedCents, runningBalanceCents } = balanceOf(row.total_cents, row.applied_cents);
  return { row, lines, appliedCents, runningBalanceCents };
};

/**
 * Vendor credits and credit memos (issue #17 item 5; services/parties/README.md "Vendor credits and credit memos").
 * Each version of a credit is one balanced ledger entry (PostPartyCredit), booked as decision 0012 says: inside this
 * service's transaction, with the row locked, the ledger checks the version (a dry run: a refusal such as another
 * workspace's category leaves nothing anywhere); the version's rows and a posting.requested event commit together;
 * then the ledger is asked to book it, for the answer's read-your-writes sequence. When that call fails or never
 * happens (a crash right after the commit), the ledger books the version from the event, exactly once — the books
 * never hold a version this service does not, and never miss one it does.
 */
export function createCreditUseCases({ db, ledger, logger }: { db: Knex; ledger: CreditLedger; logger?: Logger }) {
  /** The live vendor or customer the credit names, locked against a concurrent delete or merge; else 404 naming the field. */
  async function partyName(trx: Knex.Transaction, kind: CreditKind, partyId: string): Promise<string> {
    const k = CREDIT_KINDS[kind];
    const party = kind === 'vendor_credit' ? await vendorById(trx, partyId, true) : await customerById(trx, partyId, true);
    if (!party) throw notFound(kind === 'vendor_credit' ? MSG.vendorNotFound : MSG.customerNotFound, k.partyField);
    return party.name;
  }

  async function reload(trx: Knex.Transaction, kind: CreditKind, id: string): Promise<CreditView> {
    const row = await creditById(trx, kind, id);
    if (!row) throw new Error(`credit ${id} vanished inside its own change`);
    return viewOf(row, (await creditLines(trx, [id])).get(id) ?? []);
  }

  const posting = (
    kind: CreditKind,
    id: string,
    version: number,
    c: { paymentDate: string; description: string; refNo: string; lines: readonly CleanLine[] },
    name: string,
  ): CreditPosting => ({
    sourceType: CREDIT_KINDS[kind].sourceType,
    creditId: id,
    version,
    date: c.paymentDate,
    description: entryDescription(kind, name, c.description, c.refNo),
    lines: c.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents })),
  });
  const voiding = (kind: CreditKind, id: string, version: number): CreditPosting => ({
    sourceType: CREDIT_KINDS[kind].sourceType,
    creditId: id,
    version,
    date: '',
    description: '',
    lines: [],
  });

  /** Inside the version's transaction: the ledger's check, then the event that books it once this commits. */
  async function request(trx: Knex.Transaction, tenant: Tenant, p: CreditPosting): Promise<void> {
    await ledger.check(tenant, p);
    await postingRequested(trx, tenant.workspaceId, {
      sourceType: p.sourceType,
      sourceId: p.creditId,
      version: p.version,
      date: p.date,
      description: p.description,
      lines: p.lines,
    });
  }

  /**
   * After the commit: books the version now (its seq lets the answer's reader wait for reports). A failure is not the
   * user's: the version is committed and its event books it; the answer then carries seq 0.
   */
  async function book(tenant: Tenant, kind: CreditKind, p: CreditPosting, view: CreditView): Promise<CreditChange> {
    try {
      const posted = await ledger.post(tenant, p);
      if (posted.entryId) await withTenant(db, tenant, (trx) => setJournalEntry(trx, p.creditId, posted.entryId, p.version));
      // The answer is this version as committed (a concurrent change may already have followed it).
      return { credit: { ...view, row: { ...view.row, journal_entry_id: posted.entryId || view.row.journal_entry_id } }, seq: posted.seq };
    } catch (err) {
      logger?.warn({ err, kind, creditId: p.creditId, version: p.version }, 'the ledger did not book the credit now; its posting.requested event will');
      return { credit: view, seq: 0 };
    }
  }

  return {
    async list(tenant: Tenant, kind: CreditKind, q: { page: number; take: number; partyId: string }): Promise<ListAnswer<CreditView>> {
      const page = q.page === 0 ? 1 : q.page;
      const take = q.take === 0 ? PAGE_SIZE : q.take;
      const problems: FieldProblem[] = [];
      if (!Number.isInteger(page) || page < 1) problems.push({ field: 'page', message: MSG.page });
      if (!Number.isInteger(take) || take < 1 || take > PAGE_MAX) problems.push({ field: 'take', message: MSG.take });
      const partyField = CREDIT_KINDS[kind].partyField;
      if (q.partyId !== '' && !isUuid(q.partyId)) problems.push({ field: partyField, message: MSG.uuid(partyField) });
      throwIfAny(problems);
      return withTenant(db, tenant, async (trx) => {
        if (q.partyId !== '') {
          const party = kind === 'vendor_credit' ? await vendorById(trx, q.partyId) : await customerById(trx, q.partyId);
          if (!party) throw notFound(kind === 'vendor_credit' ? MSG.vendorNotFound : MSG.customerNotFound, partyField);
        }
        const { rows, count } = await listCredits(trx, kind, { page, take, partyId: q.partyId.toLowerCase() });
        const lines = await creditLines(
          trx,
          rows.map((r) => r.id),
        );
        return { data: rows.map((r) => viewOf(r, lines.get(r.id) ?? [])), meta: pageMeta(page, take, count) };
      });
    },

    async get(tenant: Tenant, kind: CreditKind, id: string): Promise<CreditView> {
      throwIfAny(idProblems(id));
      return withTenant(db, tenant, async (trx) => {
        const row = await creditById(trx, kind, id);
        if (!row) throw notFound(CREDIT_MSG.notFound(kind), 'id');
        return viewOf(row, (await creditLines(trx, [id])).get(id) ?? []);
      });
    },

    /** POST: the credit and its first version's entry, in one step. */
    async create(tenant: Tenant, kind: CreditKind, input: CreditInput): Promise<CreditChange> {
      assertCanEdit(tenant);
      const { value, problems } = cleanCredit(kind, input, true);
      throwIfAny(problems);
      const c = {
        paymentDate: value.paymentDate as string,
        partyId: value.partyId as string,
        description: value.description ?? '',
        refNo: value.refNo ?? '',
        lines: value.lineItems as CleanLine[],
      };
      const id = newId();
      const p = await withTenant(db, tenant, async (trx) => {
        const name = await partyName(trx, kind, c.partyId);
        await insertCredit(trx, {
          id,
          workspaceId: tenant.workspaceId,
          kind,
          partyId: c.partyId,
          paymentDate: c.paymentDate,
          description: c.description,
          refNo: c.refNo,
          totalCents: totalCents(c.lines),
          createdBy: tenant.userId ?? null,
        });
        await replaceLines(trx, tenant.workspaceId, id, c.lines);
        const version = posting(kind, id, 1, c, name);
        await request(trx, tenant, version);
        return { version, view: await reload(trx, kind, id) };
      });
      return book(tenant, kind, p.version, p.view);
    },

    /**
     * PATCH: only the fields sent change. Anything that changes the entry (date, party, description, reference,
     * lines) is a new version: the ledger reverses the previous entry and posts the new one (posted lines never
     * change). Sending what is already there posts nothing.
     */
    async update(tenant: Tenant, kind: CreditKind, id: string, input: CreditInput): Promise<CreditChange> {
      assertCanEdit(tenant);
      throwIfAny(idProblems(id));
      const { value, problems } = cleanCredit(kind, input, false);
      const changed: CreditChange | { p: CreditPosting; view: CreditView } = await withTenant(
        db,
        tenant,
        async (trx): Promise<CreditChange | { p: CreditPosting; view: CreditView }> => {
          // Another workspace's credit is a 404 whatever the body holds; then the fields' refusals (nothing changed).
          const seen = await creditById(trx, kind, id);
          if (!seen) throw notFound(CREDIT_MSG.notFound(kind), 'id');
          throwIfAny(problems);
          const partyOf = (r: CreditRow) => (kind === 'vendor_credit' ? r.vendor_id : r.customer_id) ?? '';
          // Locks in the order a merge takes them (the party, then its credits), so the two never wait on each other.
          let partyId = value.partyId ?? partyOf(seen);
          let name = await partyName(trx, kind, partyId);
          const row = await creditById(trx, kind, id, true);
          if (!row) throw notFound(CREDIT_MSG.notFound(kind), 'id');
          if (value.partyId === undefined && partyOf(row) !== partyId) {
            // Merged into another vendor meanwhile: the credit keeps its new vendor.
            partyId = partyOf(row);
            name = await partyName(trx, kind, partyId);
          }
          const current = (await creditLines(trx, [id])).get(id) ?? [];
          const c = {
            paymentDate: value.paymentDate ?? row.payment_date,
            partyId,
            description: value.description ?? row.description,
            refNo: value.refNo ?? row.ref_no,
            lines: value.lineItems ?? current.map((l) => ({ description: l.description, categoryId: l.category_id, amountCents: l.amount_cents })),
          };
          const sameLines =
            c.lines.length === current.length &&
            c.lines.every(
              (l, i) => l.description === current[i]?.description && l.categoryId === current[i]?.category_id && l.amountCents === current[i]?.amount_cents,
            );
          const unchanged =
            sameLines &&
            c.paymentDate === row.payment_date &&
            c.description === row.description &&
            c.refNo === row.ref_no &&
            partyId === (row.vendor_id ?? row.customer_id);
          if (unchanged) return { credit: viewOf(row, current), seq: 0 };
          const version = row.version + 1;
          const p = posting(kind, id, version, c, name);
          await updateCredit(trx, id, {
            kind,
            partyId,
            paymentDate: c.paymentDate,
            description: c.description,
            refNo: c.refNo,
            totalCents: totalCents(c.lines),
            version,
            journalEntryId: row.journal_entry_id,
          });
          if (value.lineItems) await replaceLines(trx, tenant.workspaceId, id, c.lines);
          await request(trx, tenant, p);
          return { p, view: await reload(trx, kind, id) };
        },
      );
      if (!('p' in changed)) return changed;
      return book(tenant, kind, changed.p, changed.view);
    },

    /** DELETE: the ledger reverses the credit's entry (a void); the row stays, voided, and is no longer listed or found. */
    async remove(tenant: Tenant, kind: CreditKind, id: string): Promise<CreditChange> {
      assertCanEdit(tenant);
      throwIfAny(idProblems(id));
      const removed = await withTenant(db, tenant, async (trx) => {
        const row = await creditById(trx, kind, id, true);
        if (!row) throw notFound(CREDIT_MSG.notFound(kind), 'id');
        const lines = (await creditLines(trx, [id])).get(id) ?? [];
        const version = row.version + 1;
        await voidCredit(trx, id, version);
        await request(trx, tenant, voiding(kind, id, version));
        return { credit: viewOf({ ...row, version, journal_entry_id: null, voided_at: new Date() }, lines), version };
      });
      const booked = await book(tenant, kind, voiding(kind, id, removed.version), removed.credit);
      return { credit: removed.credit, seq: booked.seq };
    },
  };
}

export type CreditUseCases = ReturnType<typeof createCreditUseCases>;
