// Books that tie to the bank (issue #12): the REST fields of the tie-out per account, transfer pairs and report
// drill links (aliases of the types generated from the gateway's OpenAPI), and how GET /accounts' tie-outs add up
// (per group and for the workspace, as the server's own total does), which the shell's dashboard and the reports
// remote both read. The screens' wording and links are theirs (decision 0034). No React here.
import { isCreditCard } from './banking';
import type { ReportRow } from './reports';
import type { Transaction } from './ledger';
import type { Schemas } from './types';

// ── Tie-out (GET /accounts) ───────────────────────────────────────────────────────────────────────────────────────

/**
 * matches: books and bank agree; differs: they do not (after the last sync); catching_up: a sync or the books'
 * posting of it is under way; currency: the account is not in USD, so it is not compared in USD; unknown: not
 * compared yet (never synced).
 */
export type TieOutStatus = 'matches' | 'differs' | 'catching_up' | 'currency' | 'unknown';

/** One account's tie-out. Dollars; for a card both balances are the amount owed. */
export type TieOut = Schemas['AccountTieOut'];

/** The workspace's tie-out (depository less cards). */
export type TieOutTotal = Schemas['AccountsTieOutSummary'];

/** A bank account as GET /accounts lists it, with its tie-out. */
export type TiedBankAccount = Schemas['ListedBankAccount'];
export type TiedAccountsResponse = Schemas['AccountsResponse'];

const cents = (dollars: number): number => Math.round(dollars * 100);

/** What a group of accounts adds up to, books and bank side by side. */
export interface TieOutGroupTotal {
  books: number;
  bank: number;
  /** Books − bank. */
  difference: number;
  status: TieOutStatus;
  /** Accounts left out of the sums (not in USD). */
  excluded: number;
}

/**
 * The status of several accounts at once: any catching up → catching_up (a difference while the books are still
 * posting a sync is not one yet); else any differing → differs; else all matching → matches; else unknown.
 */
export function combinedStatus(statuses: readonly TieOutStatus[]): TieOutStatus {
  const compared = statuses.filter((s) => s !== 'currency');
  if (compared.length === 0) return statuses.length > 0 ? 'currency' : 'unknown';
  if (compared.includes('catching_up')) return 'catching_up';
  if (compared.includes('differs')) return 'differs';
  if (compared.every((s) => s === 'matches')) return 'matches';
  return 'unknown';
}

/**
 * Sums the books and bank balances of accounts (in cents), leaving out those not in USD. An account without a
 * tie-out counts as unknown and adds its bank balance to both sides (the books' figure is not known).
 */
export function tieOutGroup(accounts: readonly TiedBankAccount[]): TieOutGroupTotal {
  let books = 0;
  let bank = 0;
  let excluded = 0;
  const statuses: TieOutStatus[] = [];
  for (const a of accounts) {
    const t = a.tieOut ?? null;
    const status: TieOutStatus = t?.status ?? (a.isoCurrencyCode && a.isoCurrencyCode !== 'USD' ? 'currency' : 'unknown');
    statuses.push(status);
    if (status === 'currency') {
      excluded++;
      continue;
    }
    const bankSide = t?.bankBalance ?? a.currentBalance ?? 0;
    bank += cents(bankSide);
    books += cents(t?.booksBalance ?? bankSide);
  }
  return { books: books / 100, bank: bank / 100, difference: (books - bank) / 100, status: combinedStatus(statuses), excluded };
}

/** The dashboard's figures: cash in the bank accounts, owed on cards, and the whole (depository less cards). */
export interface DashboardTieOut {
  cash: TieOutGroupTotal;
  cards: TieOutGroupTotal;
  total: TieOutGroupTotal;
}

/** Per group from the accounts; the whole from the server's top-level tie-out when it sent one (one source of truth). */
export function dashboardTieOut(response: TiedAccountsResponse): DashboardTieOut {
  const cash = tieOutGroup(response.accounts.filter((a) => !isCreditCard(a)));
  const cards = tieOutGroup(response.accounts.filter(isCreditCard));
  const all = tieOutGroup(response.accounts);
  const top = response.tieOut ?? null;
  const total: TieOutGroupTotal = top
    ? { books: top.booksTotal, bank: top.bankTotal, difference: top.difference, status: top.status, excluded: cash.excluded + cards.excluded }
    : {
        books: (cents(cash.books) - cents(cards.books)) / 100,
        bank: (cents(cash.bank) - cents(cards.bank)) / 100,
        difference: (cents(cash.difference) - cents(cards.difference)) / 100,
        status: all.status,
        excluded: cash.excluded + cards.excluded,
      };
  return { cash, cards, total };
}

// ── Transfers (GET /transactions/v2, transfer candidates, pair and unpair) ───────────────────────────────────────────

/** The other side of a paired transfer. */
export type TransferPair = NonNullable<Schemas['Transaction']['transferPair']>;

/** paired: both sides are linked; review: categorised as a transfer with no counterpart yet. */
export type TransferStatus = 'paired' | 'review';

export type TransferTransaction = Transaction & { transferPair?: TransferPair | null; transferStatus?: TransferStatus | null };

export type TransferCandidate = Schemas['TransferCandidatesResponse']['data'][number];
export type TransferCandidatesResponse = Schemas['TransferCandidatesResponse'];

/** What pairing sends: both transactions (the gateway checks both are there). */
export type PairTransferBody = Required<Schemas['PairTransferBody']>;
export type PairTransferResponse = Schemas['TransactionsUpdatedResponse'];
export type UnpairTransferResponse = Schemas['TransactionsUpdatedResponse'];

// ── Report drill links (P&L sections, balance sheet retained earnings and net income) ───────────────────────────────

/** Where a row's cell opens the P&L (spec §2: retained earnings and net income rows), one per column. */
export type ReportDrill = NonNullable<NonNullable<ReportRow['drill']>[number]>;
