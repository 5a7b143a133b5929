import { fromBinary } from '@bufbuild/protobuf';
import { AppError, ErrorKind, newId, startConsumer, type EventBus, type Knex, type Logger, type ReceivedEvent, type Subscription } from '@ledgerline/platform';
import { BankAccountLinkedSchema, BankTransactionRemovedSchema, BankTransactionSchema, type BankTransaction } from '@ledgerline/proto/events/v1/banking_pb';
import { WorkspaceCreatedSchema } from '@ledgerline/proto/events/v1/identity_pb';
import { SYSTEM } from '../domain/chart.js';
import { isIsoDate } from '../domain/dates.js';
import { MSG } from '../domain/messages.js';
import { accountById, accountBySystemKey, ensureBankLedgerAccount, ensureChart, type AccountRow } from '../store/chart-store.js';
import { dropAccrual } from '../store/accrual-store.js';
import { audit } from '../store/audit.js';
import { postEntry, reverseEntry } from '../store/journal.js';
import type { TxnRow } from '../store/rows.js';
import { billerFor, defaultCategory, repost } from './transactions.js';
import { bankTransactionLines } from '../domain/posting.js';
import { handleAddedBatch } from './bank-batch.js';

export const CONSUMER = 'ledger';
export const CONSUMED_TYPES = ['workspace.created', 'bank_account.linked', 'bank_transaction.added', 'bank_transaction.modified', 'bank_transaction.removed'];

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
  const account = (await trx('accounts').where({ bank_account_id: bankAccountId }).first()) as AccountRow | undefined;
  // bank_account.linked has its own consumer and may arrive a moment later: fail, and the bus redelivers.
  if (!account) throw new AppError(ErrorKind.Unavailable, MSG.bankAccountNotLinked);
  return account;
}

/** A bank transaction, new or in its new state: booked at once, or re-booked (reversal + new entry). */
export async function applyBankTransaction(trx: Knex.Transaction, workspaceId: string, t: BankTransaction): Promise<void> {
  checkBankTransaction(t);
  const version = Number(t.version);
  const amountCents = Number(t.amountCents);
  const row = (await trx('workspace_transactions').where({ bank_transaction_id: t.id }).forUpdate().first()) as TxnRow | undefined;
  if (row) {
    // Older or equal state than applied, or the bank already withdrew it: nothing to do.
    if (version <= row.version || row.is_removed) return;
    await trx('workspace_transactions').where({ id: row.id }).update({ version, name: t.name, pending: t.pending, memo: t.merchantName ? t.name : '', external_id: t.externalId, updated_at: trx.fn.now() });
    const signFlipped = Math.sign(amountCents) !== Math.sign(row.amount_cents);
    let categoryId = row.category_id ?? undefined;
    if (signFlipped && categoryId) {
      const current = await accountById(trx, categoryId);
      if (current?.system_key === SYSTEM.uncategorisedIncome || current?.system_key === SYSTEM.uncategorisedExpense) {
        categoryId = (await accountBySystemKey(trx, amountCents > 0 ? SYSTEM.uncategorisedIncome : SYSTEM.uncategorisedExpense)).id;
      }
    }
    let current: TxnRow = { ...row, version };
    if (row.is_split_parent && amountCents !== row.amount_cents) {
      // The bank changed the amount of a split transaction: its parts no longer add up, so it is un-split
      // (booked whole to the parent's category) and the user splits it again.
      await trx('transaction_splits').where({ transaction_id: row.id }).delete();
      await trx('workspace_transactions').where({ id: row.id }).update({ is_split_parent: false });
      current = { ...current, is_split_parent: false };
    }
    if (row.is_accrued_parent && amountCents !== row.amount_cents) {
      // Likewise an accrued transaction whose amount changed: its months no longer add up, so it is
      // un-accrued (every recognition reversed, booked to its category from before) and accrued again by the user.
      current = await dropAccrual(trx, current);
      categoryId = current.category_id ?? undefined;
    }
    if (amountCents !== row.amount_cents || t.date !== row.txn_date || categoryId !== row.category_id) {
      await repost(trx, current, { amountCents, date: t.date, categoryId, name: t.name });
      await audit(trx, { workspaceId, transactionId: row.id, event: 'bank_modified', details: { from: { amountCents: row.amount_cents, date: row.txn_date }, to: { amountCents, date: t.date }, unsplit: row.is_split_parent && !current.is_split_parent } });
    }
    return;
  }
  const ledgerAccount = await bankLedgerAccount(trx, t.accountId);
  const biller = await billerFor(trx, workspaceId, t.merchantName || t.name);
  const categoryId = await defaultCategory(trx, amountCents, biller);
  const id = newId();
  // The entry first (it names the transaction's id), so the row is written once, pointing at it.
  const entryId = amountCents === 0 ? null : await postEntry(trx, { workspaceId, date: t.date, sourceType: 'WorkspaceTransaction', sourceId: id, description: t.name, lines: bankTransactionLines(ledgerAccount.id, categoryId, amountCents), transactionId: id, billerId: biller?.id ?? null });
  // The row and its 'imported' trail entry in one statement (one round trip fewer per imported transaction).
  const insertRow = trx('workspace_transactions').insert({
    id, workspace_id: workspaceId, bank_transaction_id: t.id, bank_account_id: t.accountId, ledger_account_id: ledgerAccount.id, external_id: t.externalId,
    amount_cents: amountCents, iso_currency_code: t.isoCurrencyCode || 'USD', txn_date: t.date, name: t.name, memo: t.merchantName ? t.name : '', pending: t.pending,
    biller_id: biller?.id ?? null, category_id: categoryId, version, current_entry_id: entryId,
  }).toSQL();
  await trx.raw(
    `with t as (${insertRow.sql} returning id)
     insert into transaction_audit_logs (id, workspace_id, transaction_id, user_id, event, details) select ?, ?, t.id, null, 'imported', ?::jsonb from t`,
    [...insertRow.bindings, newId(), workspaceId, JSON.stringify({ amountCents, date: t.date, categoryId })],
  );
}

/** The bank withdrew a transaction: its entry is reversed; a removal seen first leaves a tombstone. */
export async function removeBankTransaction(trx: Knex.Transaction, workspaceId: string, ev: { id: string; accountId: string; externalId: string; version: bigint }): Promise<void> {
  const version = Number(ev.version);
  const row = (await trx('workspace_transactions').where({ bank_transaction_id: ev.id }).forUpdate().first()) as TxnRow | undefined;
  if (!row) {
    await trx('workspace_transactions').insert({ id: newId(), workspace_id: workspaceId, bank_transaction_id: ev.id, bank_account_id: ev.accountId, external_id: ev.externalId, version, is_removed: true });
    return;
  }
  if (row.is_removed || version < row.version) return;
  // An accrued transaction takes its recognitions with it.
  if (row.is_accrued_parent) await dropAccrual(trx, row);
  if (row.current_entry_id) await reverseEntry(trx, row.current_entry_id, `Removed by the bank: ${row.name}`);
  await trx('workspace_transactions').where({ id: row.id }).update({ is_removed: true, current_entry_id: null, version, updated_at: trx.fn.now() });
  await audit(trx, { workspaceId, transactionId: row.id, event: 'bank_removed', details: { amountCents: row.amount_cents, date: row.txn_date } });
}

export async function handleLedgerEvent(trx: Knex.Transaction, event: ReceivedEvent): Promise<void> {
  const ws = event.workspaceId;
  switch (event.type) {
    case 'workspace.created': {
      const p = fromBinary(WorkspaceCreatedSchema, event.payload);
      await ensureChart(trx, ws, p.name);
      return;
    }
    case 'bank_account.linked': {
      const p = fromBinary(BankAccountLinkedSchema, event.payload);
      await ensureChart(trx, ws);
      await ensureBankLedgerAccount(trx, ws, { accountId: p.accountId, name: p.name, mask: p.mask, type: p.type, subtype: p.subtype, institutionName: p.institutionName });
      return;
    }
    // No chart check here: a transaction is booked only against a linked bank account, and linking seeds
    // the chart (one round trip fewer per bank transaction event).
    case 'bank_transaction.added':
    case 'bank_transaction.modified': {
      await applyBankTransaction(trx, ws, fromBinary(BankTransactionSchema, event.payload));
      return;
    }
    case 'bank_transaction.removed': {
      await removeBankTransaction(trx, ws, fromBinary(BankTransactionRemovedSchema, event.payload));
      return;
    }
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
export function startLedgerConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number; concurrency?: number; batchSize?: number }): Promise<Subscription> {
  const n = options.concurrency ?? 1;
  const batchSize = options.batchSize ?? 1;
  // Batched adds are gathered by one handler at a time (the batch itself is the parallelism).
  const concurrency = { 'bank_transaction.added': batchSize > 1 ? 1 : n, 'bank_transaction.modified': n, 'bank_transaction.removed': n };
  const batch = batchSize > 1
    ? { types: ['bank_transaction.added'], size: batchSize, handle: (trx: Knex.Transaction, events: ReceivedEvent[]) => handleAddedBatch(trx, events, checkBankTransaction, applyBankTransaction) }
    : undefined;
  return startConsumer({ name: CONSUMER, types: CONSUMED_TYPES, db: options.db, bus: options.bus, logger: options.logger, maxDeliver: options.maxDeliver ?? 8, concurrency, batch, handle: handleLedgerEvent });
}
