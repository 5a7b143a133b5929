import { newId, type Knex } from '@ledgerline/platform';
import type { TxnRow } from './rows.js';

/** A bank transaction the ledger records for the first time (its entry, if any, already posted). */
export interface ImportedTransaction {
  id: string;
  bankTransactionId: string;
  bankAccountId: string;
  ledgerAccountId: string;
  externalId: string;
  amountCents: number;
  isoCurrencyCode: string;
  date: string;
  name: string;
  memo: string;
  pending: boolean;
  billerId: string | null;
  categoryId: string;
  version: number;
  /** The entry that books it (null: not booked, e.g. another currency or zero). */
  entryId: string | null;
  /** 'auto' when the import booked it to its merchant's (biller's) category; null when it was left Uncategorised. */
  creationMode: 'auto' | null;
}

/**
 * Inserts new workspace transactions and their 'imported' trail in one statement, in the given order
 * (the trail's details: amount, date, category). Throws unless every row was inserted.
 */
export async function insertImported(trx: Knex.Transaction, workspaceId: string, rows: readonly ImportedTransaction[]): Promise<void> {
  if (rows.length === 0) return;
  const result = (
    await trx.raw(
      `with txns as (
       insert into workspace_transactions (id, workspace_id, bank_transaction_id, bank_account_id, ledger_account_id, external_id, amount_cents, iso_currency_code,
         txn_date, name, memo, pending, biller_id, category_id, version, current_entry_id, creation_mode)
       select r.id, ?, r.bank_transaction_id, r.bank_account_id, r.ledger_account_id, r.external_id, r.amount_cents, r.iso, r.txn_date, r.name, r.memo, r.pending,
         r.biller_id, r.category_id, r.version, r.entry_id, r.creation_mode
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::bigint[], ?::text[], ?::date[], ?::text[], ?::text[], ?::boolean[], ?::uuid[], ?::uuid[], ?::bigint[], ?::uuid[], ?::text[])
         with ordinality as r(id, bank_transaction_id, bank_account_id, ledger_account_id, external_id, amount_cents, iso, txn_date, name, memo, pending, biller_id, category_id, version, entry_id, creation_mode, n)
       order by r.n
       returning id
     ), trail as (
       insert into transaction_audit_logs (id, workspace_id, transaction_id, user_id, event, details)
       select a.id, ?, a.txn_id, null, 'imported', a.details::jsonb from unnest(?::uuid[], ?::uuid[], ?::text[]) with ordinality as a(id, txn_id, details, n)
       where (select count(*) from txns) > 0
       order by a.n
       returning 1
     )
     select (select count(*) from txns) as txns, (select count(*) from trail) as trail`,
      [
        workspaceId,
        rows.map((r) => r.id),
        rows.map((r) => r.bankTransactionId),
        rows.map((r) => r.bankAccountId),
        rows.map((r) => r.ledgerAccountId),
        rows.map((r) => r.externalId),
        rows.map((r) => r.amountCents),
        rows.map((r) => r.isoCurrencyCode),
        rows.map((r) => r.date),
        rows.map((r) => r.name),
        rows.map((r) => r.memo),
        rows.map((r) => r.pending),
        rows.map((r) => r.billerId),
        rows.map((r) => r.categoryId),
        rows.map((r) => r.version),
        rows.map((r) => r.entryId),
        rows.map((r) => r.creationMode),
        workspaceId,
        rows.map(() => newId()),
        rows.map((r) => r.id),
        rows.map((r) => JSON.stringify({ amountCents: r.amountCents, date: r.date, categoryId: r.categoryId })),
      ] as unknown as readonly Knex.RawBinding[],
    )
  ).rows[0] as { txns: string };
  if (Number(result.txns) !== rows.length) throw new Error(`booked ${result.txns} of ${rows.length} bank transactions`);
}

/** Which of these bank transaction ids the ledger already holds (live, removed or a tombstone). */
export async function knownBankTransactionIds(trx: Knex.Transaction, bankTransactionIds: readonly string[]): Promise<Set<string>> {
  const rows = (
    await trx.raw('select bank_transaction_id from workspace_transactions where bank_transaction_id = any(?::uuid[])', [[...new Set(bankTransactionIds)]])
  ).rows as { bank_transaction_id: string }[];
  return new Set(rows.map((r) => r.bank_transaction_id));
}

/** Locks a live (not removed) transaction's row for the change, or undefined. */
export async function lockLiveTransaction(trx: Knex.Transaction, id: string): Promise<TxnRow | undefined> {
  return (await trx('workspace_transactions').where({ id, is_removed: false }).forUpdate().first()) as TxnRow | undefined;
}

/** Locks the live rows of many transactions, in id order (concurrent bulk changes queue rather than deadlock). */
export async function lockLiveTransactions(trx: Knex.Transaction, ids: readonly string[]): Promise<TxnRow[]> {
  return (await trx.raw('select * from workspace_transactions where id = any(?::uuid[]) and is_removed = false order by id for update', [[...ids]]))
    .rows as TxnRow[];
}

/** Whether a transaction (live or removed) of the workspace exists. */
export async function transactionExists(trx: Knex.Transaction, id: string): Promise<boolean> {
  return !!(await trx('workspace_transactions').where({ id }).first());
}

/** Columns a change may set on a transaction row. */
export type TxnPatch = Partial<
  Pick<
    TxnRow,
    | 'category_id'
    | 'amount_cents'
    | 'txn_date'
    | 'name'
    | 'current_entry_id'
    | 'biller_id'
    | 'vendor_id'
    | 'applied_rule_id'
    | 'is_finalized'
    | 'is_split_parent'
  >
>;

/** Sets columns of one transaction and its `updated_at`. */
export async function updateTransaction(trx: Knex.Transaction, id: string, patch: TxnPatch): Promise<void> {
  await trx('workspace_transactions')
    .where({ id })
    .update({ ...patch, updated_at: trx.fn.now() });
}

/** Writes the booking columns (category, entry, biller, vendor, rule, finalized) of many transactions in one UPDATE. */
export async function updateBookings(trx: Knex.Transaction, rows: readonly TxnRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx.raw(
    `update workspace_transactions w set category_id = t.category_id, current_entry_id = t.current_entry_id, biller_id = t.biller_id, vendor_id = t.vendor_id,
       applied_rule_id = t.applied_rule_id, is_finalized = t.is_finalized, updated_at = now()
     from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::boolean[]) as t(id, category_id, current_entry_id, biller_id, vendor_id, applied_rule_id, is_finalized)
     where w.id = t.id and w.id = any(?::uuid[])`,
    // (The ids twice: \`w.id = any\` reaches the rows through the primary key whatever the statistics say; a join
    // planned without them read the whole table for every batch.)
    [
      rows.map((r) => r.id),
      rows.map((r) => r.category_id),
      rows.map((r) => r.current_entry_id),
      rows.map((r) => r.biller_id),
      rows.map((r) => r.vendor_id),
      rows.map((r) => r.applied_rule_id),
      rows.map((r) => r.is_finalized),
      rows.map((r) => r.id),
    ] as unknown as Knex.RawBinding[],
  );
}

/** A part of a split transaction (signed like its amount; the parent's own part first). */
export interface SplitPartRow {
  id: string;
  category_id: string;
  amount_cents: number;
  is_parent_part: boolean;
}

/** The parts of a split transaction, in their order. */
export async function splitParts(trx: Knex.Transaction, transactionId: string): Promise<SplitPartRow[]> {
  return (await trx('transaction_splits').where({ transaction_id: transactionId }).orderBy('position')) as SplitPartRow[];
}

/** Replaces a transaction's parts (the parent's part first); none leaves it without parts. */
export async function replaceSplitParts(
  trx: Knex.Transaction,
  row: Pick<TxnRow, 'id' | 'workspace_id'>,
  parts: readonly { id: string; categoryId: string; cents: number }[],
): Promise<void> {
  await trx('transaction_splits').where({ transaction_id: row.id }).delete();
  if (parts.length === 0) return;
  await trx('transaction_splits').insert(
    parts.map((p, i) => ({
      id: p.id,
      workspace_id: row.workspace_id,
      transaction_id: row.id,
      amount_cents: p.cents,
      category_id: p.categoryId,
      is_parent_part: i === 0,
      position: i,
    })),
  );
}

/** Locks the live transactions of a biller not in `categoryId`, in id order. */
export async function lockBillerTransactionsNotIn(trx: Knex.Transaction, billerId: string, categoryId: string): Promise<TxnRow[]> {
  return (await trx('workspace_transactions')
    .where({ biller_id: billerId, is_removed: false })
    .whereNot('category_id', categoryId)
    .orderBy('id')
    .forUpdate()) as TxnRow[];
}

/** A transaction's row (live or removed), without locking it. */
export async function transactionById(trx: Knex.Transaction, id: string): Promise<TxnRow | undefined> {
  return (await trx('workspace_transactions').where({ id }).first()) as TxnRow | undefined;
}

/**
 * One new workspace transaction and its 'imported' trail entry in one statement (one round trip fewer per
 * imported transaction than two); `insertImported` does the same for a batch.
 */
export async function insertImportedOne(trx: Knex.Transaction, workspaceId: string, r: ImportedTransaction): Promise<void> {
  const insertRow = trx('workspace_transactions')
    .insert({
      id: r.id,
      workspace_id: workspaceId,
      bank_transaction_id: r.bankTransactionId,
      bank_account_id: r.bankAccountId,
      ledger_account_id: r.ledgerAccountId,
      external_id: r.externalId,
      amount_cents: r.amountCents,
      iso_currency_code: r.isoCurrencyCode,
      txn_date: r.date,
      name: r.name,
      memo: r.memo,
      pending: r.pending,
      biller_id: r.billerId,
      category_id: r.categoryId,
      version: r.version,
      current_entry_id: r.entryId,
      creation_mode: r.creationMode,
    })
    .toSQL();
  await trx.raw(
    `with t as (${insertRow.sql} returning id)
     insert into transaction_audit_logs (id, workspace_id, transaction_id, user_id, event, details) select ?, ?, t.id, null, 'imported', ?::jsonb from t`,
    [...insertRow.bindings, newId(), workspaceId, JSON.stringify({ amountCents: r.amountCents, date: r.date, categoryId: r.categoryId })],
  );
}

/** Locks the ledger's row of a bank transaction (live, removed or a tombstone), or undefined. */
export async function lockByBankTransactionId(trx: Knex.Transaction, bankTransactionId: string): Promise<TxnRow | undefined> {
  return (await trx('workspace_transactions').where({ bank_transaction_id: bankTransactionId }).forUpdate().first()) as TxnRow | undefined;
}

/** The bank's new state of a transaction's descriptive columns and its version (the booking is the caller's). */
export async function updateBankState(
  trx: Knex.Transaction,
  id: string,
  s: { version: number; name: string; pending: boolean; memo: string; externalId: string; isoCurrencyCode: string },
): Promise<void> {
  await trx('workspace_transactions').where({ id }).update({
    version: s.version,
    name: s.name,
    pending: s.pending,
    memo: s.memo,
    external_id: s.externalId,
    iso_currency_code: s.isoCurrencyCode,
    updated_at: trx.fn.now(),
  });
}

/** A transaction's date (null for a tombstone), or undefined when there is none of this id. */
export async function transactionDate(trx: Knex.Transaction, id: string): Promise<{ txn_date: string | null } | undefined> {
  return (await trx('workspace_transactions').where({ id }).first('txn_date')) as { txn_date: string | null } | undefined;
}

/** A split transaction loses its parts and is whole again. */
export async function dropSplit(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('transaction_splits').where({ transaction_id: id }).delete();
  await trx('workspace_transactions').where({ id }).update({ is_split_parent: false });
}

/** A removal that arrives before its transaction: a removed row without a booking, so a late add is ignored. */
export async function insertRemovalTombstone(
  trx: Knex.Transaction,
  workspaceId: string,
  ev: { bankTransactionId: string; bankAccountId: string; externalId: string; version: number },
): Promise<void> {
  await trx('workspace_transactions').insert({
    id: newId(),
    workspace_id: workspaceId,
    bank_transaction_id: ev.bankTransactionId,
    bank_account_id: ev.bankAccountId,
    external_id: ev.externalId,
    version: ev.version,
    is_removed: true,
  });
}

/** The bank withdrew a transaction: removed, no longer booked, at the removal's version. */
export async function markRemoved(trx: Knex.Transaction, id: string, version: number): Promise<void> {
  await trx('workspace_transactions').where({ id }).update({ is_removed: true, current_entry_id: null, version, updated_at: trx.fn.now() });
}
