import { eventMessage, EventType, startConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';
import { ensureChart } from '../store/chart-store.js';
import { applyRequestedDocument } from '../usecases/document-postings.js';
import { applyRequestedCredit } from '../usecases/party-credits.js';

/** The durable (and inbox) name of the consumer of posting.requested. */
export const POSTING_CONSUMER = 'ledger_postings';

/**
 * Books what an owner committed (decision 0012): each posting.requested is applied in the consumer's transaction
 * with its inbox row, exactly once; a version the ledger already holds (the owner's own call was first) or an older
 * one is a no-op. A refusal (a category deleted since the owner checked it) fails loudly and is dead-lettered.
 */
export function startPostingRequestConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Subscription> {
  const { logger } = options;
  return startConsumer({
    name: POSTING_CONSUMER,
    types: [EventType.PostingRequested],
    db: options.db,
    bus: options.bus,
    logger,
    maxDeliver: options.maxDeliver ?? 8,
    async handle(trx, event) {
      const p = eventMessage(event);
      const input = {
        sourceType: p.sourceType,
        sourceId: p.sourceId,
        version: p.version,
        date: p.date,
        description: p.description,
        lines: p.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents })),
      };
      await ensureChart(trx, event.workspaceId);
      switch (p.sourceType) {
        case 'VendorCredit':
        case 'CreditMemo': {
          const outcome = await applyRequestedCredit(trx, event.workspaceId, input);
          if (outcome === 'applied')
            logger.info(
              { sourceType: p.sourceType, sourceId: p.sourceId, version: Number(p.version) },
              'booked a version its owner committed without reaching the ledger',
            );
          return;
        }
        case 'Bill':
        case 'Invoice':
        case 'ManualEntry': {
          const payments = p.setPayments ? p.payments.map((x) => ({ transactionId: x.transactionId, amountCents: x.amountCents })) : undefined;
          const outcome = await applyRequestedDocument(trx, event.workspaceId, {
            ...input,
            lines: p.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents, direction: l.direction })),
            payments,
          });
          if (outcome === 'applied')
            logger.info(
              { sourceType: p.sourceType, sourceId: p.sourceId, version: Number(p.version) },
              'booked a version its owner committed without reaching the ledger',
            );
          return;
        }
        default:
          throw new Error(`posting.requested of an unknown source type ${p.sourceType}`);
      }
    },
  });
}
