/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { ChartOfAccountsTab } from './accounting/ChartOfAccountsTab';
import { GeneralLedgerTab } from './accounting/GeneralLedgerTab';
import { AreaTabs, type AreaPageProps } from './area';

const built = { coa: () => <ChartOfAccountsTab />, ledger: () => <GeneralLedgerTab /> };

/** Exposed as `accounting/AccountingPage` (/accounting): chart of accounts and general ledger tabs. */
export function AccountingPage({ area }: AreaPageProps) {
  return <AreaTabs area={area} built={built} />;
}
