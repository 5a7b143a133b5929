import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { withTenant } from '../db/tenancy.js';
import { MessageBatcher } from './batcher.js';
import { DEAD_LETTER_SUBJECT_PREFIX, eventSubject, type BusMessage, type EventBus, type Subscription } from './bus.js';

export interface ReceivedEvent {
  id: string;
  type: string;
  workspaceId: string;
  source: string;
  occurredAt: Date;
  payload: Uint8Array;
}

export interface ConsumerOptions {
  /** Durable name; also the inbox's consumer column. */
  name: string;
  types: string[];
  db: Knex;
  bus: EventBus;
  logger: Logger;
  /** Runs inside the transaction that records the event in the inbox, with the event's tenant set. */
  handle(trx: Knex.Transaction, event: ReceivedEvent): Promise<void>;
  /** Deliveries before a message goes to the dead-letter stream. */
  maxDeliver?: number;
  /** Events of a type handled at once, by type (default 1, in order); only for handlers that tolerate any order. */
  concurrency?: Record<string, number>;
  /**
   * Types whose events are applied many per database transaction: what the consumer has pending (up to
   * `size`, or what arrives within `waitMs`) is grouped by workspace, and each group commits its inbox rows
   * and `handle`'s writes together, then is acknowledged. A group that fails is applied again event by
   * event with the single-event `handle` (so one bad event is retried and dead-lettered alone).
   */
  batch?: { types: string[]; size: number; waitMs?: number; handle(trx: Knex.Transaction, events: ReceivedEvent[]): Promise<void> };
}

const tracer = trace.getTracer('ledgerline.events');

/**
 * Consumes events exactly-once in effect: the handler's writes and the inbox row commit together,
 * and a redelivered event whose id is in the inbox is acknowledged without running the handler
 * (RELIABILITY 7). A message that keeps failing is copied to `dead.<consumer>` and terminated.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { name, types, db, bus, logger, handle, maxDeliver = 5, batch } = options;
  const concurrency = options.concurrency && Object.fromEntries(Object.entries(options.concurrency).map(([type, n]) => [eventSubject(type), n]));

  const processOne = async (msg: BusMessage, event: ReceivedEvent): Promise<void> => {
    const parent = propagation.extract(context.active(), msg.headers);
    await context.with(parent, () =>
      tracer.startActiveSpan(`consume ${event.type}`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject, 'messaging.message.id': event.id, 'ledgerline.consumer': name } }, async (span) => {
        try {
          await withTenant(db, { workspaceId: event.workspaceId }, async (trx) => {
            const inserted = await trx('inbox')
              .insert({ consumer: name, event_id: event.id, workspace_id: event.workspaceId, type: event.type })
              .onConflict(['consumer', 'event_id'])
              .ignore()
              .returning('event_id');
            if (inserted.length === 0) return; // handled before: effect already committed
            await handle(trx, event);
          });
          await msg.ack();
        } catch (err) {
          span.recordException(err as Error);
          if (msg.deliveryCount >= maxDeliver) {
            logger.error({ err, eventId: event.id, type: event.type, consumer: name, deliveries: msg.deliveryCount }, 'event failed repeatedly; dead-lettering');
            await deadLetter(bus, name, msg.data, { ...msg.headers, 'll-error': String((err as Error).message ?? err).slice(0, 500) }, event.id);
            msg.term();
          } else {
            logger.warn({ err, eventId: event.id, type: event.type, consumer: name, deliveries: msg.deliveryCount }, 'event handler failed; will retry');
            msg.nak(Math.min(30_000, 250 * 2 ** msg.deliveryCount));
          }
        } finally {
          span.end();
        }
      }),
    );
  };

  /** One workspace's events of a batch in one transaction; on failure, each again on its own. */
  const applyGroup = async (workspaceId: string, items: { msg: BusMessage; event: ReceivedEvent }[]): Promise<void> => {
    // The same event twice in one batch (a redelivery racing the first) is applied once and acknowledged twice.
    const unique = [...new Map(items.map((i) => [i.event.id, i.event])).values()];
    try {
      await tracer.startActiveSpan(`consume batch`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.batch.message_count': items.length, 'ledgerline.consumer': name } }, async (span) => {
        try {
          await withTenant(db, { workspaceId }, async (trx) => {
            const fresh = (await trx.raw(
              `insert into inbox (consumer, event_id, workspace_id, type)
               select ?, e.id, ?, e.type from unnest(?::uuid[], ?::text[]) as e(id, type)
               on conflict (consumer, event_id) do nothing returning event_id`,
              [name, workspaceId, unique.map((e) => e.id), unique.map((e) => e.type)],
            )).rows as { event_id: string }[];
            const ids = new Set(fresh.map((r) => r.event_id));
            const todo = unique.filter((e) => ids.has(e.id));
            if (todo.length) await batch!.handle(trx, todo);
          });
        } finally {
          span.end();
        }
      });
    } catch (err) {
      logger.warn({ err, size: unique.length, consumer: name }, 'batch failed; applying its events one by one');
      for (const item of items) await processOne(item.msg, item.event);
      return;
    }
    await Promise.all(items.map((i) => i.msg.ack().catch(() => undefined)));
  };

  const batcher = batch && new MessageBatcher<{ msg: BusMessage; event: ReceivedEvent }>({
    size: batch.size,
    waitMs: batch.waitMs ?? 5,
    apply: async (items) => {
      const byWorkspace = new Map<string, { msg: BusMessage; event: ReceivedEvent }[]>();
      for (const item of items) byWorkspace.set(item.event.workspaceId, [...(byWorkspace.get(item.event.workspaceId) ?? []), item]);
      for (const [workspaceId, group] of byWorkspace) await applyGroup(workspaceId, group);
    },
  });
  const batchSubjects = new Set((batch?.types ?? []).map(eventSubject));

  const sub = await bus.subscribe({ durable: name, subjects: types.map(eventSubject), maxDeliver: maxDeliver + 1, concurrency }, async (msg) => {
    let event: ReceivedEvent;
    try {
      const env = fromBinary(EventEnvelopeSchema, msg.data);
      event = { id: env.id, type: env.type, workspaceId: env.workspaceId, source: env.source, occurredAt: env.occurredAt ? timestampDate(env.occurredAt) : new Date(0), payload: env.payload };
    } catch (err) {
      logger.error({ err, subject: msg.subject }, 'undecodable event; dead-lettering');
      await deadLetter(bus, name, msg.data, msg.headers, `undecodable:${crypto.randomUUID()}`);
      msg.term();
      return;
    }
    if (batcher && batchSubjects.has(msg.subject)) return batcher.push({ msg, event });
    await processOne(msg, event);
  });
  return {
    async stop() {
      await sub.stop();
      await batcher?.flush();
    },
  };
}

async function deadLetter(bus: EventBus, consumer: string, data: Uint8Array, headers: Record<string, string>, id: string): Promise<void> {
  await bus.publish(`${DEAD_LETTER_SUBJECT_PREFIX}${consumer}`, data, { msgId: `dead:${consumer}:${id}`, headers });
}
