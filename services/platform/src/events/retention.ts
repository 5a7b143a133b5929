import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { withSystem } from '../db/tenancy.js';
import { retentionDeleted } from './metrics.js';

/**
 * A kind of row that may go once it is old enough: relayed outbox rows, processed inbox ids, expired
 * sessions, old webhook deliveries. `where` is an SQL condition on the table's rows (it may use `now()`);
 * rows are deleted by `key` in slices, so a large backlog never holds one long lock or one huge transaction.
 */
export interface RetentionRule {
  /** Names the rule in logs and metrics (`outbox`, `inbox`, `sessions`...). */
  name: string;
  table: string;
  where: string;
}

/** The chassis' own rules, from the base settings (RELIABILITY 6, 7: kept long enough for redelivery). */
/** Every service database has both tables (the platform migrations); a service that publishes nothing has an empty outbox. */
export function eventRetentionRules(o: { outboxKeepHours: number; inboxKeepDays: number }): RetentionRule[] {
  const rules: RetentionRule[] = [];
  // A relayed row is in JetStream (the relay marks it only after the server acknowledged it); it is kept a
  // while for tracing a delivery, then goes, so the table and its index stay the size of the backlog.
  rules.push({ name: 'outbox', table: 'outbox', where: `published_at < now() - interval '${hours(o.outboxKeepHours)} hours'` });
  // An inbox id must outlive every redelivery of its event: JetStream redelivers an unacknowledged message
  // whenever the consumer comes back, so the window is the longest outage a consumer may have.
  rules.push({ name: 'inbox', table: 'inbox', where: `handled_at < now() - interval '${hours(o.inboxKeepDays * 24)} hours'` });
  return rules;
}

function hours(n: number): number {
  if (!Number.isFinite(n) || n < 0) throw new Error(`a retention period must be a non-negative number, not ${n}`);
  return n;
}

export interface RetentionOptions {
  /** The system role's pool: the rows of every tenant. */
  db: Knex;
  logger: Logger;
  service: string;
  rules: RetentionRule[];
  intervalMs: number;
  /** Rows per DELETE statement. */
  slice?: number;
}

/**
 * Runs the rules now and then (first a minute after start, so a starting fleet does not sweep at once).
 * Each slice is its own statement: a stop or a crash between slices loses nothing but time.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: RetentionOptions) {}

  async start(): Promise<void> {
    if (this.o.rules.length === 0) return;
    this.stopped = false;
    this.schedule(Math.min(60_000, this.o.intervalMs));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep()
        .then(() => undefined)
        .catch((err: unknown) => this.o.logger.warn({ err }, 'retention sweep failed; will try again'))
        .finally(() => this.schedule(this.o.intervalMs));
    }, ms);
    this.timer.unref();
  }

  /** One pass over every rule; answers the rows deleted per rule. */
  async sweep(): Promise<Record<string, number>> {
    const { db, rules, slice = 5000, service } = this.o;
    const deleted: Record<string, number> = {};
    for (const rule of rules) {
      let removed = 0;
      for (;;) {
        const n = await withSystem(db, async (trx) => {
          const res = await trx.raw(`delete from ${rule.table} where ctid = any(array(select ctid from ${rule.table} where ${rule.where} limit ${slice}))`);
          return (res as { rowCount: number }).rowCount;
        });
        removed += n;
        if (n > 0) retentionDeleted.inc({ service, rule: rule.name }, n);
        if (n < slice || this.stopped) break;
      }
      deleted[rule.name] = removed;
    }
    const total = Object.values(deleted).reduce((a, b) => a + b, 0);
    if (total > 0) this.o.logger.info({ deleted }, 'retention sweep removed old rows');
    return deleted;
  }
}
