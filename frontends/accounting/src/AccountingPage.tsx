/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, lazyPage, type AreaPageProps } from '@ledgerline/ui';

// Each tab's code loads when the tab opens (issue #13: split per screen), behind a skeleton.
const ChartOfAccountsTab = lazyPage(() => import('./accounting/ChartOfAccountsTab').then((m) => m.ChartOfAccountsTab), 'Loading the chart of accounts');
const GeneralLedgerTab = lazyPage(() => import('./accounting/GeneralLedgerTab').then((m) => m.GeneralLedgerTab), 'Loading the general ledger');

const built = { coa: () => <ChartOfAccountsTab />, ledger: () => <GeneralLedgerTab /> };

/** Exposed as `accounting/AccountingPage` (/accounting): chart of accounts and general ledger tabs. */
export function AccountingPage({ area }: AreaPageProps) {
  return <AreaTabs remote="accounting" area={area} built={built} />;
}
