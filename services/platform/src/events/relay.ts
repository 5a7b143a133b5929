import type { Knex } from 'knex';
import type { PoolClient } from 'pg';
import type { Logger } from 'pino';
import { withSystem } from '../db/tenancy.js';
import { eventSubject, type EventBus } from './bus.js';
import { eventsPublished, outboxBacklog, outboxOldestSeconds } from './metrics.js';

export interface RelayOptions {
  db: Knex;
  /** Labels the relay's metrics. */
  service?: string;
  bus: EventBus;
  logger: Logger;
  batchSize?: number;
  /** Poll interval when no NOTIFY arrives (NOTIFY wakes it early). */
  idleMs?: number;
}

/**
 * Publishes committed outbox rows to JetStream in commit order, with Nats-Msg-Id = event id.
 * Rows are locked (SKIP LOCKED) so several relays can run; a row is marked published only after
 * JetStream acknowledged it, so a crash in between republishes it, and JetStream drops the duplicate.
 */
export class OutboxRelay {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private listener: { release(): void } | undefined;
  published = 0;
  private removeProbes: Array<() => void> = [];

  constructor(private readonly options: RelayOptions) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const service = this.options.service ?? 'unknown';
    this.removeProbes = [
      outboxBacklog.add(async () => [{ labels: { service }, value: (await this.backlog()).rows }]),
      outboxOldestSeconds.add(async () => [{ labels: { service }, value: (await this.backlog()).oldestSeconds }]),
    ];
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    for (const remove of this.removeProbes) remove();
    this.removeProbes = [];
    this.running = false;
    this.wake?.();
    await this.loop;
    this.listener?.release();
    this.listener = undefined;
  }

  private async listen(): Promise<void> {
    const client = (await this.options.db.client.acquireConnection()) as PoolClient;
    await client.query('listen outbox');
    client.on('notification', () => this.wake?.());
    this.listener = {
      release: () => {
        void client
          .query('unlisten outbox')
          .catch(() => undefined)
          .finally(() => this.options.db.client.releaseConnection(client));
      },
    };
  }

  /** Rows not yet published and the age of the oldest (0 when none): the metrics' backlog, read when scraped. */
  async backlog(): Promise<{ rows: number; oldestSeconds: number }> {
    return withSystem(this.options.db, async (trx) => {
      const row = (
        await trx.raw(
          `select count(*)::int as rows, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest from outbox where published_at is null`,
        )
      ).rows[0] as { rows: number; oldest: number };
      return { rows: row.rows, oldestSeconds: row.oldest };
    });
  }

  /** Publishes one batch; returns how many rows it published. */
  async publishBatch(): Promise<number> {
    const { db, bus, batchSize = 500 } = this.options;
    return withSystem(db, async (trx) => {
      const rows: { id: string; type: string; envelope: Buffer; headers: Record<string, string> }[] = await trx('outbox')
        .select('id', 'type', 'envelope', 'headers')
        .whereNull('published_at')
        .orderBy('seq')
        .limit(batchSize)
        .forUpdate()
        .skipLocked();
      // Sent back to back on one connection (JetStream stores them in this order), acknowledged together:
      // one round trip per batch instead of one per event. A failure leaves the whole batch unmarked; its
      // re-publication is dropped by JetStream's dedupe on Nats-Msg-Id.
      await Promise.all(rows.map((row) => bus.publish(eventSubject(row.type), new Uint8Array(row.envelope), { msgId: row.id, headers: row.headers })));
      if (rows.length > 0) {
        await trx('outbox')
          .whereIn(
            'id',
            rows.map((r) => r.id),
          )
          .update({ published_at: trx.fn.now() });
      }
      return rows.length;
    });
  }

  private async run(): Promise<void> {
    const { logger, idleMs = 500 } = this.options;
    let failures = 0;
    while (this.running) {
      try {
        const n = await this.publishBatch();
        this.published += n;
        if (n > 0) eventsPublished.inc({ service: this.options.service ?? 'unknown' }, n);
        failures = 0;
        if (n > 0) continue;
      } catch (err) {
        failures++;
        logger.error({ err, failures }, 'outbox relay failed; retrying');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, failures ? Math.min(10_000, 200 * 2 ** failures) : idleMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
