import { AppError, type FieldError, type Knex, assertCanEdit } from '@ledgerline/platform';
import { isPostableLevel } from '../domain/chart.js';
import type { PostingLine } from '../domain/posting.js';
import { bodyHash, checkPostingRequest, POSTING_MSG, type PostingRequestInput } from '../domain/source-posting.js';
import { accountLevels } from '../store/chart-store.js';
import { applyVersion, type PostingOutcome } from '../store/postings.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';

/**
 * PostEntry is called by other services. A call made for a user carries the user's role, and a Viewer
 * never writes; a call without a role is the calling service's own work (e.g. a recurring bill).
 */
/** Every line's account exists in the workspace (row-level security hides others') and is postable. */
async function checkAccounts(trx: Knex.Transaction, lines: readonly PostingLine[]): Promise<void> {
  const ids = [...new Set(lines.map((l) => l.accountId))];
  if (ids.length === 0) return;
  const found = await accountLevels(trx, ids);
  const problems: FieldError[] = [];
  lines.forEach((l, i) => {
    const a = found.get(l.accountId);
    if (!a) problems.push({ field: `lines[${i}].accountId`, message: POSTING_MSG.accountUnknown(i) });
    else if (!isPostableLevel(a.level)) problems.push({ field: `lines[${i}].accountId`, message: POSTING_MSG.accountNotPostable(i) });
  });
  if (problems.length > 0) throw AppError.invalid(problems);
}

export class PostingUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /** Posts (or replays) one version of a source document's entry; see `applyVersion`. */
  async post(tenant: Tenant, input: PostingRequestInput): Promise<PostingOutcome> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const { request, problems } = checkPostingRequest(input);
    if (!request) throw AppError.invalid(problems);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      await checkAccounts(trx, request.lines);
      return applyVersion(trx, { ...request, workspaceId: tenant.workspaceId, bodyHash: bodyHash(request) });
    });
  }

  /** A version with no lines: reverses the source's current entry. */
  void(tenant: Tenant, input: Omit<PostingRequestInput, 'lines' | 'date'>): Promise<PostingOutcome> {
    return this.post(tenant, { ...input, lines: [] });
  }
}
