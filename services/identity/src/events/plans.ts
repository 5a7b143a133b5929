import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import { workspacePlans } from '../store/plans-store.js';

/** The durable and inbox name of identity's consumer of billing's plan changes. */
export const PLANS_CONSUMER = 'identity-plans';

/** billing.plan_changed → identity's copy of the workspace's user limit, checked on invite (decision 0044). */
export function startPlansConsumer(options: { db: Knex; bus: EventBus; logger: Logger }): Promise<Consumer> {
  return startConsumer<typeof EventType.BillingPlanChanged>({
    name: PLANS_CONSUMER,
    types: [EventType.BillingPlanChanged],
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    check: (event) => {
      if (!isUuid(event.workspaceId)) throw new Error('billing.plan_changed: the workspace must be a UUID');
      const plan = eventMessage(event);
      if (!plan.planId || Number.isNaN(Date.parse(plan.changedAt))) throw new Error('billing.plan_changed: plan_id and changed_at are required');
    },
    handle: async (trx, event) => {
      const plan = eventMessage(event);
      await workspacePlans.apply(trx, {
        workspace_id: event.workspaceId.toLowerCase(),
        plan_id: plan.planId,
        plan_name: plan.planName,
        users: plan.users,
        changed_at: new Date(plan.changedAt),
      });
    },
  });
}
