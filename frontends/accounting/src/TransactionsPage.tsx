/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, lazyPage, type AreaPageProps } from '@ledgerline/ui';
import { useSearchParams } from 'react-router';
import { RulesTab } from './parties/RulesTab';
import { VendorsTab } from './parties/VendorsTab';
import { TransactionsTab } from './transactions/TransactionsTab';

// The drawer (details, split, accrual, receipts, comments) is its own chunk (issue #13: split per screen): the list
// draws without waiting for it. Closed, it shows nothing, so nothing shows while it loads either.
const TransactionDrawer = lazyPage(() => import('./transactions/TransactionDrawer').then((m) => m.TransactionDrawer), 'Loading the transaction', {
  fallback: null,
});

/** Exposed as `accounting/TransactionsPage` (/transactions): review, finalized and all tabs, the rules (`?rule=`) and vendors (`?vendor=`) tabs, and the drawer at `?txn=`. */
export function TransactionsPage({ area }: AreaPageProps) {
  const [params, setParams] = useSearchParams();
  const txn = params.get('txn');
  return (
    <>
      <AreaTabs
        remote="accounting"
        area={area}
        built={{
          // Keyed by tab: each tab has its own selection and pages; its filters are in the URL, which a tab change clears.
          review: () => <TransactionsTab key="review" tab="review" />,
          finalized: () => <TransactionsTab key="finalized" tab="finalized" />,
          all: () => <TransactionsTab key="all" tab="all" />,
          rules: () => <RulesTab />,
          vendors: () => <VendorsTab />,
        }}
      />
      <TransactionDrawer
        id={txn}
        onClose={() =>
          setParams((p) => {
            const next = new URLSearchParams(p);
            next.delete('txn');
            return next;
          })
        }
      />
    </>
  );
}
