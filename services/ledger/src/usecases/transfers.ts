import { AppError, ErrorKind, newId, type Knex } from '@ledgerline/platform';
import { SYSTEM } from '../domain/chart.js';
import { MSG, SUCCESS } from '../domain/messages.js';
import { editRestriction } from '../domain/restrictions.js';
import {
  counterpartProblem,
  dismissalKey,
  isOneSidedTransfer,
  planPairs,
  rankCounterparts,
  transferKind,
  transferScore,
  TRANSFER_WINDOW_DAYS,
  type CounterpartProblem,
  type TransferSide,
} from '../domain/transfers.js';
import { Problems } from '../domain/validation.js';
import { accountBySystemKey, classAndFirstGroup, findAccountBySystemKey, insertAccount, nextCoaId, type AccountRow } from '../store/chart-store.js';
import { auditMany } from '../store/audit.js';
import type { TxnRow, TxnViewRow } from '../store/rows.js';
import { assertCanEdit, changeInWorkspace, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { refuseOpeningBalanceEntry } from './opening-balances.js';
import { referenceNotFound } from './references.js';
import { viewsInOrder } from '../store/transaction-views.js';
import {
  autoPairablePool,
  autoPairableSides,
  billerCategory,
  clearPair,
  dismissalsAmong,
  dismissedAsOneSided,
  insertDismissal,
  livePairOf,
  liveSide,
  lockSides,
  pairablePool,
  setPair,
  transferLock,
  type SideRow,
} from '../store/transfers-store.js';
import { repost, repostMany } from './booking.js';

function pairable(r: SideRow, { auto }: { auto: boolean }): boolean {
  const ok =
    !r.is_removed &&
    !r.transfer_pair_id &&
    !!r.current_entry_id &&
    r.amount_cents !== 0 &&
    !r.is_finalized &&
    !r.is_split_parent &&
    !r.is_split_child &&
    !r.is_accrued_parent &&
    !r.is_accrual_child &&
    !r.entity_type &&
    !r.qbo_synced &&
    !r.is_opening_balance;
  if (!ok || !auto) return ok;
  return r.category_system_key === SYSTEM.uncategorisedIncome || r.category_system_key === SYSTEM.uncategorisedExpense || r.category_class === 'Transfer';
}

const side = (r: SideRow): TransferSide & { row: SideRow } => ({
  id: r.id,
  amountCents: r.amount_cents,
  date: r.txn_date ?? '',
  bankAccountId: r.bank_account_id,
  isCreditCard: r.account_class === 'Liability',
  name: r.name,
  isoCurrencyCode: r.iso_currency_code,
  row: r,
});

async function dismissedAmong(trx: Knex.Transaction, ids: readonly string[]): Promise<(a: string, b: string) => boolean> {
  if (ids.length === 0) return () => false;
  const rows = await dismissalsAmong(trx, ids);
  const set = new Set(rows.map((r) => `${r.transaction_id}|${r.counterpart_id}`));
  return (a, b) => set.has(dismissalKey(a, b).join('|'));
}

/** The workspace's Transfer account of a purpose; re-created under the Transfer class if a user removed its key. */
async function transferAccount(trx: Knex.Transaction, workspaceId: string, key: string): Promise<AccountRow> {
  const found = await findAccountBySystemKey(trx, key);
  if (found) return found;
  const { cls, group } = await classAndFirstGroup(trx, 'Transfer');
  const parent = group ?? cls;
  if (!parent) throw new Error('the chart has no Transfer class');
  const row: AccountRow = {
    id: newId(),
    workspace_id: workspaceId,
    name: key === SYSTEM.creditCardPayments ? 'Credit Card Payments' : 'Internal Transfers',
    coa_id: await nextCoaId(trx, parent),
    class_group: 'Transfer',
    level: parent.level + 1,
    parent_id: parent.id,
    group_name: group?.name ?? '',
    tag: '',
    is_user_created: false,
    system_key: key,
    bank_account_id: null,
    qbo_synced: false,
  };
  await insertAccount(trx, row);
  return row;
}

/** What a fresh import books a transaction to: its biller's category (unless that is a Transfer account), else Uncategorised Income/Expense by sign. */
export async function freshCategory(trx: Knex.Transaction, row: Pick<TxnRow, 'biller_id' | 'amount_cents'>): Promise<string> {
  if (row.biller_id) {
    const b = await billerCategory(trx, row.biller_id);
    if (b && b.class_group !== 'Transfer') return b.id;
  }
  return (await accountBySystemKey(trx, row.amount_cents > 0 ? SYSTEM.uncategorisedIncome : SYSTEM.uncategorisedExpense)).id;
}

/** Books two locked sides as one transfer: both re-booked to one Transfer account, each naming the other, both trails. */
async function bookPair(trx: Knex.Transaction, workspaceId: string, a: SideRow, b: SideRow, how: { score: number; userId: string | null }): Promise<void> {
  await bookPairs(trx, workspaceId, [{ a, b, score: how.score }], how.userId);
}

/**
 * Books pairs (locked, checked, disjoint) as transfers, set-based (issue #22): each side re-booked to the pair's
 * Transfer account in one `repostMany` (the order of booking the pairs one after another), the pairs set and
 * the trail written in a statement each.
 */
async function bookPairs(
  trx: Knex.Transaction,
  workspaceId: string,
  pairs: readonly { a: SideRow; b: SideRow; score: number }[],
  userId: string | null,
): Promise<void> {
  if (pairs.length === 0) return;
  const accounts = new Map<string, string>();
  const accountFor = async (key: string) => {
    const known = accounts.get(key);
    if (known) return known;
    const id = (await transferAccount(trx, workspaceId, key)).id;
    accounts.set(key, id);
    return id;
  };
  const reposts: { row: SideRow; categoryId: string }[] = [];
  const trail: Parameters<typeof auditMany>[1][number][] = [];
  for (const { a, b, score } of pairs) {
    const kind = transferKind({ isCreditCard: a.account_class === 'Liability' }, { isCreditCard: b.account_class === 'Liability' });
    // A Transfer account the user chose for one side (marked by hand) is kept for both; else by the kind.
    const chosen =
      a.category_class === 'Transfer' && a.category_id
        ? a.category_id
        : b.category_class === 'Transfer' && b.category_id
          ? b.category_id
          : await accountFor(kind === 'card_payment' ? SYSTEM.creditCardPayments : SYSTEM.internalTransfers);
    for (const r of [a, b]) if (r.category_id !== chosen) reposts.push({ row: r, categoryId: chosen });
    [a, b].forEach((r, i) =>
      trail.push({
        workspaceId,
        transactionId: r.id,
        userId,
        event: 'transfer_paired' as const,
        details: {
          counterpartId: (i === 0 ? b : a).id,
          score,
          by: userId ? 'user' : 'detection',
          kind,
          fromCategoryId: r.category_id,
          toCategoryId: chosen,
        },
      }),
    );
  }
  await repostMany(trx, reposts);
  for (const { a, b } of pairs) await setPair(trx, a.id, b.id, dismissalKey(a.id, b.id));
  await auditMany(trx, trail);
}

/**
 * Detection (issue #12): for each given transaction in order that can be paired automatically, its best
 * counterpart in another linked account of the workspace (opposite amount, within 5 days, not dismissed
 * with it, not paired) scoring at least the threshold; both are locked, checked again and booked as one
 * transfer. The caller holds `transferLock`. Answers the ids it paired.
 */
export async function detectTransfers(trx: Knex.Transaction, workspaceId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const subjectRows = await autoPairableSides(trx, ids);
  if (subjectRows.length === 0) return [];
  const order = new Map(ids.map((id, i) => [id, i]));
  subjectRows.sort((x, y) => (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0));
  const pairedNow = await pairDetected(trx, workspaceId, subjectRows);
  await markOneSided(
    trx,
    workspaceId,
    subjectRows.filter((r) => !pairedNow.includes(r.id)),
  );
  return pairedNow;
}

/**
 * Transfers to review: a subject still Uncategorised whose description says it is a transfer (isOneSidedTransfer)
 * is booked to the Transfer account of its kind without a pair — out of income and expense — and shows in
 * `transferStatus=review`; its counterpart, when it arrives, pairs with it (detection takes Transfer rows too).
 * "Not a transfer" (un-pair) books it back and dismisses it.
 */
async function markOneSided(trx: Knex.Transaction, workspaceId: string, subjects: readonly SideRow[]): Promise<void> {
  const candidates = subjects.filter((r) => r.category_class !== 'Transfer' && isOneSidedTransfer(side(r)));
  if (candidates.length === 0) return;
  const dismissed = await dismissedAsOneSided(
    trx,
    candidates.map((r) => r.id),
  );
  // Set-based (issue #22): the rows locked in one statement, re-booked in one `repostMany`, the trail in one insert.
  const accounts = new Map<string, AccountRow>();
  const reposts: { row: SideRow; categoryId: string }[] = [];
  const trail: Parameters<typeof auditMany>[1][number][] = [];
  for (const r of await lockSides(
    trx,
    candidates.filter((c) => !dismissed.has(c.id)).map((c) => c.id),
  )) {
    if (!pairable(r, { auto: true }) || r.category_class === 'Transfer') continue;
    const key = r.account_class === 'Liability' ? SYSTEM.creditCardPayments : SYSTEM.internalTransfers;
    const account = accounts.get(key) ?? (await transferAccount(trx, workspaceId, key));
    accounts.set(key, account);
    reposts.push({ row: r, categoryId: account.id });
    trail.push({
      workspaceId,
      transactionId: r.id,
      userId: null,
      event: 'categorised' as const,
      details: {
        fromCategoryId: r.category_id,
        toCategoryId: account.id,
        toCategoryName: account.name,
        by: 'detection',
        reason: 'one-sided transfer: to review',
      },
    });
  }
  await repostMany(trx, reposts);
  if (trail.length > 0) await auditMany(trx, trail);
}

async function pairDetected(trx: Knex.Transaction, workspaceId: string, subjectRows: SideRow[]): Promise<string[]> {
  const dates = subjectRows.map((r) => r.txn_date as string).sort();
  const poolRows = await autoPairablePool(trx, {
    workspaceId,
    amounts: [...new Set(subjectRows.map((r) => -r.amount_cents))],
    from: dates[0] as string,
    to: dates[dates.length - 1] as string,
    days: TRANSFER_WINDOW_DAYS,
  });
  if (poolRows.length === 0) return [];
  const isDismissed = await dismissedAmong(
    trx,
    subjectRows.map((r) => r.id),
  );
  const plan = planPairs(subjectRows.map(side), poolRows.map(side), isDismissed);
  // Every side of the plan locked and read again in one statement (another writer may have changed one since
  // the read above); a side is booked in one pair at most, as booking the plan pair by pair would.
  const locked = new Map((await lockSides(trx, [...new Set(plan.flatMap((p) => [p.a.id, p.b.id]))])).map((r) => [r.id, r]));
  const used = new Set<string>();
  const toBook: { a: SideRow; b: SideRow; score: number }[] = [];
  for (const p of plan) {
    const a = locked.get(p.a.id);
    const b = locked.get(p.b.id);
    if (!a || !b || used.has(a.id) || used.has(b.id) || !pairable(a, { auto: true }) || !pairable(b, { auto: true })) continue;
    const score = transferScore(side(a), side(b));
    if (counterpartProblem(side(a), side(b)) || score < p.score) continue;
    used.add(a.id).add(b.id);
    toBook.push({ a, b, score });
  }
  await bookPairs(trx, workspaceId, toBook, null);
  return toBook.flatMap((p) => [p.a.id, p.b.id]);
}

/**
 * Un-pairs a locked transaction (and its counterpart, locked here): both stop naming each other and go
 * back to what a fresh import would book, unless `keep` names a side its caller re-books itself. A user's
 * un-pair (`dismiss`) remembers the pair so detection never pairs those two again; the bank's does not.
 * Answers the counterpart's id (null for a one-sided transfer).
 */
export async function unpairLocked(
  trx: Knex.Transaction,
  workspaceId: string,
  row: TxnRow,
  how: { dismiss: boolean; userId: string | null; byBank?: boolean; keep?: string },
): Promise<string | null> {
  const counterpart = row.transfer_pair_id ? (await lockSides(trx, [row.transfer_pair_id]))[0] : undefined;
  if (row.transfer_pair_id) await clearPair(trx, row.id, row.transfer_pair_id);
  const sides = counterpart
    ? [
        { ...row, transfer_pair_id: null },
        { ...counterpart, transfer_pair_id: null },
      ]
    : [{ ...row, transfer_pair_id: null }];
  const trail = [];
  for (const s of sides) {
    const to = s.id === how.keep ? s.category_id : await freshCategory(trx, s);
    if (s.id !== how.keep && to !== s.category_id && !s.is_removed) await repost(trx, s, { categoryId: to as string });
    trail.push({
      workspaceId,
      transactionId: s.id,
      userId: how.userId,
      event: 'transfer_unpaired' as const,
      details: {
        counterpartId: sides.find((o) => o.id !== s.id)?.id ?? null,
        dismissed: how.dismiss && !!counterpart,
        byBank: how.byBank ?? false,
        fromCategoryId: s.category_id,
        toCategoryId: to,
      },
    });
  }
  if (how.dismiss && !counterpart) {
    // A one-sided transfer the user says is not one: detection never marks it again (a dismissal with itself).
    await insertDismissal(trx, workspaceId, row.id, row.id, how.userId);
  }
  if (how.dismiss && counterpart) {
    const [a, b] = dismissalKey(row.id, counterpart.id);
    await insertDismissal(trx, workspaceId, a, b, how.userId);
  }
  await auditMany(trx, trail);
  return counterpart?.id ?? null;
}

export interface TransferCandidate {
  id: string;
  amountCents: number;
  date: string;
  bankAccountId: string;
  accountName: string;
  name: string;
  score: number;
}

const PROBLEM_MESSAGES: Record<CounterpartProblem, string> = {
  same: MSG.counterpartSame,
  amount: MSG.counterpartAmount,
  currency: MSG.counterpartCurrency,
  account: MSG.counterpartAccount,
  days: MSG.counterpartDays,
};

function refuseIfRestricted(r: SideRow): void {
  const x = editRestriction(
    {
      entityType: r.entity_type,
      isFinalized: r.is_finalized,
      categoryClass: r.category_class,
      qboSynced: r.qbo_synced,
      isAccruedParent: r.is_accrued_parent,
      isSplitParent: r.is_split_parent,
      isSplitChild: r.is_split_child,
      isAccrualChild: r.is_accrual_child,
      isOpeningBalance: r.is_opening_balance,
      isRemoved: r.is_removed,
      isoCurrencyCode: r.iso_currency_code,
    },
    { transferring: true },
  );
  if (x) throw new AppError(ErrorKind.FailedPrecondition, x.message, { appErrorCode: x.code });
}

export class TransferUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /** GET /transactions/transfer-candidates: a transaction's possible counterparts, best first (at most 10). */
  async candidates(tenant: Tenant, transactionId: string): Promise<{ data: TransferCandidate[] }> {
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const subject = await liveSide(trx, transactionId);
      if (!subject) {
        await refuseOpeningBalanceEntry(trx, transactionId);
        throw referenceNotFound('transactionId', 'transaction');
      }
      if (subject.transfer_pair_id || subject.amount_cents === 0 || !subject.txn_date) return { data: [] };
      // The user judges: any pairable counterpart is offered, whatever its category (detection is stricter).
      const pool = await pairablePool(trx, {
        workspaceId: tenant.workspaceId,
        amountCents: -subject.amount_cents,
        date: subject.txn_date,
        days: TRANSFER_WINDOW_DAYS,
        otherThanBankAccountId: subject.bank_account_id,
      });
      const isDismissed = await dismissedAmong(trx, [subject.id]);
      const ranked = rankCounterparts(side(subject), pool.map(side), isDismissed).slice(0, 10);
      return {
        data: ranked.map(({ candidate: c, score }) => ({
          id: c.id,
          amountCents: c.amountCents,
          date: c.date,
          bankAccountId: c.bankAccountId,
          accountName: c.row.account_name ?? '',
          name: c.name,
          score,
        })),
      };
    });
  }

  /** POST /transactions/pair-transfer: the user pairs two transactions as the two sides of one transfer. */
  async pair(tenant: Tenant, transactionId: string, counterpartTransactionId: string) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.uuid('counterpartTransactionId', counterpartTransactionId, { required: true });
    if (!p.fields.length && transactionId === counterpartTransactionId) p.add('counterpartTransactionId', MSG.counterpartSame);
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await transferLock(trx, tenant.workspaceId);
      const locked = (await lockSides(trx, [transactionId, counterpartTransactionId])).filter((r) => !r.is_removed);
      const a = locked.find((r) => r.id === transactionId);
      const b = locked.find((r) => r.id === counterpartTransactionId);
      for (const [field, id, r] of [
        ['transactionId', transactionId, a],
        ['counterpartTransactionId', counterpartTransactionId, b],
      ] as const) {
        if (!r) {
          await refuseOpeningBalanceEntry(trx, id);
          throw referenceNotFound(field, 'transaction');
        }
      }
      const [sa, sb] = [a as SideRow, b as SideRow];
      const problem = counterpartProblem(side(sa), side(sb));
      if (problem) throw AppError.invalid([{ field: 'counterpartTransactionId', message: PROBLEM_MESSAGES[problem] }]);
      for (const r of [sa, sb]) {
        if (r.transfer_pair_id) throw new AppError(ErrorKind.FailedPrecondition, MSG.transferAlreadyPaired, { appErrorCode: 'TRANSFER_ALREADY_PAIRED' });
        refuseIfRestricted(r);
      }
      await bookPair(trx, tenant.workspaceId, sa, sb, { score: transferScore(side(sa), side(sb)), userId: tenant.userId ?? null });
      return { transactions: await viewsInOrder(trx, [sa.id, sb.id]), message: SUCCESS.transferPaired };
    });
  }

  /** POST /transactions/unpair-transfer: a wrong pair or a one-sided transfer goes back to what a fresh import books; the pair is never detected again. */
  async unpair(tenant: Tenant, transactionId: string) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await transferLock(trx, tenant.workspaceId);
      const first = await livePairOf(trx, transactionId);
      if (!first) {
        await refuseOpeningBalanceEntry(trx, transactionId);
        throw referenceNotFound('transactionId', 'transaction');
      }
      // Both sides locked in id order (the pair cannot change meanwhile: pairing holds the workspace's transfer lock).
      const locked = await lockSides(trx, first.transfer_pair_id ? [transactionId, first.transfer_pair_id] : [transactionId]);
      const row = locked.find((r) => r.id === transactionId) as SideRow;
      if (!row.transfer_pair_id && row.category_class !== 'Transfer')
        throw new AppError(ErrorKind.FailedPrecondition, MSG.notTransfer, { appErrorCode: 'TRANSACTION_NOT_TRANSFER' });
      for (const r of locked) refuseIfRestricted(r);
      const other = await unpairLocked(trx, tenant.workspaceId, row, { dismiss: true, userId: tenant.userId ?? null });
      return { transactions: await viewsInOrder(trx, other ? [row.id, other] : [row.id]), message: SUCCESS.transferUnpaired };
    });
  }
}

export type { TxnViewRow };
