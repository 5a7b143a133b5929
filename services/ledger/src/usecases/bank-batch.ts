import { AppError, ErrorKind, eventMessage, newId, type EventType, type Knex, type ReceivedEvent } from '@ledgerline/platform';
import type { BankTransaction, BankTransactionRemoved, BankTransactionsPage } from '@ledgerline/proto/events/v1/banking_pb';
import { SYSTEM } from '../domain/chart.js';
import { MSG } from '../domain/messages.js';
import { bankTransactionLines } from '../domain/posting.js';
import { isBooksCurrency } from '../domain/tie-out.js';
import { billerName, billersFor } from '../store/billers.js';
import { bankAndSystemAccounts } from '../store/chart-store.js';
import { postEntries, type NewEntry } from '../store/journal.js';
import { insertImported, knownBankTransactionIds, type ImportedTransaction } from '../store/workspace-transactions.js';
import { transferLock } from '../store/transfers-store.js';
import { detectTransfers } from './transfers.js';
import { requestCategorisation } from './categorisation.js';
import { applyVendorRulesTo } from './vendor-rules.js';

/**
 * Books new bank transactions of one workspace set-based, in the caller's transaction: the accounts and
 * billers in two statements, then every entry through the ledger's one writer of journal lines
 * (`postEntries`: entries, month and day balances and lines in one statement, lines placed in the batch's
 * order, the bank's; every entry.posted in one outbox insert), then the transaction rows and their
 * 'imported' trail in one statement. The same rows, balances and places as booking them one by one with
 * `applyBankTransaction`.
 */
export async function bookNewBankTransactions(trx: Knex.Transaction, workspaceId: string, txns: readonly BankTransaction[]): Promise<string[]> {
  if (txns.length === 0) return [];
  const bankIds = [...new Set(txns.map((t) => t.accountId))];
  const accounts = await bankAndSystemAccounts(trx, bankIds, [SYSTEM.uncategorisedIncome, SYSTEM.uncategorisedExpense]);
  const ledgerAccount = new Map(accounts.filter((a) => a.bank_account_id).map((a) => [a.bank_account_id!, a.id]));
  // bank_account.linked has its own consumer and may arrive a moment later: fail, and the batch is retried event by event.
  if (bankIds.some((b) => !ledgerAccount.has(b))) throw new AppError(ErrorKind.Unavailable, MSG.bankAccountNotLinked);
  const income = accounts.find((a) => a.system_key === SYSTEM.uncategorisedIncome)?.id;
  const expense = accounts.find((a) => a.system_key === SYSTEM.uncategorisedExpense)?.id;
  if (!income || !expense) throw new Error('the chart has no Uncategorised Income/Expense account');

  // Billers: one per merchant name (case-insensitive), created if new, in one statement.
  const merchantOf = (t: BankTransaction) => billerName(t.merchantName || t.name);
  const billers = await billersFor(trx, workspaceId, [...new Set(txns.map(merchantOf).filter((n) => n))]);

  const rows: ImportedTransaction[] = [];
  const entries: NewEntry[] = [];
  const entryOf: (number | null)[] = [];
  for (const t of txns) {
    const amountCents = Number(t.amountCents);
    const biller = billers.get(merchantOf(t)) ?? null;
    const categoryId = biller?.category_id ?? (amountCents > 0 ? income : expense);
    const ledgerAccountId = ledgerAccount.get(t.accountId)!;
    const id = newId();
    rows.push({
      id,
      bankTransactionId: t.id,
      bankAccountId: t.accountId,
      ledgerAccountId,
      externalId: t.externalId,
      amountCents,
      isoCurrencyCode: t.isoCurrencyCode || 'USD',
      date: t.date,
      name: t.name,
      memo: t.merchantName ? t.name : '',
      pending: t.pending,
      billerId: biller?.id ?? null,
      categoryId,
      version: Number(t.version),
      entryId: null,
      // Booked to the merchant's category (a choice made once, applied without review): auto, as a rule's.
      creationMode: biller?.category_id ? 'auto' : null,
    });
    // A transaction in another currency is recorded but never booked as USD (spec §9): no entry, no lines.
    if (amountCents !== 0 && isBooksCurrency(t.isoCurrencyCode)) {
      entryOf.push(entries.length);
      entries.push({
        workspaceId,
        date: t.date,
        sourceType: 'WorkspaceTransaction',
        sourceId: id,
        description: t.name,
        lines: bankTransactionLines(ledgerAccountId, categoryId, amountCents),
        transactionId: id,
        billerId: biller?.id ?? null,
      });
    } else entryOf.push(null);
  }
  const posted = await postEntries(trx, entries);
  rows.forEach((r, i) => {
    const at = entryOf[i];
    r.entryId = at === null || at === undefined ? null : (posted[at] as string);
  });
  await insertImported(trx, workspaceId, rows);
  return rows.map((r) => r.id);
}

/**
 * A batch of `bank_transaction.added` of one workspace (inbox rows already written by the consumer): new
 * bank transactions are booked set-based; those the ledger already holds (a redelivered or re-sent add, a
 * tombstone) and the second add of one id in the batch go the per-event way after them, in batch order.
 */
export async function handleAddedBatch(
  trx: Knex.Transaction,
  events: readonly ReceivedEvent<typeof EventType.BankTransactionAdded>[],
  check: (t: BankTransaction) => void,
  applyOne: (trx: Knex.Transaction, workspaceId: string, t: BankTransaction) => Promise<void>,
): Promise<void> {
  const txns = events.map((e) => eventMessage(e));
  for (const t of txns) check(t);
  await bookAdds(trx, events[0]!.workspaceId, txns, applyOne);
}

/** Adds of one workspace, checked: the new ones booked set-based, the ones the ledger already holds one by one after them. */
async function bookAdds(
  trx: Knex.Transaction,
  workspaceId: string,
  txns: readonly BankTransaction[],
  applyOne: (trx: Knex.Transaction, workspaceId: string, t: BankTransaction) => Promise<void>,
): Promise<void> {
  if (txns.length === 0) return;
  // Before any write of this transaction (see transferLock): transfers are matched one batch at a time.
  await transferLock(trx, workspaceId);
  const known = await knownBankTransactionIds(
    trx,
    txns.map((t) => t.id),
  );
  const fresh: BankTransaction[] = [];
  const later: BankTransaction[] = [];
  for (const t of txns) {
    if (known.has(t.id)) later.push(t);
    else {
      known.add(t.id);
      fresh.push(t);
    }
  }
  const booked = await bookNewBankTransactions(trx, workspaceId, fresh);
  // Transfers among the batch and with what was booked before (either side may arrive first), in batch order.
  await detectTransfers(trx, workspaceId, booked);
  // Then vendor rules (a transfer is never a rule's): set-based, the winning rule of each new transaction.
  await applyVendorRulesTo(trx, booked);
  // Then the learned categorisation: the ones nobody claimed are asked about (a job and one event).
  await requestCategorisation(trx, workspaceId, booked);
  for (const t of later) await applyOne(trx, workspaceId, t);
}

export interface PageHandlers {
  check(t: BankTransaction): void;
  /** A bank transaction in its (new) state, one at a time: booked, or re-booked if newer than what the ledger holds. */
  applyOne(trx: Knex.Transaction, workspaceId: string, t: BankTransaction): Promise<void>;
  removeOne(trx: Knex.Transaction, workspaceId: string, r: BankTransactionRemoved): Promise<void>;
}

/**
 * A `bank_transactions.page` (issue #22), in the consumer's one transaction with its inbox row: the changes in
 * the page's order, each run of adds booked set-based (`bookAdds`: deduplicated per bank transaction id, a
 * second add of one id or one the ledger holds goes the per-transaction way, where versions decide), each
 * modification and removal as its single event would be. So a page that repeats a change, or repeats what a
 * page or single event before it applied, books nothing twice; a crash before the commit leaves the whole page
 * to be applied again.
 */
export async function handleTransactionsPage(trx: Knex.Transaction, workspaceId: string, page: BankTransactionsPage, handlers: PageHandlers): Promise<void> {
  // Like user input (RELIABILITY 14): a bad change fails the page before anything is written.
  for (const c of page.changes) {
    if (c.change.case === 'added' || c.change.case === 'modified') handlers.check(c.change.value);
    else if (c.change.case === 'removed') {
      if (!c.change.value.id) throw new Error('invalid bank transaction removal: id');
    } else throw new Error('invalid bank transaction page: a change of no kind');
  }
  let adds: BankTransaction[] = [];
  const flush = async () => {
    await bookAdds(trx, workspaceId, adds, handlers.applyOne);
    adds = [];
  };
  for (const { change } of page.changes) {
    if (change.case === 'added') adds.push(change.value);
    else if (change.case === 'modified') {
      await flush();
      await handlers.applyOne(trx, workspaceId, change.value);
    } else if (change.case === 'removed') {
      await flush();
      await handlers.removeOne(trx, workspaceId, change.value);
    }
  }
  await flush();
}
