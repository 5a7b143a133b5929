/// <reference types="@rsbuild/core/types" />
import './reports.css';
import {
  DASHBOARD_FRESH_MS,
  REPORT_PATHS,
  dashboardQueries,
  dashboardTieOut,
  describeError,
  isReportPathServed,
  useAccountsTieOut,
  useAssetBalanceGraph,
  useCashFlow,
  useDashboard,
  useProfitLoss,
  useRunway,
  type ApiError,
  type WidgetQueryOptions,
} from '@ledgerline/api';
import { burnSeries, runwaySummary } from './dashboard/rules';
import { reportsSearch } from './reports/screen';
import { Button, Card, DateRangePicker, EmptyState, Spinner, todayIso, type DateRange } from '@ledgerline/ui';
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ChartProps } from './dashboard/Chart';
import { SpendingCard, TopMerchantsCard } from './dashboard/SpendingCards';
import { defaultReportPeriod, useStoredFilters } from './filters';
import { formatAmount } from './format';

const loadChart = () => import('./dashboard/Chart');
// The charts' code (its own chunk, only the dashboard needs it) is fetched as soon as this module runs, which the shell
// starts with the page: it arrives while the widgets' data is on its way, not after the charts have mounted (a
// navigation commits, and runs effects, only once the whole page is ready).
void loadChart().catch(() => undefined);
const Chart = lazy(loadChart);

const INCOME = '#10b981';
const EXPENSES = '#f43f5e';
const NET = '#6366f1';

function ChartLoading() {
  return (
    <div className="flex h-64 items-center justify-center">
      <Spinner label="Loading the chart" />
    </div>
  );
}

function LazyChart(props: ChartProps) {
  return (
    <Suspense fallback={<ChartLoading />}>
      <Chart {...props} />
    </Suspense>
  );
}

interface QueryState {
  isPending: boolean;
  isError: boolean;
  error: ApiError | null;
  refetch: () => unknown;
}

/** A chart card's loading, error and empty states around its chart. */
function ChartCard({
  title,
  description,
  state,
  empty,
  children,
  actions,
}: {
  title: string;
  description: string;
  state: QueryState;
  empty: string | null;
  children: () => ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card title={title} description={description} actions={actions}>
      {state.isPending ? (
        <ChartLoading />
      ) : state.isError ? (
        <EmptyState
          title={`${title} could not be loaded`}
          description={describeError(state.error)?.message}
          action={
            <Button variant="secondary" onClick={() => void state.refetch()}>
              Try again
            </Button>
          }
        />
      ) : empty !== null ? (
        <EmptyState title="Nothing to chart yet" description={empty} />
      ) : (
        children()
      )}
    </Card>
  );
}

/** A widget whose endpoint the server does not provide yet: said plainly, no made-up figures. */
function NotAvailable({ title, description }: { title: string; description: string }) {
  return (
    <Card title={title}>
      <EmptyState title={`${title} is not available yet`} description={description} />
    </Card>
  );
}

const allZero = (values: readonly number[]) => values.every((v) => v === 0);

/** Spec §3 runway: months of cash left at the average net burn of the last complete months. */
function RunwayCard({ options }: { options: WidgetQueryOptions }) {
  const runway = useRunway(options);
  const summary = runway.data ? runwaySummary(runway.data) : null;
  return (
    <ChartCard title="Runway" description="Months of cash left at the average net burn of the last complete months." state={runway} empty={null}>
      {() =>
        summary &&
        runway.data && (
          <dl className="space-y-4">
            <div>
              <dt className="sr-only">Runway</dt>
              <dd className="text-3xl font-semibold tabular-nums">{summary.headline}</dd>
              <dd className="text-sm text-slate-600 dark:text-slate-400">{summary.detail}</dd>
            </div>
            {/* Side by side from 30em; on a phone each label has the card's width, so none is cut. */}
            <div className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2 sm:gap-4">
              <div>
                <dt className="text-slate-500 dark:text-slate-400">Cash at the month's end</dt>
                <dd className="font-medium tabular-nums">{formatAmount(runway.data.assetBal)}</dd>
              </div>
              <div>
                <dt className="text-slate-500 dark:text-slate-400">Average net burn a month</dt>
                <dd className="font-medium tabular-nums">{formatAmount(Math.max(0, runway.data.avgExpenses))}</dd>
              </div>
            </div>
          </dl>
        )
      }
    </ChartCard>
  );
}

/**
 * Exposed as `reports/DashboardCharts`, drawn by the shell's /dashboard: the cash balance graph, burn and runway from
 * the cash accounts, the profit and loss bar chart, and spending and top merchants once their endpoints are served.
 * Charts load lazily (apexcharts is a large chunk).
 */
export function DashboardCharts() {
  const [period, setPeriod] = useState<DateRange>(() => defaultReportPeriod());
  const [filters] = useStoredFilters('dashboard');
  const { query, spending } = dashboardQueries(period, filters);
  const spendingFilters = { ...period, groups: filters.groups, tags: filters.tags };
  // The widgets come in one request (GET /dashboard, which the shell asked for as the page mounted, with the same
  // queries); each widget's own query then holds its answer, and only one the batch could not answer asks on its own.
  const batch = useDashboard(query, spending);
  const widgets: WidgetQueryOptions = { enabled: !batch.isPending, staleTime: DASHBOARD_FRESH_MS };
  const pnl = useProfitLoss(query, widgets);
  const cashFlow = useCashFlow(query, widgets);
  const cash = useAssetBalanceGraph(query, widgets);
  const burn = cashFlow.data ? burnSeries(cashFlow.data) : null;
  const balances = cash.data?.graph ?? null;
  const bars = pnl.data?.barChart ?? null;
  // One source of truth with the Bank accounts card: for a period that reaches today the headline is the same
  // cleared books total of the bank accounts ("Cash in bank"); for an earlier period, the books at its end.
  const tieOut = useAccountsTieOut();
  const reachesToday = period.endDate >= todayIso();
  const cashToday = tieOut.data && tieOut.data.accounts.length > 0 ? dashboardTieOut(tieOut.data).cash.books : null;
  const reportLink = (tab: 'pnl' | 'balancesheet', text: string) => (
    <Link to={`/reports${reportsSearch({ tab, ...period })}`} className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300">
      {text}
    </Link>
  );

  return (
    <div data-remote="reports">
      <div className="mt-8 mb-4 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Financial overview</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">From the books, by month.</p>
        </div>
        <DateRangePicker label="Period" value={period} onChange={setPeriod} />
      </div>
      {/* Tracks of minmax(0, 1fr) and cards that may shrink: a chart drawn at a wider window never widens the page. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <ChartCard
          title="Cash balance"
          description="Cash in the bank accounts at each month's end."
          state={cash}
          empty={balances === null || allZero(balances.data) ? 'The cash balance appears once bank transactions or opening balances are booked.' : null}
          actions={reportLink('balancesheet', 'Balance sheet')}
        >
          {() =>
            balances &&
            cash.data && (
              <>
                <p className="text-2xl font-semibold tabular-nums">
                  {formatAmount(reachesToday && cashToday !== null ? cashToday : cash.data.totalAssetBalance)}
                </p>
                <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
                  {reachesToday && cashToday !== null ? 'Cash in bank today, as in Bank accounts above' : `In the books at the end of ${period.endDate}`}
                </p>
                <LazyChart
                  type="area"
                  label="Cash balance by month"
                  labels={balances.labels}
                  series={[{ name: 'Cash balance', data: balances.data }]}
                  colors={[NET]}
                />
              </>
            )
          }
        </ChartCard>
        <ChartCard
          title="Burn"
          description="Money out of the bank each month (gross burn) and what went out beyond what came in (net burn)."
          state={cashFlow}
          empty={burn === null || (allZero(burn.gross) && allZero(burn.net)) ? 'Burn appears once money goes out of the bank accounts.' : null}
        >
          {() =>
            burn && (
              <LazyChart
                type="line"
                label="Gross and net burn by month"
                labels={burn.labels}
                series={[
                  { name: 'Gross burn', data: burn.gross },
                  { name: 'Net burn', data: burn.net },
                ]}
                colors={[EXPENSES, NET]}
              />
            )
          }
        </ChartCard>
        <ChartCard
          title="Profit & Loss"
          description="Income, expenses and net income by month."
          state={pnl}
          empty={bars === null || bars.series.every((s) => allZero(s.data)) ? 'Income and expenses appear once transactions are booked.' : null}
          actions={reportLink('pnl', 'Profit & Loss')}
        >
          {() =>
            bars && (
              <LazyChart
                type="bar"
                label="Income, expenses and net income by month"
                labels={bars.labels}
                series={bars.series}
                colors={[INCOME, EXPENSES, NET]}
              />
            )
          }
        </ChartCard>
        {isReportPathServed(REPORT_PATHS.runway) ? (
          <RunwayCard options={widgets} />
        ) : (
          <NotAvailable title="Runway" description="Months of cash left at the average burn appear here once the server provides the runway." />
        )}
        {isReportPathServed(REPORT_PATHS.spending) ? (
          <SpendingCard filters={spendingFilters} options={widgets} />
        ) : (
          <NotAvailable title="Spending" description="Spending by category appears here once the server provides it." />
        )}
        {isReportPathServed(REPORT_PATHS.topMerchant) ? (
          <TopMerchantsCard filters={spendingFilters} options={widgets} />
        ) : (
          <NotAvailable title="Top merchants" description="The merchants you pay the most appear here once the server provides them." />
        )}
      </div>
    </div>
  );
}
