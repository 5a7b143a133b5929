import { PassThrough } from 'node:stream';
import { fromBinary } from '@bufbuild/protobuf';
import { eventMessage, eventSubject, EventType, NatsEventBus, type EventBus, type Logger, type Subscription } from '@ledgerline/platform';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import type { GatewayConfig } from '../config.js';

/** What a bell is told: a notification of its user was stored (it then reads the list and counts as usual). */
export interface LiveNotice {
  id: string;
  type: string;
}

type Listener = (notice: LiveNotice) => void;

const keyOf = (workspaceId: string, userId: string) => `${workspaceId.toLowerCase()}|${userId.toLowerCase()}`;

/**
 * The gateway's side of the live bell (decision 0040): one live tail of `notification.created` per gateway process
 * (every replica gets every event; a bell is connected to one of them), dispatched to the open streams of the event's
 * user in its workspace. Started with the first stream; a stream opened while NATS is unreachable is a 503.
 */
export class LiveNotifications {
  private readonly listeners = new Map<string, Set<Listener>>();
  private tail: Promise<Subscription> | null = null;
  private ownBus: NatsEventBus | null = null;

  constructor(private readonly options: { config: GatewayConfig; logger: Logger; bus?: EventBus }) {}

  /** Streams open now (tests and metrics). */
  get openStreams(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  private async bus(): Promise<EventBus> {
    if (this.options.bus) return this.options.bus;
    const { config, logger } = this.options;
    this.ownBus ??= await NatsEventBus.connect({ url: config.NATS_URL, name: 'gateway-live', logger, namespace: config.NATS_NAMESPACE });
    return this.ownBus;
  }

  private start(): Promise<Subscription> {
    this.tail ??= this.bus()
      .then((bus) => bus.tail([eventSubject(EventType.NotificationCreated)], (msg) => this.dispatch(msg.data)))
      .catch((err: unknown) => {
        this.tail = null;
        throw err;
      });
    return this.tail;
  }

  private dispatch(data: Uint8Array): void {
    const env = fromBinary(EventEnvelopeSchema, data);
    if (env.type !== EventType.NotificationCreated) return;
    const n = eventMessage({ type: env.type, payload: env.payload });
    const set = this.listeners.get(keyOf(env.workspaceId, n.userId));
    if (!set) return;
    for (const listener of set) listener({ id: n.notificationId, type: n.type });
  }

  /** Subscribes a user's stream in a workspace; answers the function that ends it. */
  async listen(workspaceId: string, userId: string, listener: Listener): Promise<() => void> {
    await this.start();
    const key = keyOf(workspaceId, userId);
    const set = this.listeners.get(key) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  async close(): Promise<void> {
    const tail = this.tail;
    this.tail = null;
    await tail?.then((s) => s.stop()).catch(() => undefined);
    await this.ownBus?.close();
    this.ownBus = null;
  }
}

/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html): a name, an id, one data line. */
export const sseEvent = (event: string, data: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A stream body that writes a comment every `heartbeatMs` (proxies close idle connections) until `end`. */
export function sseBody(heartbeatMs: number): { body: PassThrough; write: (chunk: string) => void; end: () => void } {
  const body = new PassThrough();
  const timer = setInterval(() => body.write(': keep-alive\n\n'), heartbeatMs);
  timer.unref();
  return {
    body,
    write: (chunk) => void body.write(chunk),
    end: () => {
      clearInterval(timer);
      body.end();
    },
  };
}
