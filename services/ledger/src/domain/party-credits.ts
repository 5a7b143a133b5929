import type { PostingLine } from './posting.js';

/**
 * Vendor credits and credit memos (issue #17): the parties service owns the documents, the ledger books them.
 * Booked as QuickBooks Online books them:
 * - a vendor credit reduces what the workspace owes the vendor: debit Accounts Payable (the total), credit each
 *   line's category (an expense refunded, an asset returned...);
 * - a credit memo reduces what the customer owes: debit each line's category (income given back), credit
 *   Accounts Receivable (the total).
 */
export const PARTY_CREDIT_SOURCE_TYPES = ['VendorCredit', 'CreditMemo'] as const;
export type PartyCreditSourceType = (typeof PARTY_CREDIT_SOURCE_TYPES)[number];

/** System keys of the two accounts (`accounts.system_key`); the default chart names them as below. */
export const PARTY_ACCOUNTS = {
  VendorCredit: { systemKey: 'accounts_payable', name: 'Accounts Payable', coaId: 21100, classGroup: 'Liability' },
  CreditMemo: { systemKey: 'accounts_receivable', name: 'Accounts Receivable', coaId: 11200, classGroup: 'Assets' },
} as const;

export const PARTY_CREDIT_MSG = {
  sourceType: `sourceType must be one of: ${PARTY_CREDIT_SOURCE_TYPES.join(', ')}`,
  categoryNotFound: 'Category not found',
  categoryNotPostable: (i: number) => `lineItems.${i}.categoryId must be a category or sub-category, not a category type or group`,
  categoryIsParty: (i: number, name: string) => `lineItems.${i}.categoryId cannot be ${name} itself`,
} as const;

/** The entry's lines: the party account for the total on one side, each category on the other (in order). */
export function partyCreditLines(
  type: PartyCreditSourceType,
  partyAccountId: string,
  lines: readonly { categoryId: string; amountCents: number }[],
): PostingLine[] {
  if (lines.length === 0) return [];
  const total = lines.reduce((s, l) => s + l.amountCents, 0);
  const categoryDirection = type === 'VendorCredit' ? 'credit' : 'debit';
  const partyDirection = type === 'VendorCredit' ? 'debit' : 'credit';
  const categoryLines = lines.map((l): PostingLine => ({ accountId: l.categoryId, direction: categoryDirection, amountCents: l.amountCents }));
  const party: PostingLine = { accountId: partyAccountId, direction: partyDirection, amountCents: total };
  return type === 'VendorCredit' ? [party, ...categoryLines] : [...categoryLines, party];
}
