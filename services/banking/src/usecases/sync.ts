import { newId, withTenant, type Knex, type WorkItem } from '@ledgerline/platform';
import { retryDelayMs } from '../domain/jobs.js';
import {
  InvalidPayloadError,
  parseAccountBalances,
  parseSyncPage,
  type IncomingBalance,
  type IncomingTransaction,
  type SyncPage,
} from '../domain/plaid-payload.js';
import { isMutationDuringPagination, isPermanent, needsRelogin, plaidErrorOf } from '../plaid/client.js';
import { accounts, items, jobs, transactions } from '../store/banking-store.js';
import type { AccountRow, JobRow, TransactionRow } from '../store/rows.js';
import type { BankingDeps } from './context.js';
import { accountsSyncedEvents, reconnectRequiredEvent, transactionsPageEvents, type PageChange } from './events.js';
import { decodeJobMessage, type JobMessage } from './jobs.js';

type Outcome = { kind: 'done' } | { kind: 'retry'; delayMs: number } | { kind: 'skip' };

const MAX_PAGINATION_RESTARTS = 5;

/**
 * The transaction-sync worker. It pages through Plaid's /transactions/sync and commits each page (raw
 * transactions, their outbox events and the page's cursor) in ONE database transaction, so a crash at
 * any point resumes from the last committed cursor with nothing lost and nothing twice (RELIABILITY 5,
 * 12). A page whose starting cursor is no longer the item's (another worker got there first) is thrown
 * away and paging resumes from the stored cursor.
 */
export class SyncWorker {
  constructor(private readonly deps: BankingDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Handles one queue message: runs the job, then acknowledges, retries later, or drops it. */
  async handle(item: WorkItem): Promise<void> {
    const message = decodeJobMessage(item.data);
    if (!message) {
      this.deps.logger.error('undecodable sync job message; dropping');
      item.term();
      return;
    }
    const outcome = await this.run(message, () => item.working());
    if (outcome.kind === 'retry') item.nak(outcome.delayMs);
    else await item.ack();
  }

  /** Claims the job (a lease as long as the queue's ack wait) unless it is finished, early, or running elsewhere. */
  private async claim(m: JobMessage): Promise<{ job: JobRow } | Outcome> {
    const leaseMs = this.deps.config.SYNC_ACK_WAIT_MS;
    return withTenant(this.deps.db, { workspaceId: m.workspaceId }, async (trx) => {
      const job = await jobs.lock(trx, m.jobId);
      if (!job || job.status === 'completed' || job.status === 'failed') return { kind: 'skip' } as const;
      const now = this.now().getTime();
      if (job.run_after.getTime() > now + 50) return { kind: 'retry', delayMs: job.run_after.getTime() - now } as const;
      if (job.status === 'active' && job.lease_expires_at && job.lease_expires_at.getTime() > now) {
        return { kind: 'retry', delayMs: job.lease_expires_at.getTime() - now + 100 } as const;
      }
      // One run per item at a time: a follow-up waits for the running job of its item.
      const running = await jobs.runningOfItem(trx, job.plaid_item_id, job.id, new Date(now));
      if (running) return { kind: 'retry', delayMs: Math.max(200, running.lease_expires_at!.getTime() - now) } as const;
      const claimed = await jobs.updateReturning(trx, job.id, {
        status: 'active',
        attempts: job.attempts + 1,
        started_at: job.started_at ?? new Date(now),
        lease_expires_at: new Date(now + leaseMs),
      });
      return { job: claimed };
    });
  }

  async run(m: JobMessage, heartbeat: () => void = () => undefined): Promise<Outcome> {
    const claimed = await this.claim(m);
    if ('kind' in claimed) return claimed;
    const { job } = claimed;
    const tenant = { workspaceId: job.workspace_id };
    try {
      const balances = (await this.syncItem(job, heartbeat)) ?? (await this.fetchBalances(job));
      await withTenant(this.deps.db, tenant, async (trx) => {
        const now = this.now();
        // The item's lock keeps a merge from moving transactions between the totals and the commit.
        await items.lock(trx, job.plaid_item_id);
        await jobs.update(trx, job.id, { status: 'completed', finished_at: now, lease_expires_at: null, failed_reason: null });
        await items.update(trx, job.plaid_item_id, { last_synced_at: now, status: 'active' });
        await this.recordSync(trx, job.plaid_item_id, balances, now);
      });
      return { kind: 'done' };
    } catch (err) {
      return this.failed(job, err);
    }
  }

  /**
   * The sync completed: each live account of the item gets the balances the bank reported with it, the
   * sync's time and its next synced version, and one `bank_account.synced` carrying them with banking's
   * totals of the account's live transactions, all in the transaction that marks the job completed.
   */
  private async recordSync(trx: Knex.Transaction, plaidItemId: string, balances: IncomingBalance[] | undefined, at: Date): Promise<void> {
    const live = await accounts.liveOfItem(trx, plaidItemId);
    if (live.length === 0) return;
    const byVendor = new Map((balances ?? []).map((b) => [b.vendorAccountId, b]));
    const recorded: AccountRow[] = [];
    for (const account of live) {
      const b = byVendor.get(account.vendor_account_id);
      recorded.push(
        await accounts.recordSync(
          trx,
          account.id,
          b ? { currentCents: b.currentCents, availableCents: b.availableCents, isoCurrencyCode: b.isoCurrencyCode, at } : { at },
        ),
      );
    }
    await accountsSyncedEvents(
      trx,
      recorded,
      await accounts.totals(
        trx,
        recorded.map((a) => a.id),
      ),
      at,
    );
  }

  /** Balances when no page carried `accounts`: /accounts/get (best effort; the stored ones stay otherwise). */
  private async fetchBalances(job: JobRow): Promise<IncomingBalance[] | undefined> {
    const item = await withTenant(this.deps.db, { workspaceId: job.workspace_id }, (trx) => items.byId(trx, job.plaid_item_id));
    if (!item || item.status === 'removed') return undefined;
    try {
      return parseAccountBalances((await this.deps.plaid.accountsGet({ access_token: this.deps.tokens.open(item, item.item_id) })).data);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error)?.message, jobId: job.id }, 'could not read the balances after a sync; the stored ones stay');
      return undefined;
    }
  }

  private async failed(job: JobRow, err: unknown): Promise<Outcome> {
    const tenant = { workspaceId: job.workspace_id };
    const code = plaidErrorOf(err)?.error_code;
    if (needsRelogin(err)) {
      // Retrying cannot help until the user signs in to the bank again (POST /plaid/update-token).
      await withTenant(this.deps.db, tenant, async (trx) => {
        await reconnectRequiredEvent(trx, await items.byId(trx, job.plaid_item_id), code ?? 'ITEM_LOGIN_REQUIRED');
        await items.update(trx, job.plaid_item_id, { status: 'login_required' });
        await accounts.markItem(trx, job.plaid_item_id, { reconnect_required: true });
        await jobs.update(trx, job.id, { status: 'failed', failed_reason: code ?? 'ITEM_LOGIN_REQUIRED', finished_at: this.now(), lease_expires_at: null });
      });
      this.deps.logger.info({ jobId: job.id, code }, 'sync needs the user to reconnect; not retrying');
      return { kind: 'done' };
    }
    const permanent = err instanceof InvalidPayloadError || isPermanent(err);
    const reason = code ?? (err instanceof InvalidPayloadError ? 'INVALID_PAYLOAD' : (err as Error)?.message?.slice(0, 200) || 'ERROR');
    if (permanent || job.attempts >= this.deps.config.SYNC_MAX_ATTEMPTS) {
      this.deps.logger.error({ err, jobId: job.id, attempts: job.attempts }, 'sync job failed');
      await withTenant(this.deps.db, tenant, (trx) =>
        jobs.update(trx, job.id, { status: 'failed', failed_reason: reason, finished_at: this.now(), lease_expires_at: null }),
      );
      return { kind: 'done' };
    }
    const delayMs = retryDelayMs(job.attempts, this.deps.config.SYNC_RETRY_BASE_MS);
    this.deps.logger.warn({ err: (err as Error)?.message, code, jobId: job.id, attempts: job.attempts, delayMs }, 'sync page failed; retrying with backoff');
    const retried = await withTenant(this.deps.db, tenant, async (trx) => {
      // A job of the item requested meanwhile will run the sync anyway (one pending job per item).
      const pending = await jobs.pendingOfItem(trx, job.plaid_item_id);
      if (pending) {
        await jobs.update(trx, job.id, { status: 'failed', failed_reason: reason, finished_at: this.now(), lease_expires_at: null });
        return false;
      }
      await jobs.update(trx, job.id, { status: 'delayed', failed_reason: reason, run_after: new Date(this.now().getTime() + delayMs), lease_expires_at: null });
      return true;
    });
    return retried ? { kind: 'retry', delayMs } : { kind: 'done' };
  }

  /** Pages until has_more is false; returns the balances of the last committed page that carried them. */
  private async syncItem(job: JobRow, heartbeat: () => void): Promise<IncomingBalance[] | undefined> {
    const tenant = { workspaceId: job.workspace_id };
    let restarts = 0;
    let balances: IncomingBalance[] | undefined;
    for (;;) {
      const item = await withTenant(this.deps.db, tenant, (trx) => items.byId(trx, job.plaid_item_id));
      if (!item || item.status === 'removed') return balances;
      let page: SyncPage;
      try {
        const r = await this.deps.plaid.transactionsSync({
          access_token: this.deps.tokens.open(item, item.item_id),
          cursor: item.cursor || undefined,
          count: this.deps.config.SYNC_PAGE_SIZE,
        });
        page = parseSyncPage(r.data);
      } catch (err) {
        if (isMutationDuringPagination(err) && restarts++ < MAX_PAGINATION_RESTARTS) {
          // The item changed while we paged: start the loop again from its first cursor. Pages already
          // stored are re-applied harmlessly (upserts that change nothing write nothing).
          await withTenant(this.deps.db, tenant, async (trx) => {
            const locked = await items.lock(trx, item.id);
            if (locked && locked.cursor === item.cursor) await items.update(trx, item.id, { cursor: locked.loop_cursor });
          });
          continue;
        }
        throw err;
      }
      const committed = await withTenant(this.deps.db, tenant, (trx) => this.applyPage(trx, job, item.id, item.cursor, page));
      heartbeat();
      if (committed && page.balances) balances = page.balances;
      if (committed && !page.hasMore) return balances;
    }
  }

  /** One page, one transaction: rows, events, cursor and progress. False when the cursor moved meanwhile. */
  async applyPage(trx: Knex.Transaction, job: JobRow, plaidItemId: string, cursorUsed: string, page: SyncPage): Promise<boolean> {
    const item = await items.lock(trx, plaidItemId);
    if (!item || item.cursor !== cursorUsed) return false;
    const live = await accounts.liveOfItem(trx, plaidItemId);
    const byVendor = new Map<string, AccountRow>(live.map((a) => [a.vendor_account_id, a]));
    const accountIds = live.map((a) => a.id);
    let applied = 0;
    // The page's changes, published as one event at the end (modifications, then adds, then removals: the order applied).
    const changes: PageChange[] = [];

    // Rows already stored for the provider ids of this page.
    const ids = [...page.added, ...page.modified]
      .flatMap((t) => (t.pendingExternalId ? [t.externalId, t.pendingExternalId] : [t.externalId]))
      .concat(page.removed.map((r) => r.externalId));
    const existing = new Map<string, TransactionRow>();
    for (const row of await transactions.byExternalIds(trx, accountIds, [...new Set(ids)])) {
      const key = `${row.account_id}|${row.external_id}`;
      const prior = existing.get(key);
      if (!prior || (prior.removed_at && !row.removed_at)) existing.set(key, row);
    }
    const find = (accountId: string, externalId: string) => existing.get(`${accountId}|${externalId}`);

    // Keyed, so a transaction both added and modified within one page is inserted once, in its last state.
    const inserts = new Map<string, Omit<TransactionRow, 'removed_at' | 'removed_reason'>>();
    const upsert = async (t: IncomingTransaction) => {
      const account = byVendor.get(t.vendorAccountId);
      if (!account) return; // an account of the item the user did not link
      const current = find(account.id, t.externalId);
      // A pending transaction that posted: the posted one replaces it (one transaction, not two).
      const pendingRow = !current && t.pendingExternalId ? find(account.id, t.pendingExternalId) : undefined;
      const target = current ?? (pendingRow && !pendingRow.removed_at ? pendingRow : undefined);
      if (target) {
        if (target.removed_at) return; // withdrawn, or moved away by a merge: the later state stands
        if (sameContent(target, t)) return;
        applied++;
        const updated = await transactions.update(trx, target.id, { ...fields(t), version: target.version + 1 });
        // A posted transaction took over its pending row: the pending id no longer names it.
        existing.delete(`${account.id}|${target.external_id}`);
        existing.set(`${account.id}|${t.externalId}`, updated);
        changes.push({ kind: 'modified', row: updated });
        return;
      }
      const key = `${account.id}|${t.externalId}`;
      inserts.set(key, { id: inserts.get(key)?.id ?? newId(), workspace_id: account.workspace_id, account_id: account.id, version: 1, ...fields(t) });
    };
    for (const t of page.added) await upsert(t);
    for (const t of page.modified) await upsert(t);
    const inserted = await transactions.insertNew(trx, [...inserts.values()]);
    applied += inserted.length;
    for (const row of inserted) changes.push({ kind: 'added', row });

    for (const r of page.removed) {
      const candidates = r.vendorAccountId ? [byVendor.get(r.vendorAccountId)].filter((a): a is AccountRow => a !== undefined) : live;
      for (const account of candidates) {
        const row = find(account.id, r.externalId);
        if (!row || row.removed_at) continue;
        applied++;
        const removed = await transactions.update(trx, row.id, { removed_at: this.now(), removed_reason: 'provider', version: row.version + 1 });
        changes.push({ kind: 'removed', row: removed });
      }
    }

    await transactionsPageEvents(trx, job.workspace_id, changes);

    await items.update(trx, plaidItemId, page.hasMore ? { cursor: page.nextCursor } : { cursor: page.nextCursor, loop_cursor: page.nextCursor });
    const pushed = job.transaction_pushed + applied;
    job.transaction_pushed = pushed;
    job.total_transactions = page.hasMore ? pushed + this.deps.config.SYNC_PAGE_SIZE : pushed;
    await jobs.update(trx, job.id, {
      transaction_pushed: job.transaction_pushed,
      total_transactions: job.total_transactions,
      lease_expires_at: new Date(this.now().getTime() + this.deps.config.SYNC_ACK_WAIT_MS),
    });
    return true;
  }
}

function fields(t: IncomingTransaction) {
  return {
    external_id: t.externalId,
    amount_cents: t.amountCents,
    iso_currency_code: t.isoCurrencyCode,
    date: t.date,
    authorized_date: t.authorizedDate,
    name: t.name,
    merchant_name: t.merchantName,
    pending: t.pending,
    provider_category: t.providerCategory,
  };
}

function sameContent(row: TransactionRow, t: IncomingTransaction): boolean {
  const f = fields(t);
  return (
    row.external_id === f.external_id &&
    Number(row.amount_cents) === f.amount_cents &&
    row.iso_currency_code === f.iso_currency_code &&
    row.date === f.date &&
    (row.authorized_date ?? null) === f.authorized_date &&
    row.name === f.name &&
    row.merchant_name === f.merchant_name &&
    row.pending === f.pending &&
    row.provider_category === f.provider_category
  );
}
