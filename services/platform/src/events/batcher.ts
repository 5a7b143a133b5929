/**
 * Gathers received messages into batches for handlers that apply many events per database transaction
 * (the reporting projector, the ledger's bank transaction ingest): a full batch is applied before the
 * next message is taken (back-pressure), a partial one `waitMs` after its first message; batches are
 * applied one at a time, in arrival order. What a batch does on failure is the `apply` callback's business.
 */
export class MessageBatcher<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly o: { size: number; waitMs: number; apply(batch: T[]): Promise<void> }) {}

  get size(): number {
    return this.pending.length;
  }

  /** Adds an item; resolves once it is queued, or once its batch is applied when it filled one. */
  async push(item: T): Promise<void> {
    this.pending.push(item);
    if (this.pending.length >= this.o.size) await this.flush();
    else this.flushSoon();
  }

  private flushSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.o.waitMs);
  }

  /** Applies what is pending (serialised after the batches before it); resolves when it is applied. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    this.chain = this.chain.then(() => (batch.length ? this.o.apply(batch) : undefined));
    return this.chain;
  }
}
