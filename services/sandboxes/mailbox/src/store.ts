/** One message as the mailbox keeps it and as `GET /api/messages` returns it. */
export interface MailMessage {
  /** A random UUID given when the message arrives. */
  id: string;
  /** The `From:` header as written (`Name <address>`), or the envelope sender when there is none. */
  from: string;
  /** Every envelope recipient (RCPT TO, so Cc and Bcc too), in the order given, without duplicates. */
  to: string[];
  subject: string;
  /** The plain-text part; empty when the message has none. */
  text: string;
  /** The HTML part as sent; null when the message has none. It is never rendered as HTML by the mailbox. */
  html: string | null;
  /** When the message arrived, ISO-8601 UTC. */
  date: string;
}

/** In-memory messages, newest first, keeping at most `max` (the oldest are dropped). */
export class MessageStore {
  readonly #max: number;
  #messages: MailMessage[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxMessages must be a positive integer, got ${max}`);
    this.#max = max;
  }

  add(message: MailMessage): void {
    this.#messages.unshift(message);
    if (this.#messages.length > this.#max) this.#messages.length = this.#max;
  }

  /** Newest first; with `to`, only messages with that recipient (compared case-insensitively). */
  list(to?: string): MailMessage[] {
    const wanted = to?.trim().toLowerCase();
    if (!wanted) return [...this.#messages];
    return this.#messages.filter((m) => m.to.some((address) => address.toLowerCase() === wanted));
  }

  get(id: string): MailMessage | undefined {
    return this.#messages.find((m) => m.id === id);
  }

  clear(): void {
    this.#messages = [];
  }
}
