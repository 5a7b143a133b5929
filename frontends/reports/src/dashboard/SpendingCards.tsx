// The dashboard's spending and top-merchants cards (GET /financial-data/spending and /top-merchant): lists with a
// share bar each, so they need no chart chunk and read well to a screen reader.
import { describeError, spendingQuery, useSpending, useTopMerchants, type ApiError, type WidgetQueryOptions } from '@ledgerline/api';
import { Button, Card, EmptyState, Spinner } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { formatAmount } from '../format';

interface Filters {
  startDate: string;
  endDate: string;
  groups: string[];
  tags: string[];
}

function Loading() {
  return (
    <div className="flex h-40 items-center justify-center">
      <Spinner label="Loading" />
    </div>
  );
}

function State({
  title,
  state,
  empty,
  children,
}: {
  title: string;
  state: { isPending: boolean; isError: boolean; error: ApiError | null; refetch: () => unknown };
  empty: string | null;
  children: () => ReactNode;
}) {
  if (state.isPending) return <Loading />;
  if (state.isError) {
    return (
      <EmptyState
        title={`${title} could not be loaded`}
        description={describeError(state.error)?.message}
        action={
          <Button variant="secondary" onClick={() => void state.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (empty !== null) return <EmptyState title="Nothing to show yet" description={empty} />;
  return <>{children()}</>;
}

function ShareBar({ percentage, color }: { percentage: number; color: string }) {
  return (
    <div className="mt-1 h-1.5 w-full rounded bg-slate-100 dark:bg-slate-800" aria-hidden="true">
      <div className="h-1.5 rounded" style={{ width: `${Math.max(0, Math.min(100, percentage))}%`, backgroundColor: color }} />
    </div>
  );
}

const percent = (p: number) => `${p.toFixed(2)}%`;

/** Money out per expense category over the period, largest first; the rest as Others beyond 10 rows. */
export function SpendingCard({ filters, options }: { filters: Filters; options?: WidgetQueryOptions }) {
  const spending = useSpending(spendingQuery(filters), options);
  const data = spending.data;
  return (
    <Card title="Spending" description="Money out by expense category over the period.">
      <State title="Spending" state={spending} empty={!data || data.data.length === 0 ? 'Spending appears once expenses are booked in the period.' : null}>
        {() =>
          data && (
            <div>
              <p className="mb-3 text-2xl font-semibold tabular-nums">{formatAmount(data.totalAmount)}</p>
              <ul aria-label="Spending by category" className="space-y-3">
                {data.data.map((row) => (
                  <li key={row.id ?? 'others'}>
                    <div className="flex justify-between gap-4 text-sm">
                      <span className="truncate">{row.name}</span>
                      <span className="tabular-nums">
                        {formatAmount(row.amount)} <span className="text-slate-500 dark:text-slate-400">· {percent(row.percentage)}</span>
                      </span>
                    </div>
                    <ShareBar percentage={row.percentage} color="#f43f5e" />
                  </li>
                ))}
              </ul>
            </div>
          )
        }
      </State>
    </Card>
  );
}

/** The merchants most money went to over the period, with their share and transaction count. */
export function TopMerchantsCard({ filters, options }: { filters: Filters; options?: WidgetQueryOptions }) {
  const merchants = useTopMerchants(spendingQuery(filters), options);
  const data = merchants.data;
  return (
    <Card title="Top merchants" description="Where the money went over the period.">
      <State
        title="Top merchants"
        state={merchants}
        empty={!data || data.data.length === 0 ? 'Merchants appear once expenses with a merchant are booked in the period.' : null}
      >
        {() =>
          data && (
            // Columns keep a gap between them; on a narrow card the table scrolls inside its own box.
            <div className="-mx-1 overflow-x-auto px-1">
              <table
                className="w-full text-sm [&_td]:px-2 [&_td:first-child]:pl-0 [&_td:last-child]:pr-0 [&_th]:px-2 [&_th:first-child]:pl-0 [&_th:last-child]:pr-0"
                aria-label="Top merchants"
              >
                <thead>
                  <tr className="text-left text-slate-500 dark:text-slate-400">
                    <th scope="col" className="pb-2 font-medium">
                      Merchant
                    </th>
                    <th scope="col" className="pb-2 text-right font-medium whitespace-nowrap">
                      Spent
                    </th>
                    <th scope="col" className="pb-2 text-right font-medium whitespace-nowrap">
                      Share
                    </th>
                    <th scope="col" className="pb-2 text-right font-medium whitespace-nowrap">
                      <abbr title="Transactions" className="no-underline">
                        Txns
                      </abbr>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.data.map((row) => (
                    <tr key={row.id ?? 'none'} className="border-t border-slate-100 dark:border-slate-800">
                      <td className="py-1.5">
                        <span className="block max-w-[14rem] min-w-24 truncate" title={row.name}>
                          {row.name}
                        </span>
                      </td>
                      <td className="py-1.5 text-right whitespace-nowrap tabular-nums">{formatAmount(row.totalAmount)}</td>
                      <td className="py-1.5 text-right whitespace-nowrap tabular-nums">{percent(row.percentage)}</td>
                      <td className="py-1.5 text-right whitespace-nowrap tabular-nums">{row.transactionCount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </State>
    </Card>
  );
}
