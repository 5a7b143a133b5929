import { eventMessage, EventType, isUuid, startConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';
import { workspacePlans } from '../store/plans-store.js';

/** The durable (and inbox) name of banking's consumer of billing's plan changes. */
export const PLAN_CONSUMER = 'banking_plans';

/** billing.plan_changed → banking's copy of the workspace's bank-account limit (decision 0044). */
export function startPlanConsumer(options: { db: Knex; bus: EventBus; logger: Logger }): Promise<Subscription> {
  return startConsumer<typeof EventType.BillingPlanChanged>({
    name: PLAN_CONSUMER,
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
        bank_accounts: plan.bankAccounts,
        changed_at: new Date(plan.changedAt),
      });
    },
  });
}
