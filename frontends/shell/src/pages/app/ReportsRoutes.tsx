import { loadRemotePage } from '../../federation';
import { RemotePage } from '../../remotes/RemoteBoundary';
import type { AreaPageProps } from './AccountingRoutes';
import { areas } from './areas';

const loadReportsPage = (retry: boolean) => loadRemotePage<AreaPageProps>('reports', 'ReportsPage', retry);
const loadDashboardCharts = (retry: boolean) => loadRemotePage('reports', 'DashboardCharts', retry);

/** /reports: the reports remote's balance sheet, profit and loss and cash flow statement tabs. */
export function ReportsRoute() {
  return <RemotePage load={loadReportsPage} props={{ area: areas.reports }} fallbackTitle="Reports could not be loaded" loadingLabel="Loading reports" />;
}

/** The dashboard's charts (asset balance, burn, profit and loss, runway, spending, top merchants), from the reports remote. */
export function DashboardCharts() {
  return <RemotePage load={loadDashboardCharts} props={{}} fallbackTitle="The charts could not be loaded" loadingLabel="Loading the charts" />;
}
