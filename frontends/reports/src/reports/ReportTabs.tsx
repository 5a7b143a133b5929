import {
  REPORT_PATHS,
  describeError,
  isReportPathServed,
  periodFromSearch,
  reportQuery,
  useBalanceSheet,
  useCashFlowStatement,
  useProfitLoss,
  type ApiError,
  type ReportHeader,
  type ReportQuery,
  type ReportRow,
  type ReportTab,
} from '@ledgerline/api';
import { breakdownFallbackNote, reportsSearch } from './screen';
import { Button, Card, EmptyState, Spinner, cx, dateBounds, formatShortDate, todayIso, type DateRange } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  BALANCE_SHEET_CLASSES,
  PNL_CLASSES,
  defaultReportPeriod,
  useReportFilters,
  type AccountClass,
  type FilterChangeOptions,
  type StoredFilters,
} from '../filters';
import { ExportButtons } from './ExportButtons';
import { ReportFilters } from './ReportFilters';
import { ReportTable } from './ReportTable';

/** The report's period from the URL (spec §2: startDate, endDate), else the year so far; changing it rewrites the URL, filters kept. */
function useReportPeriod(tab: ReportTab): [DateRange, (period: DateRange) => void] {
  const [params, setParams] = useSearchParams();
  const period = periodFromSearch(params, defaultReportPeriod());
  return [
    period,
    (next) =>
      setParams((current) => {
        const search = new URLSearchParams(current);
        for (const [name, value] of new URLSearchParams(reportsSearch({ tab, ...next }))) search.set(name, value);
        return search;
      }),
  ];
}

/** Nothing booked in the period: every amount zero. */
const isEmptyReport = (rows: readonly ReportRow[]) => rows.every((r) => r.total === 0 && r.amounts.every((a) => a === 0));

interface ReportQueryState<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  error: ApiError | null;
  refetch: () => unknown;
}

interface ReportCardProps<T> {
  tab: ReportTab;
  title: string;
  description: string;
  period: DateRange;
  onPeriodChange: (period: DateRange) => void;
  filters: StoredFilters;
  onFiltersChange: (change: Partial<StoredFilters>, options?: FilterChangeOptions) => void;
  /** The classes of the statement's accounts, whose groups and tags it offers; null: no groups and tags filters (a statement they do not apply to). */
  accountClasses: readonly AccountClass[] | null;
  query: ReportQuery;
  state: ReportQueryState<T>;
  headerOf: (data: T) => ReportHeader;
  rowsOf: (data: T) => readonly ReportRow[];
  empty: { title: string; description: string };
  render: (data: T) => ReactNode;
}

/** A report's card: filters and exports above; loading, error, empty or the table below. */
function ReportCard<T>({
  tab,
  title,
  description,
  period,
  onPeriodChange,
  filters,
  onFiltersChange,
  accountClasses,
  query,
  state,
  headerOf,
  rowsOf,
  empty,
  render,
}: ReportCardProps<T>) {
  const data = state.data;
  const note = data === undefined ? null : breakdownFallbackNote(headerOf(data));
  return (
    <Card
      title={title}
      description={
        <>
          {description} {formatShortDate(period.startDate)} – {formatShortDate(period.endDate)}.
        </>
      }
      actions={<ExportButtons tab={tab} query={query} period={period} />}
    >
      <div className="mb-6">
        <ReportFilters period={period} onPeriodChange={onPeriodChange} filters={filters} onFiltersChange={onFiltersChange} accountClasses={accountClasses} />
      </div>
      {note !== null && (
        <p role="status" className="mb-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-100">
          {note}
        </p>
      )}
      {/* What the report leaves out (spec §9: amounts in another currency are never summed as USD). */}
      {data !== undefined &&
        (headerOf(data).notices ?? []).map((notice) => (
          <p key={notice} role="note" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            {notice}
          </p>
        ))}
      {state.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label={`Loading the ${title.toLowerCase()}`} />
        </div>
      )}
      {state.isError && (
        <EmptyState
          title={`The ${title.toLowerCase()} could not be loaded`}
          description={describeError(state.error)?.message}
          action={
            <Button variant="secondary" onClick={() => void state.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {data !== undefined && !state.isError && (
        <div className={cx('transition-opacity', state.isFetching && state.isPlaceholderData && 'opacity-60')} aria-busy={state.isFetching}>
          {isEmptyReport(rowsOf(data)) ? <EmptyState title={empty.title} description={empty.description} /> : render(data)}
        </div>
      )}
    </Card>
  );
}

/** /reports?tab=pnl: income and expenses by account per period, Net Income; each cell opens its ledger lines. */
export function ProfitLossTab() {
  const [period, setPeriod] = useReportPeriod('pnl');
  const [filters, setFilters] = useReportFilters('profitLoss');
  const query = reportQuery({ ...period, ...filters });
  const pnl = useProfitLoss(query);
  return (
    <ReportCard
      tab="pnl"
      title="Profit & Loss"
      description="Income and expenses by account, per period, for"
      period={period}
      onPeriodChange={setPeriod}
      filters={filters}
      onFiltersChange={setFilters}
      accountClasses={PNL_CLASSES}
      query={query}
      state={pnl}
      headerOf={(d) => d.header}
      rowsOf={(d) => d.report.data}
      empty={{ title: 'No income or expenses in this period', description: 'Amounts appear here once transactions in the period are booked.' }}
      render={(d) => (
        <ReportTable
          report="pnl"
          title="Profit and loss"
          header={d.header}
          columns={d.report.columns}
          rows={d.report.data}
          showTotal
          earliestDate={dateBounds(todayIso()).min}
        />
      )}
    />
  );
}

/** /reports?tab=balancesheet: balances as of each column's end; Assets = Liabilities + Equity. */
export function BalanceSheetTab() {
  const [period, setPeriod] = useReportPeriod('balancesheet');
  const [filters, setFilters] = useReportFilters('balanceSheet');
  const query = reportQuery({ ...period, ...filters });
  const sheet = useBalanceSheet(query);
  return (
    <ReportCard
      tab="balancesheet"
      title="Balance Sheet"
      description="Assets, liabilities and equity at the end of each period, for"
      period={period}
      onPeriodChange={setPeriod}
      filters={filters}
      onFiltersChange={setFilters}
      accountClasses={BALANCE_SHEET_CLASSES}
      query={query}
      state={sheet}
      headerOf={(d) => d.header}
      rowsOf={(d) => d.data}
      empty={{ title: 'Nothing on the balance sheet yet', description: 'Balances appear here once transactions or opening balances are booked.' }}
      render={(d) => (
        <ReportTable
          report="balancesheet"
          title="Balance sheet"
          header={d.header}
          columns={d.columns}
          rows={d.data}
          showTotal={false}
          earliestDate={dateBounds(todayIso()).min}
        />
      )}
    />
  );
}

/** /reports?tab=cashflow: the indirect method per period; Net Income opens the P&L and each account's change its ledger. */
export function CashflowStatementTab() {
  if (!isReportPathServed(REPORT_PATHS.cashFlowStatement)) {
    return (
      <Card title="Cashflow Statement">
        <EmptyState
          title="The cash flow statement is not available yet"
          description="Cash from operating, investing and financing activities, reconciled to the change in cash, appears here once the server provides it."
        />
      </Card>
    );
  }
  return <ServedCashflowStatement />;
}

function ServedCashflowStatement() {
  const [period, setPeriod] = useReportPeriod('cashflow');
  const [filters, setFilters] = useReportFilters('cashflowStatement');
  // Groups and tags do not apply to the cash flow statement (the server says so): they are not sent.
  const query = reportQuery({ ...period, ...filters, groups: [], tags: [] });
  const statement = useCashFlowStatement(query);
  return (
    <ReportCard
      tab="cashflow"
      title="Cashflow Statement"
      description="Cash from operating, investing and financing activities, reconciled to the change in cash, for"
      period={period}
      onPeriodChange={setPeriod}
      filters={filters}
      onFiltersChange={setFilters}
      accountClasses={null}
      query={query}
      state={statement}
      headerOf={(d) => d.header}
      rowsOf={(d) => d.data}
      empty={{ title: 'No cash moved in this period', description: 'Cash flows appear here once bank transactions in the period are booked.' }}
      render={(d) => (
        <ReportTable
          report="cashflow"
          title="Cash flow statement"
          header={d.header}
          columns={d.columns}
          rows={d.data}
          showTotal
          earliestDate={dateBounds(todayIso()).min}
        />
      )}
    />
  );
}
