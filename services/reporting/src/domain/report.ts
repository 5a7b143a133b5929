// Report rows from balances: pure functions (no I/O), so every rule here has a unit test.

export const CLASS_GROUPS = ['Assets', 'Liability', 'Income', 'Expenses', 'Transfer', 'Equity'] as const;
const DEBIT_NORMAL = new Set(['Assets', 'Expenses', 'Transfer']);

/** An account of the ledger's chart, as report rows need it. */
export interface Account {
  id: string;
  name: string;
  coaId: number;
  /** Class group: Assets, Liability, Income, Expenses, Transfer, Equity. */
  type: string;
  level: number;
  group: string;
  tag: string;
  parentId: string | null;
  /** The banking service's account, for bank and card accounts. */
  bankAccountId?: string | null;
  /** The account's role in the books (cash, retained_earnings, ...); '' or absent for ordinary accounts. */
  systemKey?: string;
  /** A bank account's ISO currency, when its bank said ('' or absent: USD, the product's currency). */
  currency?: string;
}

/**
 * Reports are in USD: bank accounts in another currency are left out (never summed as USD), and the
 * header says which. Returns the accounts kept and the notices.
 */
export function usdOnly(accounts: readonly Account[]): { accounts: Account[]; excluded: Set<string>; notices: string[] } {
  const foreign = accounts.filter((a) => a.currency && a.currency !== 'USD');
  if (foreign.length === 0) return { accounts: [...accounts], excluded: new Set(), notices: [] };
  const excluded = new Set(foreign.map((a) => a.id));
  const byCurrency = new Map<string, string[]>();
  for (const a of foreign) byCurrency.set(a.currency as string, [...(byCurrency.get(a.currency as string) ?? []), a.name]);
  const notices = [...byCurrency]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(
      ([code, names]) =>
        `Accounts in ${code} are not included: ${names.sort().join(', ')}. Reports are in USD and never add amounts of another currency as dollars.`,
    );
  return { accounts: accounts.filter((a) => !excluded.has(a.id)), excluded, notices };
}

export interface DebitCredit {
  debit: number;
  credit: number;
}

export type RowType = 'section' | 'account' | 'summary' | 'computed';

export interface ReportRow {
  id: string;
  name: string;
  coaId: number;
  type: string;
  level: number;
  group: string;
  tag: string;
  rowType: RowType;
  /** Cents per column in the account's normal direction, the accounts below included. */
  amounts: number[];
  /** P&L: the sum of the columns; balance sheet: the last column (a balance as of the end). */
  total: number;
  children: ReportRow[];
  /**
   * Rows that open another report rather than a ledger (spec §2: the balance sheet's retained earnings and
   * net income rows open the profit and loss): the period to open per column ('' when there is none).
   */
  drill?: { report: 'pnl'; startDates: string[]; endDates: string[] };
}

export interface ReportFilter {
  groups: string[];
  tags: string[];
  excludeZeroes: boolean;
}

/** Debit-normal for Assets, Expenses and Transfer; credit-normal for Liability, Income and Equity. */
export function normal(type: string, d: DebitCredit | undefined): number {
  if (!d) return 0;
  return DEBIT_NORMAL.has(type) ? d.debit - d.credit : d.credit - d.debit;
}

const zeros = (n: number) => new Array<number>(n).fill(0);
const addInto = (into: number[], from: readonly number[]) => {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
};
const isZero = (a: readonly number[]) => a.every((x) => x === 0);

/**
 * Accounts selected by the groups and tags filters: an account is in when it, or an account above it,
 * has one of the groups (if any are given) and one of the tags (if any are given).
 */
export function selectedAccounts(accounts: readonly Account[], filter: Pick<ReportFilter, 'groups' | 'tags'>): Set<string> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const groups = new Set(filter.groups.map((g) => g.toLowerCase()));
  const tags = new Set(filter.tags.map((t) => t.toLowerCase()));
  const inherits = (a: Account, test: (x: Account) => boolean): boolean => {
    for (let cur: Account | undefined = a, depth = 0; cur && depth < 10; cur = cur.parentId ? byId.get(cur.parentId) : undefined, depth++)
      if (test(cur)) return true;
    return false;
  };
  const out = new Set<string>();
  for (const a of accounts) {
    const g = groups.size === 0 || inherits(a, (x) => groups.has(x.group.toLowerCase()));
    const t = tags.size === 0 || inherits(a, (x) => tags.has(x.tag.toLowerCase()));
    if (g && t) out.add(a.id);
  }
  return out;
}

export interface TreeInput {
  accounts: readonly Account[];
  /** Each selected account's own amounts per column (normal direction); absent = zeros. */
  own: (account: Account) => readonly number[] | undefined;
  columns: number;
  filter: ReportFilter;
  total: 'sum' | 'last';
}

/** The chart as report rows: one root per class group account (level 1), amounts rolled up the tree. */
export function accountTree({ accounts, own, columns, filter, total }: TreeInput): ReportRow[] {
  const selected = selectedAccounts(accounts, filter);
  const children = new Map<string | null, Account[]>();
  const ids = new Set(accounts.map((a) => a.id));
  for (const a of accounts) {
    const parent = a.parentId && ids.has(a.parentId) ? a.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(a);
    children.set(parent, list);
  }
  const totalOf = (amounts: number[]) => (total === 'sum' ? amounts.reduce((s, x) => s + x, 0) : (amounts[amounts.length - 1] ?? 0));
  const build = (a: Account, depth: number): { row: ReportRow; included: boolean } => {
    const amounts = zeros(columns);
    const isIn = selected.has(a.id);
    if (isIn) addInto(amounts, own(a) ?? []);
    const kids: ReportRow[] = [];
    let anyIn = isIn;
    // The chart has four levels; the depth guard stops a malformed cycle.
    for (const c of depth < 8 ? (children.get(a.id) ?? []).slice().sort((x, y) => x.coaId - y.coaId || x.name.localeCompare(y.name)) : []) {
      const child = build(c, depth + 1);
      if (!child.included) continue;
      anyIn = true;
      addInto(amounts, child.row.amounts);
      if (filter.excludeZeroes && isZero(child.row.amounts) && child.row.total === 0) continue;
      kids.push(child.row);
    }
    const row: ReportRow = {
      id: a.id,
      name: a.name,
      coaId: a.coaId,
      type: a.type,
      level: a.level,
      group: a.group,
      tag: a.tag,
      rowType: a.parentId ? 'account' : 'section',
      amounts,
      total: totalOf(amounts),
      children: kids,
    };
    return { row, included: anyIn };
  };
  return (children.get(null) ?? [])
    .slice()
    .sort((x, y) => CLASS_GROUPS.indexOf(x.type as never) - CLASS_GROUPS.indexOf(y.type as never) || x.coaId - y.coaId)
    .map((a) => build(a, 0).row);
}

export function computedRow(
  name: string,
  rowType: 'summary' | 'computed' | 'section',
  amounts: number[],
  total: 'sum' | 'last' | 'first',
  children: ReportRow[] = [],
): ReportRow {
  return {
    id: '',
    name,
    coaId: 0,
    type: '',
    level: 0,
    group: '',
    tag: '',
    rowType,
    amounts,
    total: total === 'sum' ? amounts.reduce((s, x) => s + x, 0) : total === 'first' ? (amounts[0] ?? 0) : (amounts[amounts.length - 1] ?? 0),
    children,
  };
}

const sumRows = (rows: readonly ReportRow[], columns: number) => {
  const out = zeros(columns);
  for (const r of rows) addInto(out, r.amounts);
  return out;
};

export interface ProfitLossInput {
  accounts: readonly Account[];
  /** Debits and credits per account per column. */
  sums: ReadonlyMap<string, readonly (DebitCredit | undefined)[]>;
  columns: number;
  filter: ReportFilter;
}

export type PnlSection = 'income' | 'cogs' | 'expenses' | 'otherIncome' | 'otherExpenses';

/** The P&L's sections and summaries, in order (README "Profit and loss layout"). */
export const PNL_ROWS = {
  income: 'Income',
  cogs: 'Cost of Goods Sold',
  grossProfit: 'Gross Profit',
  expenses: 'Expenses',
  netOperatingIncome: 'Net Operating Income',
  otherIncome: 'Other Income',
  otherExpenses: 'Other Expenses',
  netIncome: 'Net Income',
} as const;

/** The category group (level 2) above an account, or the account itself when it is a group or a class group. */
export function groupOf(a: Account, byId: ReadonlyMap<string, Account>): Account {
  let group = a;
  for (let depth = 0; group.parentId && depth < 10; depth++) {
    const parent = byId.get(group.parentId);
    if (!parent?.parentId) break;
    group = parent;
  }
  return group;
}

/**
 * The P&L section of an income or expense account, by the coaId of its category group (level 2), the
 * chart's numbering (the default groups: 41000 Operating Income, 42000 Other Income, 51000 Cost of Goods
 * Sold, 60000 Operating Expenses, 70000 Other Expenses): income 42000–49999 is other income, any other
 * income operating; expenses 50000–59999 cost of goods sold, 70000 and above other expenses, any other
 * (60000–69999, and numbers outside the ranges) operating expenses. A class group account's own postings
 * (level 1) are operating.
 */
export function pnlSectionOf(a: Account, byId: ReadonlyMap<string, Account>): PnlSection {
  const group = a.parentId ? groupOf(a, byId) : null;
  const coa = group?.coaId ?? 0;
  if (a.type === 'Income') return group && coa >= 42000 && coa < 50000 ? 'otherIncome' : 'income';
  if (!group) return 'expenses';
  if (coa >= 50000 && coa < 60000) return 'cogs';
  if (coa >= 70000) return 'otherExpenses';
  return 'expenses';
}

/**
 * Income, Cost of Goods Sold, Gross Profit, Expenses (operating), Net Operating Income, Other Income,
 * Other Expenses and Net Income per column. Sections hold the category groups (level 2) with the
 * accounts under them; a section with nothing in it is left out when zero rows are hidden; the summary
 * rows always show. `income` and `expenses` are all income and all expenses (the dashboard's chart).
 */
export function profitLoss({ accounts, sums, columns, filter }: ProfitLossInput): {
  rows: ReportRow[];
  income: number[];
  expenses: number[];
  netIncome: number[];
} {
  const pl = accounts.filter((a) => a.type === 'Income' || a.type === 'Expenses');
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const tree = accountTree({ accounts: pl, own: (a) => (sums.get(a.id) ?? []).map((d) => normal(a.type, d)), columns, filter, total: 'sum' });
  const parts: Record<PnlSection, ReportRow[]> = { income: [], cogs: [], expenses: [], otherIncome: [], otherExpenses: [] };
  for (const root of tree) {
    const rootAccount = byId.get(root.id);
    // The class group's own postings (not under any group) as a row of its own.
    const own = [...root.amounts];
    for (const c of root.children) for (let i = 0; i < columns; i++) own[i] = (own[i] ?? 0) - (c.amounts[i] ?? 0);
    if (rootAccount && !isZero(own))
      parts[pnlSectionOf(rootAccount, byId)].push({ ...root, amounts: own, total: own.reduce((s, x) => s + x, 0), children: [] });
    for (const child of root.children) {
      const account = byId.get(child.id);
      if (account) parts[pnlSectionOf(account, byId)].push(child);
    }
  }
  const section = (key: PnlSection, type: 'Income' | 'Expenses') => {
    const rows = parts[key];
    const amounts = sumRows(rows, columns);
    return { row: { ...computedRow(PNL_ROWS[key], 'section', amounts, 'sum', rows), type, level: 1 }, amounts };
  };
  const income = section('income', 'Income');
  const cogs = section('cogs', 'Expenses');
  const expenses = section('expenses', 'Expenses');
  const otherIncome = section('otherIncome', 'Income');
  const otherExpenses = section('otherExpenses', 'Expenses');
  const minus = (a: number[], b: number[]) => a.map((x, i) => x - (b[i] ?? 0));
  const grossProfit = minus(income.amounts, cogs.amounts);
  const netOperatingIncome = minus(grossProfit, expenses.amounts);
  const netIncome = minus(netOperatingIncome, otherExpenses.amounts).map((x, i) => x + (otherIncome.amounts[i] ?? 0));
  const shown = (s: { row: ReportRow }) => (filter.excludeZeroes && s.row.children.length === 0 && isZero(s.row.amounts) ? [] : [s.row]);
  const rows = [
    ...shown(income),
    ...shown(cogs),
    computedRow(PNL_ROWS.grossProfit, 'summary', grossProfit, 'sum'),
    ...shown(expenses),
    computedRow(PNL_ROWS.netOperatingIncome, 'summary', netOperatingIncome, 'sum'),
    ...shown(otherIncome),
    ...shown(otherExpenses),
    computedRow(PNL_ROWS.netIncome, 'summary', netIncome, 'sum'),
  ];
  const allIncome = income.amounts.map((x, i) => x + (otherIncome.amounts[i] ?? 0));
  const allExpenses = sumRows([cogs.row, expenses.row, otherExpenses.row], columns);
  return { rows, income: allIncome, expenses: allExpenses, netIncome };
}

export interface BalanceSheetInput {
  accounts: readonly Account[];
  /** Debits and credits per account before the period's start. */
  opening: ReadonlyMap<string, DebitCredit>;
  /** Debits and credits per account per column (each column a slice of the period). */
  sums: ReadonlyMap<string, readonly (DebitCredit | undefined)[]>;
  columns: number;
  filter: ReportFilter;
  /** Per column: the first day of the fiscal year its end date falls in. */
  fiscalYearStarts: readonly string[];
  /** Per fiscal year start: debits and credits per account of everything before that day. */
  beforeFiscalYear: ReadonlyMap<string, ReadonlyMap<string, DebitCredit>>;
  /** Per column: its end date (the net income row opens the P&L from the fiscal year's start to it). */
  columnEnds: readonly string[];
  /** The first day anything is booked ('' when nothing is): where the retained earnings row's P&L starts. */
  firstBooked: string;
}

export const BALANCE_SHEET_ROWS = {
  totalAssets: 'Total Assets',
  /** Only when the chart has no account with the retained_earnings role (else it is that account's row). */
  retainedEarnings: 'Retained Earnings',
  netIncome: 'Net Income',
  totalEquity: 'Total Equity',
  totalLiabilitiesAndEquity: 'Total Liabilities and Equity',
} as const;

export const RETAINED_EARNINGS_KEY = 'retained_earnings';

/**
 * Balances as of each column's end, closed at every fiscal year end without an entry: Assets (and
 * Transfer, a debit-normal clearing class), then Liabilities and Equity. Income and expenses appear only
 * as earnings: the Retained Earnings account (role retained_earnings) shows what is booked to it plus
 * the net income of every fiscal year before the column's own; Net Income is the column's fiscal year
 * from its first day to the column's end. Each column uses the fiscal year of its own date.
 * Assets + Transfer = Liabilities + Equity + Net Income, because every entry balances.
 */
export function balanceSheet({
  accounts,
  opening,
  sums,
  columns,
  filter,
  fiscalYearStarts,
  beforeFiscalYear,
  columnEnds,
  firstBooked,
}: BalanceSheetInput): ReportRow[] {
  const selected = selectedAccounts(accounts, filter);
  // Net income (income − expenses, selected accounts) of all years before each column's fiscal year, and up to its end.
  const earlier = zeros(columns);
  const toDate = zeros(columns);
  for (const a of accounts) {
    if ((a.type !== 'Income' && a.type !== 'Expenses') || !selected.has(a.id)) continue;
    const sign = a.type === 'Income' ? 1 : -1;
    let running = sign * normal(a.type, opening.get(a.id));
    const slices = sums.get(a.id) ?? [];
    for (let i = 0; i < columns; i++) {
      running += sign * normal(a.type, slices[i]);
      const before = sign * normal(a.type, beforeFiscalYear.get(fiscalYearStarts[i] ?? '')?.get(a.id));
      earlier[i] = (earlier[i] ?? 0) + before;
      toDate[i] = (toDate[i] ?? 0) + running;
    }
  }
  const period = toDate.map((x, i) => x - (earlier[i] ?? 0));
  const retainedAccount = accounts.find((a) => a.systemKey === RETAINED_EARNINGS_KEY && a.type === 'Equity' && selected.has(a.id));
  const cumulative = (a: Account) => {
    const out: number[] = [];
    let running = normal(a.type, opening.get(a.id));
    const slices = sums.get(a.id) ?? [];
    for (let i = 0; i < columns; i++) {
      running += normal(a.type, slices[i]);
      out.push(running + (a === retainedAccount ? (earlier[i] ?? 0) : 0));
    }
    return out;
  };
  const tree = accountTree({ accounts: accounts.filter((a) => a.type !== 'Income' && a.type !== 'Expenses'), own: cumulative, columns, filter, total: 'last' });
  const of = (type: string) => tree.filter((r) => r.type === type);
  const assets = [...of('Assets'), ...of('Transfer')];
  const equity = of('Equity');
  // Retained earnings open the P&L of everything before the fiscal year; net income its year to date.
  const before = fiscalYearStarts.map((f) => addDay(f, -1));
  const retainedDrill = {
    report: 'pnl' as const,
    startDates: before.map((b) => (firstBooked && firstBooked <= b ? firstBooked : '')),
    endDates: before.map((b) => (firstBooked && firstBooked <= b ? b : '')),
  };
  const netIncomeDrill = { report: 'pnl' as const, startDates: [...fiscalYearStarts], endDates: [...columnEnds] };
  const extra: ReportRow[] = [];
  if (retainedAccount) {
    const mark = (rows: ReportRow[]) => {
      for (const r of rows) {
        if (r.id === retainedAccount.id) r.drill = retainedDrill;
        mark(r.children);
      }
    };
    mark(equity);
  } else {
    extra.push({ ...computedRow(BALANCE_SHEET_ROWS.retainedEarnings, 'computed', earlier, 'last'), drill: retainedDrill });
  }
  const netIncome = { ...computedRow(BALANCE_SHEET_ROWS.netIncome, 'computed', period, 'last'), drill: netIncomeDrill };
  const totalEquity = sumRows([...equity, ...extra, netIncome], columns);
  const totalLiabilitiesAndEquity = sumRows(of('Liability'), columns);
  addInto(totalLiabilitiesAndEquity, totalEquity);
  return [
    ...assets,
    computedRow(BALANCE_SHEET_ROWS.totalAssets, 'summary', sumRows(assets, columns), 'last'),
    ...of('Liability'),
    ...equity,
    ...extra,
    netIncome,
    computedRow(BALANCE_SHEET_ROWS.totalEquity, 'summary', totalEquity, 'last'),
    computedRow(BALANCE_SHEET_ROWS.totalLiabilitiesAndEquity, 'summary', totalLiabilitiesAndEquity, 'last'),
  ];
}

const addDay = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
