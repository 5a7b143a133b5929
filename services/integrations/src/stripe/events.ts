// Applying one Stripe event (from a webhook, or from the events list during a sync) in the caller's transaction:
// the inbox row and the effect commit together, so each event id has its effect once; an object's state is kept
// only when it is at least as new as the stored one (event `created` orders states), so any delivery order ends
// in the newest state.
import type { Knex } from '@ledgerline/platform';
import { objects, stripeEvents, type ConnectionRow } from '../store/stripe-store.js';
import { OBJECT_TYPES, validateObject, type ObjectType, type StripeEventEnvelope } from './payloads.js';

export type EventOutcome = 'processed' | 'duplicate' | 'stale' | 'ignored';

export async function applyEvent(
  trx: Knex.Transaction,
  connection: Pick<ConnectionRow, 'id' | 'workspace_id'>,
  event: StripeEventEnvelope,
): Promise<EventOutcome> {
  const type = event.data.object.object;
  const known = (OBJECT_TYPES as string[]).includes(type);
  // Validate before recording: a refused payload leaves no trace, so a corrected redelivery is processed.
  const valid = known ? validateObject(type as ObjectType, event.data.object) : undefined;
  if (!(await stripeEvents.record(trx, connection, event, 'processing'))) return 'duplicate';
  let outcome: EventOutcome = 'ignored';
  if (valid) outcome = (await objects.upsert(trx, connection, [valid], event.created)) > 0 ? 'processed' : 'stale';
  await stripeEvents.setOutcome(trx, connection.id, event.id, outcome);
  return outcome;
}
