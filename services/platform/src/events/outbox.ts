import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { context, propagation } from '@opentelemetry/api';
import type { Knex } from 'knex';
import { newId } from '../ids.js';
import { encodeEvent, type EventType, type OutgoingEvent } from './catalog.js';

/** An event written to the outbox: a type of the catalog, its tenant, its payload (typed by the type). */
export type OutboxEvent<N extends EventType = EventType> = OutgoingEvent<N>;

/**
 * Writes an event in the caller's transaction: it is published if and only if the change commits
 * (RELIABILITY 6). The current trace context travels with it so the consumer's span joins the trace.
 */
export async function writeEvent<N extends EventType>(trx: Knex.Transaction, source: string, event: OutboxEvent<N>): Promise<string> {
  return (await writeEvents(trx, source, [event]))[0] as string;
}

/**
 * Writes events in the caller's transaction: what `writeEvent` does for one, for a set-based change that
 * emits many — one INSERT (outbox seq in the given order) carrying the relay's notify, in one round trip.
 */
export async function writeEvents<N extends EventType>(trx: Knex.Transaction, source: string, events: readonly OutboxEvent<N>[]): Promise<string[]> {
  if (events.length === 0) return [];
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  const occurredAt = timestampFromDate(new Date());
  const rows = events.map((event) => {
    const id = event.id ?? newId();
    return { id, workspace_id: event.workspaceId, type: event.type, envelope: Buffer.from(encodeEvent(source, id, event, occurredAt)), headers };
  });
  // Chunks keep the bind parameters under PostgreSQL's 65,535 (5 per row); the last one notifies the relay.
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    if (i + 5000 < rows.length) {
      await trx('outbox').insert(chunk);
      continue;
    }
    const insert = trx('outbox').insert(chunk).toSQL();
    await trx.raw(`with ins as (${insert.sql} returning 1) select pg_notify('outbox', '') from (select count(*) from ins) n`, insert.bindings);
  }
  return rows.map((r) => r.id);
}

/** Tables of the outbox and the inbox; every service that publishes or consumes includes these. */
export async function createOutboxAndInbox(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable();
    t.text('type').notNullable();
    t.binary('envelope').notNullable();
    t.jsonb('headers').notNullable().defaultTo('{}');
    t.bigIncrements('seq', { primaryKey: false });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('published_at', { useTz: true });
  });
  await knex.raw('create index outbox_unpublished on outbox (seq) where published_at is null');
  await knex.schema.createTable('inbox', (t) => {
    t.text('consumer').notNullable();
    t.uuid('event_id').notNullable();
    t.uuid('workspace_id').notNullable();
    t.text('type').notNullable();
    t.timestamp('handled_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['consumer', 'event_id']);
  });
}

export async function dropOutboxAndInbox(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('inbox');
  await knex.schema.dropTableIfExists('outbox');
}
