import { loadRemotePage } from '../../federation';
import { RemotePage } from '../../remotes/RemoteBoundary';
import { areas, type Area } from './areas';

/** What the accounting remote's pages are given: the area's title and spec tabs, built or still to come. */
export interface AreaPageProps {
  area: Area;
}

const loadAccountingPage = (retry: boolean) => loadRemotePage<AreaPageProps>('accounting', 'AccountingPage', retry);
const loadTransactionsPage = (retry: boolean) => loadRemotePage<AreaPageProps>('accounting', 'TransactionsPage', retry);
const loadRevenuePage = (retry: boolean) => loadRemotePage<AreaPageProps>('accounting', 'RevenuePage', retry);
const loadExpensesPage = (retry: boolean) => loadRemotePage<AreaPageProps>('accounting', 'ExpensesPage', retry);

export function AccountingRoute() {
  return (
    <RemotePage load={loadAccountingPage} props={{ area: areas.accounting }} fallbackTitle="Accounting could not be loaded" loadingLabel="Loading accounting" />
  );
}

export function TransactionsRoute() {
  return (
    <RemotePage
      load={loadTransactionsPage}
      props={{ area: areas.transactions }}
      fallbackTitle="Transactions could not be loaded"
      loadingLabel="Loading transactions"
    />
  );
}

/** /revenue: the accounting remote builds its customers and credit-memo tabs (beside the vendors and vendor credits they mirror); the other tabs say what they will hold. */
export function RevenueRoute() {
  return <RemotePage load={loadRevenuePage} props={{ area: areas.revenue }} fallbackTitle="Revenue could not be loaded" loadingLabel="Loading revenue" />;
}

/** /expenses: spendings and vendor credits, from the accounting remote (beside the vendors and the books they read). */
export function ExpensesRoute() {
  return <RemotePage load={loadExpensesPage} props={{ area: areas.expenses }} fallbackTitle="Expenses could not be loaded" loadingLabel="Loading expenses" />;
}
