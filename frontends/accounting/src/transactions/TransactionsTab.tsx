import {
  DEFAULT_TRANSACTION_FILTERS,
  activeFilterCount,
  describeError,
  flowOf,
  transactionRestriction,
  useBulkUpdateTransactions,
  useCategoriseTransaction,
  useFinalizeTransactions,
  useTransactionList,
  type Transaction,
  type TransactionFilters,
  type TransactionTab,
} from '@ledgerline/api';
import { Button, EmptyState, Spinner, cx, formatMoney, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useEditAccess } from './access';
import { CategoryPicker } from './CategoryPicker';
import { FiltersBar } from './FiltersBar';
import { bankAccountName, describeTransaction } from './present';
import { formatTxnDate } from './rules';
import { useInfiniteScroll } from './use-infinite-scroll';

const EMPTY_TEXT: Record<TransactionTab, { title: string; description: string }> = {
  review: { title: 'Nothing to review', description: 'Every imported transaction is finalized. New ones from your banks appear here.' },
  finalized: { title: 'No finalized transactions', description: 'Transactions you finalize after review are listed here.' },
  all: { title: 'No transactions', description: 'Connect a bank account to import its transactions.' },
};

/** One tab of /transactions: filters, the list with infinite scroll, row selection and bulk actions. */
export function TransactionsTab({ tab }: { tab: TransactionTab }) {
  const [filters, setFilters] = useState<TransactionFilters>(DEFAULT_TRANSACTION_FILTERS);
  const list = useTransactionList(tab, filters);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const total = list.data?.pages[0]?.meta.itemCount;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const access = useEditAccess();

  const loadMore = useCallback(() => void list.fetchNextPage(), [list]);
  useInfiniteScroll(list.hasNextPage && !list.isFetching && !list.isError, loadMore, list.data?.pages.length ?? 0);

  const changeFilters = useCallback((next: TransactionFilters) => {
    setFilters(next);
    setSelected(new Set());
  }, []);

  // Only rows still listed stay selected (a finalized row leaves the review tab).
  const selectedRows = rows.filter((r) => selected.has(r.id));
  const allSelected = rows.length > 0 && selectedRows.length === rows.length;
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div>
      <FiltersBar tab={tab} filters={filters} onChange={changeFilters} />
      {access.reason && (
        <p role="note" className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {access.reason}
        </p>
      )}
      {selectedRows.length > 0 && <BulkBar tab={tab} rows={selectedRows} onDone={() => setSelected(new Set())} />}
      {list.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading transactions" />
        </div>
      ) : list.isError && rows.length === 0 ? (
        <EmptyState
          title="Transactions could not be loaded"
          description={describeError(list.error)?.message}
          action={
            <Button variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        />
      ) : rows.length === 0 ? (
        activeFilterCount(filters, tab) > 0 ? (
          <EmptyState title="No transactions match these filters" description="Change or clear the filters to see more." />
        ) : (
          <EmptyState title={EMPTY_TEXT[tab].title} description={EMPTY_TEXT[tab].description} />
        )
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
            Showing {rows.length} of {total ?? rows.length} transaction{total === 1 ? '' : 's'}
          </p>
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Transactions</caption>
              <thead className="border-b border-slate-200 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400">
                <tr>
                  <th scope="col" className="w-10 px-3 py-3">
                    <input
                      type="checkbox"
                      aria-label="Select all listed transactions"
                      className="size-4 accent-brand-600"
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                    />
                  </th>
                  <th scope="col" className="px-3 py-3">
                    Date
                  </th>
                  <th scope="col" className="px-3 py-3">
                    Description
                  </th>
                  <th scope="col" className="px-3 py-3">
                    Account
                  </th>
                  <th scope="col" className="min-w-64 px-3 py-3">
                    Category
                  </th>
                  <th scope="col" className="px-3 py-3 text-right">
                    Amount
                  </th>
                  <th scope="col" className="px-3 py-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {rows.map((t) => (
                  <TransactionRow key={t.id} transaction={t} selected={selected.has(t.id)} onToggle={() => toggle(t.id)} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex justify-center py-6 text-sm text-slate-500 dark:text-slate-400">
            {list.isFetchingNextPage ? (
              <Spinner label="Loading more transactions" />
            ) : list.isError ? (
              <Button variant="secondary" size="sm" onClick={() => void list.fetchNextPage()}>
                Load more
              </Button>
            ) : list.hasNextPage ? (
              // Keyboard and assistive technology users reach the next page without scrolling.
              <Button variant="ghost" size="sm" onClick={loadMore}>
                Load more
              </Button>
            ) : (
              <span>End of list</span>
            )}
          </div>
        </>
      )}
    </div>
  );
}

function TransactionRow({ transaction: t, selected, onToggle }: { transaction: Transaction; selected: boolean; onToggle: () => void }) {
  const [, setParams] = useSearchParams();
  const access = useEditAccess();
  const categorise = useCategoriseTransaction();
  const finalize = useFinalizeTransactions();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const restriction = transactionRestriction(t);
  const description = describeTransaction(t);
  const open = () =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set('txn', t.id);
      return next;
    });

  return (
    <tr data-transaction-id={t.id} className={cx('align-top', selected && 'bg-brand-50/60 dark:bg-brand-950/40')}>
      <td className="px-3 py-3">
        <input type="checkbox" aria-label={`Select ${description}`} className="size-4 accent-brand-600" checked={selected} onChange={onToggle} />
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">{formatTxnDate(t.dateTime)}</td>
      <td className="px-3 py-3">
        <button type="button" onClick={open} className="text-left font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-100">
          {description}
        </button>
        <div className="mt-0.5 flex flex-wrap gap-1 text-xs text-slate-500 dark:text-slate-400">
          {t.memo && t.memo !== description && <span>{t.memo}</span>}
          {t.pending && <Badge>Pending</Badge>}
          {t.isTransactionFinalized && <Badge>Finalized</Badge>}
          {t.isSplittedParent && <Badge>Split</Badge>}
          {t.isAccruedParent && <Badge>Accrued</Badge>}
        </div>
      </td>
      <td className="px-3 py-3 text-slate-600 dark:text-slate-300">{bankAccountName(t)}</td>
      <td className="px-3 py-3">
        {restriction === null ? (
          <CategoryPicker
            label={`Category of ${description}`}
            name={`category-${t.id}`}
            hideLabel
            value={t.category?.id ?? null}
            flow={flowOf(t.amount)}
            disabled={!access.canEdit || categorise.isPending}
            onChange={(categoryId) => {
              if (categoryId === t.category?.id) return;
              categorise.mutate({ id: t.id, categoryId }, { onSuccess: (answer) => notice.success(answer.message), onError: showError });
            }}
          />
        ) : (
          <div>
            <span className="text-slate-800 dark:text-slate-200">{t.isSplittedParent ? `${t.category?.name ?? ''} + ${t.splittedChildren.length} more` : (t.category?.name ?? 'Uncategorised')}</span>
            <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{restriction.message}</p>
          </div>
        )}
        {!access.canEdit && restriction === null && <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{access.reason}</p>}
      </td>
      <td className={cx('px-3 py-3 text-right font-medium whitespace-nowrap tabular-nums', t.amount > 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-900 dark:text-slate-100')}>
        {formatMoney(t.amount)}
      </td>
      <td className="px-3 py-3 whitespace-nowrap">
        <Button
          size="sm"
          variant="secondary"
          disabled={!access.canEdit}
          title={access.reason ?? undefined}
          loading={finalize.isPending}
          aria-label={`${t.isTransactionFinalized ? 'Un-finalize' : 'Finalize'} ${description}`}
          onClick={() =>
            finalize.mutate({ transactionIds: [t.id], isTxnFinalized: !t.isTransactionFinalized }, { onSuccess: (answer) => notice.success(answer.message), onError: showError })
          }
        >
          {t.isTransactionFinalized ? 'Un-finalize' : 'Finalize'}
        </Button>
        <Button size="sm" variant="ghost" className="ml-1" onClick={open} aria-label={`Details of ${description}`}>
          Details
        </Button>
      </td>
    </tr>
  );
}

function Badge({ children }: { children: string }) {
  return <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">{children}</span>;
}

/** Bulk categorise and finalize / un-finalize for the selected rows (all or none, spec §7 PATCH /transactions). */
function BulkBar({ tab, rows, onDone }: { tab: TransactionTab; rows: readonly Transaction[]; onDone: () => void }) {
  const access = useEditAccess();
  const bulk = useBulkUpdateTransactions();
  const finalize = useFinalizeTransactions();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const blocked = rows.map((r) => ({ r, restriction: transactionRestriction(r) })).filter((x) => x.restriction !== null);
  const firstBlocked = blocked[0];
  const flows = new Set(rows.map((r) => flowOf(r.amount)));
  // On the finalized tab, or when everything selected is finalized, the bulk action un-finalizes.
  const unfinalize = tab === 'finalized' || rows.every((r) => r.isTransactionFinalized);

  return (
    <section aria-label="Bulk actions" className="mb-4 flex flex-wrap items-end gap-3 rounded-xl border border-brand-200 bg-brand-50 p-3 dark:border-brand-900 dark:bg-brand-950/40">
      <p className="self-center text-sm font-medium text-slate-800 dark:text-slate-100">{rows.length} selected</p>
      <CategoryPicker
        label="Category for selected"
        name="bulk-category"
        className="w-64"
        value={categoryId}
        onChange={setCategoryId}
        flow={flows.size === 1 && flows.has('inflow') ? 'inflow' : 'outflow'}
        disabled={!access.canEdit || firstBlocked !== undefined}
      />
      <Button
        disabled={!access.canEdit || categoryId === null || firstBlocked !== undefined}
        loading={bulk.isPending}
        onClick={() =>
          bulk.mutate(
            { transactions: rows.map((r) => ({ id: r.id, categoryId: categoryId ?? undefined })) },
            {
              onSuccess: (answer) => {
                notice.success(answer.message);
                setCategoryId(null);
                onDone();
              },
              onError: showError,
            },
          )
        }
      >
        Categorise selected
      </Button>
      <Button
        variant="secondary"
        disabled={!access.canEdit}
        loading={finalize.isPending}
        onClick={() =>
          finalize.mutate(
            { transactionIds: rows.map((r) => r.id), isTxnFinalized: !unfinalize },
            {
              onSuccess: (answer) => {
                notice.success(answer.message);
                onDone();
              },
              onError: showError,
            },
          )
        }
      >
        {unfinalize ? 'Un-finalize selected' : 'Finalize selected'}
      </Button>
      <Button variant="ghost" onClick={onDone}>
        Clear selection
      </Button>
      {(access.reason ?? firstBlocked) && (
        <p className="basis-full text-xs text-slate-600 dark:text-slate-400">
          {access.reason ?? `${describeTransaction(firstBlocked!.r)}: ${firstBlocked!.restriction!.message}`}
        </p>
      )}
    </section>
  );
}
