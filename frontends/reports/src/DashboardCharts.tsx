/// <reference types="@rsbuild/core/types" />
import './reports.css';
import {
  REPORT_PATHS,
  assetBalanceSeries,
  burnSeries,
  describeError,
  isReportPathServed,
  reportQuery,
  reportsSearch,
  useBalanceSheet,
  useProfitLoss,
  type ApiError,
} from '@ledgerline/api';
import { Button, Card, DateRangePicker, EmptyState, Spinner, type DateRange } from '@ledgerline/ui';
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ChartProps } from './dashboard/Chart';
import { defaultReportPeriod, useStoredFilters } from './filters';
import { formatAmount } from './format';

const Chart = lazy(() => import('./dashboard/Chart'));

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
function ChartCard({ title, description, state, empty, children, actions }: { title: string; description: string; state: QueryState; empty: string | null; children: () => ReactNode; actions?: ReactNode }) {
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

/**
 * Exposed as `reports/DashboardCharts`, drawn by the shell's /dashboard: the asset balance graph and burn from the
 * balance sheet and profit and loss, the profit and loss bar chart, and runway, spending and top merchants once
 * their endpoints are served. Charts load lazily (apexcharts is a large chunk).
 */
export function DashboardCharts() {
  const [period, setPeriod] = useState<DateRange>(() => defaultReportPeriod());
  const [filters] = useStoredFilters('dashboard');
  const query = reportQuery({ ...period, ...filters });
  const pnl = useProfitLoss(query);
  const sheet = useBalanceSheet(query);
  const assets = sheet.data ? assetBalanceSeries(sheet.data) : null;
  const burn = pnl.data ? burnSeries(pnl.data) : null;
  const bars = pnl.data?.barChart ?? null;
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
      <div className="grid gap-6 lg:grid-cols-2">
        <ChartCard
          title="Asset balance"
          description="Total assets at each month's end (balance sheet)."
          state={sheet}
          empty={assets === null || allZero(assets.data) ? 'Assets appear once transactions or opening balances are booked.' : null}
          actions={reportLink('balancesheet', 'Balance sheet')}
        >
          {() =>
            assets && (
              <>
                <p className="mb-2 text-2xl font-semibold tabular-nums">{formatAmount(assets.data.at(-1) ?? 0)}</p>
                <LazyChart type="area" label="Total assets by month" labels={assets.labels} series={[{ name: 'Total assets', data: assets.data }]} colors={[NET]} />
              </>
            )
          }
        </ChartCard>
        <ChartCard
          title="Burn"
          description="Expenses each month (gross burn) and the loss after income (net burn)."
          state={pnl}
          empty={burn === null || (allZero(burn.gross) && allZero(burn.net)) ? 'Burn appears once expenses are booked.' : null}
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
          {() => bars && <LazyChart type="bar" label="Income, expenses and net income by month" labels={bars.labels} series={bars.series} colors={[INCOME, EXPENSES, NET]} />}
        </ChartCard>
        {isReportPathServed(REPORT_PATHS.runway) ? null : (
          <NotAvailable title="Runway" description="Months of cash left at the average burn appear here once the server provides the runway." />
        )}
        {isReportPathServed(REPORT_PATHS.spending) ? null : (
          <NotAvailable title="Spending" description="Spending by category appears here once the server provides it." />
        )}
        {isReportPathServed(REPORT_PATHS.topMerchant) ? null : (
          <NotAvailable title="Top merchants" description="The merchants you pay the most appear here once the server provides them." />
        )}
      </div>
    </div>
  );
}
