/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, type AreaPageProps } from '@ledgerline/ui';
import { CreditsTab } from './credits/CreditsTab';
import { SpendingsTab } from './expenses/SpendingsTab';

/** Exposed as `accounting/ExpensesPage` (/expenses): spendings (by category and merchant, `startDate`/`endDate`) and vendor credits (`?vendorCredit=`). */
export function ExpensesPage({ area }: AreaPageProps) {
  return (
    <AreaTabs remote="accounting" area={area} built={{ spendings: () => <SpendingsTab />, 'vendor-credit': () => <CreditsTab key="vendor" kind="vendor" /> }} />
  );
}
