/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, type AreaPageProps } from '@ledgerline/ui';
import { useSearchParams } from 'react-router';
import { TransactionDrawer } from './transactions/TransactionDrawer';
import { TransactionsTab } from './transactions/TransactionsTab';

/** Exposed as `accounting/TransactionsPage` (/transactions): review, finalized and all tabs, and the drawer at `?txn=`. */
export function TransactionsPage({ area }: AreaPageProps) {
  const [params, setParams] = useSearchParams();
  const txn = params.get('txn');
  return (
    <>
      <AreaTabs
        remote="accounting"
        area={area}
        built={{
          // Keyed by tab: each tab keeps its own filters, selection and pages.
          review: () => <TransactionsTab key="review" tab="review" />,
          finalized: () => <TransactionsTab key="finalized" tab="finalized" />,
          all: () => <TransactionsTab key="all" tab="all" />,
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
