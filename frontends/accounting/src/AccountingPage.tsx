/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, type AreaPageProps } from '@ledgerline/ui';
import { ChartOfAccountsTab } from './accounting/ChartOfAccountsTab';
import { GeneralLedgerTab } from './accounting/GeneralLedgerTab';

const built = { coa: () => <ChartOfAccountsTab />, ledger: () => <GeneralLedgerTab /> };

/** Exposed as `accounting/AccountingPage` (/accounting): chart of accounts and general ledger tabs. */
export function AccountingPage({ area }: AreaPageProps) {
  return <AreaTabs remote="accounting" area={area} built={built} />;
}
