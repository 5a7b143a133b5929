import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { EventBus, Subscription } from '../events/bus.js';
import { NatsEventBus } from '../events/nats-bus.js';

/**
 * A job queue for background work (bank sync, categorisation, ...): each message is handed to one
 * worker at a time, redelivered after `ackWaitMs` if the worker dies, and removed once acknowledged.
 * On NATS it is a JetStream stream with WorkQueue retention and one durable pull consumer (NATS 2.9
 * allows one consumer per subject filter on such a stream). The job's state of record (status,
 * progress, attempts) belongs in the owning service's database; the message only says "run job X".
 */
export interface WorkItem {
  data: Uint8Array;
  /** 1 on first delivery. */
  deliveryCount: number;
  ack(): Promise<void>;
  /** Redeliver after `delayMs`. */
  nak(delayMs?: number): void;
  /** Never redeliver. */
  term(): void;
  /** Still working: restarts the ack-wait clock (call it between pages of long work). */
  working(): void;
}

export interface WorkQueueOptions {
  /** Queue name, lower-case: stream `JOBS_<NAME>`, subject `jobs.<name>`. */
  name: string;
  /** A worker that stays silent this long is presumed dead and the job is redelivered. */
  ackWaitMs?: number;
  /** Deliveries before JetStream gives up on a message (the service decides retries before that). */
  maxDeliver?: number;
  /** Jobs one process runs at once. */
  concurrency?: number;
  /** The bus's namespace (config NATS_NAMESPACE): the stream and subject get the same prefix as events. */
  namespace?: string;
  logger: Logger;
}

export interface WorkQueue {
  enqueue(data: Uint8Array, options?: { msgId?: string }): Promise<void>;
  process(handler: (item: WorkItem) => Promise<void>): Promise<Subscription>;
  /** Stops the workers; with `deleteStream` also removes the stream (test namespaces only). */
  close(options?: { deleteStream?: boolean }): Promise<void>;
}

const NAME = /^[a-z][a-z0-9_-]{0,40}$/;

/** The work queue on the bus's transport: JetStream for `NatsEventBus`, in-process otherwise. */
export async function createWorkQueue(bus: EventBus, options: WorkQueueOptions): Promise<WorkQueue> {
  if (!NAME.test(options.name)) throw new Error(`Bad work queue name: ${options.name}`);
  if (bus instanceof NatsEventBus) return JetStreamWorkQueue.create(bus, options);
  options.logger.warn({ queue: options.name }, 'in-process work queue: jobs do not survive a restart (single-machine development only)');
  return new MemoryWorkQueue(options);
}

class JetStreamWorkQueue implements WorkQueue {
  private readonly stoppers = new Set<() => Promise<void>>();

  private constructor(
    private readonly bus: NatsEventBus,
    private readonly options: WorkQueueOptions,
    private readonly stream: string,
    private readonly subject: string,
    private readonly durable: string,
  ) {}

  static async create(bus: NatsEventBus, options: WorkQueueOptions): Promise<JetStreamWorkQueue> {
    const ns = options.namespace ?? '';
    const stream = `${ns ? `${ns.toUpperCase()}_` : ''}JOBS_${options.name.toUpperCase().replace(/-/g, '_')}`;
    const subject = `${ns ? `${ns}.` : ''}jobs.${options.name}`;
    const durable = `worker_${options.name.replace(/-/g, '_')}`;
    const jsm = await jetstreamManager(bus.connection);
    try {
      await jsm.streams.info(stream);
    } catch {
      try {
        await jsm.streams.add({ name: stream, subjects: [subject], retention: RetentionPolicy.Workqueue, duplicate_window: nanos(2 * 60_000) });
      } catch (err) {
        await jsm.streams.info(stream).catch(() => {
          throw err;
        });
      }
    }
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: subject,
      max_deliver: options.maxDeliver ?? -1,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
    };
    try {
      await jsm.consumers.info(stream, durable);
      await jsm.consumers.update(stream, durable, { max_deliver: config.max_deliver, ack_wait: config.ack_wait });
    } catch {
      try {
        await jsm.consumers.add(stream, config);
      } catch (err) {
        await jsm.consumers.info(stream, durable).catch(() => {
          throw err;
        });
      }
    }
    return new JetStreamWorkQueue(bus, options, stream, subject, durable);
  }

  async enqueue(data: Uint8Array, options: { msgId?: string } = {}): Promise<void> {
    await jetstream(this.bus.connection).publish(this.subject, data, { ...(options.msgId ? { msgID: options.msgId } : {}), timeout: 5_000 });
  }

  async process(handler: (item: WorkItem) => Promise<void>): Promise<Subscription> {
    const concurrency = Math.max(1, this.options.concurrency ?? 2);
    const consumer = await jetstream(this.bus.connection).consumers.get(this.stream, this.durable);
    const messages = await consumer.consume({ max_messages: concurrency });
    const running = new Set<Promise<void>>();
    const loop = (async () => {
      for await (const m of messages) {
        const run = handler({
          data: m.data,
          deliveryCount: m.info.deliveryCount,
          ack: async () => void (await m.ackAck()),
          nak: (delayMs) => m.nak(delayMs),
          term: () => m.term(),
          working: () => m.working(),
        }).catch((err: unknown) => {
          this.options.logger.error({ err, queue: this.options.name }, 'job handler failed; redelivering');
          m.nak(1_000);
        });
        const tracked = run.finally(() => running.delete(tracked));
        running.add(tracked);
        if (running.size >= concurrency) await Promise.race(running);
      }
    })();
    const stop = async () => {
      await messages.close();
      await loop;
      await Promise.all(running);
    };
    this.stoppers.add(stop);
    return {
      stop: async () => {
        this.stoppers.delete(stop);
        await stop();
      },
    };
  }

  async close({ deleteStream = false } = {}): Promise<void> {
    await Promise.all([...this.stoppers].map((s) => s()));
    this.stoppers.clear();
    if (deleteStream) {
      if (!this.options.namespace) throw new Error('refusing to delete a shared work queue');
      const jsm = await jetstreamManager(this.bus.connection);
      await jsm.streams.delete(this.stream).catch(() => undefined);
    }
  }
}

/** Same contract in one process, for development without NATS (EVENT_BUS=memory). */
class MemoryWorkQueue implements WorkQueue {
  private readonly pending: { data: Uint8Array; deliveries: number }[] = [];
  private readonly seen = new Set<string>();
  private wake: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly options: WorkQueueOptions) {}

  async enqueue(data: Uint8Array, { msgId }: { msgId?: string } = {}): Promise<void> {
    if (msgId) {
      if (this.seen.has(msgId)) return;
      this.seen.add(msgId);
    }
    this.pending.push({ data, deliveries: 0 });
    this.wake?.();
  }

  async process(handler: (item: WorkItem) => Promise<void>): Promise<Subscription> {
    this.stopped = false;
    const loop = (async () => {
      while (!this.stopped) {
        const next = this.pending.shift();
        if (!next) {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          continue;
        }
        next.deliveries++;
        let outcome: { kind: 'ack' | 'term' } | { kind: 'nak'; delayMs: number } = { kind: 'nak', delayMs: 1_000 };
        await handler({
          data: next.data,
          deliveryCount: next.deliveries,
          ack: async () => void (outcome = { kind: 'ack' }),
          nak: (delayMs = 0) => void (outcome = { kind: 'nak', delayMs }),
          term: () => void (outcome = { kind: 'term' }),
          working: () => undefined,
        }).catch((err: unknown) => this.options.logger.error({ err, queue: this.options.name }, 'job handler failed; redelivering'));
        const o = outcome as typeof outcome;
        if (o.kind === 'nak')
          setTimeout(() => {
            this.pending.push(next);
            this.wake?.();
          }, o.delayMs).unref();
      }
    })();
    return {
      stop: async () => {
        this.stopped = true;
        this.wake?.();
        await loop;
      },
    };
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.wake?.();
  }
}
