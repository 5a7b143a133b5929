import { eventMessage, EventType, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import type { FirmAccessState } from '../domain/firm-access.js';
import type { FirmAccessUseCases } from '../usecases/firm-access.js';

/** The durable and inbox name of identity's consumer of firm access. */
export const FIRM_ACCESS_CONSUMER = 'identity-firm-access';

/**
 * firm.access_changed → organization grants (docs/decisions/0008-firm-access.md). The path that does not
 * depend on the gateway: if it died between the firm's commit and its SetFirmAccess call, this brings identity
 * to the firm's state. The inbox makes a redelivery a no-op; the version makes an older state a no-op.
 */
export function startFirmAccessConsumer(options: { db: Knex; bus: EventBus; logger: Logger; firmAccess: FirmAccessUseCases }): Promise<Consumer> {
  return startConsumer<typeof EventType.FirmAccessChanged, FirmAccessState>({
    name: FIRM_ACCESS_CONSUMER,
    types: [EventType.FirmAccessChanged],
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    // A firm event's tenant is its firm; a payload that says otherwise, or a bad one, is dead-lettered at once.
    check: (event) => {
      const m = eventMessage(event);
      if (m.firmId.toLowerCase() !== event.workspaceId.toLowerCase()) throw new Error('firm.access_changed: the envelope names another firm');
      return options.firmAccess.check({ firmId: m.firmId, userId: m.userId, version: m.version, organizations: m.organizations });
    },
    handle: async (trx, event) => {
      await options.firmAccess.apply(trx, event.checked);
    },
  });
}
