import { AppError, ErrorKind, hasRoleAtLeast, isUuid, newId, VIEWER_EDIT_MESSAGE, withTenant, type Knex } from '@ledgerline/platform';
import type { CreditLedger } from '../clients/ledger-credits.js';
import { balanceOf, cleanCredit, CREDIT_KINDS, CREDIT_MSG, entryDescription, totalCents, type CleanLine, type CreditInput, type CreditKind } from '../domain/credits.js';
import { MSG, pageMeta, PAGE_MAX, PAGE_SIZE, type FieldProblem } from '../domain/parties.js';
import { creditById, creditLines, insertCredit, listCredits, replaceLines, setJournalEntry, updateCredit, voidCredit, type CreditLineRow, type CreditRow } from '../store/credits.js';
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

function assertCanEdit(tenant: Tenant): void {
  if (!tenant.role || !hasRoleAtLeast(tenant.role, 'Admin')) throw new AppError(ErrorKind.PermissionDenied, VIEWER_EDIT_MESSAGE, { appErrorCode: 'FORBIDDEN' });
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
 * Each version of a credit is one balanced ledger entry (PostPartyCredit): the ledger is called inside this
 * service's transaction, after the row is written and locked, so a refusal of the ledger (a category of another
 * workspace) leaves nothing here, and versions of one credit are applied one at a time.
 */
export function createCreditUseCases({ db, ledger }: { db: Knex; ledger: CreditLedger }) {
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

  const posting = (kind: CreditKind, id: string, version: number, c: { paymentDate: string; description: string; refNo: string; lines: readonly CleanLine[] }, name: string) => ({
    sourceType: CREDIT_KINDS[kind].sourceType, creditId: id, version, date: c.paymentDate, description: entryDescription(kind, name, c.description, c.refNo),
    lines: c.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents })),
  });

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
        const lines = await creditLines(trx, rows.map((r) => r.id));
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
      const c = { paymentDate: value.paymentDate as string, partyId: value.partyId as string, description: value.description ?? '', refNo: value.refNo ?? '', lines: value.lineItems as CleanLine[] };
      return withTenant(db, tenant, async (trx) => {
        const name = await partyName(trx, kind, c.partyId);
        const id = newId();
        await insertCredit(trx, { id, workspaceId: tenant.workspaceId, kind, partyId: c.partyId, paymentDate: c.paymentDate, description: c.description, refNo: c.refNo, totalCents: totalCents(c.lines), createdBy: tenant.userId ?? null });
        await replaceLines(trx, tenant.workspaceId, id, c.lines);
        const posted = await ledger.post(tenant, posting(kind, id, 1, c, name));
        await setJournalEntry(trx, id, posted.entryId || null);
        return { credit: await reload(trx, kind, id), seq: posted.seq };
      });
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
      return withTenant(db, tenant, async (trx) => {
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
          paymentDate: value.paymentDate ?? row.payment_date, partyId, description: value.description ?? row.description, refNo: value.refNo ?? row.ref_no,
          lines: value.lineItems ?? current.map((l) => ({ description: l.description, categoryId: l.category_id, amountCents: l.amount_cents })),
        };
        const sameLines = c.lines.length === current.length && c.lines.every((l, i) => l.description === current[i]?.description && l.categoryId === current[i]?.category_id && l.amountCents === current[i]?.amount_cents);
        const unchanged = sameLines && c.paymentDate === row.payment_date && c.description === row.description && c.refNo === row.ref_no && partyId === (row.vendor_id ?? row.customer_id);
        if (unchanged) return { credit: viewOf(row, current), seq: 0 };
        const version = row.version + 1;
        await updateCredit(trx, id, { kind, partyId, paymentDate: c.paymentDate, description: c.description, refNo: c.refNo, totalCents: totalCents(c.lines), version, journalEntryId: row.journal_entry_id });
        if (value.lineItems) await replaceLines(trx, tenant.workspaceId, id, c.lines);
        const posted = await ledger.post(tenant, posting(kind, id, version, c, name));
        await setJournalEntry(trx, id, posted.entryId || null);
        return { credit: await reload(trx, kind, id), seq: posted.seq };
      });
    },

    /** DELETE: the ledger reverses the credit's entry (a void); the row stays, voided, and is no longer listed or found. */
    async remove(tenant: Tenant, kind: CreditKind, id: string): Promise<CreditChange> {
      assertCanEdit(tenant);
      throwIfAny(idProblems(id));
      return withTenant(db, tenant, async (trx) => {
        const row = await creditById(trx, kind, id, true);
        if (!row) throw notFound(CREDIT_MSG.notFound(kind), 'id');
        const lines = (await creditLines(trx, [id])).get(id) ?? [];
        const version = row.version + 1;
        const posted = await ledger.post(tenant, { sourceType: CREDIT_KINDS[kind].sourceType, creditId: id, version, date: '', description: '', lines: [] });
        await voidCredit(trx, id, version);
        return { credit: viewOf({ ...row, version, journal_entry_id: null, voided_at: new Date() }, lines), seq: posted.seq };
      });
    },
  };
}

export type CreditUseCases = ReturnType<typeof createCreditUseCases>;
