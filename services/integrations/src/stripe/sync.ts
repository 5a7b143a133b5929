// The sync worker: for each object type, Stripe's list newest first between the last run's high-water mark and
// this run's upper bound, page by page; each page's objects and the cursor (the last id, Stripe's
// starting_after) commit in one transaction, so a worker killed anywhere resumes at the first page not
// committed and writes nothing twice. New events since the last run are applied like webhooks (the inbox skips
// those already handled), which brings the changes to objects created before it.
import { withTenant, type Knex, type WorkItem } from '@ledgerline/platform';
import type Stripe from 'stripe';
import { connections, cursors, objects, payoutMembers, syncJobs, type ConnectionRow, type CursorRow } from '../store/stripe-store.js';
import type { IntegrationsDeps } from '../usecases/context.js';
import { decodeSyncMessage } from '../usecases/stripe-jobs.js';
import { reconcilePayouts } from '../usecases/stripe-reconciliation.js';
import { stripeSynced } from '../events/stripe-synced.js';
import { applyEvent } from './events.js';
import { EVENT_SCHEMA, OBJECT_TYPES, ProviderPayloadError, validateObject, validatePage, type ObjectType, type ValidObject } from './payloads.js';

/** Thrown by the test hook: the worker stops as a killed process would (no status change, no ack). */
export class SimulatedCrash extends Error {}

type Lister = (stripe: Stripe, params: Stripe.PaginationParams & { created?: Stripe.RangeQueryParam }) => Promise<{ data: unknown[]; has_more: boolean }>;

const LISTERS: Record<ObjectType, Lister> = {
  customer: (s, p) => s.customers.list(p),
  product: (s, p) => s.products.list(p),
  price: (s, p) => s.prices.list(p),
  subscription: (s, p) => s.subscriptions.list({ ...p, status: 'all' }),
  invoice: (s, p) => s.invoices.list(p),
  charge: (s, p) => s.charges.list(p),
  refund: (s, p) => s.refunds.list(p),
  payment_intent: (s, p) => s.paymentIntents.list(p),
  balance_transaction: (s, p) => s.balanceTransactions.list(p),
  payout: (s, p) => s.payouts.list(p),
};

export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(5 * 60_000, baseMs * 2 ** Math.max(0, attempt - 1));
}

export class StripeSyncWorker {
  private pages = 0;
  constructor(private readonly deps: IntegrationsDeps) {}

  private nowSeconds(): number {
    return Math.floor((this.deps.now?.() ?? new Date()).getTime() / 1000);
  }

  async handle(item: WorkItem): Promise<void> {
    const message = decodeSyncMessage(item.data);
    if (!message) {
      item.term();
      return;
    }
    const tenant = { workspaceId: message.workspaceId };
    const started = await withTenant(this.deps.db, tenant, async (trx) => {
      const job = await syncJobs.byId(trx, message.jobId);
      if (!job || job.status === 'completed' || job.status === 'failed') return undefined;
      const connection = await connections.byId(trx, job.connection_id);
      if (!connection) return undefined;
      const attempts = job.attempts + 1;
      await syncJobs.update(trx, job.id, { status: 'active', attempts, started_at: job.started_at ?? new Date(), error: null });
      return { job: { ...job, attempts }, connection };
    });
    if (!started) {
      await item.ack();
      return;
    }
    const { job, connection } = started;
    try {
      const token = this.deps.cipher.open({ ciphertext: connection.access_token, keyId: connection.access_token_key_id }, connection.stripe_account_id);
      const stripe = this.deps.stripe(token);
      for (const type of OBJECT_TYPES) await this.syncType(stripe, connection, job.id, type, item);
      await this.syncPayoutMembers(stripe, connection, job.id, item);
      await this.syncEvents(stripe, connection, job.id, item);
      await withTenant(this.deps.db, tenant, async (trx) => {
        const finishedAt = new Date();
        await syncJobs.update(trx, job.id, { status: 'completed', finished_at: finishedAt });
        await connections.synced(trx, connection.id, finishedAt);
        // Payouts now paid are matched to their deposits in the same transaction (decision 0043).
        await reconcilePayouts(trx);
        const done = await syncJobs.byId(trx, job.id);
        await stripeSynced(trx, connection.workspace_id, {
          stripeAccountId: connection.stripe_account_id,
          jobId: job.id,
          objectsSynced: BigInt(done?.objects_synced ?? 0),
        });
      });
      await item.ack();
    } catch (err) {
      if (err instanceof SimulatedCrash) return;
      const permanent = err instanceof ProviderPayloadError || job.attempts >= this.deps.config.STRIPE_SYNC_MAX_ATTEMPTS;
      const reason = err instanceof Error ? err.message.slice(0, 500) : 'sync failed';
      this.deps.logger.warn({ jobId: job.id, attempt: job.attempts, permanent, reason }, 'Stripe sync run failed');
      await withTenant(this.deps.db, tenant, (trx) =>
        syncJobs.update(trx, job.id, permanent ? { status: 'failed', error: reason, finished_at: new Date() } : { status: 'waiting', error: reason }),
      );
      if (permanent) {
        item.term();
        await item.ack().catch(() => undefined);
      } else item.nak(retryDelayMs(job.attempts, this.deps.config.STRIPE_SYNC_RETRY_BASE_MS));
    }
  }

  private async begin(connection: ConnectionRow, type: string): Promise<CursorRow> {
    return withTenant(this.deps.db, { workspaceId: connection.workspace_id }, async (trx) => {
      const cursor = await cursors.ensure(trx, connection, type);
      if (cursor.run_upper !== null) return cursor; // a run in progress: resume it
      const upper = String(this.nowSeconds());
      await cursors.update(trx, connection.id, type, { run_upper: upper, starting_after: null });
      return { ...cursor, run_upper: upper, starting_after: null };
    });
  }

  private async commitPage(
    connection: ConnectionRow,
    jobId: string,
    type: string,
    write: (trx: Knex.Transaction) => Promise<number>,
    next: Partial<CursorRow>,
    item: WorkItem,
  ): Promise<void> {
    await withTenant(this.deps.db, { workspaceId: connection.workspace_id }, async (trx) => {
      const written = await write(trx);
      // knex refuses an empty update: a step with no cursor to move (an events batch, a payout's members) skips it.
      if (Object.keys(next).length > 0) await cursors.update(trx, connection.id, type, next);
      if (written > 0) await syncJobs.addSynced(trx, jobId, written);
    });
    item.working();
    this.pages++;
    if (this.deps.crashAfterPages !== undefined && this.pages >= this.deps.crashAfterPages) throw new SimulatedCrash('simulated crash');
  }

  private async syncType(stripe: Stripe, connection: ConnectionRow, jobId: string, type: ObjectType, item: WorkItem): Promise<void> {
    const cursor = await this.begin(connection, type);
    const upper = Number(cursor.run_upper);
    const lower = cursor.synced_through === null ? undefined : Number(cursor.synced_through);
    let after = cursor.starting_after ?? undefined;
    for (;;) {
      const fetchedAt = this.nowSeconds();
      const page = await LISTERS[type](stripe, {
        limit: this.deps.config.STRIPE_SYNC_PAGE_SIZE,
        created: lower === undefined ? { lte: upper } : { gte: lower, lte: upper },
        ...(after ? { starting_after: after } : {}),
      });
      const rows = validatePage(type, page.data);
      const last = rows.at(-1)?.id;
      const more = page.has_more && last !== undefined;
      await this.commitPage(
        connection,
        jobId,
        type,
        (trx) => objects.upsert(trx, connection, rows, fetchedAt),
        more ? { starting_after: last } : { synced_through: String(upper), run_upper: null, starting_after: null },
        item,
      );
      if (!more) return;
      after = last;
    }
  }

  /**
   * The balance transactions of each payout not read yet (Stripe's list with `payout`), one payout per
   * transaction: its members, their objects and the mark that it was read commit together, so a crash resumes at
   * the first payout not read.
   */
  private async syncPayoutMembers(stripe: Stripe, connection: ConnectionRow, jobId: string, item: WorkItem): Promise<void> {
    const tenant = { workspaceId: connection.workspace_id };
    for (;;) {
      const unread = await withTenant(this.deps.db, tenant, (trx) => payoutMembers.unread(trx, connection.id, 50));
      if (unread.length === 0) return;
      for (const payoutId of unread) {
        const fetchedAt = this.nowSeconds();
        const members: ValidObject[] = [];
        for await (const txn of stripe.balanceTransactions.list({ payout: payoutId, limit: 100 })) {
          members.push(validateObject('balance_transaction', txn));
          if (members.length > 1_000_000) throw new ProviderPayloadError(`payout ${payoutId} has more than a million balance transactions`);
        }
        await this.commitPage(
          connection,
          jobId,
          'payout_member',
          async (trx) => {
            // Members the balance transaction sync already wrote are left alone (and not counted twice).
            const written = await objects.insertMissing(trx, connection, members, fetchedAt);
            await payoutMembers.record(
              trx,
              connection,
              payoutId,
              members.map((m) => m.id),
            );
            return written;
          },
          {},
          item,
        );
      }
    }
  }

  /** Events since the last run (none on the first: the objects just read are their result). */
  private async syncEvents(stripe: Stripe, connection: ConnectionRow, jobId: string, item: WorkItem): Promise<void> {
    const cursor = await this.begin(connection, 'event');
    const upper = Number(cursor.run_upper);
    if (cursor.synced_through === null) {
      await withTenant(this.deps.db, { workspaceId: connection.workspace_id }, (trx) =>
        cursors.update(trx, connection.id, 'event', { synced_through: String(upper), run_upper: null }),
      );
      return;
    }
    // Oldest first, so later states are applied last; the inbox and versions make any order safe anyway.
    const events: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ limit: 100, created: { gte: Number(cursor.synced_through), lte: upper } })) {
      events.push(event);
      if (events.length > 100_000) throw new ProviderPayloadError('more than 100,000 events since the last sync');
    }
    events.reverse();
    for (let i = 0; i < events.length; i += 100) {
      const batch = events.slice(i, i + 100).map((e) => {
        const parsed = EVENT_SCHEMA.safeParse(e);
        if (!parsed.success) throw new ProviderPayloadError(`Stripe sent an invalid event: ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
        return parsed.data;
      });
      const isLast = i + 100 >= events.length;
      await this.commitPage(
        connection,
        jobId,
        'event',
        async (trx) => {
          let applied = 0;
          for (const event of batch) if ((await applyEvent(trx, connection, event)) === 'processed') applied++;
          return applied;
        },
        isLast ? { synced_through: String(upper), run_upper: null } : {},
        item,
      );
    }
    if (events.length === 0)
      await withTenant(this.deps.db, { workspaceId: connection.workspace_id }, (trx) =>
        cursors.update(trx, connection.id, 'event', { synced_through: String(upper), run_upper: null }),
      );
  }
}
