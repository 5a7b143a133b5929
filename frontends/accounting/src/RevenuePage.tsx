/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, type AreaPageProps } from '@ledgerline/ui';
import { CreditsTab } from './credits/CreditsTab';
import { CustomersTab } from './parties/CustomersTab';

/**
 * Exposed as `accounting/RevenuePage` (/revenue): the customers tab (`?customer=`) beside the vendors it mirrors, and
 * the credit memos (`?creditMemo=`) with the vendor credits' editor; the payment-processor tabs say what they will
 * hold until the revenue issue builds them.
 */
export function RevenuePage({ area }: AreaPageProps) {
  return (
    <AreaTabs
      remote="accounting"
      area={area}
      built={{ customers: () => <CustomersTab />, 'credit-memo': () => <CreditsTab key="customer" kind="customer" /> }}
    />
  );
}
