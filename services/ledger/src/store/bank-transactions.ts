import type { Knex } from '@ledgerline/platform';

/**
 * The bank transaction a ledger line books (`fetchBankAccountTransaction`): enough for the ledger
 * screen to show it and open the transaction drawer (`?txn=<id>`, the workspace transaction's id).
 */
export interface BankTransactionView {
  /** The workspace transaction's id (GET /transactions/v2/{id}). */
  id: string;
  /** Banking's id of the bank transaction. */
  bankTransactionId: string;
  date: string;
  /** Signed as the bank sees it: > 0 money into the bank account. */
  amountCents: number;
  isoCurrencyCode: string;
  name: string;
  memo: string;
  biller: { id: string; name: string } | null;
  /** Banking's id of the bank account, and the ledger account that books it. */
  bankAccountId: string;
  bankLedgerAccountId: string;
  bankAccountName: string;
  categoryId: string;
  isTransactionFinalized: boolean;
  pending: boolean;
}

interface Row {
  id: string;
  bank_transaction_id: string;
  txn_date: string | null;
  amount_cents: number;
  iso_currency_code: string;
  name: string;
  memo: string;
  biller_id: string | null;
  biller_name: string | null;
  bank_account_id: string;
  ledger_account_id: string | null;
  bank_account_name: string | null;
  category_id: string | null;
  is_finalized: boolean;
  pending: boolean;
}

/** The bank transactions of the given workspace transaction ids (one query), by workspace transaction id. */
export async function bankTransactionsOf(trx: Knex.Transaction, transactionIds: readonly (string | null)[]): Promise<Map<string, BankTransactionView>> {
  const ids = [...new Set(transactionIds.filter((id): id is string => !!id))];
  const out = new Map<string, BankTransactionView>();
  if (ids.length === 0) return out;
  const rows = (await trx('workspace_transactions as t')
    .leftJoin('billers as b', 'b.id', 't.biller_id')
    .leftJoin('accounts as a', 'a.id', 't.ledger_account_id')
    .whereIn('t.id', ids)
    .select(
      't.id',
      't.bank_transaction_id',
      't.txn_date',
      't.amount_cents',
      't.iso_currency_code',
      't.name',
      't.memo',
      't.biller_id',
      'b.name as biller_name',
      't.bank_account_id',
      't.ledger_account_id',
      'a.name as bank_account_name',
      't.category_id',
      't.is_finalized',
      't.pending',
    )) as Row[];
  for (const r of rows) {
    out.set(r.id, {
      id: r.id,
      bankTransactionId: r.bank_transaction_id,
      date: r.txn_date ?? '',
      amountCents: r.amount_cents,
      isoCurrencyCode: r.iso_currency_code,
      name: r.name,
      memo: r.memo,
      biller: r.biller_id ? { id: r.biller_id, name: r.biller_name ?? '' } : null,
      bankAccountId: r.bank_account_id,
      bankLedgerAccountId: r.ledger_account_id ?? '',
      bankAccountName: r.bank_account_name ?? '',
      categoryId: r.category_id ?? '',
      isTransactionFinalized: r.is_finalized,
      pending: r.pending,
    });
  }
  return out;
}
