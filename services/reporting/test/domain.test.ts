// The pure rules of reporting: period lengths, the spec §5 breakdown fallbacks, columns and the
// segments they read, query validation, and report rows built from balances.
import type { AppError } from '@ledgerline/platform';
import { describe, expect, it } from 'vitest';
import { fiscalYearStart, periodMonths } from '../src/domain/dates.js';
import { columnsFor, effectivePeriodicity, segmentsFor } from '../src/domain/periods.js';
import { parseQuery, type RawQuery } from '../src/domain/query.js';
import { cashAccounts, cashChangeOf, cashFlowStatement, cashSeries, ownMoneyAccounts, runway } from '../src/domain/cashflow.js';
import { accountTree, balanceSheet, profitLoss, type Account, type DebitCredit, type ReportRow } from '../src/domain/report.js';

const raw = (over: Partial<RawQuery> = {}): RawQuery => ({
  startDate: '',
  endDate: '',
  breakdown: '',
  periodicity: '',
  groups: '',
  tags: '',
  excludeZeroes: '',
  seq: '',
  ...over,
});

describe('period length in months', () => {
  it('counts whole calendar months and the fraction of the days left', () => {
    expect(periodMonths('2026-01-01', '2026-01-31')).toBe(1);
    expect(periodMonths('2026-01-15', '2026-02-14')).toBe(1);
    expect(periodMonths('2026-01-01', '2026-12-31')).toBe(12);
    expect(periodMonths('2026-01-01', '2026-01-15')).toBeCloseTo(15 / 31);
    expect(periodMonths('2026-01-15', '2026-02-13')).toBeLessThan(1);
    // A month after 31 January is the end of February (the day is clamped).
    expect(periodMonths('2026-01-31', '2026-02-27')).toBe(1);
    expect(periodMonths('2026-03-01', '2026-03-01')).toBeCloseTo(1 / 31);
  });
});

describe('spec §5 breakdown fallbacks', () => {
  it('yearly falls to monthly when the period is under 11 months, and stays yearly from 11 months', () => {
    expect(effectivePeriodicity('yearly', '2026-01-01', '2026-10-31')).toBe('monthly');
    expect(effectivePeriodicity('yearly', '2026-01-01', '2026-11-29')).toBe('monthly');
    expect(effectivePeriodicity('yearly', '2026-01-01', '2026-11-30')).toBe('yearly');
    expect(effectivePeriodicity('yearly', '2024-01-01', '2026-12-31')).toBe('yearly');
  });
  it('quarterly falls to monthly when the period is over 0 and under 2 months, and stays quarterly from 2 months', () => {
    expect(effectivePeriodicity('quarterly', '2026-01-01', '2026-02-27')).toBe('monthly');
    expect(effectivePeriodicity('quarterly', '2026-01-01', '2026-01-31')).toBe('monthly');
    expect(effectivePeriodicity('quarterly', '2026-01-01', '2026-02-28')).toBe('quarterly');
  });
  it('a period under 1 month gives totals only, whatever was asked', () => {
    for (const p of ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'totals_only'] as const)
      expect(effectivePeriodicity(p, '2026-01-01', '2026-01-30')).toBe('totals_only');
    expect(effectivePeriodicity('monthly', '2026-01-01', '2026-01-31')).toBe('monthly');
    expect(effectivePeriodicity('daily', '2026-01-01', '2026-01-31')).toBe('daily');
  });
  it('the query reports the periodicity asked for and the one used', () => {
    const q = parseQuery(raw({ startDate: '2026-01-01', endDate: '2026-06-30', breakdown: 'year' }));
    expect(q).toMatchObject({ requested: 'yearly', periodicity: 'monthly' });
    expect(q.columns.map((c) => c.label)).toEqual(['Jan-26', 'Feb-26', 'Mar-26', 'Apr-26', 'May-26', 'Jun-26']);
    expect(parseQuery(raw({ startDate: '2026-01-01', endDate: '2026-01-20', periodicity: 'weekly' })).columns).toEqual([
      { label: 'Total', start: '2026-01-01', end: '2026-01-20' },
    ]);
  });
});

describe('columns', () => {
  it('are calendar-aligned and clipped to the period; they tile it without gaps or overlaps', () => {
    expect(columnsFor('quarterly', '2026-02-10', '2026-08-05')).toEqual([
      { label: 'Q1-26', start: '2026-02-10', end: '2026-03-31' },
      { label: 'Q2-26', start: '2026-04-01', end: '2026-06-30' },
      { label: 'Q3-26', start: '2026-07-01', end: '2026-08-05' },
    ]);
    // 2026-01-01 is a Thursday: the first week runs to Sunday the 4th.
    expect(columnsFor('weekly', '2026-01-01', '2026-01-14').map((c) => [c.start, c.end])).toEqual([
      ['2026-01-01', '2026-01-04'],
      ['2026-01-05', '2026-01-11'],
      ['2026-01-12', '2026-01-14'],
    ]);
    expect(columnsFor('yearly', '2025-03-01', '2026-02-28').map((c) => c.label)).toEqual(['2025', '2026']);
    expect(columnsFor('daily', '2026-02-27', '2026-03-01').map((c) => c.label)).toEqual(['02/27/26', '02/28/26', '03/01/26']);
  });
  it('read whole months from the monthly table and only the partial months from the daily table', () => {
    expect(segmentsFor(0, '2026-01-01', '2026-03-31')).toEqual([{ column: 0, table: 'monthly', from: '2026-01-01', to: '2026-03-01' }]);
    expect(segmentsFor(1, '2026-01-10', '2026-04-05')).toEqual([
      { column: 1, table: 'monthly', from: '2026-02-01', to: '2026-03-01' },
      { column: 1, table: 'daily', from: '2026-01-10', to: '2026-01-31' },
      { column: 1, table: 'daily', from: '2026-04-01', to: '2026-04-05' },
    ]);
    expect(segmentsFor(2, '2026-01-10', '2026-02-05')).toEqual([{ column: 2, table: 'daily', from: '2026-01-10', to: '2026-02-05' }]);
    expect(segmentsFor(0, '0001-01-01', '2025-12-31')).toEqual([{ column: 0, table: 'monthly', from: '0001-01-01', to: '2025-12-01' }]);
  });
});

describe('query validation', () => {
  const fieldsOf = (over: Partial<RawQuery>) => {
    try {
      parseQuery(raw(over));
    } catch (err) {
      return (err as AppError).fields;
    }
    throw new Error('accepted');
  };
  it('names each bad field', () => {
    expect(fieldsOf({ startDate: '2026-02-30' })).toEqual([{ field: 'startDate', message: 'Invalid startDate format' }]);
    expect(fieldsOf({ endDate: '01/31/2026' })).toEqual([{ field: 'endDate', message: 'Invalid endDate format' }]);
    expect(fieldsOf({ breakdown: 'decade' })[0]?.field).toBe('breakdown');
    expect(fieldsOf({ periodicity: 'hourly' })[0]?.field).toBe('periodicity');
    expect(fieldsOf({ excludeZeroes: 'yes' })[0]?.field).toBe('excludeZeroes');
    expect(fieldsOf({ seq: '-1' })[0]?.field).toBe('seq');
    expect(fieldsOf({ startDate: '2026-03-01', endDate: '2026-02-01' })).toEqual([{ field: 'startDate', message: 'startDate cannot be greater than endDate' }]);
    expect(fieldsOf({ startDate: '2020-01-01', endDate: '2026-12-31', periodicity: 'daily' })[0]?.field).toBe('periodicity');
  });
  it('breakdown and periodicity are read case-insensitively', () => {
    expect(parseQuery(raw({ startDate: '2026-01-01', endDate: '2026-12-31', breakdown: 'Year' })).periodicity).toBe('yearly');
    expect(parseQuery(raw({ startDate: '2026-01-01', endDate: '2026-12-31', periodicity: 'Quarterly' })).columns).toHaveLength(4);
  });
  it('defaults: endDate today, startDate 1 January of its year, monthly', () => {
    const q = parseQuery(raw(), new Date('2026-05-17T10:00:00Z'));
    expect(q).toMatchObject({ start: '2026-01-01', end: '2026-05-17', periodicity: 'monthly', excludeZeroes: false, seq: null, groups: [], tags: [] });
  });
});

// A small chart: Assets > Cash > Checking; Liability > Card; Equity > Owner; Income > Sales (group
// "core") > Online (tag "web"); Expenses > Rent, Software (tag "web"); Transfer.
const acc = (id: string, type: string, parentId: string | null, extra: Partial<Account> = {}): Account => ({
  id,
  name: id,
  coaId: 10000 + id.length * 100 + id.charCodeAt(0),
  type,
  level: parentId ? 2 : 1,
  group: '',
  tag: '',
  parentId,
  ...extra,
});
const chart: Account[] = [
  acc('assets', 'Assets', null),
  acc('cash', 'Assets', 'assets'),
  acc('checking', 'Assets', 'cash', { level: 3 }),
  acc('liability', 'Liability', null),
  acc('card', 'Liability', 'liability'),
  acc('equity', 'Equity', null),
  acc('owner', 'Equity', 'equity'),
  acc('income', 'Income', null),
  acc('sales', 'Income', 'income', { group: 'core' }),
  acc('online', 'Income', 'sales', { level: 3, tag: 'web' }),
  acc('expenses', 'Expenses', null),
  acc('rent', 'Expenses', 'expenses'),
  acc('software', 'Expenses', 'expenses', { tag: 'web' }),
  acc('transfer', 'Transfer', null),
];
const dc = (debit: number, credit: number): DebitCredit => ({ debit, credit });
const filter = { groups: [], tags: [], excludeZeroes: false };

describe('report rows', () => {
  // Two columns. Column 0: sales 1000 (checking dr), online 200, rent 300 (card cr). Column 1: software 50 from checking.
  const sums = new Map<string, (DebitCredit | undefined)[]>([
    ['checking', [dc(1200, 0), dc(0, 50)]],
    ['card', [dc(0, 300), undefined]],
    ['sales', [dc(0, 1000), undefined]],
    ['online', [dc(0, 200), undefined]],
    ['rent', [dc(300, 0), undefined]],
    ['software', [undefined, dc(50, 0)]],
  ]);

  it('P&L: amounts roll up the tree in the normal direction; Net Income = Income − Expenses per column', () => {
    const pl = profitLoss({ accounts: chart, sums, columns: 2, filter });
    expect(pl.rows.map((r) => [r.name, r.rowType, r.amounts, r.total])).toEqual([
      ['Income', 'section', [1200, 0], 1200],
      ['Cost of Goods Sold', 'section', [0, 0], 0],
      ['Gross Profit', 'summary', [1200, 0], 1200],
      ['Expenses', 'section', [300, 50], 350],
      ['Net Operating Income', 'summary', [900, -50], 850],
      ['Other Income', 'section', [0, 0], 0],
      ['Other Expenses', 'section', [0, 0], 0],
      ['Net Income', 'summary', [900, -50], 850],
    ]);
    const sales = pl.rows[0]?.children[0];
    expect(sales).toMatchObject({ name: 'sales', amounts: [1200, 0], children: [{ name: 'online', amounts: [200, 0] }] });
  });

  it('groups and tags select accounts (and the accounts under them); excludeZeroes drops all-zero rows but keeps sections', () => {
    const byTag = profitLoss({ accounts: chart, sums, columns: 2, filter: { groups: [], tags: ['WEB'], excludeZeroes: true } });
    expect(byTag.netIncome).toEqual([200, -50]);
    expect(byTag.rows.find((r) => r.name === 'Expenses')?.children.map((c) => c.name)).toEqual(['software']);
    // Empty sections are hidden with the zero rows; the summaries stay.
    expect(byTag.rows.map((r) => r.name)).toEqual(['Income', 'Gross Profit', 'Expenses', 'Net Operating Income', 'Net Income']);
    const byGroup = profitLoss({ accounts: chart, sums, columns: 2, filter: { groups: ['core'], tags: [], excludeZeroes: false } });
    expect(byGroup.income).toEqual([1200, 0]);
    expect(byGroup.expenses).toEqual([0, 0]);
    const tree = accountTree({ accounts: chart, own: () => [0, 0], columns: 2, filter: { groups: [], tags: [], excludeZeroes: true }, total: 'sum' });
    expect(tree.map((r) => r.children.length)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('balance sheet: balances as of each column; Assets + Transfer = Liabilities + Equity with earlier and period earnings', () => {
    // The 100 of sales before the period was booked in an earlier fiscal year.
    const opening = new Map([
      ['checking', dc(500, 0)],
      ['owner', dc(0, 400)],
      ['sales', dc(0, 100)],
    ]);
    const fy = {
      fiscalYearStarts: ['2026-01-01', '2026-01-01'],
      beforeFiscalYear: new Map([['2026-01-01', new Map([['sales', dc(0, 100)]])]]),
      columnEnds: ['2026-01-31', '2026-02-28'],
      firstBooked: '2025-03-02',
    };
    const rows = balanceSheet({ accounts: chart, opening, sums, columns: 2, filter, ...fy });
    const get = (name: string) => rows.find((r) => r.name === name);
    expect(get('assets')?.amounts).toEqual([1700, 1650]);
    expect(get('liability')?.amounts).toEqual([300, 300]);
    expect(get('Retained Earnings')?.amounts).toEqual([100, 100]);
    expect(get('Retained Earnings')?.drill).toEqual({ report: 'pnl', startDates: ['2025-03-02', '2025-03-02'], endDates: ['2025-12-31', '2025-12-31'] });
    expect(get('Net Income')?.amounts).toEqual([900, 850]);
    expect(get('Net Income')?.drill).toEqual({ report: 'pnl', startDates: ['2026-01-01', '2026-01-01'], endDates: ['2026-01-31', '2026-02-28'] });
    expect(get('Total Equity')?.amounts).toEqual([1400, 1350]);
    expect(get('Total Assets')?.amounts).toEqual(get('Total Liabilities and Equity')?.amounts);
    expect(get('Total Assets')?.total).toBe(1650);
  });
});

describe('fiscal years', () => {
  it('the first day of the fiscal year holding a date, for any first month (0 = January)', () => {
    expect(fiscalYearStart('2026-05-17', 1)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-05-17', 0)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-05-17', 7)).toBe('2025-07-01');
    expect(fiscalYearStart('2026-07-01', 7)).toBe('2026-07-01');
    expect(fiscalYearStart('2026-06-30', 7)).toBe('2025-07-01');
    expect(parseQuery(raw({ endDate: '2026-05-17' }), new Date(), 7).start).toBe('2025-07-01');
  });

  it("P&L sections by the category group's coaId: COGS, other income and other expenses; Gross Profit and Net Operating Income", () => {
    const n = (id: string, type: string, coaId: number, parentId: string | null, level: number): Account => ({
      id,
      name: id,
      coaId,
      type,
      level,
      group: '',
      tag: '',
      parentId,
    });
    const accounts = [
      n('inc', 'Income', 40000, null, 1),
      n('opInc', 'Income', 41000, 'inc', 2),
      n('sales', 'Income', 41100, 'opInc', 3),
      n('othInc', 'Income', 42000, 'inc', 2),
      n('interest', 'Income', 42100, 'othInc', 3),
      n('exp', 'Expenses', 50000, null, 1),
      n('cogs', 'Expenses', 51000, 'exp', 2),
      n('hosting', 'Expenses', 51200, 'cogs', 3),
      n('opex', 'Expenses', 60000, 'exp', 2),
      n('rent', 'Expenses', 60900, 'opex', 3),
      n('othExp', 'Expenses', 70000, 'exp', 2),
      n('fx', 'Expenses', 70100, 'othExp', 3),
      n('mine', 'Expenses', 65000, 'exp', 2),
    ];
    const s = new Map<string, (DebitCredit | undefined)[]>([
      ['sales', [dc(0, 1000)]],
      ['interest', [dc(0, 30)]],
      ['hosting', [dc(200, 0)]],
      ['rent', [dc(300, 0)]],
      ['fx', [dc(20, 0)]],
      ['mine', [dc(5, 0)]],
      ['exp', [dc(1, 0)]],
    ]);
    const pl = profitLoss({ accounts, sums: s, columns: 1, filter: { groups: [], tags: [], excludeZeroes: true } });
    expect(pl.rows.map((r) => [r.name, r.amounts[0], r.children.map((c) => c.name)])).toEqual([
      ['Income', 1000, ['opInc']],
      ['Cost of Goods Sold', 200, ['cogs']],
      ['Gross Profit', 800, []],
      ['Expenses', 306, ['exp', 'opex', 'mine']],
      ['Net Operating Income', 494, []],
      ['Other Income', 30, ['othInc']],
      ['Other Expenses', 20, ['othExp']],
      ['Net Income', 504, []],
    ]);
    expect(pl.netIncome).toEqual([1000 + 30 - 200 - 306 - 20]);
    expect(pl.income).toEqual([1030]);
    expect(pl.expenses).toEqual([526]);
  });

  it("balance sheet: the retained earnings account carries earlier years' net income; net income is the fiscal year to date", () => {
    const n = (id: string, type: string, parentId: string | null, extra: Partial<Account> = {}): Account => ({
      id,
      name: id,
      coaId: 1,
      type,
      level: parentId ? 2 : 1,
      group: '',
      tag: '',
      parentId,
      ...extra,
    });
    const accounts = [
      n('assets', 'Assets', null),
      n('bank', 'Assets', 'assets'),
      n('equity', 'Equity', null),
      n('re', 'Equity', 'equity', { systemKey: 'retained_earnings' }),
      n('inc', 'Income', null),
      n('sales', 'Income', 'inc'),
    ];
    // Sales 100 in FY2025 and 40 in FY2026 (July starts); 7 booked to retained earnings directly. Columns end 2026-06-30 and 2026-07-31.
    const opening = new Map([
      ['bank', dc(147, 0)],
      ['sales', dc(0, 140)],
      ['re', dc(0, 7)],
    ]);
    const s = new Map<string, (DebitCredit | undefined)[]>([
      ['bank', [undefined, dc(5, 0)]],
      ['sales', [undefined, dc(0, 5)]],
    ]);
    const beforeFiscalYear = new Map([
      ['2025-07-01', new Map([['sales', dc(0, 100)]])],
      ['2026-07-01', new Map([['sales', dc(0, 140)]])],
    ]);
    const rows = balanceSheet({
      accounts,
      opening,
      sums: s,
      columns: 2,
      filter,
      fiscalYearStarts: ['2025-07-01', '2026-07-01'],
      beforeFiscalYear,
      columnEnds: ['2026-06-30', '2026-07-31'],
      firstBooked: '2024-08-01',
    });
    const equity = rows.find((r) => r.name === 'equity') as ReportRow;
    expect(equity.children.find((c) => c.id === 're')?.amounts).toEqual([107, 147]);
    expect(rows.find((r) => r.name === 'Net Income')?.amounts).toEqual([40, 5]);
    expect(rows.some((r) => r.name === 'Retained Earnings')).toBe(false);
    expect(rows.find((r) => r.name === 'Total Assets')?.amounts).toEqual(rows.find((r) => r.name === 'Total Liabilities and Equity')?.amounts);
    expect(equity.children.find((c) => c.id === 're')?.drill?.endDates).toEqual(['2025-06-30', '2026-06-30']);
  });
});

describe('cash-flow statement (indirect method)', () => {
  // Cash and Cash Equivalents (11100) > Checking; Current Assets > Receivable; Fixed Assets > Laptop;
  // Current Liabilities > Card; Long-term > Loan; Equity > Owner; Income > Sales; Expenses > Rent.
  const node = (id: string, type: string, coaId: number, parentId: string | null, extra: Partial<Account> = {}): Account => ({
    id,
    name: id,
    coaId,
    type,
    level: 1,
    group: '',
    tag: '',
    parentId,
    ...extra,
  });
  const accounts: Account[] = [
    node('assets', 'Assets', 10000, null),
    node('current', 'Assets', 11000, 'assets'),
    node('cashEq', 'Assets', 11100, 'current', { systemKey: 'cash' }),
    node('checking', 'Assets', 11101, 'cashEq', { bankAccountId: 'b1' }),
    node('receivable', 'Assets', 11200, 'current'),
    node('fixed', 'Assets', 15000, 'assets'),
    node('laptop', 'Assets', 15200, 'fixed'),
    node('liability', 'Liability', 20000, null),
    node('currentL', 'Liability', 21000, 'liability'),
    node('card', 'Liability', 21201, 'currentL'),
    node('longL', 'Liability', 25000, 'liability'),
    node('loan', 'Liability', 25100, 'longL'),
    node('equity', 'Equity', 30000, null),
    node('owners', 'Equity', 31000, 'equity'),
    node('owner', 'Equity', 31300, 'owners'),
    node('income', 'Income', 40000, null),
    node('sales', 'Income', 41100, 'income'),
    node('expenses', 'Expenses', 50000, null),
    node('rent', 'Expenses', 60900, 'expenses'),
  ];
  // Column 0: owner puts in 1000 cash; sales 500 on credit (receivable); rent 200 on the card.
  // Column 1: customer pays the 500; laptop 800 from checking; loan 300 into checking; card paid 200.
  const sums = new Map<string, (DebitCredit | undefined)[]>([
    ['checking', [dc(1000, 0), dc(500 + 300, 800 + 200)]],
    ['owner', [dc(0, 1000), undefined]],
    ['receivable', [dc(500, 0), dc(0, 500)]],
    ['sales', [dc(0, 500), undefined]],
    ['rent', [dc(200, 0), undefined]],
    ['card', [dc(0, 200), dc(200, 0)]],
    ['laptop', [undefined, dc(800, 0)]],
    ['loan', [undefined, dc(0, 300)]],
  ]);
  const opening = new Map([
    ['checking', dc(250, 0)],
    ['owner', dc(0, 250)],
  ]);

  it('classifies by the category group: current assets and liabilities operating, fixed assets investing, long-term debt and equity financing', () => {
    const rows = cashFlowStatement({ accounts, opening, sums, columns: 2, excludeZeroes: true });
    const get = (name: string) => rows.find((r) => r.name === name) as ReportRow;
    expect(get('Operating Activities').children.map((r) => [r.name, r.amounts])).toEqual([
      ['Net Income', [300, 0]],
      ['receivable', [-500, 500]],
      ['card', [200, -200]],
    ]);
    expect(get('Operating Activities').amounts).toEqual([0, 300]);
    expect(get('Investing Activities').children.map((r) => [r.name, r.amounts])).toEqual([['laptop', [0, -800]]]);
    expect(get('Financing Activities').children.map((r) => [r.name, r.amounts])).toEqual([
      ['loan', [0, 300]],
      ['owner', [1000, 0]],
    ]);
    expect(get('Net Change in Cash').amounts).toEqual([1000, -200]);
    expect(get('Net Change in Cash').amounts).toEqual(cashChangeOf(accounts, sums, 2));
    expect(get('Cash at Beginning of Period')).toMatchObject({ amounts: [250, 1250], total: 250 });
    expect(get('Cash at End of Period')).toMatchObject({ amounts: [1250, 1050], total: 1050 });
  });

  it('cash is recognised by role, never by coaId: renumbering Cash and Cash Equivalents changes nothing', () => {
    const renumbered = accounts.map((a) => (a.id === 'cashEq' ? { ...a, coaId: 18888 } : a));
    expect([...cashAccounts(renumbered)].sort()).toEqual(['cashEq', 'checking']);
    expect(cashFlowStatement({ accounts: renumbered, opening, sums, columns: 2, excludeZeroes: true })).toEqual(
      cashFlowStatement({ accounts, opening, sums, columns: 2, excludeZeroes: true }),
    );
    // An account numbered 11100 without the role is not cash.
    const impostor = accounts.map((a) => (a.id === 'cashEq' ? { ...a, systemKey: '' } : a.id === 'receivable' ? { ...a, coaId: 11100 } : a));
    expect([...cashAccounts(impostor)].sort()).toEqual(['checking']);
  });

  it('own money: cash, every bank-linked account (cards too) and the Transfer class', () => {
    const withTransfer = [
      ...accounts.map((a) => (a.id === 'card' ? { ...a, bankAccountId: 'b9' } : a)),
      node('transfer', 'Transfer', 90000, null),
      node('xfer', 'Transfer', 91000, 'transfer'),
    ];
    expect([...ownMoneyAccounts(withTransfer)].sort()).toEqual(['card', 'cashEq', 'checking', 'transfer', 'xfer']);
  });
});

describe('cash series and runway', () => {
  const accounts: Account[] = [
    { id: 'assets', name: 'Assets', coaId: 10000, type: 'Assets', level: 1, group: '', tag: '', parentId: null },
    { id: 'cashEq', name: 'Cash and Cash Equivalents', coaId: 11100, type: 'Assets', level: 3, group: '', tag: '', parentId: 'assets', systemKey: 'cash' },
    { id: 'checking', name: 'Checking', coaId: 11101, type: 'Assets', level: 4, group: '', tag: '', parentId: 'cashEq' },
    { id: 'savings', name: 'Savings (moved)', coaId: 17300, type: 'Assets', level: 3, group: '', tag: '', parentId: 'assets', bankAccountId: 'b2' },
  ];
  it("the cash balance runs from the cash accounts' opening balance through their change in each column", () => {
    const s = cashSeries(
      accounts,
      new Map([
        ['checking', dc(1000, 0)],
        ['savings', dc(500, 100)],
      ]),
      { in: [100, 0, 50], out: [300, 200, 0] },
      [-200, -200, 50],
    );
    expect(s).toEqual({ opening: 1400, in: [100, 0, 50], out: [300, 200, 0], closing: [1200, 1000, 1050] });
  });
  it('runway = cash at the end over the average net burn, none when cash grew', () => {
    expect(runway({ opening: 1400, in: [100, 0, 50], out: [300, 200, 0], closing: [1200, 1000, 1050] })).toEqual({
      runwayInMonths: 8.97,
      avgExpenses: 117,
      assetBal: 1050,
    });
    expect(runway({ opening: 0, in: [500], out: [100], closing: [400] })).toEqual({ runwayInMonths: null, avgExpenses: -400, assetBal: 400 });
  });
});
