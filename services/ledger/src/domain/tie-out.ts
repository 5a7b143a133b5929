import { isDebitNormal } from './chart.js';
import { addDays } from './dates.js';

/** The books are kept in USD (spec §9): a bank account in another currency is never compared or booked as USD. */
export const BOOKS_CURRENCY = 'USD';

/** Whether an amount in this currency is booked (an empty code is the bank's default, USD). */
export function isBooksCurrency(isoCurrencyCode: string | null | undefined): boolean {
  return !isoCurrencyCode || isoCurrencyCode === BOOKS_CURRENCY;
}

/** The latest bank_account.synced of a bank account, as the ledger keeps it. */
export interface BankSnapshot {
  bankAccountId: string;
  version: number;
  accountType: string;
  isoCurrencyCode: string;
  /** Null when the bank reported none. Money held (depository) or owed (credit). */
  currentBalanceCents: number | null;
  postedTotalCents: number;
  postedCount: number;
  pendingTotalCents: number;
  pendingCount: number;
  /** YYYY-MM-DD, null when the account had no live transaction. */
  earliestDate: string | null;
  syncedAt: Date;
}

/**
 * The opening balance that makes the ledger account's balance equal the bank's current balance once the
 * snapshot's posted transactions are booked, in the account's normal direction: for money held (an asset),
 * current − Σ posted (transactions are > 0 when money comes in); for an amount owed (a card, a liability),
 * current + Σ posted (a purchase is < 0 and raises what is owed). Dated the day before the earliest
 * transaction (the sync's date when there is none). Undefined when nothing may be booked: no current
 * balance, or another currency than the books'.
 */
export function derivedOpeningBalance(classGroup: string, s: BankSnapshot): { amountCents: number; date: string } | undefined {
  if (s.currentBalanceCents === null || s.isoCurrencyCode !== BOOKS_CURRENCY) return undefined;
  const amountCents = isDebitNormal(classGroup) ? s.currentBalanceCents - s.postedTotalCents : s.currentBalanceCents + s.postedTotalCents;
  const date = s.earliestDate ? addDays(s.earliestDate, -1) : s.syncedAt.toISOString().slice(0, 10);
  return { amountCents, date };
}

export const TIE_OUT_STATUSES = ['matches', 'differs', 'catching_up', 'currency', 'unknown'] as const;
export type TieOutStatus = (typeof TIE_OUT_STATUSES)[number];

/** What the ledger holds for one bank ledger account, read in one statement (`tieOutRows`). */
export interface TieOutInput {
  classGroup: string;
  snapshot: BankSnapshot | undefined;
  /** Σ of the ledger account's lines. */
  debitCents: number;
  creditCents: number;
  /** The ledger's live bank transactions of the account, in the events' sign (> 0 money in). */
  ledgerPostedTotalCents: number;
  ledgerPostedCount: number;
  ledgerPendingTotalCents: number;
}

export interface TieOut {
  status: TieOutStatus;
  /** Normal direction (held, or owed); null when unknown. */
  bankBalanceCents: number | null;
  booksBalanceCents: number;
  pendingCents: number;
  /** books − bank; null unless both are USD amounts. */
  differenceCents: number | null;
  asOf: Date | null;
}

export function tieOutOf(i: TieOutInput): TieOut {
  const debitNormal = isDebitNormal(i.classGroup);
  const balance = debitNormal ? i.debitCents - i.creditCents : i.creditCents - i.debitCents;
  const pendingCents = debitNormal ? i.ledgerPendingTotalCents : -i.ledgerPendingTotalCents;
  const booksBalanceCents = balance - pendingCents;
  const s = i.snapshot;
  if (!s || s.currentBalanceCents === null)
    return { status: 'unknown', bankBalanceCents: null, booksBalanceCents, pendingCents, differenceCents: null, asOf: s?.syncedAt ?? null };
  if (s.isoCurrencyCode !== BOOKS_CURRENCY)
    return { status: 'currency', bankBalanceCents: s.currentBalanceCents, booksBalanceCents, pendingCents, differenceCents: null, asOf: s.syncedAt };
  const differenceCents = booksBalanceCents - s.currentBalanceCents;
  // The sync's transactions travel on other subjects than its snapshot: until the ledger has booked what
  // the bank counted, a difference says nothing.
  const caughtUp = i.ledgerPostedTotalCents === s.postedTotalCents && i.ledgerPostedCount === s.postedCount;
  const status: TieOutStatus = !caughtUp ? 'catching_up' : Math.abs(differenceCents) < 1 ? 'matches' : 'differs';
  return { status, bankBalanceCents: s.currentBalanceCents, booksBalanceCents, pendingCents, differenceCents, asOf: s.syncedAt };
}
