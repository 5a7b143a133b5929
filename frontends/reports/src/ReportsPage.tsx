/// <reference types="@rsbuild/core/types" />
import './reports.css';
import { AreaTabs, type AreaPageProps } from '@ledgerline/ui';
import { BalanceSheetTab, CashflowStatementTab, ProfitLossTab } from './reports/ReportTabs';

const built = { balancesheet: () => <BalanceSheetTab />, pnl: () => <ProfitLossTab />, cashflow: () => <CashflowStatementTab /> };

/** Exposed as `reports/ReportsPage` (/reports): balance sheet, profit and loss and cash flow statement tabs; the period stays across tabs. */
export function ReportsPage({ area }: AreaPageProps) {
  return <AreaTabs remote="reports" area={area} built={built} keep={['startDate', 'endDate']} />;
}
