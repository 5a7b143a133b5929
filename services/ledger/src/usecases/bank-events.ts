import {
  AppError,
  ErrorKind,
  eventMessage,
  EventType,
  newId,
  startConsumer,
  type CheckedEvent,
  type EventBus,
  type Knex,
  type Logger,
  type ReceivedEvent,
  type Subscription,
} from '@ledgerline/platform';
import type { BankTransaction } from '@ledgerline/proto/events/v1/banking_pb';
import { SYSTEM } from '../domain/chart.js';
import { isIsoDate } from '../domain/dates.js';
import { MSG } from '../domain/messages.js';
import { accountById, accountBySystemKey, accountOfBankAccount, ensureBankLedgerAccount, ensureChart, type AccountRow } from '../store/chart-store.js';
import { dropAccrual } from '../store/accrual-store.js';
import { audit } from '../store/audit.js';
import { billerFor } from '../store/billers.js';
import { postEntry, reverseEntry } from '../store/journal.js';
import type { TxnRow } from '../store/rows.js';
import {
  dropSplit,
  insertImportedOne,
  insertRemovalTombstone,
  lockByBankTransactionId,
  markRemoved,
  transactionDate,
  updateBankState,
} from '../store/workspace-transactions.js';
import { defaultCategory, repost } from './booking.js';
import { bankTransactionLines } from '../domain/posting.js';
import { handleAddedBatch, handleTransactionsPage } from './bank-batch.js';
import { handleTieOutEvent } from './bank-tieout.js';
import { isBooksCurrency } from '../domain/tie-out.js';
import { daysApart, TRANSFER_WINDOW_DAYS } from '../domain/transfers.js';
import { transferLock } from '../store/transfers-store.js';
import { detectTransfers, freshCategory, unpairLocked } from './transfers.js';
import { requestCategorisation } from './categorisation.js';
import { applyVendorRulesTo } from './vendor-rules.js';

export const CONSUMER = 'ledger';
export const CONSUMED_TYPES = [
  EventType.WorkspaceCreated,
  EventType.BankAccountLinked,
  EventType.BankTransactionAdded,
  EventType.BankTransactionModified,
  EventType.BankTransactionRemoved,
  EventType.BankTransactionsPage,
  EventType.BankAccountSynced,
] as const;
export type LedgerEventType = (typeof CONSUMED_TYPES)[number];

/** Payloads from banking are validated like user input (RELIABILITY 14): a bad one fails loudly (dead letter), never half-applied. */
export function checkBankTransaction(t: BankTransaction): void {
  const problems: string[] = [];
  if (!t.id) problems.push('id');
  if (!t.accountId) problems.push('account_id');
  if (!isIsoDate(t.date)) problems.push('date');
  if (t.amountCents > BigInt(Number.MAX_SAFE_INTEGER) || t.amountCents < -BigInt(Number.MAX_SAFE_INTEGER)) problems.push('amount_cents');
  if (problems.length) throw new Error(`invalid bank transaction ${t.id}: ${problems.join(', ')}`);
}

async function bankLedgerAccount(trx: Knex.Transaction, bankAccountId: string): Promise<AccountRow> {
  const account = await accountOfBankAccount(trx, bankAccountId);
  // bank_account.linked has its own consumer and may arrive a moment later: fail, and the bus redelivers.
  if (!account) throw new AppError(ErrorKind.Unavailable, MSG.bankAccountNotLinked);
  return account;
}

/**
 * A bank transaction, new or in its new state: booked at once, or re-booked (reversal + new entry), then
 * matched with its transfer counterpart if it has one (`detectTransfers`).
 */
export async function applyBankTransaction(trx: Knex.Transaction, workspaceId: string, t: BankTransaction): Promise<void> {
  checkBankTransaction(t);
  // Before any write of this transaction (see transferLock).
  await transferLock(trx, workspaceId);
  const version = Number(t.version);
  const amountCents = Number(t.amountCents);
  const row = await lockByBankTransactionId(trx, t.id);
  if (row) {
    // Older or equal state than applied, or the bank already withdrew it: nothing to do.
    if (version <= row.version || row.is_removed) return;
    const isoCurrencyCode = t.isoCurrencyCode || 'USD';
    await updateBankState(trx, row.id, {
      version,
      name: t.name,
      pending: t.pending,
      memo: t.merchantName ? t.name : '',
      externalId: t.externalId,
      isoCurrencyCode,
    });
    let categoryId = row.category_id ?? undefined;
    let current: TxnRow = { ...row, version, iso_currency_code: isoCurrencyCode };
    const currencyChanged = isoCurrencyCode !== row.iso_currency_code;
    let formerPair: string | null = null;
    if (row.transfer_pair_id) {
      // A paired transfer whose amount changed (or whose date left the window) is no transfer of that
      // counterpart any more: both are un-paired (not dismissed: detection may pair them again) and go
      // back to what a fresh import books; this side is re-booked below in its new state.
      const pair = await transactionDate(trx, row.transfer_pair_id);
      if (amountCents !== row.amount_cents || !pair?.txn_date || daysApart(pair.txn_date, t.date) > TRANSFER_WINDOW_DAYS) {
        formerPair = await unpairLocked(trx, workspaceId, row, { dismiss: false, userId: null, byBank: true, keep: row.id });
        categoryId = await freshCategory(trx, { biller_id: row.biller_id, amount_cents: amountCents });
        current = { ...current, transfer_pair_id: null };
      }
    }
    if (row.is_split_parent && amountCents !== row.amount_cents) {
      // The bank changed the amount of a split transaction: its parts no longer add up, so it is un-split
      // (booked whole to the parent's category) and the user splits it again.
      await dropSplit(trx, row.id);
      current = { ...current, is_split_parent: false };
    }
    if (row.is_accrued_parent && amountCents !== row.amount_cents) {
      // Likewise an accrued transaction whose amount changed: its months no longer add up, so it is
      // un-accrued (every recognition reversed, booked to its category from before) and accrued again by the user.
      current = await dropAccrual(trx, current);
      categoryId = current.category_id ?? undefined;
    }
    // What a fresh import of the modified transaction books, except a category the user chose: once
    // un-paired, un-split and un-accrued, an Uncategorised category follows the new sign (a sign flip of
    // an accrued transaction goes back to the Uncategorised side of its new amount, not of its old one).
    if (categoryId && amountCents !== 0) {
      const cat = await accountById(trx, categoryId);
      if (cat?.system_key === SYSTEM.uncategorisedIncome || cat?.system_key === SYSTEM.uncategorisedExpense) {
        categoryId = (await accountBySystemKey(trx, amountCents > 0 ? SYSTEM.uncategorisedIncome : SYSTEM.uncategorisedExpense)).id;
      }
    }
    // A change of currency re-books too: into the books (now USD) or out of them (no longer USD, spec §9).
    if (amountCents !== row.amount_cents || t.date !== row.txn_date || categoryId !== row.category_id || currencyChanged) {
      await repost(trx, current, { amountCents, date: t.date, categoryId, name: t.name });
      await audit(trx, {
        workspaceId,
        transactionId: row.id,
        event: 'bank_modified',
        details: {
          from: { amountCents: row.amount_cents, date: row.txn_date },
          to: { amountCents, date: t.date },
          unsplit: row.is_split_parent && !current.is_split_parent,
          unpaired: formerPair !== null,
        },
      });
    }
    await detectTransfers(trx, workspaceId, formerPair ? [row.id, formerPair] : [row.id]);
    return;
  }
  const ledgerAccount = await bankLedgerAccount(trx, t.accountId);
  const biller = await billerFor(trx, workspaceId, t.merchantName || t.name);
  const categoryId = await defaultCategory(trx, amountCents, biller);
  const id = newId();
  // The entry first (it names the transaction's id), so the row is written once, pointing at it.
  // A transaction in another currency is recorded but never booked as USD (spec §9).
  const entryId =
    amountCents === 0 || !isBooksCurrency(t.isoCurrencyCode)
      ? null
      : await postEntry(trx, {
          workspaceId,
          date: t.date,
          sourceType: 'WorkspaceTransaction',
          sourceId: id,
          description: t.name,
          lines: bankTransactionLines(ledgerAccount.id, categoryId, amountCents),
          transactionId: id,
          billerId: biller?.id ?? null,
        });
  // The row and its 'imported' trail entry in one statement.
  await insertImportedOne(trx, workspaceId, {
    id,
    bankTransactionId: t.id,
    bankAccountId: t.accountId,
    ledgerAccountId: ledgerAccount.id,
    externalId: t.externalId,
    amountCents,
    isoCurrencyCode: t.isoCurrencyCode || 'USD',
    date: t.date,
    name: t.name,
    memo: t.merchantName ? t.name : '',
    pending: t.pending,
    billerId: biller?.id ?? null,
    categoryId,
    version,
    entryId,
    creationMode: biller?.category_id ? 'auto' : null,
  });
  await detectTransfers(trx, workspaceId, [id]);
  await applyVendorRulesTo(trx, [id]);
  await requestCategorisation(trx, workspaceId, [id]);
}

/** The bank withdrew a transaction: its entry is reversed; a removal seen first leaves a tombstone. */
export async function removeBankTransaction(
  trx: Knex.Transaction,
  workspaceId: string,
  ev: { id: string; accountId: string; externalId: string; version: bigint },
): Promise<void> {
  const version = Number(ev.version);
  const row = await lockByBankTransactionId(trx, ev.id);
  if (!row) {
    await insertRemovalTombstone(trx, workspaceId, { bankTransactionId: ev.id, bankAccountId: ev.accountId, externalId: ev.externalId, version });
    return;
  }
  if (row.is_removed || version < row.version) return;
  await transferLock(trx, workspaceId);
  // A paired transfer's counterpart goes back to what a fresh import books (and may pair with another).
  const formerPair = row.transfer_pair_id ? await unpairLocked(trx, workspaceId, row, { dismiss: false, userId: null, byBank: true, keep: row.id }) : null;
  // An accrued transaction takes its recognitions with it.
  if (row.is_accrued_parent) await dropAccrual(trx, row);
  if (row.current_entry_id) await reverseEntry(trx, row.current_entry_id, `Removed by the bank: ${row.name}`);
  await markRemoved(trx, row.id, version);
  await audit(trx, { workspaceId, transactionId: row.id, event: 'bank_removed', details: { amountCents: row.amount_cents, date: row.txn_date } });
  if (formerPair) await detectTransfers(trx, workspaceId, [formerPair]);
}

export async function handleLedgerEvent(trx: Knex.Transaction, event: ReceivedEvent<LedgerEventType>): Promise<void> {
  const ws = event.workspaceId;
  switch (event.type) {
    case EventType.WorkspaceCreated: {
      const p = eventMessage(event);
      await ensureChart(trx, ws, p.name);
      return;
    }
    case EventType.BankAccountLinked: {
      const p = eventMessage(event);
      await ensureChart(trx, ws);
      await ensureBankLedgerAccount(trx, ws, {
        accountId: p.accountId,
        name: p.name,
        mask: p.mask,
        type: p.type,
        subtype: p.subtype,
        institutionName: p.institutionName,
      });
      return;
    }
    // No chart check here: a transaction is booked only against a linked bank account, and linking seeds
    // the chart (one round trip fewer per bank transaction event).
    case EventType.BankTransactionAdded:
    case EventType.BankTransactionModified: {
      await applyBankTransaction(trx, ws, eventMessage(event));
      return;
    }
    case EventType.BankTransactionRemoved: {
      await removeBankTransaction(trx, ws, eventMessage(event));
      return;
    }
    // A sync page's changes in one transaction (issue #22), deduplicated per bank transaction.
    case EventType.BankTransactionsPage: {
      await handleTransactionsPage(trx, ws, eventMessage(event), {
        check: checkBankTransaction,
        applyOne: applyBankTransaction,
        removeOne: removeBankTransaction,
      });
      return;
    }
    // The bank's side of the tie-out: snapshot + opening balance (src/usecases/bank-tieout.ts).
    case EventType.BankAccountSynced:
      await handleTieOutEvent(trx, event);
      return;
    default:
      return;
  }
}

/**
 * One durable consumer (per subject on NATS 2.9) with the inbox: each event applied exactly once.
 * Bank transaction events are booked `concurrency` at a time: their handlers tolerate any order (versions
 * decide, a removal first leaves a tombstone, the unique bank transaction id turns a race into a retry),
 * and one at a time a sync of 100,000 waits on round trips, not on the database. Chart events stay in order.
 */
export function startLedgerConsumer(options: {
  db: Knex;
  bus: EventBus;
  logger: Logger;
  maxDeliver?: number;
  concurrency?: number;
  batchSize?: number;
}): Promise<Subscription> {
  const n = options.concurrency ?? 1;
  const batchSize = options.batchSize ?? 1;
  // Batched adds are gathered by one handler at a time (the batch itself is the parallelism).
  const concurrency = {
    [EventType.BankTransactionAdded]: batchSize > 1 ? 1 : n,
    [EventType.BankTransactionModified]: n,
    [EventType.BankTransactionRemoved]: n,
  };
  const isAdded = (e: CheckedEvent<LedgerEventType>): e is CheckedEvent<typeof EventType.BankTransactionAdded> => e.type === EventType.BankTransactionAdded;
  const batch =
    batchSize > 1
      ? {
          types: [EventType.BankTransactionAdded],
          size: batchSize,
          handle: (trx: Knex.Transaction, events: CheckedEvent<LedgerEventType>[]) =>
            handleAddedBatch(trx, events.filter(isAdded), checkBankTransaction, applyBankTransaction),
        }
      : undefined;
  return startConsumer<LedgerEventType>({
    name: CONSUMER,
    types: CONSUMED_TYPES,
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    maxDeliver: options.maxDeliver ?? 8,
    concurrency,
    batch,
    handle: handleLedgerEvent,
  });
}
