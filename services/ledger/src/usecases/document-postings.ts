import { AppError, ErrorKind, hasRoleAtLeast, isUuid, VIEWER_EDIT_MESSAGE, type FieldError, type Knex } from '@ledgerline/platform';
import { isPostableLevel } from '../domain/chart.js';
import { billOrInvoiceLines, DOCUMENT_PARTY, DOCUMENT_POSTING_MSG, isDocumentPostingSourceType, manualEntryLines, type DocumentLine } from '../domain/document-postings.js';
import { PARTY_CREDIT_MSG } from '../domain/party-credits.js';
import type { PostingLine } from '../domain/posting.js';
import { bodyHash, checkPostingRequest } from '../domain/source-posting.js';
import { accountsByIds, type AccountRow } from '../store/chart-store.js';
import { applyVersion, type PostingOutcome } from '../store/postings.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { partyAccount } from './party-credits.js';

export interface DocumentPostingInput {
  sourceType: string;
  sourceId: string;
  version: bigint | number;
  date: string;
  description: string;
  lines: { categoryId: string; amountCents: bigint | number; direction?: string }[];
}

export interface DocumentPostingOutcome extends PostingOutcome {
  /** Accounts Payable (bills) or Receivable (invoices); empty for manual journals. */
  partyAccountId: string;
}

/** Every line's category is of the workspace (else 404 naming it), postable, and not the party account itself. */
async function checkCategories(trx: Knex.Transaction, lines: readonly { categoryId: string }[], party: AccountRow | undefined): Promise<void> {
  const found = new Map((await accountsByIds(trx, [...new Set(lines.map((l) => l.categoryId))])).map((a) => [a.id, a]));
  const missing = lines.findIndex((l) => !found.has(l.categoryId));
  if (missing >= 0) {
    throw new AppError(ErrorKind.NotFound, PARTY_CREDIT_MSG.categoryNotFound, { fields: [{ field: `lineItems.${missing}.categoryId`, message: PARTY_CREDIT_MSG.categoryNotFound }] });
  }
  const problems: FieldError[] = [];
  lines.forEach((l, i) => {
    const a = found.get(l.categoryId) as AccountRow;
    if (!isPostableLevel(a.level)) problems.push({ field: `lineItems.${i}.categoryId`, message: PARTY_CREDIT_MSG.categoryNotPostable(i) });
    else if (party && a.id === party.id) problems.push({ field: `lineItems.${i}.categoryId`, message: PARTY_CREDIT_MSG.categoryIsParty(i, party.name) });
  });
  if (problems.length > 0) throw AppError.invalid(problems);
}

/**
 * PostDocument: one version of a bill's, invoice's or manual journal's entry (services/ledger/README.md, "Bills, invoices
 * and manual journals"). Versions as PostEntry: the same (source, version) and body answers the original entry, a newer
 * version reverses the previous entry and posts its own in one transaction, no lines voids.
 */
export class DocumentPostingUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async post(tenant: Tenant, input: DocumentPostingInput): Promise<DocumentPostingOutcome> {
    if (tenant.role && !hasRoleAtLeast(tenant.role, 'Admin')) throw new AppError(ErrorKind.PermissionDenied, VIEWER_EDIT_MESSAGE, { appErrorCode: 'FORBIDDEN' });
    if (!isDocumentPostingSourceType(input.sourceType)) throw AppError.invalid([{ field: 'sourceType', message: DOCUMENT_POSTING_MSG.sourceType }]);
    const type = input.sourceType;
    const problems: FieldError[] = [];
    input.lines.forEach((l, i) => {
      if (!isUuid(l.categoryId)) problems.push({ field: `lineItems.${i}.categoryId`, message: `lineItems.${i}.categoryId must be a UUID` });
    });
    if (problems.length > 0) throw AppError.invalid(problems);
    const lines: DocumentLine[] = input.lines.map((l) => ({ categoryId: l.categoryId, amountCents: Number(l.amountCents), direction: l.direction }));
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const isVoid = lines.length === 0;
      const party = type === 'ManualEntry' ? undefined : await partyAccount(trx, tenant.workspaceId, DOCUMENT_PARTY[type]);
      let posting: PostingLine[] = [];
      if (!isVoid) {
        await checkCategories(trx, lines, party);
        if (type === 'ManualEntry') {
          const m = manualEntryLines(lines);
          if (m.badDirection !== undefined) throw AppError.invalid([{ field: `lineItems.${m.badDirection}.direction`, message: DOCUMENT_POSTING_MSG.direction(m.badDirection) }]);
          posting = m.lines;
        } else {
          posting = billOrInvoiceLines(type, (party as AccountRow).id, lines);
        }
      }
      const { request, problems: invalid } = checkPostingRequest({ sourceType: type, sourceId: input.sourceId, version: input.version, date: isVoid ? undefined : input.date, description: input.description, lines: posting });
      if (!request) throw AppError.invalid(invalid);
      const outcome = await applyVersion(trx, { ...request, workspaceId: tenant.workspaceId, bodyHash: bodyHash(request) });
      return { ...outcome, partyAccountId: party?.id ?? '' };
    });
  }
}
