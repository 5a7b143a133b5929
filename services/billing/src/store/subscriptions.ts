import type { Knex } from '@ledgerline/platform';
import type { Interval, PlanId, SubscriptionStatus } from '../domain/plans.js';

export interface SubscriptionRow {
  id: string;
  workspace_id: string;
  stripe_subscription_id: string;
  stripe_customer_id: string;
  price_id: string;
  plan_id: PlanId;
  interval: Interval;
  status: SubscriptionStatus;
  current_period_start: Date | null;
  current_period_end: Date | null;
  trial_end: Date | null;
  cancel_at_period_end: boolean;
  stripe_created: Date;
  json: unknown;
  created_on: Date;
  last_updated: Date;
}

export type SubscriptionState = Omit<SubscriptionRow, 'id' | 'created_on' | 'last_updated'>;

export const customerOf = async (trx: Knex.Transaction, workspaceId: string): Promise<string | undefined> =>
  (await trx('billing_customers').where({ workspace_id: workspaceId }).first('stripe_customer_id'))?.stripe_customer_id as string | undefined;

export async function saveCustomer(trx: Knex.Transaction, workspaceId: string, customerId: string): Promise<void> {
  await trx('billing_customers').insert({ workspace_id: workspaceId, stripe_customer_id: customerId }).onConflict('workspace_id').ignore();
}

export const workspaceOfCustomer = async (trx: Knex.Transaction, customerId: string): Promise<string | undefined> =>
  (await trx('billing_customers').where({ stripe_customer_id: customerId }).first('workspace_id'))?.workspace_id as string | undefined;

export async function saveCheckoutSession(
  trx: Knex.Transaction,
  row: { id: string; workspace_id: string; price_id: string; created_by: string | null },
): Promise<void> {
  await trx('billing_checkout_sessions').insert(row);
}

export const checkoutSession = (trx: Knex.Transaction, id: string): Promise<{ id: string; workspace_id: string } | undefined> =>
  trx('billing_checkout_sessions').where({ id }).first('id', 'workspace_id');

export const subscriptionsOf = (trx: Knex.Transaction, workspaceId: string): Promise<SubscriptionRow[]> =>
  trx<SubscriptionRow>('billing_subscriptions').where({ workspace_id: workspaceId }).select('*');

/** Stores Stripe's state of a subscription (inserted, or replacing the row of the same Stripe id). */
export async function upsertSubscription(trx: Knex.Transaction, id: string, state: SubscriptionState): Promise<void> {
  await trx('billing_subscriptions')
    .insert({ id, ...state, json: JSON.stringify(state.json) })
    .onConflict('stripe_subscription_id')
    .merge({ ...state, json: JSON.stringify(state.json), last_updated: trx.fn.now() });
}

/** The inbox: true when the event id is new (the caller's transaction then applies it), false for a repeat. */
export async function recordEvent(trx: Knex.Transaction, event: { id: string; type: string; outcome: string; workspaceId: string | null }): Promise<boolean> {
  const rows = await trx('billing_stripe_events')
    .insert({ event_id: event.id, type: event.type, outcome: event.outcome, workspace_id: event.workspaceId })
    .onConflict('event_id')
    .ignore()
    .returning('event_id');
  return rows.length === 1;
}

/** Serialises the work on one Stripe subscription until the caller's transaction ends. */
export async function lockSubscription(trx: Knex.Transaction, subscriptionId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [subscriptionId]);
}

/** Sets what an inbox row ended as (ignored: nothing of a workspace) and whose it was. */
export async function settleEvent(trx: Knex.Transaction, eventId: string, result: { outcome: string; workspaceId: string | null }): Promise<void> {
  await trx('billing_stripe_events').where({ event_id: eventId }).update({ outcome: result.outcome, workspace_id: result.workspaceId });
}
