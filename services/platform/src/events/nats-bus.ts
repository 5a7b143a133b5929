import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import {
  DEAD_LETTER_STREAM,
  DEAD_LETTER_SUBJECT_PREFIX,
  EVENT_SUBJECT_PREFIX,
  EVENTS_STREAM,
  isDeadLetterSubject,
  type BusMessage,
  type EventBus,
  type PublishOptions,
  type SubscribeOptions,
  type Subscription,
  type TailMessage,
} from './bus.js';

export interface NatsBusOptions {
  url: string;
  name: string;
  logger: Logger;
  /** Namespace for streams and subjects so parallel test files never share them ('' in production). */
  namespace?: string;
  streams?: StreamSettings;
}

/** How the streams are kept: replicas on a NATS cluster, and how long a dead letter stays. */
export interface StreamSettings {
  replicas: number;
  deadLetterKeepDays: number;
}

const DEFAULT_STREAMS: StreamSettings = { replicas: 1, deadLetterKeepDays: 30 };

/** Streams are created idempotently by whichever process connects first. */
function streamName(base: string, ns: string): string {
  return ns ? `${ns.toUpperCase()}_${base}` : base;
}

/**
 * The events stream keeps every event (a read model's new generation replays it from the start); the dead-letter
 * stream keeps a failed event `deadLetterKeepDays`. Created with the settings by whichever process connects first;
 * a stream created with other settings is brought to them (a server that cannot, e.g. a single server asked for 3
 * replicas, keeps what it has and the process says so).
 */
async function ensureStreams(jsm: JetStreamManager, ns: string, settings: StreamSettings, logger: Logger): Promise<void> {
  const prefix = ns ? `${ns}.` : '';
  const streams = [
    { name: streamName(EVENTS_STREAM, ns), subjects: [`${prefix}${EVENT_SUBJECT_PREFIX}>`], max_age: 0 },
    {
      name: streamName(DEAD_LETTER_STREAM, ns),
      subjects: [`${prefix}${DEAD_LETTER_SUBJECT_PREFIX}>`],
      max_age: nanos(settings.deadLetterKeepDays * 86_400_000),
    },
  ];
  for (const s of streams) {
    const wanted = { num_replicas: settings.replicas, max_age: s.max_age };
    let info;
    try {
      info = await jsm.streams.info(s.name);
    } catch {
      try {
        await jsm.streams.add({ name: s.name, subjects: s.subjects, duplicate_window: nanos(2 * 60_000), ...wanted });
        continue;
      } catch (err) {
        // Another process created it in between.
        info = await jsm.streams.info(s.name).catch(() => {
          throw err;
        });
      }
    }
    if (info.config.num_replicas !== wanted.num_replicas || info.config.max_age !== wanted.max_age) {
      await jsm.streams
        .update(s.name, { ...info.config, ...wanted })
        .catch((err: unknown) => logger.warn({ err, stream: s.name, wanted }, 'could not bring the stream to its settings; it keeps its own'));
    }
  }
}

export class NatsEventBus implements EventBus {
  private readonly stoppers = new Set<() => Promise<void>>();

  private constructor(
    readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly logger: Logger,
    private readonly ns: string,
  ) {}

  static async connect({ url, name, logger, namespace = '', streams = DEFAULT_STREAMS }: NatsBusOptions): Promise<NatsEventBus> {
    const nc = await connect({ servers: url, name, timeout: 3_000, reconnect: true, maxReconnectAttempts: -1 });
    const jsm = await jetstreamManager(nc);
    await ensureStreams(jsm, namespace, streams, logger);
    return new NatsEventBus(nc, jetstream(nc), jsm, logger, namespace);
  }

  private subject(subject: string): string {
    return this.ns ? `${this.ns}.${subject}` : subject;
  }

  private unsubject(subject: string): string {
    return this.ns ? subject.slice(this.ns.length + 1) : subject;
  }

  async publish(subject: string, data: Uint8Array, { msgId, headers }: PublishOptions): Promise<void> {
    const h = natsHeaders();
    for (const [k, v] of Object.entries(headers ?? {})) h.set(k, v);
    await this.js.publish(this.subject(subject), data, { msgID: msgId, headers: h, timeout: 5_000 });
  }

  async subscribe(options: SubscribeOptions, handler: (msg: BusMessage) => Promise<void>): Promise<Subscription> {
    // NATS before 2.10 has no multi-subject filters: one durable consumer per subject.
    const subs = await Promise.all(
      options.subjects.map((subject, i) =>
        this.subscribeOne(options.subjects.length === 1 ? options.durable : `${options.durable}_${i}`, subject, options, handler),
      ),
    );
    return {
      stop: async () => void (await Promise.all(subs.map((s) => s.stop()))),
      lag: async () => {
        const lags = await Promise.all(subs.map((s) => s.lag?.() ?? { pending: 0, unacknowledged: 0 }));
        return lags.reduce((a, b) => ({ pending: a.pending + b.pending, unacknowledged: a.unacknowledged + b.unacknowledged }), {
          pending: 0,
          unacknowledged: 0,
        });
      },
    };
  }

  private async subscribeOne(durable: string, subject: string, options: SubscribeOptions, handler: (msg: BusMessage) => Promise<void>): Promise<Subscription> {
    const stream = streamName(isDeadLetterSubject(subject) ? DEAD_LETTER_STREAM : EVENTS_STREAM, this.ns);
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: this.subject(subject),
      max_deliver: options.maxDeliver ?? 5,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
    };
    try {
      await this.jsm.consumers.info(stream, durable);
      await this.jsm.consumers.update(stream, durable, { max_deliver: config.max_deliver, ack_wait: config.ack_wait });
    } catch {
      await this.jsm.consumers.add(stream, config);
    }
    const consumer = await this.js.consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const limit = Math.max(1, options.concurrency?.[subject] ?? 1);
    const inFlight = new Set<Promise<void>>();
    const loop = (async () => {
      for await (const m of messages) {
        const handled = this.handleOne(m, handler).finally(() => inFlight.delete(handled));
        inFlight.add(handled);
        if (inFlight.size >= limit) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    })();
    const stop = async () => {
      await messages.close();
      await loop;
    };
    this.stoppers.add(stop);
    return {
      stop: async () => {
        this.stoppers.delete(stop);
        await stop();
      },
      lag: async () => {
        const info = await this.jsm.consumers.info(stream, durable);
        return { pending: info.num_pending, unacknowledged: info.num_ack_pending };
      },
    };
  }

  /**
   * Core NATS subscriptions on the stream's subjects: JetStream's stored messages are published on them too, so each
   * tailing process gets each message once while it is subscribed; a handler's error is logged, never redelivered.
   */
  async tail(subjects: string[], handler: (msg: TailMessage) => void): Promise<Subscription> {
    const subs = subjects.map((subject) =>
      this.connection.subscribe(this.subject(subject), {
        callback: (err, m) => {
          if (err) return this.logger.warn({ err, subject }, 'live tail error');
          try {
            handler({ subject: this.unsubject(m.subject), data: m.data });
          } catch (handlerErr) {
            this.logger.error({ err: handlerErr, subject }, 'live tail handler failed');
          }
        },
      }),
    );
    // The subscriptions reach the server before the first publish this process then makes or waits for.
    await this.connection.flush();
    return { stop: async () => subs.forEach((s) => s.unsubscribe()) };
  }

  private async handleOne(m: JsMsg, handler: (msg: BusMessage) => Promise<void>): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [k, v] of m.headers ?? []) if (v[0] !== undefined) headers[k] = v[0];
    try {
      await handler({
        subject: this.unsubject(m.subject),
        data: m.data,
        headers,
        deliveryCount: m.info.deliveryCount,
        ack: async () => {
          await m.ackAck();
        },
        nak: (delayMs) => m.nak(delayMs),
        term: () => m.term(),
      });
    } catch (err) {
      // The handler decides ack/nak itself; anything escaping it is redelivered later.
      this.logger.error({ err, subject: m.subject }, 'event handler failed');
      m.nak(1_000);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.stoppers].map((s) => s()));
    this.stoppers.clear();
    await this.connection.drain().catch(() => undefined);
  }

  /** Removes every stream of a test namespace (events, dead letters, work queues). */
  async deleteStreams(): Promise<void> {
    if (!this.ns) throw new Error('refusing to delete the shared streams');
    const prefix = streamName('', this.ns);
    const names: string[] = [];
    for await (const name of this.jsm.streams.names()) if (name.startsWith(prefix)) names.push(name);
    for (const name of names) await this.jsm.streams.delete(name).catch(() => undefined);
  }
}
