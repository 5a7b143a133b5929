import { EventType, isUuid, withTenant, writeEvent, type Knex } from '@ledgerline/platform';
import type { CategorizationRequested, TransactionCategorized } from '@ledgerline/proto/events/v1/ledger_pb';
import { AUTO_APPLY_THRESHOLD, indexExamples, suggestCategory, type CategorisationQuery, type CategorySuggestion } from '../domain/categorisation.js';
import { latestExamples, learnExample } from '../store/categorisation.js';

/**
 * Learned categorisation, the parties service's side (issue #17 item 7; decision 0013-learned-categorisation):
 * it learns from the ledger's transaction.categorized (a user's choice) and answers each categorization.requested
 * with one categorization.suggested, in the same transaction as the consumer's inbox row (exactly once).
 */
export class CategorisationUseCases {
  constructor(private readonly db: Knex) {}

  /** A user's categorisation becomes an example at once (the next suggestion for the merchant sees it). */
  async learn(trx: Knex.Transaction, workspaceId: string, c: TransactionCategorized): Promise<void> {
    if (!isUuid(c.transactionId) || !isUuid(c.categoryId)) throw new Error('transaction.categorized without a transaction or category id');
    await learnExample(trx, workspaceId, {
      transactionId: c.transactionId,
      merchantName: c.merchantName,
      description: c.description,
      amountCents: Number(c.amountCents),
      bankAccountId: c.bankAccountId,
      categoryId: c.categoryId,
      vendorId: isUuid(c.vendorId) ? c.vendorId : null,
      categorizedAt: c.categorizedAt || new Date().toISOString(),
    });
  }

  /** Suggests for a job's candidates and writes the answer to the outbox. */
  async answer(trx: Knex.Transaction, workspaceId: string, request: CategorizationRequested): Promise<void> {
    const index = indexExamples(await latestExamples(trx));
    const suggestions = request.candidates.map((c) => {
      const s = suggestCategory(index, {
        merchantName: c.merchantName,
        description: c.description,
        amountCents: Number(c.amountCents),
        bankAccountId: c.bankAccountId,
      });
      return {
        transactionId: c.transactionId,
        categoryId: s?.categoryId ?? '',
        vendorId: s?.vendorId ?? '',
        confidence: s?.confidence ?? 0,
        apply: !!s && s.confidence >= AUTO_APPLY_THRESHOLD,
      };
    });
    await writeEvent(trx, 'parties', {
      type: EventType.CategorizationSuggested,
      workspaceId,
      payload: { jobId: request.jobId, suggestions: suggestions.filter((s) => s.categoryId !== ''), threshold: AUTO_APPLY_THRESHOLD },
    });
  }

  /**
   * A request that could not be answered for good (its handling was dead-lettered): the ledger is told, with the
   * reason and no suggestions, so the job is marked failed rather than waiting for ever. Its own transaction.
   */
  async failed(workspaceId: string, jobId: string, reason: string): Promise<void> {
    await withTenant(this.db, { workspaceId }, (trx) =>
      writeEvent(trx, 'parties', {
        type: EventType.CategorizationSuggested,
        workspaceId,
        payload: { jobId, suggestions: [], threshold: AUTO_APPLY_THRESHOLD, failedReason: reason.slice(0, 500) },
      }),
    );
  }

  /** What the model would suggest now for a transaction of the workspace (tests and support look at it). */
  suggest(workspaceId: string, q: CategorisationQuery): Promise<CategorySuggestion | null> {
    return withTenant(this.db, { workspaceId }, async (trx) => suggestCategory(indexExamples(await latestExamples(trx)), q));
  }
}
