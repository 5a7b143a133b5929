import type { PartyCreditSourceType } from './party-credits.js';
import type { PostingLine } from './posting.js';

/**
 * Bills, invoices and manual journals (issue #18): the documents service owns the documents, the ledger books them on
 * the accrual basis, as QuickBooks Online does:
 * - a bill: debit each line's category (an expense, an asset bought), credit Accounts Payable (the total), at billDate;
 * - an invoice: debit Accounts Receivable (the total), credit each line's category (income), at invoiceDate;
 * - a manual journal: its lines as given (each line names its direction; debits equal credits).
 */
export const DOCUMENT_POSTING_SOURCE_TYPES = ['Bill', 'Invoice', 'ManualEntry'] as const;
export type DocumentPostingSourceType = (typeof DOCUMENT_POSTING_SOURCE_TYPES)[number];

/** The party account a bill or invoice is booked against: the same one a vendor credit / credit memo uses. */
export const DOCUMENT_PARTY: Record<'Bill' | 'Invoice', PartyCreditSourceType> = { Bill: 'VendorCredit', Invoice: 'CreditMemo' };

export interface DocumentLine {
  categoryId: string;
  amountCents: number;
  /** Manual journals only: debit or credit. */
  direction?: string;
}

export const DOCUMENT_POSTING_MSG = {
  sourceType: `sourceType must be one of: ${DOCUMENT_POSTING_SOURCE_TYPES.join(', ')}`,
  direction: (i: number) => `lineItems.${i}.direction must be one of: debit, credit`,
  transactionNotFound: 'Transaction not found',
  paymentsOnManualEntry: 'A manual journal is not paid by bank transactions',
  paymentDirection: (i: number, type: 'Bill' | 'Invoice') =>
    `Connected transaction ${i + 1}: ${type === 'Bill' ? 'a bill is paid by money going out' : 'an invoice is paid by money coming in'}`,
  paymentDuplicate: (i: number) => `connectedTransactions.${i}.id is listed twice`,
  paymentAmount: (i: number) => `connectedTransactions.${i}.amount must be greater than 0`,
  paymentAboveTransaction: (i: number, max: string) => `Connected transaction ${i + 1}: amount cannot be more than the transaction's amount (${max})`,
} as const;

/**
 * Whether a bank transaction can pay the document: money out pays a bill, money in pays an invoice (amounts are
 * positive for money in, as the bank sends them).
 */
export const paysDocument = (type: 'Bill' | 'Invoice', amountCents: number): boolean => (type === 'Bill' ? amountCents < 0 : amountCents > 0);

/** The entry's lines for a bill or an invoice: each category on one side, the party account for the total on the other. */
export function billOrInvoiceLines(type: 'Bill' | 'Invoice', partyAccountId: string, lines: readonly DocumentLine[]): PostingLine[] {
  if (lines.length === 0) return [];
  const total = lines.reduce((s, l) => s + l.amountCents, 0);
  const categoryDirection = type === 'Bill' ? 'debit' : 'credit';
  const categoryLines = lines.map((l): PostingLine => ({ accountId: l.categoryId, direction: categoryDirection, amountCents: l.amountCents }));
  return type === 'Bill'
    ? [...categoryLines, { accountId: partyAccountId, direction: 'credit', amountCents: total }]
    : [{ accountId: partyAccountId, direction: 'debit', amountCents: total }, ...categoryLines];
}

/** A manual journal's lines as given; undefined for the index of the first line with no valid direction. */
export function manualEntryLines(lines: readonly DocumentLine[]): { lines: PostingLine[]; badDirection?: number } {
  const bad = lines.findIndex((l) => l.direction !== 'debit' && l.direction !== 'credit');
  if (bad >= 0) return { lines: [], badDirection: bad };
  return { lines: lines.map((l) => ({ accountId: l.categoryId, direction: l.direction as PostingLine['direction'], amountCents: l.amountCents })) };
}
