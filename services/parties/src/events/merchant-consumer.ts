import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';

export const MERCHANT_CONSUMER = 'parties_merchants';

/** What the consumer needs of the use cases. */
export interface MerchantAdopter {
  adoptMerchant(trx: Knex.Transaction, workspaceId: string, billerId: string, merchantName: string): Promise<void>;
}

/**
 * Consumes the ledger's entry.posted and entries.posted (exactly-once through the inbox): each entry carries its transaction's
 * merchant (biller id and name); a merchant no vendor stands for yet becomes one (`adoptMerchant`). Replaying
 * the stream from its start maps the ledger's existing billers onto vendors. Entries of one batch are of one
 * workspace; a merchant is looked at once per batch.
 */
export function startMerchantConsumer(o: { db: Knex; bus: EventBus; logger: Logger; adopter: MerchantAdopter; maxDeliver?: number }): Promise<Consumer> {
  return startConsumer({
    name: MERCHANT_CONSUMER,
    types: [EventType.EntryPosted, EventType.EntriesPosted],
    db: o.db,
    bus: o.bus,
    logger: o.logger,
    maxDeliver: o.maxDeliver ?? 8,
    batch: {
      types: [EventType.EntryPosted, EventType.EntriesPosted],
      size: 256,
      async handle(trx, events) {
        const seen = new Set<string>();
        for (const event of events) {
          // One entry, or a batch of them (the ledger's entries.posted, issue #22).
          const entries = event.type === EventType.EntryPosted ? [eventMessage(event)] : eventMessage(event).entries;
          for (const entry of entries) {
            if (!entry.billerId || seen.has(entry.billerId)) continue;
            if (!isUuid(entry.billerId)) throw new Error(`invalid ${event.type} ${event.id}: billerId`);
            seen.add(entry.billerId);
            await o.adopter.adoptMerchant(trx, event.workspaceId, entry.billerId, entry.billerName);
          }
        }
      },
    },
  });
}
