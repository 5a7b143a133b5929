// The spec §4 restrictions as the screens mirror them, so a screen says before a click what the server would answer.
// Moved from @ledgerline/api (issue #14 item 8, decision 0034).
import type { Transaction } from '@ledgerline/api';

export interface TransactionRestriction {
  code: string;
  message: string;
}

const ENTITY_NAMES: Readonly<Record<string, string>> = {
  ManualEntry: 'manual journal',
  ManualJournal: 'manual journal',
  Bill: 'bill',
  Invoice: 'invoice',
  FixedAsset: 'fixed asset',
};

/**
 * Spec §4, checked in this order, the first match applies: linked to a manual journal, bill, invoice or fixed
 * asset; finalized; category Transfer; synced to the accounting package; accrued; split. Then the edit rules:
 * not a split or accrual child, not an opening balance. The same order and wording as the ledger's refusals
 * (services/ledger/src/domain/restrictions.ts), so the screen says before a click what the server would answer.
 * `splitting` asks about editing the split itself, which a split transaction allows; `accrual` about editing,
 * stopping or deleting the accrual of an accrued transaction; `transferring` about pairing or un-pairing a
 * transfer (POST /transactions/pair-transfer, /unpair-transfer), which the Transfer rule does not stop.
 */
export function transactionRestriction(
  t: Transaction,
  options: { splitting?: boolean; accrual?: boolean; transferring?: boolean } = {},
): TransactionRestriction | null {
  // Ours, before the spec's order (as on the server): the books are kept in USD; another currency is recorded, not booked.
  if (t.isoCurrencyCode && t.isoCurrencyCode !== 'USD')
    return {
      code: 'TRANSACTION_CURRENCY',
      message: `This transaction is in ${t.isoCurrencyCode}. The books are kept in USD, so it is recorded but not booked and cannot be categorised`,
    };
  if (t.entityType)
    return { code: 'TRANSACTION_LINKED', message: `This transaction is linked to a ${ENTITY_NAMES[t.entityType] ?? t.entityType} and cannot be edited here` };
  if (t.isTransactionFinalized) return { code: 'TRANSACTION_FINALIZED', message: 'This transaction is finalized. Un-finalize it before editing' };
  if (t.category?.type === 'Transfer' && !options.transferring)
    return { code: 'TRANSACTION_TRANSFER', message: 'Transfer transactions cannot be edited. Unpair the transfer first.' };
  if (t.qboSynced) return { code: 'TRANSACTION_SYNCED', message: 'This transaction is synced to the accounting package. Un-sync it before editing' };
  if (t.isAccruedParent && !options.accrual) return { code: 'TRANSACTION_ACCRUED', message: 'This transaction is accrued. Edit or stop its accrual instead' };
  if (t.isSplittedParent && !options.splitting) return { code: 'TRANSACTION_SPLIT', message: 'This transaction is split. Edit its split instead' };
  if (t.isSplittedChildren)
    return { code: 'TRANSACTION_SPLIT_CHILD', message: 'A part of a split transaction cannot be edited on its own. Edit the split instead' };
  if (t.isAccruedChildren) return { code: 'TRANSACTION_ACCRUAL_CHILD', message: 'An accrual entry cannot be edited on its own. Edit the accrual instead' };
  if (t.isOpeningBalance) return { code: 'TRANSACTION_OPENING_BALANCE', message: 'An opening balance cannot be edited' };
  return null;
}
