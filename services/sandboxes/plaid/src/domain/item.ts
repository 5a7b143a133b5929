// One linked item: its accounts, its generated history, and an append-only log of later changes.
//
// The item's updates form one ordered log: positions 0..count-1 are the generated history (each an
// `added`), later positions are the changes made through the controls. A sync cursor is a position in that
// log plus the end of the snapshot its pagination loop started from. Pages read the log in order and fold
// the entries of one page together, so any cursor, applied in order, converges on the item's current state.
// A cursor from the middle of a loop (has_more was true) becomes invalid once the log grows past its
// snapshot: that is Plaid's TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION, and the client restarts from the
// cursor that began the loop (or any complete cursor, from a response with has_more false).
import type { AccountTemplate, Institution } from './catalog.js';
import { History, type HistoryAccount } from './history.js';
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
  /** Balances in cents; `current` follows Plaid: depository = money held, credit = amount owed. */
  currentCents: number;
  availableCents: number;
  readonly limitCents: number | null;
}

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

  private readonly log: LogEntry[] = [];
  /** Current state of transactions added or modified after creation. */
  private readonly overlay = new Map<string, Transaction>();
  private readonly removedIds = new Set<string>();
  /** Ids of transactions added after creation, in order (for random picks). */
  private readonly extraIds: string[] = [];
  private additions = 0;
  private readonly mutationRng: Rng;

  constructor(
    readonly itemId: string,
    readonly accessToken: string,
    readonly institution: Institution,
    accounts: readonly HistoryAccount[],
    historyConfig: Omit<ConstructorParameters<typeof History>[0], 'itemId' | 'accounts'>,
    options: { webhook: string | null; products: string[]; username: string; now: Date },
  ) {
    this.history = new History({ ...historyConfig, itemId, accounts });
    this.webhook = options.webhook;
    this.products = options.products;
    this.createdAt = options.now;
    this.mutationRng = new Rng(mix(this.history.contentSeed, 0x6d757461));
    this.accounts = accounts.map(({ accountId, template }) => {
      const rng = new Rng(mix(this.history.contentSeed, hashString(template.key)));
      const persistentAccountId = persistentId(institution.institutionId, options.username, template.key);
      if (template.kind === 'credit') {
        const limitCents = rng.int(10, 50) * 100_000;
        const currentCents = rng.int(50_000, Math.floor(limitCents / 2));
        return { accountId, template, persistentAccountId, currentCents, availableCents: limitCents - currentCents, limitCents };
      }
      const currentCents = template.kind === 'savings' ? rng.int(1_000_000, 50_000_000) : rng.int(2_000_000, 25_000_000);
      return { accountId, template, persistentAccountId, currentCents, availableCents: currentCents - rng.int(0, 50_000), limitCents: null };
    });
  }

  /** Length of the update log: generated history plus later changes. */
  get logLength(): number {
    return this.history.count + this.log.length;
  }

  entryAt(position: number): LogEntry {
    if (position < this.history.count) return { kind: 'added', txn: this.history.transactionAt(position) };
    const entry = this.log[position - this.history.count];
    if (!entry) throw new RangeError(`log position ${position} is past the end (${this.logLength})`);
    return entry;
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

  accountBases(filter?: readonly string[]): AccountBase[] {
    return this.accounts
      .filter((a) => !filter || filter.length === 0 || filter.includes(a.accountId))
      .map((a) => ({
        account_id: a.accountId,
        balances: {
          available: a.availableCents / 100,
          current: a.currentCents / 100,
          limit: a.limitCents === null ? null : a.limitCents / 100,
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
      }));
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
      this.log.push({ kind: 'added', txn });
      this.overlay.set(txn.transaction_id, txn);
      this.extraIds.push(txn.transaction_id);
      this.adjustBalance(txn.account_id, txn.amount);
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
        const delta = this.mutationRng.int(100, 999) / 100;
        after = { ...before, amount: round2(before.amount + (before.amount < 0 ? -delta : delta)) };
      }
      this.log.push({ kind: 'modified', txn: after });
      this.overlay.set(after.transaction_id, after);
      this.adjustBalance(after.account_id, round2(after.amount - before.amount));
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
      this.log.push({ kind: 'removed', removed: entry });
      this.removedIds.add(id);
      this.overlay.delete(id);
      this.adjustBalance(before.account_id, -before.amount);
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
      const tip = History.tipsOnPosting(pendingTxn) ? round2(pendingTxn.amount * this.mutationRng.int(15, 22) / 100) : 0;
      const sequence = ++this.additions;
      const idSource = this.history.extraTransaction(sequence, {});
      const posted: Transaction = {
        ...pendingTxn,
        transaction_id: idSource.transaction_id,
        amount: round2(pendingTxn.amount + tip),
        pending: false,
        pending_transaction_id: pendingTxn.transaction_id,
        authorized_date: pendingTxn.authorized_date ?? pendingTxn.date,
      };
      this.log.push({ kind: 'added', txn: posted });
      this.overlay.set(posted.transaction_id, posted);
      this.extraIds.push(posted.transaction_id);
      this.adjustBalance(posted.account_id, posted.amount);
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

  private adjustBalance(accountId: string, amount: number): void {
    const account = this.accounts.find((a) => a.accountId === accountId);
    if (!account || !Number.isFinite(amount)) return;
    const cents = Math.round(amount * 100);
    // Positive amounts are money out: a depository balance falls, a card's balance owed rises.
    const sign = account.template.kind === 'credit' ? 1 : -1;
    account.currentCents += sign * cents;
    // Available falls either way: less cash held, or less credit left.
    account.availableCents -= cents;
  }
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

function round2(value: number): number {
  return Math.round(value * 100) / 100;
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
