import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOWN_REPORT_PATHS, REPORT_FILTER_DEFAULTS, SERVED_REPORT_PATHS, reportExportPath, reportQuery } from '@ledgerline/api';

describe('report query (spec §3 filter set)', () => {
  it('asks for the breakdown as a periodicity, zero amounts hidden by default, and leaves empty lists out', () => {
    expect(REPORT_FILTER_DEFAULTS).toMatchObject({ dateBreakdown: 'Monthly', isZeroAmountHidden: true });
    expect(reportQuery({ startDate: '2026-01-01', endDate: '2026-03-31', ...REPORT_FILTER_DEFAULTS, groups: [], tags: [] })).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-03-31',
      periodicity: 'monthly',
      excludeZeroes: 'true',
    });
  });

  it('joins groups and tags with commas and sends the other breakdowns and shown zeroes', () => {
    const q = reportQuery({
      startDate: '2024-01-01',
      endDate: '2026-12-31',
      dateBreakdown: 'Totals only',
      isZeroAmountHidden: false,
      groups: ['Payroll', 'Rent'],
      tags: ['ops'],
    });
    expect(q).toEqual({
      startDate: '2024-01-01',
      endDate: '2026-12-31',
      periodicity: 'totals_only',
      excludeZeroes: 'false',
      groups: 'Payroll,Rent',
      tags: 'ops',
    });
    expect(reportQuery({ ...q, dateBreakdown: 'Quarterly', isZeroAmountHidden: true, groups: [], tags: [] } as never).periodicity).toBe('quarterly');
  });

  it('sends the money type, leaving out ALL (the server default)', () => {
    const base = { startDate: '2026-01-01', endDate: '2026-03-31', ...REPORT_FILTER_DEFAULTS, groups: [], tags: [] };
    expect(reportQuery({ ...base, moneyType: 'non-bank' }).moneyType).toBe('non-bank');
    expect(reportQuery({ ...base, moneyType: 'unadjusted' }).moneyType).toBe('unadjusted');
    expect(reportQuery({ ...base, moneyType: 'ALL' })).not.toHaveProperty('moneyType');
    expect(reportQuery(base)).not.toHaveProperty('moneyType');
  });

  it('sends the workspaces to consolidate, in one order whatever the choice order; none for this workspace alone', () => {
    const base = { startDate: '2026-01-01', endDate: '2026-03-31', ...REPORT_FILTER_DEFAULTS, groups: [], tags: [] };
    expect(reportQuery({ ...base, workspaces: ['w-b', 'w-a'] }).workspaces).toBe('w-a,w-b');
    expect(reportQuery({ ...base, workspaces: [] })).not.toHaveProperty('workspaces');
    expect(reportQuery(base)).not.toHaveProperty('workspaces');
  });
});

describe('served paths', () => {
  it('downloads from the spec §7 paths', () => {
    expect(reportExportPath('pnl', 'xlsx')).toBe('/income-expense/xlsx');
    expect(reportExportPath('balancesheet', 'pdf')).toBe('/balance-sheet/pdf');
    expect(reportExportPath('cashflow', 'csv')).toBe('/cash-flow-statement/csv');
  });

  it('turns on exactly the report paths the gateway serves (frontends/api/openapi.json)', () => {
    const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, unknown> };
    const inOpenApi = KNOWN_REPORT_PATHS.filter((p) => p in doc.paths).sort();
    expect([...SERVED_REPORT_PATHS].sort()).toEqual(inOpenApi);
  });
});
