// The dashboard's spending and top-merchants cards: pure rules (no I/O), each with a unit test.
import { AppError, type FieldError } from '@ledgerline/platform';
import { parseQuery, type ReportQuery } from './query.js';
import { normal, selectedAccounts, type Account, type DebitCredit } from './report.js';

/** Spec §7 list filter moneyType on these cards: money out (Expenses accounts, the default) or money in (Income accounts). */
export const MONEY_TYPES = ['out', 'in'] as const;
export type MoneyType = (typeof MONEY_TYPES)[number];
export const ORDERS = ['DESC', 'ASC'] as const;
export type Order = (typeof ORDERS)[number];

/** Rows of the spending card: the 9 largest categories and "Others" when there are more than 10. */
export const SPENDING_ROWS = 10;
/** Rows of the top-merchants card. */
export const TOP_MERCHANTS = 10;
export const OTHERS = 'Others';
/** The row of money booked without a merchant (manual journals, bills, transactions without a biller). */
export const NO_MERCHANT_NAME = 'No merchant';

export const SPENDING_MESSAGES = {
  order: `order must be one of ${ORDERS.join(', ')}`,
  moneyType: `moneyType must be one of ${MONEY_TYPES.join(', ')}`,
} as const;

export interface RawSpendingQuery {
  startDate: string;
  endDate: string;
  groups: string;
  tags: string;
  moneyType: string;
  seq: string;
}

export interface SpendingQuery {
  report: ReportQuery;
  moneyType: MoneyType;
  /** The class group the card reads: Expenses for money out, Income for money in. */
  classGroup: 'Expenses' | 'Income';
}

/**
 * Validates the cards' query (400 naming the field): the dates, groups, tags and seq like every report
 * (same defaults: 1 January of endDate's year to today), one total column, and moneyType (case-insensitive).
 */
export function parseSpendingQuery(raw: RawSpendingQuery, extra: FieldError[] = [], now = new Date()): SpendingQuery {
  const problems = [...extra];
  const moneyType = raw.moneyType.trim().toLowerCase() || 'out';
  if (!(MONEY_TYPES as readonly string[]).includes(moneyType)) problems.push({ field: 'moneyType', message: SPENDING_MESSAGES.moneyType });
  let report: ReportQuery | null = null;
  try {
    report = parseQuery({ startDate: raw.startDate, endDate: raw.endDate, breakdown: '', periodicity: 'totals_only', groups: raw.groups, tags: raw.tags, excludeZeroes: '', seq: raw.seq }, now);
  } catch (err) {
    if (!(err instanceof AppError) || err.fields.length === 0) throw err;
    problems.push(...err.fields);
  }
  if (problems.length || !report) throw AppError.invalid(problems);
  return { report, moneyType: moneyType as MoneyType, classGroup: moneyType === 'in' ? 'Income' : 'Expenses' };
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

/**
 * Money per category of the class over the period: every account of the class (after groups and tags)
 * with lines in the period and a non-zero amount, in its normal direction (an expense refunded shows
 * less). At most SPENDING_ROWS rows: beyond that the 9 largest and "Others" with the rest, which is
 * last whatever the order. `totalCents` is every category's amount.
 */
export function spendingRows(input: { accounts: readonly Account[]; sums: ReadonlyMap<string, DebitCredit>; classGroup: string; groups: string[]; tags: string[]; order: Order }): { rows: SpendingRow[]; totalCents: number } {
  const selected = selectedAccounts(input.accounts, { groups: input.groups, tags: input.tags });
  const rows: SpendingRow[] = [];
  for (const a of input.accounts) {
    if (a.type !== input.classGroup || !selected.has(a.id)) continue;
    const amountCents = normal(a.type, input.sums.get(a.id));
    if (amountCents !== 0) rows.push({ id: a.id, name: a.name, coaId: a.coaId, amountCents, percentageBp: 0 });
  }
  rows.sort(byAmountDesc);
  const totalCents = rows.reduce((s, r) => s + r.amountCents, 0);
  const kept = rows.length > SPENDING_ROWS ? rows.slice(0, SPENDING_ROWS - 1) : rows;
  const rest = rows.slice(kept.length);
  if (input.order === 'ASC') kept.reverse();
  const out = kept.map((r) => ({ ...r, percentageBp: shareBp(r.amountCents, totalCents) }));
  if (rest.length) {
    const amountCents = rest.reduce((s, r) => s + r.amountCents, 0);
    out.push({ id: null, name: OTHERS, coaId: null, amountCents, percentageBp: shareBp(amountCents, totalCents) });
  }
  return { rows: out, totalCents };
}

export interface MerchantInput {
  billerId: string;
  name: string;
  accountId: string;
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

/**
 * The merchants the money of the class went to (or came from) over the period: their lines on the
 * class's accounts (after groups and tags), largest first, at most TOP_MERCHANTS; merchants whose amount
 * is not positive (refunds exceeding purchases) are left out of the ranking. A transaction split over two
 * categories counts once per category. `totalCents` is the class's whole amount (every merchant and "No
 * merchant"), so a share is of all the money out (or in), and it equals the profit and loss's Expenses
 * (or Income) for the period.
 */
export function merchantRows(input: { merchants: readonly MerchantInput[]; accounts: readonly Account[]; classGroup: string; groups: string[]; tags: string[] }): { rows: MerchantRow[]; totalCents: number } {
  const selected = selectedAccounts(input.accounts, { groups: input.groups, tags: input.tags });
  const typeOf = new Map(input.accounts.map((a) => [a.id, a.type]));
  const byBiller = new Map<string, { id: string | null; name: string; amountCents: number; transactionCount: number }>();
  for (const m of input.merchants) {
    if (typeOf.get(m.accountId) !== input.classGroup || !selected.has(m.accountId)) continue;
    const r = byBiller.get(m.billerId) ?? { id: m.billerId || null, name: m.billerId ? m.name || 'Unnamed merchant' : NO_MERCHANT_NAME, amountCents: 0, transactionCount: 0 };
    r.amountCents += normal(input.classGroup, { debit: m.debit, credit: m.credit });
    r.transactionCount += m.txns;
    byBiller.set(m.billerId, r);
  }
  const all = [...byBiller.values()];
  const totalCents = all.reduce((s, r) => s + r.amountCents, 0);
  const rows = all.filter((r) => r.amountCents > 0).sort(byAmountDesc).slice(0, TOP_MERCHANTS).map((r) => ({ ...r, percentageBp: shareBp(r.amountCents, totalCents) }));
  return { rows, totalCents };
}
