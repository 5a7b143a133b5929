import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';

export const VENDOR_MERGE_CONSUMER = 'documents_vendor_merges';

/** What the consumer needs of the use cases. */
export interface VendorMover {
  moveBills(trx: Knex.Transaction, workspaceId: string, fromVendorId: string, toVendorId: string): Promise<number>;
}

/**
 * Consumes the parties service's vendor.changed (exactly once through the inbox): a merge publishes one per merged
 * vendor (change "merged", mergedIntoVendorId the kept vendor), and that vendor's bills move to the kept one
 * (`moveBills`, itself idempotent: a replay finds nothing left to move). Other changes are not this service's concern.
 */
export function startVendorMergeConsumer(o: { db: Knex; bus: EventBus; logger: Logger; mover: VendorMover; maxDeliver?: number }): Promise<Consumer> {
  return startConsumer({
    name: VENDOR_MERGE_CONSUMER,
    types: [EventType.VendorChanged],
    db: o.db,
    bus: o.bus,
    logger: o.logger,
    maxDeliver: o.maxDeliver ?? 8,
    async handle(trx, event) {
      const v = eventMessage(event);
      if (v.change !== 'merged') return;
      if (!isUuid(v.vendorId) || !isUuid(v.mergedIntoVendorId)) throw new Error(`invalid ${event.type} ${event.id}: vendorId / mergedIntoVendorId`);
      const moved = await o.mover.moveBills(trx, event.workspaceId, v.vendorId.toLowerCase(), v.mergedIntoVendorId.toLowerCase());
      if (moved > 0)
        o.logger.info({ workspaceId: event.workspaceId, from: v.vendorId, to: v.mergedIntoVendorId, moved }, 'bills moved to the vendor they were merged into');
    },
  });
}
