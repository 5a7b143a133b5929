// Books that tie to the bank (issue #12): the REST fields of the tie-out per account, transfer pairs and report
// drill links (aliases of the types generated from the gateway's OpenAPI), and the screens' rules about them as
// pure functions. No React here.
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

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (dollars: number): string => usd.format(dollars);

export type TieOutTone = 'ok' | 'warn' | 'busy' | 'muted';

/** What the screens say about a tie-out, and in which tone. */
export interface TieOutLabel {
  tone: TieOutTone;
  /** 'Matches bank', 'Differs by $12.00', 'Updating from the bank…'. */
  text: string;
}

/** `long` adds 'from the bank' to a difference (the dashboard's wording). */
export function tieOutLabel(status: TieOutStatus, difference: number | null, options: { long?: boolean } = {}): TieOutLabel {
  switch (status) {
    case 'matches':
      return { tone: 'ok', text: 'Matches bank' };
    case 'differs':
      return { tone: 'warn', text: `Differs by ${money(Math.abs(difference ?? 0))}${options.long ? ' from the bank' : ''}` };
    case 'catching_up':
      return { tone: 'busy', text: 'Updating from the bank…' };
    case 'currency':
      return { tone: 'muted', text: 'Not in USD: not compared' };
    default:
      return { tone: 'muted', text: 'Not compared with the bank yet' };
  }
}

/** Where an account's lines are: its ledger (spec §2 query parameters tab and ledgerAccount). */
export function ledgerHref(ledgerAccountId: string): string {
  return `/accounting?${new URLSearchParams({ tab: 'ledger', ledgerAccount: ledgerAccountId }).toString()}`;
}

/** The chart of accounts with the account's edit (opening balance) open: spec §2 acc and mode. */
export function openingBalanceHref(ledgerAccountId: string): string {
  return `/accounting?${new URLSearchParams({ tab: 'coa', acc: ledgerAccountId, mode: 'edit' }).toString()}`;
}

/** An account whose books still differ from the bank after its sync: the user is told, with what to do. */
export interface TieOutProblem {
  accountId: string;
  name: string;
  mask: string;
  difference: number;
  bankBalance: number | null;
  booksBalance: number | null;
  ledgerAccountId: string | null;
  /** Changes when the difference does: a notice the user dismissed comes back only for a new difference. */
  key: string;
}

/** Accounts that differ while no sync of theirs is running (a difference during a sync is not a persistent one). */
export function persistentDifferences(accounts: readonly TiedBankAccount[], syncingAccountIds: ReadonlySet<string> = new Set()): TieOutProblem[] {
  return accounts
    .filter((a) => a.tieOut?.status === 'differs' && !syncingAccountIds.has(a.id))
    .map((a) => {
      const t = a.tieOut!;
      const difference = t.difference ?? 0;
      return {
        accountId: a.id,
        name: a.name,
        mask: a.mask,
        difference,
        bankBalance: t.bankBalance,
        booksBalance: t.booksBalance,
        ledgerAccountId: t.ledgerAccountId,
        key: `${a.id}:${cents(difference)}:${t.asOf ?? ''}`,
      };
    });
}

/** The notice's words for a persistent difference. */
export function tieOutProblemMessage(p: Pick<TieOutProblem, 'name' | 'mask' | 'difference' | 'bankBalance' | 'booksBalance'>): {
  title: string;
  message: string;
} {
  const account = p.mask ? `${p.name} •••• ${p.mask}` : p.name;
  const sides = p.booksBalance !== null && p.bankBalance !== null ? ` The books say ${money(p.booksBalance)}, the bank ${money(p.bankBalance)}.` : '';
  return {
    title: `${account} differs from the bank`,
    message: `The books differ by ${money(Math.abs(p.difference))} after the last sync.${sides} Sync again, set the account's opening balance, or look at its ledger lines.`,
  };
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

/** The server's words when an un-paired transfer is edited (spec §4 restriction order: category Transfer). */
export const TRANSFER_EDIT_MESSAGE = 'Transfer transactions cannot be edited. Unpair the transfer first.';
export const UNPAIRED_MESSAGE = 'Transfer has been unpaired.';

/** A transaction is a transfer when the server says so or when its category is of class group Transfer. */
export function isTransfer(t: TransferTransaction): boolean {
  return t.transferStatus === 'paired' || t.transferStatus === 'review' || t.category?.type === 'Transfer';
}

/** The row's badge: 'Transfer' when paired, 'Transfer to review' when one-sided. */
export function transferBadge(t: TransferTransaction): string | null {
  if (t.transferStatus === 'paired' || (t.transferPair ?? null) !== null) return 'Transfer';
  if (t.transferStatus === 'review') return 'Transfer to review';
  if (t.category?.type === 'Transfer') return 'Transfer';
  return null;
}

/** The transfer filter of the transactions list (spec §2 `filter` query value for it). */
export const TRANSFER_FILTERS = [
  { value: '', label: 'All transactions' },
  { value: 'review', label: 'Transfers to review' },
  { value: 'paired', label: 'Paired transfers' },
] as const;
export type TransferFilter = (typeof TRANSFER_FILTERS)[number]['value'];

export function isTransferFilter(value: string | null): value is TransferFilter {
  return value !== null && TRANSFER_FILTERS.some((f) => f.value === value);
}

/** `?filter=transfers-review` opens the list on the transfers to review. */
export const TRANSFERS_REVIEW_SEARCH = '?tab=all&filter=transfers-review';

export function transferFilterFromSearch(filter: string | null): TransferFilter {
  if (filter === 'transfers-review') return 'review';
  if (filter === 'transfers-paired') return 'paired';
  return '';
}

/** The best candidates first (score, then the closest date to the transaction's). */
export function rankCandidates(candidates: readonly TransferCandidate[], dateTime: string): TransferCandidate[] {
  const at = Date.parse(dateTime);
  const distance = (c: TransferCandidate) => Math.abs(Date.parse(c.dateTime) - at);
  return [...candidates].sort((a, b) => b.score - a.score || distance(a) - distance(b) || a.id.localeCompare(b.id));
}

// ── Report drill links (P&L sections, balance sheet retained earnings and net income) ───────────────────────────────

/** Where a row's cell opens the P&L (spec §2: retained earnings and net income rows), one per column. */
export type ReportDrill = NonNullable<NonNullable<ReportRow['drill']>[number]>;

/** A report row with the server's drill links, one per column (null where the cell opens nothing). */
export type DrillableReportRow = ReportRow;

/** The P&L sections and summary rows in a bookkeeper's order (issue #12, item 5). */
export const PNL_SECTIONS = ['Income', 'Cost of Goods Sold', 'Operating Expenses', 'Other Income', 'Other Expenses'] as const;
export const PNL_SUMMARIES = ['Gross Profit', 'Net Operating Income', 'Net Income'] as const;

/** How a report row is emphasised: a section header, an account, a subtotal, or the bottom line. */
export type RowEmphasis = 'section' | 'account' | 'subtotal' | 'grand-total' | 'computed';

export function rowEmphasis(row: Pick<ReportRow, 'rowType' | 'name'>): RowEmphasis {
  if (row.rowType === 'section') return 'section';
  if (row.rowType === 'summary') return /^(net income|total liabilities and equity)\b/i.test(row.name) ? 'grand-total' : 'subtotal';
  if (row.rowType === 'computed') return 'computed';
  return 'account';
}

/** The drill link the server gave a row for a column (index) or the total (the last column's, a balance sheet's total). */
export function serverDrill(row: DrillableReportRow, columnIndex: number | 'total', columnCount: number): ReportDrill | null {
  const drill = row.drill ?? null;
  if (drill === null) return null;
  const index = columnIndex === 'total' ? columnCount - 1 : columnIndex;
  return drill[index] ?? null;
}

/** The profit and loss a drill link opens. */
export function drillHref(drill: ReportDrill): string {
  return `/reports?${new URLSearchParams({ tab: drill.report, startDate: drill.startDate, endDate: drill.endDate }).toString()}`;
}

export function drillLabel(row: Pick<ReportRow, 'name'>, drill: ReportDrill): string {
  return `Open the profit and loss from ${drill.startDate} to ${drill.endDate} (${row.name})`;
}

// ── Opening balances (PUT /categories/{id}/opening-balance) ─────────────────────────────────────────────────────────

/** Bank, card, asset, liability and equity accounts at levels 3–4 take one (not Opening Balance Equity itself). */
export function canHaveOpeningBalance(account: { type: string | null; level: number; name: string }): boolean {
  return account.level >= 3 && ['Assets', 'Liability', 'Equity'].includes(account.type ?? '') && account.name !== 'Opening Balance Equity';
}

export interface OpeningBalanceFormValues {
  /** Dollars as typed; empty: none. A leading minus for an overdrawn bank account. */
  openingBalance: string;
  /** YYYY-MM-DD or empty. */
  openingBalanceDate: string;
}

export type OpeningBalanceFormErrors = Partial<Record<keyof OpeningBalanceFormValues, string>>;

const OPENING_AMOUNT = /^-?\d{1,10}(\.\d{1,2})?$/;

/** The amount as the server takes it (dollars, 2 decimals at most), or null when it is not one. */
export function parseOpeningBalance(text: string): number | null {
  const clean = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,/g, '')
    .replace(/^(-?)\$/, '$1');
  return OPENING_AMOUNT.test(clean) ? Number(clean) : null;
}

/** An amount with at most 2 decimals (spec §9; the server refuses more) and, with it, the date it opens on. */
export function validateOpeningBalance(values: OpeningBalanceFormValues): OpeningBalanceFormErrors {
  const errors: OpeningBalanceFormErrors = {};
  if (values.openingBalance.trim() === '') return errors;
  if (parseOpeningBalance(values.openingBalance) === null) errors.openingBalance = 'Enter an amount in dollars with at most 2 decimals';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.openingBalanceDate)) errors.openingBalanceDate = 'Opening balance date is required';
  return errors;
}
