// The dashboard's spending and top-merchants cards: pure rules (no I/O), each with a unit test.
import { AppError, type FieldError } from '@ledgerline/platform';
import type { MoneyType } from './origins.js';
import { parseQuery, type ReportQuery } from './query.js';
import { normal, selectedAccounts, type Account, type DebitCredit } from './report.js';

export const ORDERS = ['DESC', 'ASC'] as const;
export type Order = (typeof ORDERS)[number];

/** Rows of the spending card: the 9 largest categories and "Others" when there are more than 10. */
export const SPENDING_ROWS = 10;
/** Rows of the top-merchants card. */
export const TOP_MERCHANTS = 10;
export const OTHERS = 'Others';
/** The row of money booked without a merchant (manual journals, bills, transactions without a biller). */
export const NO_MERCHANT_NAME = 'No merchant';
/** The cards read money spent: the Expenses accounts. */
export const SPENDING_CLASS = 'Expenses';

export const SPENDING_MESSAGES = {
  order: `order must be one of ${ORDERS.join(', ')}`,
} as const;

export interface RawSpendingQuery {
  startDate: string;
  endDate: string;
  groups: string;
  tags: string;
  moneyType: string;
  seq: string;
  workspaces: string;
}

export interface SpendingQuery {
  /** One total column; moneyType (the origins read) and the workspaces as every report takes them. */
  report: ReportQuery;
  /** The workspaces to sum over, in the order given; empty: the caller's. */
  workspaceIds: string[];
  moneyType: MoneyType;
}

/**
 * Validates the cards' query (400 naming the field): the dates, groups, tags, seq, moneyType and
 * workspaces like every report (same defaults: 1 January of endDate's year to today), one total column.
 */
export function parseSpendingQuery(raw: RawSpendingQuery, extra: FieldError[] = [], now = new Date()): SpendingQuery {
  const problems = [...extra];
  let report: ReportQuery | null = null;
  try {
    report = parseQuery({ ...raw, breakdown: '', periodicity: 'totals_only', excludeZeroes: '' }, now);
  } catch (err) {
    if (!(err instanceof AppError) || err.fields.length === 0) throw err;
    problems.push(...err.fields);
  }
  if (problems.length || !report) throw AppError.invalid(problems);
  return { report, workspaceIds: report.workspaceIds, moneyType: report.moneyType };
}

/** `order`: ASC or DESC, case-insensitive, default DESC (spec §9). */
export function parseOrder(raw: string): { order: Order; problems: FieldError[] } {
  const order = raw.trim().toUpperCase() || 'DESC';
  if ((ORDERS as readonly string[]).includes(order)) return { order: order as Order, problems: [] };
  return { order: 'DESC', problems: [{ field: 'order', message: SPENDING_MESSAGES.order }] };
}

/** A share of the total in hundredths of a percent (0 when the total is not positive). */
export function shareBp(amount: number, total: number): number {
  return total > 0 ? Math.round((amount * 10_000) / total) : 0;
}

export interface SpendingRow {
  /** The account; null for Others. */
  id: string | null;
  name: string;
  coaId: number | null;
  amountCents: number;
  percentageBp: number;
}

const byAmountDesc = <T extends { amountCents: number; name: string }>(a: T, b: T) => b.amountCents - a.amountCents || a.name.localeCompare(b.name);

export interface CategoryAmount {
  id: string;
  name: string;
  coaId: number;
  amountCents: number;
}

/**
 * Money per category of the class over the period: every account of the class (after groups and tags)
 * with lines in the period and a non-zero amount, in its normal direction (an expense refunded shows
 * less), the account the lines were posted to.
 */
export function categoryAmounts(input: {
  accounts: readonly Account[];
  sums: ReadonlyMap<string, DebitCredit>;
  classGroup: string;
  groups: string[];
  tags: string[];
}): CategoryAmount[] {
  const selected = selectedAccounts(input.accounts, { groups: input.groups, tags: input.tags });
  const out: CategoryAmount[] = [];
  for (const a of input.accounts) {
    if (a.type !== input.classGroup || !selected.has(a.id)) continue;
    const amountCents = normal(a.type, input.sums.get(a.id));
    if (amountCents !== 0) out.push({ id: a.id, name: a.name, coaId: a.coaId, amountCents });
  }
  return out;
}

/** Several workspaces' categories as one: matched by coaId, the id and name of the first workspace listing it. */
export function mergeCategories(lists: readonly (readonly CategoryAmount[])[]): CategoryAmount[] {
  const byCoa = new Map<number, CategoryAmount>();
  for (const list of lists) {
    for (const c of list) {
      const prev = byCoa.get(c.coaId);
      byCoa.set(c.coaId, prev ? { ...prev, amountCents: prev.amountCents + c.amountCents } : { ...c });
    }
  }
  return [...byCoa.values()].filter((c) => c.amountCents !== 0);
}

/**
 * The card's rows: at most SPENDING_ROWS; beyond that the 9 largest and "Others" with the rest, which
 * is last whatever the order. `totalCents` is every category's amount; shares are of it.
 */
export function rankSpending(categories: readonly CategoryAmount[], order: Order): { rows: SpendingRow[]; totalCents: number } {
  const rows: SpendingRow[] = categories.map((c) => ({ ...c, percentageBp: 0 })).sort(byAmountDesc);
  const totalCents = rows.reduce((s, r) => s + r.amountCents, 0);
  const kept = rows.length > SPENDING_ROWS ? rows.slice(0, SPENDING_ROWS - 1) : rows;
  const rest = rows.slice(kept.length);
  if (order === 'ASC') kept.reverse();
  const out = kept.map((r) => ({ ...r, percentageBp: shareBp(r.amountCents, totalCents) }));
  if (rest.length) {
    const amountCents = rest.reduce((s, r) => s + r.amountCents, 0);
    out.push({ id: null, name: OTHERS, coaId: null, amountCents, percentageBp: shareBp(amountCents, totalCents) });
  }
  return { rows: out, totalCents };
}

/** One workspace's spending rows (categoryAmounts, then rankSpending). */
export function spendingRows(input: {
  accounts: readonly Account[];
  sums: ReadonlyMap<string, DebitCredit>;
  classGroup: string;
  groups: string[];
  tags: string[];
  order: Order;
}): { rows: SpendingRow[]; totalCents: number } {
  return rankSpending(categoryAmounts(input), input.order);
}

export interface MerchantInput {
  billerId: string;
  name: string;
  debit: number;
  credit: number;
  txns: number;
}

export interface MerchantRow {
  /** The biller; null for money booked without a merchant. */
  id: string | null;
  name: string;
  amountCents: number;
  percentageBp: number;
  transactionCount: number;
}

export interface MerchantAmount {
  id: string | null;
  name: string;
  amountCents: number;
  transactionCount: number;
}

/** The accounts whose lines a card reads: the class's, after groups and tags. */
export function classAccountIds(accounts: readonly Account[], classGroup: string, filter: { groups: string[]; tags: string[] }): string[] {
  const selected = selectedAccounts(accounts, filter);
  return accounts.filter((a) => a.type === classGroup && selected.has(a.id)).map((a) => a.id);
}

/**
 * Money of the class per merchant (the sums of the merchants' lines on the class's accounts), in the
 * class's normal direction, with the entries counted. A transaction split over two categories counts
 * once per category.
 */
export function merchantAmounts(merchants: readonly MerchantInput[], classGroup: string): MerchantAmount[] {
  return merchants.map((m) => ({
    id: m.billerId || null,
    name: m.billerId ? m.name || 'Unnamed merchant' : NO_MERCHANT_NAME,
    amountCents: normal(classGroup, { debit: m.debit, credit: m.credit }),
    transactionCount: m.txns,
  }));
}

/** Several workspaces' merchants as one: matched by name (case-insensitive; billers are per workspace), the first one's id. */
export function mergeMerchants(lists: readonly (readonly MerchantAmount[])[]): MerchantAmount[] {
  const byName = new Map<string, MerchantAmount>();
  for (const list of lists) {
    for (const m of list) {
      const key = m.id === null ? '' : `:${m.name.toLowerCase()}`;
      const prev = byName.get(key);
      byName.set(
        key,
        prev ? { ...prev, amountCents: prev.amountCents + m.amountCents, transactionCount: prev.transactionCount + m.transactionCount } : { ...m },
      );
    }
  }
  return [...byName.values()];
}

/**
 * The largest TOP_MERCHANTS merchants, largest first; merchants whose amount is not positive (refunds
 * exceeding purchases) are left out of the ranking. `totalCents` is the class's whole amount (every
 * merchant and "No merchant"), so a share is of all the money out (or in), and it equals the profit and
 * loss's Expenses (or Income) for the period.
 */
export function rankMerchants(merchants: readonly MerchantAmount[]): { rows: MerchantRow[]; totalCents: number } {
  const totalCents = merchants.reduce((s, r) => s + r.amountCents, 0);
  const rows = merchants
    .filter((r) => r.amountCents > 0)
    .sort(byAmountDesc)
    .slice(0, TOP_MERCHANTS)
    .map((r) => ({ ...r, percentageBp: shareBp(r.amountCents, totalCents) }));
  return { rows, totalCents };
}
