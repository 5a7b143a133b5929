import {
  consumerName,
  eventMessage,
  EventType,
  isUuid,
  startConsumer,
  type Consumer,
  type ConsumerDeclaration,
  type EventBus,
  type EventMessage,
  type Knex,
  type Logger,
} from '@ledgerline/platform';
import { isIsoDate } from '../domain/dates.js';
import { originOf } from '../domain/origins.js';
import { applyEntries, type PostedEntry } from '../store/balances.js';

/** The projector's consumer name; a rebuild's generation n consumes as `reporting_g<n>`. */
export const PROJECTOR = 'reporting';

/** A payload is checked like user input: a bad one fails loudly (dead letter), never half-applied. */
export function decodeEntry(eventId: string, workspaceId: string, payload: Uint8Array): PostedEntry {
  return checkEntry(eventId, workspaceId, eventMessage({ type: EventType.EntryPosted, payload }));
}

/** The entries of an `entry.posted` (one) or an `entries.posted` (a batch, issue #22), each checked as above. */
export function decodeEntries(event: { id: string; type: ProjectedType; workspaceId: string; payload: Uint8Array }): PostedEntry[] {
  if (event.type === EventType.EntryPosted) return [decodeEntry(event.id, event.workspaceId, event.payload)];
  const batch = eventMessage({ type: EventType.EntriesPosted, payload: event.payload });
  if (batch.entries.length === 0) throw new Error(`invalid ${EventType.EntriesPosted} ${event.id}: no entries`);
  return batch.entries.map((p) => checkEntry(event.id, event.workspaceId, p));
}

/** The types the projector applies: one entry, or a batch of them. */
export type ProjectedType = typeof EventType.EntryPosted | typeof EventType.EntriesPosted;
const PROJECTED = [EventType.EntryPosted, EventType.EntriesPosted] as const;

function checkEntry(eventId: string, workspaceId: string, p: EventMessage<typeof EventType.EntryPosted>): PostedEntry {
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
    if (!isUuid(l.accountId) || (l.direction !== 'debit' && l.direction !== 'credit') || !(amount > 0) || !Number.isSafeInteger(amount))
      problems.push(`line ${l.lineId}`);
    if (l.direction === 'debit') debit += amount;
    else credit += amount;
    return { accountId: l.accountId, direction: l.direction as 'debit' | 'credit', amountCents: amount };
  });
  if (debit !== credit) problems.push('unbalanced');
  if (problems.length) throw new Error(`invalid ${EventType.EntryPosted} ${eventId}: ${problems.join(', ')}`);
  return {
    workspaceId,
    entryId: p.entryId,
    seq: Number(p.seq),
    date: p.date,
    origin: origin ?? 0,
    lines,
    reversesEntryId: p.reversesEntryId,
    billerId: p.billerId,
    billerName: p.billerName.slice(0, 200),
  };
}

/**
 * Keeps the balances from entry.posted, on the chassis consumer: an entry is checked when it arrives (a bad
 * one is dead-lettered at once, never half-applied); entries of every workspace are gathered into batches,
 * and each batch commits in one system transaction — inbox rows (exactly-once effect per event id),
 * projected entries (once per entry id) and one set-based upsert per table — and is acknowledged only after
 * the commit. A batch that fails is retried event by event, so one bad event cannot hold back the others.
 */
export function balanceProjector(o: { generation: number; batchSize: number; maxDeliver?: number }): ConsumerDeclaration<ProjectedType, PostedEntry[]> {
  return {
    name: PROJECTOR,
    generation: o.generation,
    types: PROJECTED,
    maxDeliver: o.maxDeliver ?? 8,
    check: (event) => decodeEntries(event),
    batch: {
      types: PROJECTED,
      size: o.batchSize,
      acrossTenants: true,
      // A batch of events, each one entry or many: one set-based apply (and one version bump per workspace).
      async handle(trx, events) {
        await applyEntries(
          trx,
          events.flatMap((e) => e.checked),
        );
      },
    },
  };
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

/** The running projector of one generation, as the service and the rebuild command hold it. */
export class BalanceProjector {
  private consumer: Consumer | null = null;
  private readonly created = Date.now();
  readonly durable: string;

  constructor(private readonly o: ProjectorOptions) {
    this.durable = consumerName(PROJECTOR, o.generation);
  }

  /** Events applied by this process (a redelivery of an applied one is not counted). */
  get appliedCount(): number {
    return this.consumer?.handledCount ?? 0;
  }

  /** Milliseconds since the last message arrived or batch committed. */
  get idleMs(): number {
    return this.consumer ? this.consumer.idleMs : Date.now() - this.created;
  }

  async start(): Promise<void> {
    this.consumer ??= await startConsumer({ ...balanceProjector(this.o), db: this.o.db, bus: this.o.bus, logger: this.o.logger });
  }

  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    await consumer?.stop();
  }
}
