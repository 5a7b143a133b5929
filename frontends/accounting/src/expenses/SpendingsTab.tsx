import { describeError, useSpending, useTopMerchants } from '@ledgerline/api';
import { Card, DateRangePicker, EmptyState, Spinner, cx, formatMoney, useSearchWriter } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { drillDownLink, spendingsPeriodOf, spendingsSearch } from './spendings';

interface Row {
  key: string;
  name: string;
  amount: number;
  percentage: number;
  count?: number;
  link: string | null;
}

/**
 * Expenses → Spendings (`?tab=spendings&startDate=&endDate=`): where the money went over the period, by expense
 * category (GET /financial-data/spending) and by merchant (GET /financial-data/top-merchant), each amount a link to
 * the transactions behind it.
 */
export function SpendingsTab() {
  const [params, writeSearch] = useSearchWriter();
  const period = spendingsPeriodOf(params);
  const query = { startDate: period.startDate, endDate: period.endDate };
  const spending = useSpending(query);
  const merchants = useTopMerchants(query);
  const total = spending.data?.totalAmount ?? merchants.data?.totalAmount;

  return (
    <section aria-label="Spendings" className="grid gap-4">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <DateRangePicker label="Period" value={period} onChange={(range) => writeSearch(() => spendingsSearch(range))} />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Spent in the period:{' '}
          <span className="text-lg font-semibold text-slate-900 tabular-nums dark:text-white">{total === undefined ? '…' : formatMoney(total)}</span>
        </p>
      </div>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <SpendingCard
          title="By category"
          label="Spending by category"
          description="Expense categories, largest first; the rest beyond nine are Others."
          query={spending}
          rows={(spending.data?.data ?? []).map((r) => ({
            key: r.id ?? 'others',
            name: r.name,
            amount: r.amount,
            percentage: r.percentage,
            link: drillDownLink('category', r.id, period),
          }))}
          nameHead="Category"
        />
        <SpendingCard
          title="By merchant"
          label="Spending by merchant"
          description="The ten merchants most money went to."
          query={merchants}
          rows={(merchants.data?.data ?? []).map((r) => ({
            key: r.id ?? 'none',
            name: r.name,
            amount: r.totalAmount,
            percentage: r.percentage,
            count: r.transactionCount,
            link: drillDownLink('merchant', r.id, period),
          }))}
          nameHead="Merchant"
          countHead="Transactions"
        />
      </div>
    </section>
  );
}

function SpendingCard({
  title,
  label,
  description,
  query,
  rows,
  nameHead,
  countHead,
}: {
  title: string;
  label: string;
  description: string;
  query: { isPending: boolean; isError: boolean; error: unknown; isFetching: boolean };
  rows: Row[];
  nameHead: string;
  countHead?: string;
}) {
  let body: ReactNode;
  if (query.isPending) body = <Spinner label={`Loading ${title.toLowerCase()}`} />;
  else if (query.isError) body = <EmptyState title={`${title} could not be loaded`} description={describeError(query.error)?.message} />;
  else if (rows.length === 0) body = <EmptyState title="Nothing spent" description="No expense was booked in this period." />;
  else
    body = (
      <table aria-label={label} className={cx('w-full table-fixed text-sm', query.isFetching && 'opacity-60')}>
        <thead className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th scope="col" className="py-2 pr-2 text-left">
              {nameHead}
            </th>
            {countHead && (
              <th scope="col" className="w-28 py-2 pr-2 text-right max-sm:hidden">
                {countHead}
              </th>
            )}
            <th scope="col" className="w-28 py-2 pr-2 text-right">
              Amount
            </th>
            <th scope="col" className="w-16 py-2 text-right">
              Share
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((r) => (
            <tr key={r.key} className="h-9">
              <td className="truncate py-1.5 pr-2">
                <span className="block truncate">{r.name}</span>
                <span aria-hidden className="mt-1 block h-1 rounded-full bg-brand-500/70" style={{ width: `${Math.max(1, Math.min(100, r.percentage))}%` }} />
              </td>
              {countHead && <td className="py-1.5 pr-2 text-right tabular-nums max-sm:hidden">{r.count ?? ''}</td>}
              <td className="py-1.5 pr-2 text-right tabular-nums">
                {r.link === null ? (
                  formatMoney(r.amount)
                ) : (
                  <Link
                    to={r.link}
                    className="font-medium text-brand-700 hover:underline dark:text-brand-300"
                    aria-label={`${formatMoney(r.amount)} spent on ${r.name}: show the transactions`}
                  >
                    {formatMoney(r.amount)}
                  </Link>
                )}
              </td>
              <td className="py-1.5 text-right text-slate-500 tabular-nums dark:text-slate-400">{r.percentage.toFixed(0)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  return (
    <Card title={title} description={description} className="min-w-0 max-sm:p-4">
      {body}
    </Card>
  );
}
