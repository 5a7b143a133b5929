import type { Transaction } from '@ledgerline/api';

/** What a person recognises a transaction by: its biller (merchant), else the bank's text. */
export function describeTransaction(t: Transaction): string {
  return t.biller?.name || t.memo || 'Bank transaction';
}

/** The bank side of the entry: debited for money in, credited for money out. */
export function bankAccountName(t: Transaction): string {
  return t.amount > 0 ? t.debitAccount.name : t.creditAccount.name;
}
