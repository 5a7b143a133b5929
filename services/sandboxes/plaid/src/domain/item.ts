// One linked item: its accounts, its generated history, and an append-only log of later changes.
//
// The item's updates form one ordered log: positions 0..count-1 are the generated history (each an
// `added`), later positions are the changes made through the controls. A sync cursor is a position in that
// log plus the end of the snapshot its pagination loop started from. Pages read the log in order and fold
// the entries of one page together, so any cursor, applied in order, converges on the item's current state.
// A cursor from the middle of a loop (has_more was true) becomes invalid once the log grows past its
// snapshot: that is Plaid's TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION, and the client restarts from the
// cursor that began the loop (or any complete cursor, from a response with has_more false).
//
// Late history (Plaid's INITIAL_UPDATE_COMPLETE, then HISTORICAL_UPDATE_COMPLETE): the log starts with only
// the last ~30 days of the generated history; `releaseHistory()` appends the older part as one block of
// `added` entries. Until then, changes to those older transactions are not logged (no client has seen
// them): the released block reports each one as it stands when it is read, so every cursor still converges.
//
// Balances follow Plaid: `current` is the bank's posted balance (depository: money held; credit: amount
// owed) and `available` also counts pending transactions. current = opening + the posted live transactions,
// exactly, in integer cents: the generated history's totals come from History.accountSummaries() (lazy,
// cached) and every change adds its own delta.
import type { AccountTemplate, Institution } from './catalog.js';
import { History, fromDay, toDay, type HistoryAccount } from './history.js';
import { Rng, hashString, mix } from './prng.js';
import type { AccountBase, RemovedTransaction, Transaction } from './wire.js';

export type LogEntry =
  | { readonly kind: 'added'; readonly txn: Transaction }
  | { readonly kind: 'modified'; readonly txn: Transaction }
  | { readonly kind: 'removed'; readonly removed: RemovedTransaction };

export interface SyncPage {
  added: Transaction[];
  modified: Transaction[];
  removed: RemovedTransaction[];
  position: number;
  end: number;
  hasMore: boolean;
}

export type SyncOutcome = { ok: true; page: SyncPage } | { ok: false; reason: 'mutation_during_pagination' };

/** Fields a caller may set on an added or modified transaction (Plaid's sign convention: positive = money out). */
export interface TransactionInput {
  account_id?: string;
  amount?: number;
  date?: string;
  name?: string;
  merchant_name?: string | null;
  pending?: boolean;
  iso_currency_code?: string;
  /**
   * Fields merged into the transaction last, unchecked: lets a test send what a client must refuse (an
   * amount with three decimals, a string amount, another currency...).
   */
  raw?: Record<string, unknown>;
}

export interface ItemAccount {
  readonly accountId: string;
  readonly template: AccountTemplate;
  readonly persistentAccountId: string;
}

/** An account's true state at the bank. Balances in Plaid's sign; totals in the transactions' sign (positive = money out). */
export interface AccountState {
  account_id: string;
  /** `balances.current` before the first generated transaction. */
  opening_cents: number;
  /** `balances.current`: depository = money held = opening − posted total; credit = amount owed = opening + posted total. */
  current_cents: number;
  /** `balances.available`: depository = current − pending total; credit = limit − current − pending total. */
  available_cents: number;
  limit_cents: number | null;
  /** Sum of the posted (non-pending) live transactions' amounts in cents, positive = money out. */
  posted_total_cents: number;
  /** Sum of the pending live transactions' amounts in cents, positive = money out. */
  pending_total_cents: number;
  posted_count: number;
  pending_count: number;
  /** Date of the account's earliest live transaction, or null if it has none. */
  earliest_date: string | null;
}

interface Totals {
  posted: number;
  pending: number;
  postedCount: number;
  pendingCount: number;
}

type Chunk =
  | { readonly start: number; readonly kind: 'history'; readonly from: number; readonly length: number; readonly current: boolean }
  | { readonly start: number; readonly kind: 'entries'; readonly entries: LogEntry[] };

/** Days of generated history available right after the exchange when the rest arrives late. */
export const INITIAL_HISTORY_DAYS = 30;

export class UnknownTransactionError extends Error {
  constructor(readonly transactionId: string) {
    super(`transaction ${transactionId} does not exist on this item (never added, or already removed)`);
  }
}

export class UnknownAccountError extends Error {
  constructor(readonly accountId: string) {
    super(`account ${accountId} does not belong to this item`);
  }
}

export class SandboxItem {
  readonly history: History;
  readonly accounts: ItemAccount[];
  webhook: string | null;
  loginRequired = false;
  readonly products: string[];
  readonly createdAt: Date;
  lastWebhook: { sentAt: string; code: string } | null = null;
  /** First generated index in the log before the release (0 when the history came at once). */
  readonly recentFrom: number;

  /** The update log, as blocks: ranges of the generated history, and entries made by the controls. */
  private readonly chunks: Chunk[] = [];
  /** Current state of transactions added or modified after creation. */
  private readonly overlay = new Map<string, Transaction>();
  private readonly removedIds = new Set<string>();
  /** Ids of transactions added after creation, in order (for random picks). */
  private readonly extraIds: string[] = [];
  private additions = 0;
  private readonly mutationRng: Rng;
  /** Changes since creation to each account's totals, in cents (the generated totals are in the summary). */
  private readonly deltas: Totals[];
  private released: boolean;

  constructor(
    readonly itemId: string,
    readonly accessToken: string,
    readonly institution: Institution,
    accounts: readonly HistoryAccount[],
    historyConfig: Omit<ConstructorParameters<typeof History>[0], 'itemId' | 'accounts'>,
    options: { webhook: string | null; products: string[]; username: string; now: Date; lateHistory?: boolean },
  ) {
    this.history = new History({ ...historyConfig, itemId, accounts });
    this.webhook = options.webhook;
    this.products = options.products;
    this.createdAt = options.now;
    this.mutationRng = new Rng(mix(this.history.contentSeed, 0x6d757461));
    this.accounts = accounts.map(({ accountId, template }) => ({
      accountId,
      template,
      persistentAccountId: persistentId(institution.institutionId, options.username, template.key),
    }));
    this.deltas = accounts.map(() => ({ posted: 0, pending: 0, postedCount: 0, pendingCount: 0 }));
    this.released = options.lateHistory !== true;
    // The initial window starts on a pair boundary, so a generated transfer is never split by it.
    const firstRecent = this.history.firstIndexOnOrAfter(this.history.endDay - INITIAL_HISTORY_DAYS + 1);
    this.recentFrom = this.released ? 0 : firstRecent - (firstRecent % 2);
    this.chunks.push({ start: 0, kind: 'history', from: this.recentFrom, length: this.history.count - this.recentFrom, current: false });
  }

  /** Length of the update log: generated history plus later changes. */
  get logLength(): number {
    const last = this.chunks[this.chunks.length - 1];
    if (!last) return 0;
    return last.start + (last.kind === 'history' ? last.length : last.entries.length);
  }

  /** Whether the whole generated history is in the log (false until releaseHistory when it arrives late). */
  get historyReleased(): boolean {
    return this.released;
  }

  /**
   * Makes the older generated history available: it is appended to the log as `added` entries, each as the
   * transaction stands when it is read. Answers how many generated transactions became available (0 if the
   * history was already complete).
   */
  releaseHistory(): number {
    if (this.released) return 0;
    this.released = true;
    if (this.recentFrom > 0) this.chunks.push({ start: this.logLength, kind: 'history', from: 0, length: this.recentFrom, current: true });
    return this.recentFrom;
  }

  /** The log entry at a position, or undefined for a released transaction that was removed before anyone read it. */
  entryAt(position: number): LogEntry | undefined {
    for (let c = this.chunks.length - 1; c >= 0; c--) {
      const chunk = this.chunks[c];
      if (!chunk || chunk.start > position) continue;
      const offset = position - chunk.start;
      if (chunk.kind === 'entries') {
        const entry = chunk.entries[offset];
        if (entry) return entry;
        break;
      }
      if (offset >= chunk.length) break;
      const index = chunk.from + offset;
      if (!chunk.current) return { kind: 'added', txn: this.history.transactionAt(index) };
      const txn = this.current(this.history.idOf(index));
      return txn ? { kind: 'added', txn } : undefined;
    }
    throw new RangeError(`log position ${position} is past the end (${this.logLength})`);
  }

  /** The transaction as it stands now, or undefined if it never existed or was removed. */
  current(transactionId: string): Transaction | undefined {
    if (this.removedIds.has(transactionId)) return undefined;
    const changed = this.overlay.get(transactionId);
    if (changed) return changed;
    const index = this.history.indexOf(transactionId);
    return index === undefined ? undefined : this.history.transactionAt(index);
  }

  /** Number of transactions that exist now. */
  get liveCount(): number {
    return this.history.count + this.extraIds.length - this.removedIds.size;
  }

  // ── balances ──────────────────────────────────────────────────────────────────────────────────────

  /** The true state of every account (or of the given ones) at the bank (`earliest_date` costs a short scan: skippable). */
  accountStates(filter?: readonly string[], options: { earliest?: boolean } = {}): AccountState[] {
    const summaries = this.history.accountSummaries();
    const states: AccountState[] = [];
    this.accounts.forEach((account, a) => {
      if (filter && filter.length > 0 && !filter.includes(account.accountId)) return;
      const summary = summaries[a];
      const delta = this.deltas[a];
      if (!summary || !delta) return;
      const posted = summary.postedCents + delta.posted;
      const pending = summary.pendingCents + delta.pending;
      const credit = account.template.kind === 'credit';
      // Positive amounts are money out: a depository balance falls, a card's balance owed rises.
      const current = credit ? summary.openingCents + posted : summary.openingCents - posted;
      const available = credit ? (summary.limitCents ?? 0) - current - pending : current - pending;
      states.push({
        account_id: account.accountId,
        opening_cents: summary.openingCents,
        current_cents: current,
        available_cents: available,
        limit_cents: summary.limitCents,
        posted_total_cents: posted,
        pending_total_cents: pending,
        posted_count: summary.postedCount + delta.postedCount,
        pending_count: summary.pendingCount + delta.pendingCount,
        earliest_date: options.earliest === false ? null : this.earliestDate(a),
      });
    });
    return states;
  }

  accountBases(filter?: readonly string[]): AccountBase[] {
    const states = new Map(this.accountStates(filter, { earliest: false }).map((s) => [s.account_id, s]));
    return this.accounts
      .filter((a) => states.has(a.accountId))
      .map((a) => {
        const state = states.get(a.accountId);
        return {
          account_id: a.accountId,
          balances: {
            available: (state?.available_cents ?? 0) / 100,
            current: (state?.current_cents ?? 0) / 100,
            limit: state?.limit_cents === null || state?.limit_cents === undefined ? null : state.limit_cents / 100,
            iso_currency_code: 'USD',
            unofficial_currency_code: null,
          },
          mask: a.template.mask,
          name: a.template.name,
          official_name: a.template.officialName,
          type: a.template.kind === 'credit' ? 'credit' : 'depository',
          subtype: a.template.kind === 'credit' ? 'credit card' : a.template.kind,
          persistent_account_id: a.persistentAccountId,
          holder_category: 'business',
        };
      });
  }

  /**
   * The earliest live transaction's date on account a. Generated slots are in date order (a transfer's
   * second leg at most a few days late), so the scan stops soon after the first live one.
   */
  private earliestDate(a: number): string | null {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.history.count; i++) {
      if (this.history.dayOf(Math.max(0, i - 1)) > best) break;
      const t = this.history.summaryAt(i);
      if (t.accountIndex !== a || t.day >= best) continue;
      const id = this.history.idOf(i);
      if (this.removedIds.has(id) || this.overlay.has(id)) continue;
      best = t.day;
    }
    const accountId = this.accounts[a]?.accountId;
    for (const txn of this.overlay.values()) {
      if (txn.account_id !== accountId || typeof txn.date !== 'string') continue;
      const day = toDay(txn.date);
      if (Number.isFinite(day) && day < best) best = day;
    }
    return Number.isFinite(best) ? fromDay(best) : null;
  }

  /** Adds (sign 1) or takes away (sign -1) one transaction's amount from its account's totals. */
  private tally(txn: Transaction, sign: 1 | -1): void {
    const delta = this.deltas[this.history.accountIndexOf(txn.account_id)];
    if (!delta) return;
    const cents = toCents(txn.amount);
    if (txn.pending) {
      delta.pending += sign * cents;
      delta.pendingCount += sign;
    } else {
      delta.posted += sign * cents;
      delta.postedCount += sign;
    }
  }

  // ── /transactions/sync ────────────────────────────────────────────────────────────────────────────

  sync(cursor: { position: number; end: number } | undefined, count: number, accountId?: string): SyncOutcome {
    let position = 0;
    let end = this.logLength;
    if (cursor) {
      position = cursor.position;
      if (cursor.position < cursor.end) {
        if (this.logLength > cursor.end) return { ok: false, reason: 'mutation_during_pagination' };
        end = cursor.end;
      }
    }
    const page = new Map<string, { kind: 'added' | 'modified'; txn: Transaction } | { kind: 'removed'; removed: RemovedTransaction }>();
    let taken = 0;
    while (position < end && taken < count) {
      const entry = this.entryAt(position++);
      if (!entry) continue;
      const entryAccount = entry.kind === 'removed' ? entry.removed.account_id : entry.txn.account_id;
      if (accountId && entryAccount !== accountId) continue;
      taken++;
      if (entry.kind === 'removed') {
        const id = entry.removed.transaction_id;
        // Added and removed within one page: the client never sees it.
        if (page.get(id)?.kind === 'added') page.delete(id);
        else page.set(id, { kind: 'removed', removed: entry.removed });
      } else {
        const id = entry.txn.transaction_id;
        const kind = entry.kind === 'modified' && page.get(id)?.kind !== 'added' ? 'modified' : 'added';
        page.set(id, { kind, txn: entry.txn });
      }
    }
    const result: SyncPage = { added: [], modified: [], removed: [], position, end, hasMore: position < end };
    for (const value of page.values()) {
      if (value.kind === 'removed') result.removed.push(value.removed);
      else if (value.kind === 'added') result.added.push(value.txn);
      else result.modified.push(value.txn);
    }
    return { ok: true, page: result };
  }

  // ── changes (controls) ──────────────────────────────────────────────────────────────────────────

  addTransactions(inputs: readonly TransactionInput[]): Transaction[] {
    const added: Transaction[] = [];
    for (const input of inputs) {
      let accountIndex: number | undefined;
      if (input.account_id !== undefined) {
        accountIndex = this.history.accountIndexOf(input.account_id);
        if (accountIndex < 0) throw new UnknownAccountError(input.account_id);
      }
      const sequence = ++this.additions;
      const base = this.history.extraTransaction(sequence, { accountIndex, pending: input.pending ?? false });
      const txn = applyInput(base, input);
      this.append({ kind: 'added', txn });
      this.overlay.set(txn.transaction_id, txn);
      this.extraIds.push(txn.transaction_id);
      this.tally(txn, 1);
      added.push(txn);
    }
    return added;
  }

  modifyTransactions(changes: readonly (TransactionInput & { transaction_id: string })[]): Transaction[] {
    const modified: Transaction[] = [];
    for (const change of changes) {
      const before = this.current(change.transaction_id);
      if (!before) throw new UnknownTransactionError(change.transaction_id);
      const { transaction_id: _id, account_id: _account, ...fields } = change;
      let after = applyInput(before, fields);
      if (after === before || JSON.stringify(after) === JSON.stringify(before)) {
        // Nothing asked for: change the amount a little, as a bank's correction would.
        const deltaCents = this.mutationRng.int(100, 999);
        after = { ...before, amount: (toCents(before.amount) + (before.amount < 0 ? -deltaCents : deltaCents)) / 100 };
      }
      if (!this.hidden(after.transaction_id)) this.append({ kind: 'modified', txn: after });
      this.overlay.set(after.transaction_id, after);
      this.tally(before, -1);
      this.tally(after, 1);
      modified.push(after);
    }
    return modified;
  }

  removeTransactions(transactionIds: readonly string[]): RemovedTransaction[] {
    const removed: RemovedTransaction[] = [];
    for (const id of transactionIds) {
      const before = this.current(id);
      if (!before) throw new UnknownTransactionError(id);
      const entry = { transaction_id: id, account_id: before.account_id };
      if (!this.hidden(id)) this.append({ kind: 'removed', removed: entry });
      this.removedIds.add(id);
      this.overlay.delete(id);
      this.tally(before, -1);
      removed.push(entry);
    }
    return removed;
  }

  /** Transactions that are pending now. */
  pendingTransactions(): Transaction[] {
    const pending: Transaction[] = [];
    for (let i = this.history.count - 1; i >= 0 && this.history.dayOf(i) >= this.history.pendingFromDay; i--) {
      const txn = this.current(this.history.idOf(i));
      if (txn?.pending) pending.push(txn);
    }
    pending.reverse();
    for (const id of this.extraIds) {
      const txn = this.current(id);
      if (txn?.pending) pending.push(txn);
    }
    return pending;
  }

  /**
   * Posts pending transactions as Plaid does: the pending one is removed and a new posted transaction is
   * added with `pending_transaction_id` pointing at it (restaurants may post with a tip added).
   */
  postPending(transactionIds?: readonly string[]): { added: Transaction[]; removed: RemovedTransaction[] } {
    const targets = transactionIds
      ? transactionIds.map((id) => {
          const txn = this.current(id);
          if (!txn?.pending) throw new UnknownTransactionError(id);
          return txn;
        })
      : this.pendingTransactions();
    const added: Transaction[] = [];
    const removed: RemovedTransaction[] = [];
    for (const pendingTxn of targets) {
      removed.push(...this.removeTransactions([pendingTxn.transaction_id]));
      const pendingCents = toCents(pendingTxn.amount);
      const tipCents = History.tipsOnPosting(pendingTxn) ? Math.round((pendingCents * this.mutationRng.int(15, 22)) / 100) : 0;
      const sequence = ++this.additions;
      const idSource = this.history.extraTransaction(sequence, {});
      const posted: Transaction = {
        ...pendingTxn,
        transaction_id: idSource.transaction_id,
        amount: (pendingCents + tipCents) / 100,
        pending: false,
        pending_transaction_id: pendingTxn.transaction_id,
        authorized_date: pendingTxn.authorized_date ?? pendingTxn.date,
      };
      this.append({ kind: 'added', txn: posted });
      this.overlay.set(posted.transaction_id, posted);
      this.extraIds.push(posted.transaction_id);
      this.tally(posted, 1);
      added.push(posted);
    }
    return { added, removed };
  }

  /** `count` distinct existing transaction ids picked at random (deterministic per item). */
  pickExisting(count: number, filter?: (txn: Transaction) => boolean): string[] {
    const picked = new Set<string>();
    const total = this.history.count + this.extraIds.length;
    let attempts = 0;
    while (picked.size < count && attempts < count * 20 + 100) {
      attempts++;
      const n = this.mutationRng.int(0, Math.max(0, total - 1));
      const id = n < this.history.count ? this.history.idOf(n) : this.extraIds[n - this.history.count];
      if (id === undefined || picked.has(id)) continue;
      const txn = this.current(id);
      if (txn && (!filter || filter(txn))) picked.add(id);
    }
    return [...picked];
  }

  /** A generated transaction of the older history that is not in the log yet (late history, before the release). */
  private hidden(transactionId: string): boolean {
    if (this.released) return false;
    const index = this.history.indexOf(transactionId);
    return index !== undefined && index < this.recentFrom;
  }

  private append(entry: LogEntry): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last?.kind === 'entries') last.entries.push(entry);
    else this.chunks.push({ start: this.logLength, kind: 'entries', entries: [entry] });
  }
}

/** A Plaid amount in whole cents (an amount a client must refuse, e.g. a string, counts as its rounded number, or 0). */
export function toCents(amount: unknown): number {
  const value = typeof amount === 'number' ? amount : typeof amount === 'string' ? Number(amount) : Number.NaN;
  return Number.isFinite(value) ? Math.round(value * 100) : 0;
}

function applyInput(base: Transaction, input: TransactionInput): Transaction {
  const out: Transaction = { ...base };
  let changed = false;
  if (input.amount !== undefined) {
    out.amount = input.amount;
    changed = true;
  }
  if (input.date !== undefined) {
    out.date = input.date;
    out.authorized_date = input.date;
    changed = true;
  }
  if (input.name !== undefined) {
    out.name = input.name;
    if (input.merchant_name === undefined) {
      out.merchant_name = null;
      out.merchant_entity_id = null;
      out.counterparties = [];
      out.logo_url = null;
      out.website = null;
    }
    changed = true;
  }
  if (input.merchant_name !== undefined) {
    out.merchant_name = input.merchant_name;
    changed = true;
  }
  if (input.pending !== undefined) {
    out.pending = input.pending;
    changed = true;
  }
  if (input.iso_currency_code !== undefined) {
    out.iso_currency_code = input.iso_currency_code;
    changed = true;
  }
  if (input.raw !== undefined) {
    // Deliberately unchecked: see TransactionInput.raw.
    Object.assign(out, input.raw);
    changed = true;
  }
  return changed ? out : base;
}

function persistentId(institutionId: string, username: string, accountKey: string): string {
  let out = '';
  let h = hashString(`${institutionId}:${username}:${accountKey}`);
  while (out.length < 56) {
    h = mix(h, out.length + 1);
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 56);
}
