import { eventMessage, EventType, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import type { CategorisationUseCases } from '../usecases/categorisation.js';

export const CATEGORISATION_CONSUMER = 'parties_categorisation';

/**
 * Consumes the ledger's transaction.categorized (learn) and categorization.requested (answer with
 * categorization.suggested through the outbox), one tenant transaction per event with its inbox row: a
 * redelivered request is answered once, a redelivered correction learnt once.
 */
export function startCategorisationConsumer(o: { db: Knex; bus: EventBus; logger: Logger; model: CategorisationUseCases; maxDeliver?: number }): Promise<Consumer> {
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
  });
}
