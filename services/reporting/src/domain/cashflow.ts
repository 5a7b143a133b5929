import { computedRow, type Account, type DebitCredit, type ReportRow } from './report.js';

/** The role of the chart's Cash and Cash Equivalents account (bank accounts are linked under it). */
export const CASH_KEY = 'cash';

export type Activity = 'operating' | 'investing' | 'financing';

export const CASH_FLOW_ROWS = {
  operating: 'Operating Activities',
  investing: 'Investing Activities',
  financing: 'Financing Activities',
  netIncome: 'Net Income',
  netChange: 'Net Change in Cash',
  beginning: 'Cash at Beginning of Period',
  end: 'Cash at End of Period',
} as const;

/**
 * Where a balance-sheet account's change goes, by the coaId of its category group (level 2) — the
 * chart's numbering: current assets (11000–14999), current liabilities (20000–24999) and transfers are
 * operating; other assets (fixed, intangible, deposits) investing; long-term liabilities and equity
 * financing. Null for cash and for income and expense accounts.
 */
export function activityOf(a: Account, byId: ReadonlyMap<string, Account>, cash: ReadonlySet<string>): Activity | null {
  if (cash.has(a.id) || a.type === 'Income' || a.type === 'Expenses') return null;
  let group = a;
  for (let depth = 0; group.parentId && depth < 10; depth++) {
    const parent = byId.get(group.parentId);
    if (!parent?.parentId) break;
    group = parent;
  }
  const coa = group.coaId;
  switch (a.type) {
    case 'Assets':
      return coa >= 11000 && coa < 15000 ? 'operating' : 'investing';
    case 'Liability':
      return coa >= 20000 && coa < 25000 ? 'operating' : 'financing';
    case 'Equity':
      return 'financing';
    default:
      return 'operating';
  }
}

/**
 * Cash accounts, recognised by their role, never by a coaId a user can edit: the account with the `cash`
 * role (Cash and Cash Equivalents) with everything under it, and any asset account linked to a bank.
 */
export function cashAccounts(accounts: readonly Account[]): Set<string> {
  const out = new Set(accounts.filter((a) => (a.systemKey === CASH_KEY && a.type === 'Assets') || (a.type === 'Assets' && a.bankAccountId)).map((a) => a.id));
  for (let grew = true; grew;) {
    grew = false;
    for (const a of accounts) {
      if (a.parentId && out.has(a.parentId) && !out.has(a.id)) {
        out.add(a.id);
        grew = true;
      }
    }
  }
  return out;
}

export interface CashFlowInput {
  accounts: readonly Account[];
  opening: ReadonlyMap<string, DebitCredit>;
  sums: ReadonlyMap<string, readonly (DebitCredit | undefined)[]>;
  columns: number;
  excludeZeroes: boolean;
}

/**
 * The indirect method, per column: Net Income, then for every other non-cash account its credits minus
 * debits (an asset that grew used cash; a liability or equity that grew brought cash in), grouped by
 * activity. Because every entry balances, the three activities add up to the change in cash.
 */
export function cashFlowStatement({ accounts, opening, sums, columns, excludeZeroes }: CashFlowInput): ReportRow[] {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const cash = cashAccounts(accounts);
  const zeros = () => new Array<number>(columns).fill(0);
  // Credits minus debits per column (index `columns` and beyond, if any, is not a column).
  const flowOf = (id: string) =>
    Array.from({ length: columns }, (_, i) => {
      const d = sums.get(id)?.[i];
      return d ? d.credit - d.debit : 0;
    });
  const netIncome = zeros();
  let cashOpening = 0;
  const sections: Record<Activity, ReportRow[]> = { operating: [], investing: [], financing: [] };
  for (const a of [...accounts].sort((x, y) => x.coaId - y.coaId || x.name.localeCompare(y.name))) {
    const flow = flowOf(a.id);
    if (a.type === 'Income' || a.type === 'Expenses') {
      flow.forEach((x, i) => (netIncome[i] = (netIncome[i] ?? 0) + x));
      continue;
    }
    if (cash.has(a.id)) {
      const o = opening.get(a.id);
      cashOpening += o ? o.debit - o.credit : 0;
      continue;
    }
    const activity = activityOf(a, byId, cash);
    if (!activity || (excludeZeroes && flow.every((x) => x === 0))) continue;
    sections[activity].push({
      id: a.id,
      name: a.name,
      coaId: a.coaId,
      type: a.type,
      level: a.level,
      group: a.group,
      tag: a.tag,
      rowType: 'account',
      amounts: flow,
      total: flow.reduce((s, x) => s + x, 0),
      children: [],
    });
  }
  const total = (rows: ReportRow[]) => {
    const out = zeros();
    for (const r of rows) r.amounts.forEach((x, i) => (out[i] = (out[i] ?? 0) + x));
    return out;
  };
  const operatingRows = [computedRow(CASH_FLOW_ROWS.netIncome, 'computed', netIncome, 'sum'), ...sections.operating];
  const operating = computedRow(CASH_FLOW_ROWS.operating, 'section', total(operatingRows), 'sum', operatingRows);
  const investing = computedRow(CASH_FLOW_ROWS.investing, 'section', total(sections.investing), 'sum', sections.investing);
  const financing = computedRow(CASH_FLOW_ROWS.financing, 'section', total(sections.financing), 'sum', sections.financing);
  const netChange = total([operating, investing, financing]);
  const beginning: number[] = [];
  const end: number[] = [];
  let running = cashOpening;
  for (let i = 0; i < columns; i++) {
    beginning.push(running);
    running += netChange[i] ?? 0;
    end.push(running);
  }
  return [
    operating,
    investing,
    financing,
    computedRow(CASH_FLOW_ROWS.netChange, 'summary', netChange, 'sum'),
    computedRow(CASH_FLOW_ROWS.beginning, 'computed', beginning, 'first'),
    computedRow(CASH_FLOW_ROWS.end, 'summary', end, 'last'),
  ];
}

/** Cash accounts' own change per column (debit-normal), to check the statement against. */
export function cashChangeOf(accounts: readonly Account[], sums: ReadonlyMap<string, readonly (DebitCredit | undefined)[]>, columns: number): number[] {
  const cash = cashAccounts(accounts);
  const out = new Array<number>(columns).fill(0);
  for (const id of cash) {
    for (let i = 0; i < columns; i++) {
      const d = sums.get(id)?.[i];
      out[i] = (out[i] ?? 0) + (d ? d.debit - d.credit : 0);
    }
  }
  return out;
}

/**
 * The workspace's own money: cash, every account linked to a bank (bank accounts and credit cards) and
 * the Transfer class. Money moving among these (a transfer between two bank accounts, a card payment
 * from checking, a transfer booked to a Transfer account) is neither money in nor money out; what the
 * dashboard's cash flow and the runway count is what crosses their edge.
 */
export function ownMoneyAccounts(accounts: readonly Account[]): Set<string> {
  const out = cashAccounts(accounts);
  for (const a of accounts) if (a.bankAccountId || a.type === 'Transfer') out.add(a.id);
  return out;
}

export interface CashSeries {
  opening: number;
  in: number[];
  out: number[];
  closing: number[];
}

/**
 * The cash balance before the first column and after each (the cash accounts' opening balance and their
 * change per column, `cashChange`), with the money in and out of the workspace's own money per column
 * (`flows`, netted per day over those accounts by the store, so transfers among them cancel).
 */
export function cashSeries(
  accounts: readonly Account[],
  opening: ReadonlyMap<string, DebitCredit>,
  flows: { in: number[]; out: number[] },
  cashChange: readonly number[],
): CashSeries {
  let balance = 0;
  for (const id of cashAccounts(accounts)) {
    const o = opening.get(id);
    balance += o ? o.debit - o.credit : 0;
  }
  const closing: number[] = [];
  const start = balance;
  for (let i = 0; i < flows.in.length; i++) {
    balance += cashChange[i] ?? 0;
    closing.push(balance);
  }
  return { opening: start, in: flows.in, out: flows.out, closing };
}

/**
 * Runway: the cash at the end of the window divided by the average monthly net burn — money out minus
 * money in of the workspace's own money (cash, bank and card accounts, transfers): what left for the
 * outside world, so a transfer between own accounts or a card payment is no burn, and card purchases
 * count when made — over the window's months; none when it did not go down on average.
 */
export function runway(series: CashSeries): { runwayInMonths: number | null; avgExpenses: number; assetBal: number } {
  const months = series.in.length;
  const burn = series.out.reduce((s, x) => s + x, 0) - series.in.reduce((s, x) => s + x, 0);
  const avgExpenses = months ? Math.round(burn / months) : 0;
  const assetBal = series.closing[months - 1] ?? series.opening;
  return { runwayInMonths: avgExpenses > 0 ? Math.max(0, Math.round((assetBal / avgExpenses) * 100) / 100) : null, avgExpenses, assetBal };
}
