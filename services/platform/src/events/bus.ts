/**
 * The event bus the services talk through. Production and every test use NATS JetStream; an
 * in-process implementation of the same interface exists only for single-machine development when
 * no NATS server can be started (see memory-bus.ts).
 */
export interface BusMessage {
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  /** 1 on first delivery. */
  deliveryCount: number;
  ack(): Promise<void>;
  /** Redeliver after `delayMs`. */
  nak(delayMs?: number): void;
  /** Never redeliver. */
  term(): void;
}

export interface PublishOptions {
  /** JetStream de-duplicates messages with the same id inside the stream's duplicate window. */
  msgId: string;
  headers?: Record<string, string>;
}

export interface SubscribeOptions {
  /** Durable consumer name: one per consuming purpose; replicas share it (work is split). */
  durable: string;
  subjects: string[];
  /** Deliveries before the server stops redelivering (default 5); -1: no limit. */
  maxDeliver?: number;
  ackWaitMs?: number;
  /**
   * Messages of a subject handled at once, by subject (default 1: in order, one after another). Only for
   * handlers that do not depend on delivery order within the subject. The in-memory bus ignores it.
   */
  concurrency?: Record<string, number>;
}

export interface ConsumerLag {
  /** Messages of the consumer's subjects not yet delivered to it. */
  pending: number;
  /** Messages delivered and not yet acknowledged. */
  unacknowledged: number;
}

export interface Subscription {
  stop(): Promise<void>;
  /** How far behind the durable consumer is (the metrics read it when scraped). */
  lag?(): Promise<ConsumerLag>;
}

/** A message a live tail sees: nothing to acknowledge, nothing redelivered. */
export interface TailMessage {
  subject: string;
  data: Uint8Array;
}

export interface EventBus {
  publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<void>;
  subscribe(options: SubscribeOptions, handler: (msg: BusMessage) => Promise<void>): Promise<Subscription>;
  /**
   * A live tail of the subjects: every process that tails gets every message published from now on (a fan-out, unlike
   * a durable consumer whose replicas split the work); no cursor, no acknowledgement, no replay. For telling open
   * screens that something changed (the gateway's notification stream), never for work that must happen.
   */
  tail(subjects: string[], handler: (msg: TailMessage) => void): Promise<Subscription>;
  close(): Promise<void>;
}

export const EVENTS_STREAM = 'LEDGERLINE_EVENTS';
export const DEAD_LETTER_STREAM = 'LEDGERLINE_DEAD_LETTERS';
export const EVENT_SUBJECT_PREFIX = 'events.';
export const DEAD_LETTER_SUBJECT_PREFIX = 'dead.';

export function eventSubject(type: string): string {
  return `${EVENT_SUBJECT_PREFIX}${type}`;
}

/** Where a consumer's events that kept failing (or could not be read) go: `dead.<consumer>`. */
export function deadLetterSubject(consumer: string): string {
  return `${DEAD_LETTER_SUBJECT_PREFIX}${consumer}`;
}

export function isDeadLetterSubject(subject: string): boolean {
  return subject.startsWith(DEAD_LETTER_SUBJECT_PREFIX);
}
