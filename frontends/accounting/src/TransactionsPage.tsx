/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, type AreaPageProps } from './area';

/** Exposed as `accounting/TransactionsPage` (/transactions): review, finalized and all tabs. */
export function TransactionsPage({ area }: AreaPageProps) {
  return <AreaTabs area={area} built={{}} />;
}
