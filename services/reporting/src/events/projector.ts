import { fromBinary } from '@bufbuild/protobuf';
import { eventSubject, isUuid, MessageBatcher, withSystem, type BusMessage, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { EntryPostedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import { isIsoDate } from '../domain/dates.js';
import { originOf } from '../domain/origins.js';
import { applyEntries, type PostedEntry } from '../store/balances.js';

export const ENTRY_POSTED = 'entry.posted';
const SUBJECT = eventSubject(ENTRY_POSTED);
const DEAD_PREFIX = 'dead.';

/** The durable consumer of a generation: a rebuild starts a new one, which JetStream delivers from the stream's start. */
export const durableName = (generation: number) => (generation === 0 ? 'reporting' : `reporting_g${generation}`);

interface Pending {
  msg: BusMessage;
  eventId: string;
  workspaceId: string;
  entry: PostedEntry;
}

/** A payload is checked like user input: a bad one fails loudly (dead letter), never half-applied. */
export function decodeEntry(eventId: string, workspaceId: string, payload: Uint8Array): PostedEntry {
  const p = fromBinary(EntryPostedSchema, payload);
  const problems: string[] = [];
  if (!isUuid(workspaceId)) problems.push('workspace_id');
  if (!isUuid(p.entryId)) problems.push('entry_id');
  if (!isIsoDate(p.date)) problems.push('date');
  if (p.lines.length < 2) problems.push('lines');
  if (p.billerId && !isUuid(p.billerId)) problems.push('biller_id');
  if (p.reversesEntryId && !isUuid(p.reversesEntryId)) problems.push('reverses_entry_id');
  // The money types read the origin: an entry of a type we do not know would be counted under none.
  const origin = originOf(p.sourceType);
  if (origin === undefined) problems.push('source_type');
  let debit = 0;
  let credit = 0;
  const lines = p.lines.map((l) => {
    const amount = Number(l.amountCents);
    if (!isUuid(l.accountId) || (l.direction !== 'debit' && l.direction !== 'credit') || !(amount > 0) || !Number.isSafeInteger(amount)) problems.push(`line ${l.lineId}`);
    if (l.direction === 'debit') debit += amount;
    else credit += amount;
    return { accountId: l.accountId, direction: l.direction as 'debit' | 'credit', amountCents: amount };
  });
  if (debit !== credit) problems.push('unbalanced');
  if (problems.length) throw new Error(`invalid entry.posted ${eventId}: ${problems.join(', ')}`);
  return { workspaceId, entryId: p.entryId, seq: Number(p.seq), date: p.date, origin: origin ?? 0, lines, reversesEntryId: p.reversesEntryId, billerId: p.billerId, billerName: p.billerName.slice(0, 200) };
}

export interface ProjectorOptions {
  db: Knex;
  bus: EventBus;
  logger: Logger;
  generation: number;
  batchSize: number;
  /** Deliveries before a failing event goes to `dead.<durable>`. */
  maxDeliver?: number;
}

/**
 * Keeps the balances from entry.posted: messages are gathered into batches and each batch commits in
 * one transaction — inbox rows (exactly-once effect per event id), projected entries (once per entry
 * id) and one set-based upsert per table — and is acknowledged only after the commit. A batch that
 * fails is retried message by message, so one bad event cannot hold back the others.
 */
export class BalanceProjector {
  private sub: Subscription | null = null;
  private readonly batcher: MessageBatcher<Pending>;
  private applied = 0;
  private lastActivity = Date.now();
  readonly durable: string;

  constructor(private readonly o: ProjectorOptions) {
    this.durable = durableName(o.generation);
    // A full batch is applied before the next message is taken (back-pressure); a partial one 5 ms after its first message.
    this.batcher = new MessageBatcher<Pending>({ size: o.batchSize, waitMs: 5, apply: (batch) => this.applyBatch(batch) });
  }

  /** Entries applied by this process (a redelivery of an applied one is not counted). */
  get appliedCount(): number {
    return this.applied;
  }

  /** Milliseconds since the last message arrived or batch committed. */
  get idleMs(): number {
    return this.batcher.size ? 0 : Date.now() - this.lastActivity;
  }

  async start(): Promise<void> {
    const maxDeliver = this.o.maxDeliver ?? 8;
    this.sub = await this.o.bus.subscribe({ durable: this.durable, subjects: [SUBJECT], maxDeliver: maxDeliver + 1 }, (msg) => this.receive(msg));
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
    this.sub = null;
    await this.batcher.flush();
  }

  private async receive(msg: BusMessage): Promise<void> {
    this.lastActivity = Date.now();
    let item: Pending;
    try {
      const env = fromBinary(EventEnvelopeSchema, msg.data);
      item = { msg, eventId: env.id, workspaceId: env.workspaceId, entry: decodeEntry(env.id, env.workspaceId, env.payload) };
    } catch (err) {
      this.o.logger.error({ err, subject: msg.subject }, 'undecodable or invalid entry.posted; dead-lettering');
      await this.deadLetter(msg, String((err as Error).message ?? err));
      return;
    }
    await this.batcher.push(item);
  }

  private async commit(unsorted: readonly Pending[]): Promise<void> {
    // Key order everywhere, so replicas that meet the same redelivered events lock them in the same order.
    const batch = [...unsorted].sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
    const applied = await withSystem(this.o.db, async (trx) => {
      // Cross-tenant by nature (one batch holds many workspaces): a system transaction, every row keyed by its workspace.
      const fresh = (await trx.raw(
        `insert into inbox (consumer, event_id, workspace_id, type)
         select ?, * from unnest(?::uuid[], ?::uuid[], ?::text[])
         on conflict (consumer, event_id) do nothing returning event_id`,
        [this.durable, batch.map((b) => b.eventId), batch.map((b) => b.workspaceId), batch.map(() => ENTRY_POSTED)],
      )).rows as { event_id: string }[];
      const ids = new Set(fresh.map((r) => r.event_id));
      return applyEntries(trx, batch.filter((b) => ids.has(b.eventId)).map((b) => b.entry));
    });
    this.applied += applied;
    this.lastActivity = Date.now();
  }

  private async applyBatch(batch: Pending[]): Promise<void> {
    // The same event twice in one batch (a redelivery racing the first) is applied once.
    const unique = [...new Map(batch.map((b) => [b.eventId, b])).values()];
    try {
      await this.commit(unique);
      await Promise.all(batch.map((b) => b.msg.ack().catch(() => undefined)));
      return;
    } catch (err) {
      if (unique.length === 1) return this.failed(batch, err);
      this.o.logger.warn({ err, size: unique.length }, 'batch failed; applying its events one by one');
    }
    for (const item of unique) {
      const same = batch.filter((b) => b.eventId === item.eventId);
      try {
        await this.commit([item]);
        await Promise.all(same.map((b) => b.msg.ack().catch(() => undefined)));
      } catch (err) {
        await this.failed(same, err);
      }
    }
  }

  private async failed(items: readonly Pending[], err: unknown): Promise<void> {
    const maxDeliver = this.o.maxDeliver ?? 8;
    for (const { msg, eventId } of items) {
      if (msg.deliveryCount >= maxDeliver) {
        this.o.logger.error({ err, eventId, consumer: this.durable, deliveries: msg.deliveryCount }, 'entry.posted failed repeatedly; dead-lettering');
        await this.deadLetter(msg, String((err as Error).message ?? err), eventId);
      } else {
        this.o.logger.warn({ err, eventId, consumer: this.durable, deliveries: msg.deliveryCount }, 'entry.posted failed; will retry');
        msg.nak(Math.min(30_000, 250 * 2 ** msg.deliveryCount));
      }
    }
  }

  private async deadLetter(msg: BusMessage, error: string, id: string = crypto.randomUUID()): Promise<void> {
    await this.o.bus.publish(`${DEAD_PREFIX}${this.durable}`, msg.data, { msgId: `dead:${this.durable}:${id}`, headers: { ...msg.headers, 'll-error': error.slice(0, 500) } });
    msg.term();
  }
}
