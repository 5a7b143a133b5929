import {
  eventMessage,
  EventType,
  isUuid,
  newId,
  startConsumer,
  withTenant,
  writeEvents,
  type EventBus,
  type Knex,
  type Logger,
  type ReceivedEvent,
  type Subscription,
} from '@ledgerline/platform';
import type { CategorizationSuggested } from '@ledgerline/proto/events/v1/parties_pb';
import { Problems } from '../domain/validation.js';
import {
  bookableCategoryNames,
  categoryStates,
  completeJob,
  failJob,
  insertJob,
  knownVendors,
  listJobs,
  lockJob,
  lockUnclaimedOfJob,
  markAuto,
  markJobActive,
  markManualRows,
  storeSuggestions,
  unclaimedCandidates,
} from '../store/categorisation-store.js';
import type { RuleChange } from '../store/vendor-rules-store.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { assertReferences } from './references.js';
import { rebook } from './vendor-rules.js';

/**
 * Learned categorisation, the ledger's side (issue #17 item 7; decision 0013-learned-categorisation). The
 * parties service owns the model; the ledger owns the transactions, so it
 * - asks: after an import (transfers and vendor rules first) the new transactions nobody categorised get a
 *   categorisation job (waiting) and one `categorization.requested`, in the import's transaction;
 * - applies: `categorization.suggested` (inbox: exactly once) re-books, set-based through the vendor-rule path,
 *   the suggestions marked apply (creation mode auto) and stores the others as suggestions, only on
 *   transactions still as the import left them (editable, uncategorised, no rule, no user's choice), and
 *   completes the job;
 * - teaches: a user's categorisation marks the transaction manual and publishes `transaction.categorized`.
 */

export const CATEGORISATION_CONSUMER = 'ledger_categorisation';

/** After an import: one job and one categorization.requested for the new transactions nobody categorised. */
export async function requestCategorisation(trx: Knex.Transaction, workspaceId: string, transactionIds: readonly string[]): Promise<string | null> {
  if (transactionIds.length === 0) return null;
  const rows = await unclaimedCandidates(trx, transactionIds);
  if (rows.length === 0) return null;
  const jobId = newId();
  await insertJob(
    trx,
    workspaceId,
    jobId,
    rows.map((r) => r.id),
  );
  await writeEvents(trx, 'ledger', [
    {
      type: EventType.CategorizationRequested,
      workspaceId,
      payload: {
        jobId,
        candidates: rows.map((r) => ({
          transactionId: r.id,
          merchantName: r.merchant,
          description: r.name,
          amountCents: BigInt(r.amount_cents),
          bankAccountId: r.bank_account_id,
          date: r.txn_date,
        })),
      },
    },
  ]);
  return jobId;
}

/** Applies a job's suggestions (in the consumer's tenant transaction, after its inbox row). */
export async function applySuggestions(
  trx: Knex.Transaction,
  workspaceId: string,
  answer: CategorizationSuggested,
): Promise<{ applied: number; suggested: number }> {
  const job = await lockJob(trx, answer.jobId);
  if (!job || job.status === 'completed' || job.status === 'failed') return { applied: 0, suggested: 0 };
  // The parties service could not answer for good: the job failed, its transactions stay as imported.
  if (answer.failedReason) {
    await failJob(trx, answer.jobId, answer.failedReason);
    return { applied: 0, suggested: 0 };
  }
  const wanted = answer.suggestions.filter((s) => isUuid(s.transactionId) && isUuid(s.categoryId));
  // Only categories of this workspace a transaction may be booked to, and vendors the ledger knows.
  const categories = await bookableCategoryNames(trx, [...new Set(wanted.map((s) => s.categoryId))]);
  const vendorIds = [...new Set(wanted.map((s) => s.vendorId).filter((v) => isUuid(v)))];
  const vendors = await knownVendors(trx, vendorIds);
  const usable = wanted.filter((s) => categories.has(s.categoryId));
  // Locked, and re-checked: a user or a rule may have categorised some since the import.
  const rows = await lockUnclaimedOfJob(
    trx,
    answer.jobId,
    usable.map((s) => s.transactionId),
  );
  const byId = new Map(usable.map((s) => [s.transactionId, s]));
  const toApply: RuleChange[] = [];
  const toSuggest: { id: string; categoryId: string; vendorId: string | null; confidence: number }[] = [];
  for (const row of rows) {
    const s = byId.get(row.id)!;
    const vendorId = vendors.has(s.vendorId) ? s.vendorId : null;
    if (s.apply)
      toApply.push({
        ...row,
        amount_cents: Number(row.amount_cents),
        win_rule_id: null,
        win_category_id: s.categoryId,
        win_vendor_id: vendorId,
        win_category_name: categories.get(s.categoryId)!,
      });
    else toSuggest.push({ id: row.id, categoryId: s.categoryId, vendorId, confidence: s.confidence });
  }
  await rebook(trx, toApply, null, { creationMode: 'auto' });
  await markAuto(
    trx,
    toApply.map((r) => ({ id: r.id, confidence: byId.get(r.id)!.confidence })),
  );
  await storeSuggestions(trx, toSuggest);
  await completeJob(trx, workspaceId, answer.jobId, toApply.length, toSuggest.length);
  return { applied: toApply.length, suggested: toSuggest.length };
}

/**
 * A user categorised these transactions by hand (PATCH of a category, the bulk update): creation mode manual,
 * any suggestion dropped, and one `transaction.categorized` each for the model to learn from.
 */
export async function markManual(trx: Knex.Transaction, workspaceId: string, transactionIds: readonly string[]): Promise<void> {
  if (transactionIds.length === 0) return;
  const rows = await markManualRows(trx, transactionIds);
  const at = new Date().toISOString();
  await writeEvents(
    trx,
    'ledger',
    rows.map((r) => ({
      type: EventType.TransactionCategorized,
      workspaceId,
      payload: {
        transactionId: r.id,
        merchantName: r.merchant,
        description: r.name,
        amountCents: BigInt(r.amount_cents),
        bankAccountId: r.bank_account_id,
        categoryId: r.category_id,
        vendorId: r.vendor_id ?? r.merchant_vendor_id ?? '',
        date: r.txn_date ?? '',
        mode: 'manual',
        categorizedAt: at,
      },
    })),
  );
}

export type ApplySuggestions = typeof applySuggestions;

/**
 * The consumer of the parties service's answers (exactly once through the inbox; one tenant transaction each).
 * Job statuses are truthful: the answer taken up marks the job active in a transaction of its own (so it shows
 * while the answer is applied, and while a failing application is retried); applying completes it; an answer
 * that cannot be applied for good (dead-lettered) marks it failed with the reason. `apply` is replaced by fault
 * tests only.
 */
export function startCategorisationConsumer(o: {
  db: Knex;
  bus: EventBus;
  logger: Logger;
  maxDeliver?: number;
  apply?: ApplySuggestions;
}): Promise<Subscription> {
  const apply = o.apply ?? applySuggestions;
  const inJob = (workspaceId: string, fn: (trx: Knex.Transaction) => Promise<void>) => withTenant(o.db, { workspaceId }, fn);
  return startConsumer({
    name: CATEGORISATION_CONSUMER,
    types: [EventType.CategorizationSuggested],
    db: o.db,
    bus: o.bus,
    logger: o.logger,
    maxDeliver: o.maxDeliver ?? 8,
    check: (event: ReceivedEvent<typeof EventType.CategorizationSuggested>) => {
      if (!isUuid(eventMessage(event).jobId)) throw new Error(`invalid ${event.type} ${event.id}: jobId`);
    },
    async handle(trx, event) {
      const answer = eventMessage(event);
      await inJob(event.workspaceId, (t) => markJobActive(t, answer.jobId));
      await apply(trx, event.workspaceId, answer);
    },
    async onDeadLetter(event, err) {
      const { jobId } = eventMessage(event);
      if (!isUuid(jobId)) return;
      await inJob(event.workspaceId, (t) => failJob(t, jobId, `Applying the suggestions failed: ${String((err as Error)?.message ?? err)}`));
    },
  });
}

const STATUSES = ['waiting', 'waiting-children', 'active', 'completed', 'failed', 'paused', 'repeat', 'wait', 'delayed', 'prioritized'];

/** GET /jobs/categorization: the workspace's jobs (newest first, at most 100) and the given transactions' state (another workspace's id: 404). */
export class CategorisationUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async list(tenant: Tenant, input: { statuses: readonly string[]; transactionIds: readonly string[] }) {
    const p = new Problems();
    p.uuids('transactions', input.transactionIds);
    input.statuses.forEach((s) => {
      if (!STATUSES.includes(s)) p.add('status', `status must be one of ${STATUSES.join(', ')}`);
    });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      // Another workspace's transaction (or none): 404 naming the field, as everywhere.
      await assertReferences(trx, [{ field: 'transactions', kind: 'transaction', ids: input.transactionIds }]);
      return { jobs: await listJobs(trx, input.statuses), states: await categoryStates(trx, input.transactionIds) };
    });
  }
}
