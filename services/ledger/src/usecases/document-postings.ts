import { AppError, ErrorKind, isUuid, type Knex, assertCanEdit } from '@ledgerline/platform';
import {
  billOrInvoiceLines,
  DOCUMENT_PARTY,
  DOCUMENT_POSTING_MSG,
  DOCUMENT_POSTING_SOURCE_TYPES,
  manualEntryLines,
  paysDocument,
  type DocumentLine,
} from '../domain/document-postings.js';
import { SYSTEM } from '../domain/chart.js';
import { checkSourcedLines } from '../domain/sourced-lines.js';
import type { PostingLine } from '../domain/posting.js';
import { bodyHash, checkPostingRequest } from '../domain/source-posting.js';
import { accountBySystemKey, type AccountRow } from '../store/chart-store.js';
import { billerCategory, lockTransactionsLinkedTo, setEntityLink } from '../store/document-payments-store.js';
import type { TxnRow } from '../store/rows.js';
import { lockLiveTransactions } from '../store/workspace-transactions.js';
import { assertEditable, repost } from './booking.js';
import { applyVersion, findSource, type PostingOutcome } from '../store/postings.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { checkCategories, partyAccount } from './party-credits.js';

export interface DocumentPostingInput {
  sourceType: string;
  sourceId: string;
  version: bigint | number;
  date: string;
  description: string;
  lines: { categoryId: string; amountCents: bigint | number; direction?: string }[];
  /**
   * Bills and invoices: every bank transaction that pays the document (the whole set; undefined: leave the links as
   * they are). Each is re-booked against AP / AR and linked (entity_type / entity_id: not editable directly); those
   * linked before and not listed are unlinked and booked back to their merchant's category, else Uncategorised.
   */
  payments?: { transactionId: string; amountCents: bigint | number }[];
}

export interface DocumentPostingOutcome extends PostingOutcome {
  /** Accounts Payable (bills) or Receivable (invoices); empty for manual journals. */
  partyAccountId: string;
  /** The linked transactions with the absolute amount each moved. */
  payments: { transactionId: string; amountCents: number }[];
}

/** Unlinks what no longer pays the document and links (re-books against the party account) what newly does. */
async function applyPayments(
  trx: Knex.Transaction,
  type: 'Bill' | 'Invoice',
  documentId: string,
  party: AccountRow,
  payments: readonly { transactionId: string; amountCents: number }[],
): Promise<{ transactionId: string; amountCents: number }[]> {
  const ids = payments.map((p) => p.transactionId);
  const wanted = new Set(ids);
  for (const row of await lockTransactionsLinkedTo(trx, type, documentId)) {
    if (wanted.has(row.id)) continue;
    await setEntityLink(trx, row.id, null, null);
    const category =
      (row.biller_id ? await billerCategory(trx, row.biller_id) : null) ??
      (await accountBySystemKey(trx, row.amount_cents > 0 ? SYSTEM.uncategorisedIncome : SYSTEM.uncategorisedExpense)).id;
    await repost(trx, { ...row, entity_type: null, entity_id: null }, { categoryId: category });
  }
  if (ids.length === 0) return [];
  const rows = new Map((await lockLiveTransactions(trx, ids)).map((r) => [r.id, r]));
  const missing = ids.findIndex((id) => !rows.has(id));
  if (missing >= 0)
    throw new AppError(ErrorKind.NotFound, DOCUMENT_POSTING_MSG.transactionNotFound, {
      fields: [{ field: `connectedTransactions.${missing}.id`, message: DOCUMENT_POSTING_MSG.transactionNotFound }],
    });
  const out: { transactionId: string; amountCents: number }[] = [];
  for (const [i, id] of ids.entries()) {
    const row = rows.get(id) as TxnRow;
    const asked = payments[i]?.amountCents ?? 0;
    if (asked > Math.abs(row.amount_cents))
      throw AppError.invalid([
        { field: `connectedTransactions.${i}.amount`, message: DOCUMENT_POSTING_MSG.paymentAboveTransaction(i, (Math.abs(row.amount_cents) / 100).toFixed(2)) },
      ]);
    if (!(row.entity_type === type && row.entity_id === documentId)) {
      if (!paysDocument(type, row.amount_cents))
        throw AppError.invalid([{ field: `connectedTransactions.${i}.id`, message: DOCUMENT_POSTING_MSG.paymentDirection(i, type) }]);
      await assertEditable(trx, row);
      await repost(trx, row, { categoryId: party.id });
      await setEntityLink(trx, id, type, documentId);
    }
    out.push({ transactionId: id, amountCents: Math.abs(row.amount_cents) });
  }
  return out;
}

/**
 * PostDocument: one version of a bill's, invoice's or manual journal's entry (services/ledger/README.md, "Bills, invoices
 * and manual journals"). Versions as PostEntry: the same (source, version) and body answers the original entry, a newer
 * version reverses the previous entry and posts its own in one transaction, no lines voids.
 */
export class DocumentPostingUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async post(tenant: Tenant, input: DocumentPostingInput & { dryRun?: boolean }): Promise<DocumentPostingOutcome> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const checkedInput = checkDocumentInput(input);
    try {
      return await inWorkspace(this.deps.db, tenant, async (trx) => {
        const outcome = await postDocumentIn(trx, tenant.workspaceId, checkedInput);
        // A check: everything ran (payments' transactions locked and re-booked included) and now rolls back.
        if (input.dryRun) throw new DryRunDone(outcome);
        return outcome;
      });
    } catch (err) {
      if (err instanceof DryRunDone) return { ...err.outcome, entryId: null, seq: 0, reversedEntryId: null, reversalEntryId: null, replayed: false };
      throw err;
    }
  }
}

/** A dry run's way out of its transaction. */
class DryRunDone extends Error {
  constructor(readonly outcome: DocumentPostingOutcome) {
    super('dry run');
  }
}

interface CheckedDocumentInput {
  type: 'Bill' | 'Invoice' | 'ManualEntry';
  input: DocumentPostingInput;
  lines: DocumentLine[];
  payments: { transactionId: string; amountCents: number }[] | undefined;
}

/** The request's own checks (before any database work). */
function checkDocumentInput(input: DocumentPostingInput): CheckedDocumentInput {
  const { type, problems } = checkSourcedLines(input, DOCUMENT_POSTING_SOURCE_TYPES, DOCUMENT_POSTING_MSG.sourceType);
  if (!type) throw AppError.invalid(problems);
  const payments = input.payments?.map((p) => ({ transactionId: p.transactionId, amountCents: Number(p.amountCents) }));
  if (payments && payments.length > 0 && type === 'ManualEntry')
    problems.push({ field: 'connectedTransactions', message: DOCUMENT_POSTING_MSG.paymentsOnManualEntry });
  payments?.forEach((p, i) => {
    if (!isUuid(p.transactionId)) problems.push({ field: `connectedTransactions.${i}.id`, message: `connectedTransactions.${i}.id must be a UUID` });
    else if (payments.findIndex((q) => q.transactionId === p.transactionId) !== i)
      problems.push({ field: `connectedTransactions.${i}.id`, message: DOCUMENT_POSTING_MSG.paymentDuplicate(i) });
    if (!Number.isSafeInteger(p.amountCents) || p.amountCents <= 0)
      problems.push({ field: `connectedTransactions.${i}.amount`, message: DOCUMENT_POSTING_MSG.paymentAmount(i) });
  });
  if (problems.length > 0) throw AppError.invalid(problems);
  const lines: DocumentLine[] = input.lines.map((l) => ({ categoryId: l.categoryId, amountCents: Number(l.amountCents), direction: l.direction }));
  return { type, input, lines, payments };
}

/** One version, in the caller's transaction (the RPC's, or the posting.requested consumer's with its inbox row). */
async function postDocumentIn(trx: Knex.Transaction, workspaceId: string, c: CheckedDocumentInput): Promise<DocumentPostingOutcome> {
  const { type, input, lines, payments } = c;
  const isVoid = lines.length === 0;
  const party = type === 'ManualEntry' ? undefined : await partyAccount(trx, workspaceId, DOCUMENT_PARTY[type]);
  let posting: PostingLine[] = [];
  if (!isVoid) {
    await checkCategories(trx, lines, party);
    if (type === 'ManualEntry') {
      const m = manualEntryLines(lines);
      if (m.badDirection !== undefined)
        throw AppError.invalid([{ field: `lineItems.${m.badDirection}.direction`, message: DOCUMENT_POSTING_MSG.direction(m.badDirection) }]);
      posting = m.lines;
    } else {
      posting = billOrInvoiceLines(type, (party as AccountRow).id, lines);
    }
  }
  const { request, problems: invalid } = checkPostingRequest({
    sourceType: type,
    sourceId: input.sourceId,
    version: input.version,
    date: isVoid ? undefined : input.date,
    description: input.description,
    lines: posting,
  });
  if (!request) throw AppError.invalid(invalid);
  const outcome = await applyVersion(trx, { ...request, workspaceId, bodyHash: bodyHash(request) });
  const paid = party && type !== 'ManualEntry' && payments ? await applyPayments(trx, type, input.sourceId, party, payments) : [];
  return { ...outcome, partyAccountId: party?.id ?? '', payments: paid };
}

/**
 * posting.requested of a bill, invoice or manual journal (decision 0012), in the consumer's transaction: booked unless
 * the ledger already holds this version or a newer one (the owner's own call got there first).
 */
export async function applyRequestedDocument(trx: Knex.Transaction, workspaceId: string, input: DocumentPostingInput): Promise<'applied' | 'already'> {
  const c = checkDocumentInput(input);
  const source = await findSource(trx, c.type, input.sourceId);
  if (source && source.current_version >= Number(input.version)) return 'already';
  await postDocumentIn(trx, workspaceId, c);
  return 'applied';
}
