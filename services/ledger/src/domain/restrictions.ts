import { RESTRICTION } from './messages.js';
import { BOOKS_CURRENCY } from './tie-out.js';

/** What the spec §4 rules look at. */
export interface EditableState {
  entityType: string | null;
  isFinalized: boolean;
  categoryClass: string | null;
  qboSynced: boolean;
  isAccruedParent: boolean;
  isSplitParent: boolean;
  isSplitChild: boolean;
  isAccrualChild: boolean;
  isOpeningBalance: boolean;
  isRemoved: boolean;
  /** The transaction's currency (the books are kept in USD); undefined = USD. */
  isoCurrencyCode?: string | null;
}

export interface Restriction {
  code: string;
  message: string;
}

const ENTITY_NAMES: Record<string, string> = {
  ManualEntry: 'manual journal',
  ManualJournal: 'manual journal',
  Bill: 'bill',
  Invoice: 'invoice',
  FixedAsset: 'fixed asset',
};

/**
 * Spec §4: restrictions are checked in this order and the first match applies: connected to a manual
 * journal, bill, invoice or fixed asset; finalized; category Transfer; synced to the accounting
 * package; accrued; split. Then the edit rules: not a split or accrual child, not an opening balance.
 * Editing the split itself (`splitting`) skips the split rule; pairing or un-pairing a transfer
 * (`transferring`) skips the Transfer rule (un-pairing is the way out of it).
 */
export function editRestriction(t: EditableState, options: { splitting?: boolean; transferring?: boolean } = {}): Restriction | null {
  if (t.isRemoved) return { code: RESTRICTION.removed.code, message: RESTRICTION.removed.message };
  // Ours, before the spec's order: a transaction in another currency is recorded, never booked as USD (spec §9).
  if (t.isoCurrencyCode && t.isoCurrencyCode !== BOOKS_CURRENCY)
    return { code: RESTRICTION.currency.code, message: RESTRICTION.currency.message(t.isoCurrencyCode) };
  if (t.entityType) return { code: RESTRICTION.linked.code, message: RESTRICTION.linked.message(ENTITY_NAMES[t.entityType] ?? t.entityType) };
  if (t.isFinalized) return { code: RESTRICTION.finalized.code, message: RESTRICTION.finalized.message };
  if (t.categoryClass === 'Transfer' && !options.transferring) return { code: RESTRICTION.transfer.code, message: RESTRICTION.transfer.message };
  if (t.qboSynced) return { code: RESTRICTION.synced.code, message: RESTRICTION.synced.message };
  if (t.isAccruedParent) return { code: RESTRICTION.accrued.code, message: RESTRICTION.accrued.message };
  if (t.isSplitParent && !options.splitting) return { code: RESTRICTION.split.code, message: RESTRICTION.split.message };
  if (t.isSplitChild) return { code: RESTRICTION.splitChild.code, message: RESTRICTION.splitChild.message };
  if (t.isAccrualChild) return { code: RESTRICTION.accrualChild.code, message: RESTRICTION.accrualChild.message };
  if (t.isOpeningBalance) return { code: RESTRICTION.openingBalance.code, message: RESTRICTION.openingBalance.message };
  return null;
}
