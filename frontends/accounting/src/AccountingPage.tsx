/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, type AreaPageProps } from './area';

/** Exposed as `accounting/AccountingPage` (/accounting): chart of accounts and general ledger tabs. */
export function AccountingPage({ area }: AreaPageProps) {
  return <AreaTabs area={area} built={{}} />;
}
