import type { BusMessage, EventBus, PublishOptions, SubscribeOptions, Subscription, TailMessage } from './bus.js';

interface Stored {
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
}

function matches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * In-process bus with the same contract (de-duplication by msgId, durable cursors, redelivery),
 * for running every service in one process on a machine without NATS. Not for tests or production:
 * it keeps nothing across restarts.
 */
export class MemoryEventBus implements EventBus {
  private readonly log: Stored[] = [];
  private readonly seen = new Set<string>();
  private readonly wakers = new Set<() => void>();
  private closed = false;

  private readonly tails = new Set<{ subjects: string[]; handler: (msg: TailMessage) => void }>();

  async publish(subject: string, data: Uint8Array, { msgId, headers }: PublishOptions): Promise<void> {
    if (this.seen.has(msgId)) return;
    this.seen.add(msgId);
    this.log.push({ subject, data, headers: { ...headers, 'Nats-Msg-Id': msgId } });
    for (const wake of this.wakers) wake();
    for (const t of this.tails) {
      if (!t.subjects.some((p) => matches(p, subject))) continue;
      try {
        t.handler({ subject, data });
      } catch {
        // A tail's handler failing is its own business: nothing is redelivered.
      }
    }
  }

  async tail(subjects: string[], handler: (msg: TailMessage) => void): Promise<Subscription> {
    const t = { subjects, handler };
    this.tails.add(t);
    return { stop: async () => void this.tails.delete(t) };
  }

  async subscribe(options: SubscribeOptions, handler: (msg: BusMessage) => Promise<void>): Promise<Subscription> {
    let cursor = 0;
    let inFlight = 0;
    let running = true;
    let wake: () => void = () => undefined;
    const waker = () => wake();
    this.wakers.add(waker);
    const loop = (async () => {
      while (running && !this.closed) {
        const next = this.log[cursor];
        if (!next) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        cursor++;
        if (!options.subjects.some((p) => matches(p, next.subject))) continue;
        inFlight = 1;
        const deliveries = options.maxDeliver === -1 ? Infinity : (options.maxDeliver ?? 5);
        for (let delivery = 1; delivery <= deliveries && running && !this.closed; delivery++) {
          let outcome: 'ack' | 'nak' | 'term' = 'nak';
          let delayMs = 0;
          await handler({
            ...next,
            deliveryCount: delivery,
            ack: async () => {
              outcome = 'ack';
            },
            nak: (delay?: number) => {
              outcome = 'nak';
              delayMs = delay ?? 0;
            },
            term: () => {
              outcome = 'term';
            },
          }).catch(() => undefined);
          if (outcome !== 'nak') break;
          // The back-off is kept short: in one process a redelivery waits for nothing but the handler's trouble to pass.
          if (delayMs > 0) await new Promise((r) => setTimeout(r, Math.min(delayMs, 1_000)));
        }
        inFlight = 0;
      }
    })();
    return {
      stop: async () => {
        running = false;
        this.wakers.delete(waker);
        wake();
        await loop;
      },
      lag: async () => ({
        pending: this.log.slice(cursor).filter((m) => options.subjects.some((p) => matches(p, m.subject))).length,
        unacknowledged: inFlight,
      }),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.wakers) wake();
  }
}
