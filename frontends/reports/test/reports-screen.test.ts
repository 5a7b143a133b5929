import { type CashFlowResponse, type ReportColumn, type ReportRow, type RunwayResponse } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { burnSeries, monthLabel, runwaySummary } from '../src/dashboard/rules';
import { drillDownTarget, ownPostingsRow, reportTableRows } from '../src/reports/rows';
import { breakdownFallbackNote, dayBefore, fallbackExportName, reportsSearch } from '../src/reports/screen';

let seq = 0;
function row(name: string, children: ReportRow[] = [], extra: Partial<ReportRow> = {}): ReportRow {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    name,
    coaId: 40000 + seq,
    type: 'Expenses',
    level: 2,
    group: '',
    tag: '',
    rowType: 'account',
    amounts: [1, 2],
    total: 3,
    children,
    ...extra,
  };
}
const computed = (name: string, rowType: 'summary' | 'computed' = 'computed'): ReportRow => ({
  ...row(name),
  id: null,
  coaId: null,
  type: null,
  level: 0,
  rowType,
});

const jan: ReportColumn = { label: 'Jan-26', startDate: '2026-01-01', endDate: '2026-01-31' };
const feb: ReportColumn = { label: 'Feb-26', startDate: '2026-02-01', endDate: '2026-02-28' };
const header = { startDate: '2026-01-01', endDate: '2026-02-28' };
const earliestDate = '2022-11-23';
const query = (href: string) => Object.fromEntries(new URL(href, 'http://x').searchParams);

describe('breakdown fallback notes (spec §5, as the server reports them)', () => {
  it('explains each fallback and says nothing when the breakdown was used', () => {
    expect(breakdownFallbackNote({ requestedPeriodicity: 'monthly', periodicity: 'monthly' })).toBeNull();
    expect(breakdownFallbackNote({ requestedPeriodicity: 'yearly', periodicity: 'monthly' })).toBe(
      'Yearly columns need a period of 11 months or more, so this period is shown by month.',
    );
    expect(breakdownFallbackNote({ requestedPeriodicity: 'quarterly', periodicity: 'monthly' })).toBe(
      'Quarterly columns need a period of 2 months or more, so this period is shown by month.',
    );
    expect(breakdownFallbackNote({ requestedPeriodicity: 'weekly', periodicity: 'totals_only' })).toBe('Periods shorter than a month show totals only.');
    expect(breakdownFallbackNote({ requestedPeriodicity: 'yearly', periodicity: 'totals_only' })).toBe('Periods shorter than a month show totals only.');
  });
});

describe('drill-down (spec §2)', () => {
  it("opens the ledger of a profit and loss account for the cell's column, or the whole period from the total", () => {
    const office = row('Office Supplies');
    const cell = drillDownTarget({ report: 'pnl', row: office, column: feb, header, earliestDate });
    expect(cell?.kind).toBe('ledger');
    expect(cell?.href.startsWith('/accounting?')).toBe(true);
    expect(query(cell!.href)).toEqual({ tab: 'ledger', ledgerAccount: office.id, startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(cell?.label).toBe('Open the ledger of Office Supplies for Feb-26');
    const total = drillDownTarget({ report: 'pnl', row: office, column: 'total', header, earliestDate });
    expect(query(total!.href)).toEqual({ tab: 'ledger', ledgerAccount: office.id, startDate: '2026-01-01', endDate: '2026-02-28' });
  });

  it('opens the ledger of a balance sheet account for the column (its closing balance is the cell)', () => {
    const bank = row('Checking ••1234', [], { type: 'Assets' });
    expect(query(drillDownTarget({ report: 'balancesheet', row: bank, column: jan, header, earliestDate })!.href)).toEqual({
      tab: 'ledger',
      ledgerAccount: bank.id,
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
  });

  it('opens the profit and loss from retained earnings (earlier periods) and net income (the period up to the column) on the balance sheet', () => {
    const retained = drillDownTarget({ report: 'balancesheet', row: computed('Retained Earnings (earlier periods)'), column: feb, header, earliestDate });
    expect(retained?.kind).toBe('pnl');
    expect(retained?.href).toBe(`/reports${reportsSearch({ tab: 'pnl', startDate: earliestDate, endDate: '2025-12-31' })}`);
    const retainedAccount = drillDownTarget({
      report: 'balancesheet',
      row: row('Retained Earnings', [], { type: 'Equity' }),
      column: jan,
      header,
      earliestDate,
    });
    expect(retainedAccount?.kind).toBe('pnl');
    const netIncome = drillDownTarget({ report: 'balancesheet', row: computed('Net Income'), column: feb, header, earliestDate });
    expect(netIncome?.href).toBe('/reports?tab=pnl&startDate=2026-01-01&endDate=2026-02-28');
    expect(query(drillDownTarget({ report: 'balancesheet', row: computed('Net Income'), column: jan, header, earliestDate })!.href).endDate).toBe('2026-01-31');
  });

  it('has no earlier periods to open when the report starts at the earliest date', () => {
    expect(
      drillDownTarget({
        report: 'balancesheet',
        row: computed('Retained Earnings (earlier periods)'),
        column: jan,
        header: { ...header, startDate: earliestDate },
        earliestDate,
      }),
    ).toBeNull();
  });

  it('opens the schedules from deferred revenue, prepaid expense and accumulated depreciation rows', () => {
    for (const name of ['Deferred Revenue', 'Prepaid Expenses', 'prepaid expense', 'Accumulated Depreciation']) {
      const account = row(name, [], { type: name.startsWith('Deferred') ? 'Liability' : 'Assets' });
      const target = drillDownTarget({ report: 'balancesheet', row: account, column: jan, header, earliestDate });
      expect(target?.kind).toBe('schedules');
      expect(target?.href.startsWith('/accounting?')).toBe(true);
      expect(query(target!.href)).toEqual({ tab: 'schedules', ledgerAccount: account.id, startDate: '2026-01-01', endDate: '2026-01-31' });
    }
    // Only on the balance sheet: the cash flow's change of a schedule account opens its ledger.
    expect(drillDownTarget({ report: 'cashflow', row: row('Accumulated Depreciation', [], { type: 'Assets' }), column: jan, header, earliestDate })?.kind).toBe(
      'ledger',
    );
  });

  it("on the cash flow statement, opens the P&L of the period from Net Income and the ledger from an account's change", () => {
    const netIncome = drillDownTarget({ report: 'cashflow', row: computed('Net Income'), column: feb, header, earliestDate });
    expect(netIncome?.href).toBe('/reports?tab=pnl&startDate=2026-02-01&endDate=2026-02-28');
    expect(drillDownTarget({ report: 'cashflow', row: computed('Net Income'), column: 'total', header, earliestDate })?.href).toBe(
      '/reports?tab=pnl&startDate=2026-01-01&endDate=2026-02-28',
    );
    const payable = row('Accounts Payable', [], { type: 'Liability' });
    expect(query(drillDownTarget({ report: 'cashflow', row: payable, column: jan, header, earliestDate })!.href)).toEqual({
      tab: 'ledger',
      ledgerAccount: payable.id,
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    const operating = { ...computed('Operating Activities'), rowType: 'section' as const, children: [computed('Net Income'), payable] };
    expect(drillDownTarget({ report: 'cashflow', row: operating, column: jan, header, earliestDate })).toBeNull();
    expect(drillDownTarget({ report: 'cashflow', row: computed('Cash at End of Period', 'summary'), column: jan, header, earliestDate })).toBeNull();
  });

  it('leads nowhere from a parent account (its amounts add up the accounts below, which lead to their lines)', () => {
    const parent = row('Operating Expenses', [row('Rent')]);
    expect(drillDownTarget({ report: 'pnl', row: parent, column: jan, header, earliestDate })).toBeNull();
    expect(drillDownTarget({ report: 'pnl', row: parent.children[0]!, column: jan, header, earliestDate })?.kind).toBe('ledger');
  });

  it('leads nowhere from totals, and a profit and loss Net Income stays a total', () => {
    expect(drillDownTarget({ report: 'pnl', row: computed('Net Income', 'summary'), column: jan, header, earliestDate })).toBeNull();
    expect(drillDownTarget({ report: 'balancesheet', row: computed('Total Assets', 'summary'), column: jan, header, earliestDate })).toBeNull();
  });
});

describe('report table rows', () => {
  it('shows every level indented by depth, and hides the rows under a collapsed account', () => {
    const rent = row('Rent');
    const utilities = row('Utilities');
    const office = row('Office', [rent, utilities], { amounts: [2, 4], total: 6 });
    const expenses = row('Expenses', [office], { rowType: 'section', level: 1, amounts: [2, 4], total: 6 });
    const net = computed('Net Income', 'summary');
    const all = reportTableRows([expenses, net], new Set());
    expect(all.map((r) => [r.row.name, r.depth, r.hasChildren])).toEqual([
      ['Expenses', 0, true],
      ['Office', 1, true],
      ['Rent', 2, false],
      ['Utilities', 2, false],
      ['Net Income', 0, false],
    ]);
    expect(all.some((r) => r.ownPostings)).toBe(false);
    const folded = reportTableRows([expenses, net], new Set([office.id!]));
    expect(folded.map((r) => r.row.name)).toEqual(['Expenses', 'Office', 'Net Income']);
    expect(folded[1]?.expanded).toBe(false);
  });
});

describe("a parent account's own postings", () => {
  it('are its amounts less the accounts below, to the cent, shown first under it and drilling to its own ledger', () => {
    const fuel = row('Fuel', [], { amounts: [10.1, 0.2], total: 10.3 });
    const parking = row('Parking', [], { amounts: [0.2, 0], total: 0.2 });
    const travel = row('Travel', [fuel, parking], { amounts: [10.4, 5.2], total: 15.6 });
    const own = ownPostingsRow(travel);
    expect(own).toMatchObject({ id: travel.id, name: 'Travel', amounts: [0.1, 5], total: 5.1, children: [] });
    const shown = reportTableRows([travel], new Set());
    expect(shown.map((r) => [r.row.name, r.depth, r.ownPostings])).toEqual([
      ['Travel', 0, false],
      ['Travel', 1, true],
      ['Fuel', 1, false],
      ['Parking', 1, false],
    ]);
    const target = drillDownTarget({ report: 'pnl', row: shown[1]!.row, column: feb, header, earliestDate });
    expect(query(target!.href)).toEqual({ tab: 'ledger', ledgerAccount: travel.id, startDate: '2026-02-01', endDate: '2026-02-28' });
  });

  it('are left out when the accounts below add up to the parent', () => {
    const travel = row('Travel', [row('Fuel', [], { amounts: [1, 2], total: 3 })], { amounts: [1, 2], total: 3 });
    expect(ownPostingsRow(travel)).toBeNull();
    expect(ownPostingsRow(row('Leaf'))).toBeNull();
  });
});

describe('dashboard series', () => {
  it('takes burn from the cash flow: money out, and the net outflow when more went out than came in', () => {
    const cashFlow = {
      labels: ['Sep-26', 'Oct-26', 'Nov-26'],
      data: [
        { name: 'Cash In', data: [500, 0, 100] },
        { name: 'Cash Out', data: [200, 300.1, 50] },
        { name: 'Net Cash Flow', data: [300, -300.1, 50] },
        { name: 'Closing Balance', data: [300, -0.1, 49.9] },
      ],
    } as unknown as CashFlowResponse;
    expect(burnSeries(cashFlow)).toEqual({ labels: ['Sep-26', 'Oct-26', 'Nov-26'], gross: [200, 300.1, 50], net: [0, 300.1, 0] });
  });

  it('says the runway in months with one decimal, or that cash did not go down, with the window it averaged', () => {
    const runway = { runwayInMonths: 8.456, avgExpenses: 1234.5, avgMonths: 3, assetBal: 10_439.2, month: '2026-10', seq: 1 } as RunwayResponse;
    expect(runwaySummary(runway)).toEqual({ headline: '8.5 months', detail: 'Average net burn over the 3 months to October 2026.' });
    expect(runwaySummary({ ...runway, runwayInMonths: 1.04, avgMonths: 1 }).headline).toBe('1.0 month');
    expect(runwaySummary({ ...runway, runwayInMonths: null, avgExpenses: -50 })).toEqual({
      headline: 'Not burning cash',
      detail: 'Cash did not go down over the 3 months to October 2026.',
    });
    // A small burn against a large balance: no 3100.5 months.
    expect(runwaySummary({ ...runway, runwayInMonths: 3100.5 }).headline).toBe('More than 8 years');
    expect(runwaySummary({ ...runway, runwayInMonths: 96 }).headline).toBe('96.0 months');
    expect(runwaySummary({ ...runway, runwayInMonths: 96.2 }).headline).toBe('More than 8 years');
    expect(runwaySummary({ ...runway, runwayInMonths: 0.4 }).headline).toBe('Less than a month');
    expect(monthLabel('2026-01')).toBe('January 2026');
    expect(monthLabel('soon')).toBe('soon');
  });
});

describe('exports and served paths', () => {
  it('names the file of the report and period when the server gives none', () => {
    expect(fallbackExportName('pnl', 'csv', header)).toBe('profit-and-loss_2026-01-01_2026-02-28.csv');
  });
});

describe('dates', () => {
  it('steps back a day across months, years and leap days', () => {
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
    expect(dayBefore('2024-03-01')).toBe('2024-02-29');
    expect(dayBefore('2026-01-01')).toBe('2025-12-31');
  });
});
