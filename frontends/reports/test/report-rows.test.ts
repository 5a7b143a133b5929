import type { ReportRow } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { drillHref, rowEmphasis, serverDrill } from '../src/reports/rows';

describe('report rows', () => {
  const row = (over: Partial<ReportRow>): ReportRow => ({
    id: null,
    name: 'Net Income',
    coaId: null,
    type: null,
    level: 1,
    group: '',
    tag: '',
    rowType: 'summary',
    amounts: [1, 2],
    total: 2,
    children: [],
    ...over,
  });
  it('emphasises section headers, subtotals and the bottom line', () => {
    expect(rowEmphasis(row({ rowType: 'section', name: 'Income' }))).toBe('section');
    expect(rowEmphasis(row({ name: 'Gross Profit' }))).toBe('subtotal');
    expect(rowEmphasis(row({ name: 'Net Income' }))).toBe('grand-total');
    expect(rowEmphasis(row({ rowType: 'account', name: 'Sales' }))).toBe('account');
  });

  it('takes the server drill link per column, the last for a balance sheet total', () => {
    const a = { report: 'pnl' as const, startDate: '2025-01-01', endDate: '2025-12-31' };
    const b = { report: 'pnl' as const, startDate: '2026-01-01', endDate: '2026-01-31' };
    const r = row({ drill: [a, b] });
    expect(serverDrill(r, 0, 2)).toEqual(a);
    expect(serverDrill(r, 'total', 2)).toEqual(b);
    expect(serverDrill(row({ drill: [null, a] }), 0, 2)).toBeNull();
    expect(serverDrill(row({}), 0, 2)).toBeNull();
    expect(drillHref(b)).toBe('/reports?tab=pnl&startDate=2026-01-01&endDate=2026-01-31');
  });
});
