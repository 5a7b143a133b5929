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
    for (let cur: Account | undefined = a, depth = 0; cur && depth < 10; cur = cur.parentId ? byId.get(cur.parentId) : undefined, depth++) if (test(cur)) return true;
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
      id: a.id, name: a.name, coaId: a.coaId, type: a.type, level: a.level, group: a.group, tag: a.tag,
      rowType: a.parentId ? 'account' : 'section', amounts, total: totalOf(amounts), children: kids,
    };
    return { row, included: anyIn };
  };
  return (children.get(null) ?? []).slice().sort((x, y) => CLASS_GROUPS.indexOf(x.type as never) - CLASS_GROUPS.indexOf(y.type as never) || x.coaId - y.coaId).map((a) => build(a, 0).row);
}

export function computedRow(name: string, rowType: 'summary' | 'computed' | 'section', amounts: number[], total: 'sum' | 'last' | 'first', children: ReportRow[] = []): ReportRow {
  return {
    id: '', name, coaId: 0, type: '', level: 0, group: '', tag: '', rowType, amounts,
    total: total === 'sum' ? amounts.reduce((s, x) => s + x, 0) : total === 'first' ? (amounts[0] ?? 0) : (amounts[amounts.length - 1] ?? 0), children,
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

/** Income, Expenses and Net Income (Income − Expenses) per column. */
export function profitLoss({ accounts, sums, columns, filter }: ProfitLossInput): { rows: ReportRow[]; income: number[]; expenses: number[]; netIncome: number[] } {
  const pl = accounts.filter((a) => a.type === 'Income' || a.type === 'Expenses');
  const tree = accountTree({ accounts: pl, own: (a) => (sums.get(a.id) ?? []).map((d) => normal(a.type, d)), columns, filter, total: 'sum' });
  const income = sumRows(tree.filter((r) => r.type === 'Income'), columns);
  const expenses = sumRows(tree.filter((r) => r.type === 'Expenses'), columns);
  const netIncome = income.map((x, i) => x - (expenses[i] ?? 0));
  return { rows: [...tree, computedRow('Net Income', 'summary', netIncome, 'sum')], income, expenses, netIncome };
}

export interface BalanceSheetInput {
  accounts: readonly Account[];
  /** Debits and credits per account before the period's start. */
  opening: ReadonlyMap<string, DebitCredit>;
  /** Debits and credits per account per column (each column a slice of the period). */
  sums: ReadonlyMap<string, readonly (DebitCredit | undefined)[]>;
  columns: number;
  filter: ReportFilter;
}

export const BALANCE_SHEET_ROWS = {
  totalAssets: 'Total Assets',
  retainedEarnings: 'Retained Earnings (earlier periods)',
  netIncome: 'Net Income',
  totalEquity: 'Total Equity',
  totalLiabilitiesAndEquity: 'Total Liabilities and Equity',
} as const;

/**
 * Balances as of each column's end: Assets (and Transfer, a debit-normal clearing class), then
 * Liabilities and Equity, where Equity adds the earnings not yet closed to an account: the net income
 * of earlier periods (before the start date) and of the period up to the column's end.
 * Assets + Transfer = Liabilities + Equity + earnings, because every entry balances.
 */
export function balanceSheet({ accounts, opening, sums, columns, filter }: BalanceSheetInput): ReportRow[] {
  const cumulative = (a: Account) => {
    const out: number[] = [];
    let running = normal(a.type, opening.get(a.id));
    const slices = sums.get(a.id) ?? [];
    for (let i = 0; i < columns; i++) {
      running += normal(a.type, slices[i]);
      out.push(running);
    }
    return out;
  };
  const tree = accountTree({ accounts: accounts.filter((a) => a.type !== 'Income' && a.type !== 'Expenses'), own: cumulative, columns, filter, total: 'last' });
  const selected = selectedAccounts(accounts, filter);
  const earlier = zeros(columns);
  const period = zeros(columns);
  for (const a of accounts) {
    if ((a.type !== 'Income' && a.type !== 'Expenses') || !selected.has(a.id)) continue;
    const sign = a.type === 'Income' ? 1 : -1;
    const before = sign * normal(a.type, opening.get(a.id));
    const slices = sums.get(a.id) ?? [];
    let running = 0;
    for (let i = 0; i < columns; i++) {
      running += sign * normal(a.type, slices[i]);
      earlier[i] = (earlier[i] ?? 0) + before;
      period[i] = (period[i] ?? 0) + running;
    }
  }
  const of = (type: string) => tree.filter((r) => r.type === type);
  const assets = [...of('Assets'), ...of('Transfer')];
  const equity = of('Equity');
  const retained = computedRow(BALANCE_SHEET_ROWS.retainedEarnings, 'computed', earlier, 'last');
  const netIncome = computedRow(BALANCE_SHEET_ROWS.netIncome, 'computed', period, 'last');
  const totalEquity = sumRows([...equity, retained, netIncome], columns);
  const totalLiabilitiesAndEquity = sumRows(of('Liability'), columns);
  addInto(totalLiabilitiesAndEquity, totalEquity);
  return [
    ...assets,
    computedRow(BALANCE_SHEET_ROWS.totalAssets, 'summary', sumRows(assets, columns), 'last'),
    ...of('Liability'),
    ...equity,
    retained,
    netIncome,
    computedRow(BALANCE_SHEET_ROWS.totalEquity, 'summary', totalEquity, 'last'),
    computedRow(BALANCE_SHEET_ROWS.totalLiabilitiesAndEquity, 'summary', totalLiabilitiesAndEquity, 'last'),
  ];
}
