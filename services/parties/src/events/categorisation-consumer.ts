import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import type { CategorisationUseCases } from '../usecases/categorisation.js';

export const CATEGORISATION_CONSUMER = 'parties_categorisation';

/**
 * Consumes the ledger's transaction.categorized (learn) and categorization.requested (answer with
 * categorization.suggested through the outbox), one tenant transaction per event with its inbox row: a
 * redelivered request is answered once, a redelivered correction learnt once. A request that keeps failing is
 * answered as failed (with the reason) when it is dead-lettered, so the ledger's job does not wait for ever.
 */
export function startCategorisationConsumer(o: {
  db: Knex;
  bus: EventBus;
  logger: Logger;
  model: Pick<CategorisationUseCases, 'learn' | 'answer' | 'failed'>;
  maxDeliver?: number;
}): Promise<Consumer> {
  return startConsumer({
    name: CATEGORISATION_CONSUMER,
    types: [EventType.TransactionCategorized, EventType.CategorizationRequested],
    db: o.db,
    bus: o.bus,
    logger: o.logger,
    maxDeliver: o.maxDeliver ?? 8,
    async handle(trx, event) {
      switch (event.type) {
        case EventType.TransactionCategorized:
          return o.model.learn(trx, event.workspaceId, eventMessage(event));
        case EventType.CategorizationRequested:
          return o.model.answer(trx, event.workspaceId, eventMessage(event));
      }
    },
    async onDeadLetter(event, err) {
      if (event.type !== EventType.CategorizationRequested) return;
      const { jobId } = eventMessage(event);
      if (isUuid(jobId)) await o.model.failed(event.workspaceId, jobId, `Suggesting categories failed: ${String((err as Error)?.message ?? err)}`);
    },
  });
}
