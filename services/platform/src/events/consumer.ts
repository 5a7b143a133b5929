import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { withSystem, withTenant } from '../db/tenancy.js';
import { MessageBatcher } from './batcher.js';
import { deadLetterSubject, eventSubject, type BusMessage, type EventBus, type Subscription } from './bus.js';
import type { EventType, ReceivedEvent } from './catalog.js';
import { consumerPending, consumerUnacknowledged, deadLetters, eventFailures, eventRedeliveries, eventsHandled } from './metrics.js';
import { isTransientError } from './transient.js';

/**
 * The durable (and inbox) name of a read model's generation: generation 0 is the base name, a rebuild
 * starts generation n + 1 (`<base>_g<n>`), which JetStream delivers from the stream's start.
 */
export function consumerName(base: string, generation = 0): string {
  return generation === 0 ? base : `${base}_g${generation}`;
}

/** A received event with what the consumer's `check` made of it on arrival (undefined without one). */
export type CheckedEvent<N extends EventType = EventType, C = undefined> = ReceivedEvent<N> & { checked: C };

export interface ConsumerBatch<N extends EventType, C> {
  /** The types whose events are gathered into batches (the others are handled one at a time). */
  types: readonly N[];
  /** A full batch is applied before the next message is taken; a partial one `waitMs` (5) after its first message. */
  size: number;
  waitMs?: number;
  /**
   * false (default): a batch is split by workspace, each part in its own tenant transaction. true: a batch
   * spans workspaces in one system transaction (a read model fed by every tenant); the handler keys every
   * row by the event's workspace.
   */
  acrossTenants?: boolean;
  /** Applies events not handled before (the inbox filtered them), in arrival order, in the batch's transaction. */
  handle(trx: Knex.Transaction, events: CheckedEvent<N, C>[]): Promise<void>;
}

export interface ConsumerOptions<N extends EventType, C = undefined> {
  /** The consumer's purpose: durable name and the inbox's consumer column (with `generation`, see `consumerName`). */
  name: string;
  /** The read model's generation, for consumers whose rebuild replays the stream under a new name. */
  generation?: number;
  /** The catalog's types consumed. */
  types: readonly N[];
  db: Knex;
  bus: EventBus;
  logger: Logger;
  /**
   * Reads and checks an event when it arrives, like user input; what it returns is the handlers'
   * `event.checked`. An event it throws on is dead-lettered at once: a bad payload does not heal by retrying.
   */
  check?(event: ReceivedEvent<N>): C;
  /**
   * Handles one event, inside the transaction that records it in the inbox, with the event's tenant set (or
   * the system's, for a batched type `acrossTenants`). Without it, the batch handler is called with one event.
   */
  handle?(trx: Knex.Transaction, event: CheckedEvent<N, C>): Promise<void>;
  /** Deliveries before a message whose handler keeps failing goes to the dead-letter stream (default 5); transient failures are retried without limit. */
  maxDeliver?: number;
  /**
   * Called once when a decoded event is given up on (its handler failed `maxDeliver` times, or `check` refused it),
   * before it goes to the dead-letter stream: e.g. to record, in a transaction of its own, that the work it asked
   * for failed for good. A failure of this hook is logged; the event is dead-lettered all the same.
   */
  onDeadLetter?(event: ReceivedEvent<N>, err: unknown): Promise<void>;
  /** Events of a type handled at once, by type (default 1, in order); only for handlers that tolerate any order. */
  concurrency?: Partial<Record<N, number>>;
  /**
   * Types whose events are applied many per database transaction. Each batch commits its inbox rows and the
   * handler's writes together and is then acknowledged. A batch that fails is applied again event by event,
   * so one bad event is retried and dead-lettered alone.
   */
  batch?: ConsumerBatch<N, C>;
}

/**
 * A consumer as a service declares it: everything but the process's database, bus and logger, which the
 * service gives when it starts it (`startConsumer({ ...declaration, db, bus, logger })`).
 */
export type ConsumerDeclaration<N extends EventType, C = undefined> = Omit<ConsumerOptions<N, C>, 'db' | 'bus' | 'logger'>;

export interface Consumer extends Subscription {
  /** The durable and inbox name in use (with the generation). */
  readonly name: string;
  /** Events this process handled (a redelivery of a handled one is not counted). */
  readonly handledCount: number;
  /** Milliseconds since a message last arrived or a transaction last committed; 0 while any is pending. */
  readonly idleMs: number;
}

interface Item<N extends EventType, C> {
  msg: BusMessage;
  event: CheckedEvent<N, C>;
}

const tracer = trace.getTracer('ledgerline.events');

/**
 * JetStream's own delivery limit is off: the consumer decides when an event is dead-lettered (after `maxDeliver`
 * failures that were not transient), so a message is never dropped by the server without reaching `dead.<name>`.
 */
const UNLIMITED_DELIVERIES = -1;

/**
 * Consumes events exactly-once in effect: the handler's writes and the inbox rows commit together, and a
 * redelivered event whose id is in the inbox is acknowledged without running the handler (RELIABILITY 7).
 * A failing event is redelivered with exponential back-off; one that keeps failing, or cannot be read, is
 * copied to `dead.<consumer>` and terminated.
 */
export async function startConsumer<N extends EventType, C = undefined>(options: ConsumerOptions<N, C>): Promise<Consumer> {
  const { types, db, bus, logger, check, maxDeliver = 5, batch } = options;
  const name = consumerName(options.name, options.generation);
  const handleOne = options.handle ?? (batch ? (trx: Knex.Transaction, event: CheckedEvent<N, C>) => batch.handle(trx, [event]) : undefined);
  if (!handleOne) throw new Error(`consumer ${name}: give handle, batch, or both`);
  const concurrency = options.concurrency && Object.fromEntries(Object.entries(options.concurrency).map(([type, n]) => [eventSubject(type), n as number]));
  const batchTypes = new Set<string>(batch?.types ?? []);
  let handled = 0;
  let pending = 0;
  let lastActivity = Date.now();

  /** One transaction: the inbox rows of the events (in key order, so replicas lock alike), then `apply` on the fresh ones. */
  const commit = async (
    workspaceId: string | null,
    events: CheckedEvent<N, C>[],
    apply: (trx: Knex.Transaction, fresh: CheckedEvent<N, C>[]) => Promise<void>,
  ): Promise<void> => {
    const sorted = [...events].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const run = async (trx: Knex.Transaction): Promise<number> => {
      const fresh = (
        await trx.raw(
          `insert into inbox (consumer, event_id, workspace_id, type)
         select ?, * from unnest(?::uuid[], ?::uuid[], ?::text[])
         on conflict (consumer, event_id) do nothing returning event_id`,
          [name, sorted.map((e) => e.id), sorted.map((e) => e.workspaceId), sorted.map((e) => e.type)],
        )
      ).rows as { event_id: string }[];
      if (fresh.length === 0) return 0; // handled before: effect already committed
      const ids = new Set(fresh.map((r) => r.event_id));
      const todo = events.filter((e) => ids.has(e.id));
      await apply(trx, todo);
      return todo.length;
    };
    const n = workspaceId === null ? await withSystem(db, run) : await withTenant(db, { workspaceId }, run);
    handled += n;
    if (n > 0) eventsHandled.inc({ consumer: name }, n);
    lastActivity = Date.now();
  };

  /**
   * Redelivery with back-off, or the dead-letter stream once the deliveries are used up. A transient failure
   * (no connection in time, a dropped connection, a deadlock: `isTransientError`) is retried without limit: it
   * says nothing about the event, and dead-lettering it would leave a read model short of an entry for good.
   */
  const failed = async (items: readonly Item<N, C>[], err: unknown): Promise<void> => {
    const transient = isTransientError(err);
    eventFailures.inc({ consumer: name, transient: String(transient) }, items.length);
    for (const { msg, event } of items) {
      const log = { err, eventId: event.id, type: event.type, consumer: name, deliveries: msg.deliveryCount, transient };
      if (!transient && msg.deliveryCount >= maxDeliver) {
        logger.error(log, 'event failed repeatedly; dead-lettering');
        await givenUp(event, err);
        await deadLetter(msg, err, event.id);
      } else {
        logger.warn(log, 'event handler failed; will retry');
        msg.nak(Math.min(30_000, 250 * 2 ** msg.deliveryCount));
      }
    }
  };

  const givenUp = async (event: ReceivedEvent<N>, err: unknown): Promise<void> => {
    if (!options.onDeadLetter) return;
    try {
      await options.onDeadLetter(event, err);
    } catch (hookErr) {
      logger.error({ err: hookErr, eventId: event.id, type: event.type, consumer: name }, 'dead-letter hook failed');
    }
  };

  const deadLetter = async (msg: BusMessage, err: unknown, id: string): Promise<void> => {
    const headers = { ...msg.headers, 'll-error': String((err as Error)?.message ?? err).slice(0, 500) };
    await bus.publish(deadLetterSubject(name), msg.data, { msgId: `dead:${name}:${id}`, headers });
    deadLetters.inc({ consumer: name });
    msg.term();
  };

  const processOne = async (item: Item<N, C>): Promise<void> => {
    const { msg, event } = item;
    const parent = propagation.extract(context.active(), msg.headers);
    await context.with(parent, () =>
      tracer.startActiveSpan(
        `consume ${event.type}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject, 'messaging.message.id': event.id, 'ledgerline.consumer': name },
        },
        async (span) => {
          try {
            const acrossTenants = batch?.acrossTenants === true && batchTypes.has(event.type);
            await commit(acrossTenants ? null : event.workspaceId, [event], (trx, [fresh]) => handleOne(trx, fresh as CheckedEvent<N, C>));
            await msg.ack();
          } catch (err) {
            span.recordException(err as Error);
            await failed([item], err);
          } finally {
            span.end();
          }
        },
      ),
    );
  };

  /** One batch (or one workspace's part of it) in one transaction; on failure, each event again on its own. */
  const applyGroup = async (workspaceId: string | null, items: Item<N, C>[]): Promise<void> => {
    // The same event twice in one batch (a redelivery racing the first) is applied once and acknowledged twice.
    const unique = [...new Map(items.map((i) => [i.event.id, i.event])).values()];
    try {
      await tracer.startActiveSpan(
        'consume batch',
        { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.batch.message_count': items.length, 'ledgerline.consumer': name } },
        async (span) => {
          try {
            await commit(workspaceId, unique, (trx, fresh) => batch!.handle(trx, fresh));
          } catch (err) {
            span.recordException(err as Error);
            throw err;
          } finally {
            span.end();
          }
        },
      );
    } catch (err) {
      // One by one only isolates a bad event; when the database was the trouble, the whole batch waits and comes back.
      if (unique.length === 1 || isTransientError(err)) return failed(items, err);
      logger.warn({ err, size: unique.length, consumer: name }, 'batch failed; applying its events one by one');
      for (const item of items) await processOne(item);
      return;
    }
    await Promise.all(items.map((i) => i.msg.ack().catch(() => undefined)));
  };

  const batcher =
    batch &&
    new MessageBatcher<Item<N, C>>({
      size: batch.size,
      waitMs: batch.waitMs ?? 5,
      apply: async (items) => {
        try {
          if (batch.acrossTenants) return await applyGroup(null, items);
          const byWorkspace = new Map<string, Item<N, C>[]>();
          for (const item of items) byWorkspace.set(item.event.workspaceId, [...(byWorkspace.get(item.event.workspaceId) ?? []), item]);
          for (const [workspaceId, group] of byWorkspace) await applyGroup(workspaceId, group);
        } finally {
          pending -= items.length;
        }
      },
    });

  const sub = await bus.subscribe({ durable: name, subjects: types.map(eventSubject), maxDeliver: UNLIMITED_DELIVERIES, concurrency }, async (msg) => {
    lastActivity = Date.now();
    if (msg.deliveryCount > 1) eventRedeliveries.inc({ consumer: name });
    let event: ReceivedEvent<N>;
    try {
      const env = fromBinary(EventEnvelopeSchema, msg.data);
      event = {
        id: env.id,
        type: env.type,
        workspaceId: env.workspaceId,
        source: env.source,
        occurredAt: env.occurredAt ? timestampDate(env.occurredAt) : new Date(0),
        payload: env.payload,
      } as ReceivedEvent<N>;
    } catch (err) {
      logger.error({ err, subject: msg.subject, consumer: name }, 'undecodable event; dead-lettering');
      return deadLetter(msg, err, `undecodable:${crypto.randomUUID()}`);
    }
    let checked: C;
    try {
      checked = check ? check(event) : (undefined as C);
    } catch (err) {
      logger.error({ err, eventId: event.id, type: event.type, consumer: name }, 'invalid event; dead-lettering');
      await givenUp(event, err);
      return deadLetter(msg, err, event.id);
    }
    const item: Item<N, C> = { msg, event: { ...event, checked } as CheckedEvent<N, C> };
    pending++;
    if (batcher && batchTypes.has(event.type)) return batcher.push(item);
    try {
      await processOne(item);
    } finally {
      pending--;
    }
  });

  const lag = () => (sub.lag ? sub.lag() : Promise.resolve({ pending: 0, unacknowledged: 0 }));
  const removers = [
    consumerPending.add(async () => [{ labels: { consumer: name }, value: (await lag()).pending }]),
    consumerUnacknowledged.add(async () => [{ labels: { consumer: name }, value: (await lag()).unacknowledged }]),
  ];
  const removeProbes = () => removers.forEach((remove) => remove());

  return {
    name,
    get handledCount() {
      return handled;
    },
    get idleMs() {
      return pending > 0 ? 0 : Date.now() - lastActivity;
    },
    async stop() {
      removeProbes();
      await sub.stop();
      await batcher?.flush();
    },
  };
}
