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

export function AccountingRoute() {
  return <RemotePage load={loadAccountingPage} props={{ area: areas.accounting }} fallbackTitle="Accounting could not be loaded" loadingLabel="Loading accounting" />;
}

export function TransactionsRoute() {
  return <RemotePage load={loadTransactionsPage} props={{ area: areas.transactions }} fallbackTitle="Transactions could not be loaded" loadingLabel="Loading transactions" />;
}

/** /revenue: the accounting remote builds its customers tab (beside the vendors it mirrors); the other tabs say what they will hold. */
export function RevenueRoute() {
  return <RemotePage load={loadRevenuePage} props={{ area: areas.revenue }} fallbackTitle="Revenue could not be loaded" loadingLabel="Loading revenue" />;
}
