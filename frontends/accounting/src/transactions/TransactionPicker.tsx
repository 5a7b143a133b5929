// Picking a bank transaction in a dialog: the fixed asset's purchase (CreateAssetDialog) and a receipt's match
// (ReceiptMatchingTab's MatchDialog) search the same list the same way: a few letters settle, then GET /transactions/v2
// by description, page by page.
import { useTransactionList, type Transaction } from '@ledgerline/api';
import { DEFAULT_TRANSACTION_FILTERS, transactionsQuery, type TransactionFilters } from './filters';
import { Button, Spinner, TextField, cx, formatMoney, formatShortDate } from '@ledgerline/ui';
import { useEffect, useState } from 'react';
import { describeTransaction } from './present';

/** A few letters typed settle after this long before the transactions are searched (a request per keystroke is waste). */
export const SEARCH_SETTLE_MS = 300;

/** What is typed, what is searched once it settles, and the transactions that search finds (with `filters`: money out only…). */
export function useTransactionSearch(filters: Partial<TransactionFilters> = {}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const list = useTransactionList(transactionsQuery('all', { ...DEFAULT_TRANSACTION_FILTERS, ...filters, description: search }));
  const found = list.data?.pages.flatMap((p) => p.data) ?? [];
  return { typed, setTyped, search, list, found };
}

/** The search box of a transaction search. */
export function TransactionSearchField({ typed, setTyped }: Pick<ReturnType<typeof useTransactionSearch>, 'typed' | 'setTyped'>) {
  return (
    <TextField
      label="Search transactions"
      name="transactionSearch"
      type="search"
      value={typed}
      onChange={(e) => setTyped(e.target.value)}
      placeholder="Merchant or description"
      autoComplete="off"
    />
  );
}

/**
 * A required transaction field: the chosen one with Change, or a search over the transactions (`filters`, then
 * `offer` for the ones that may be chosen) listed as choices, with Show more for the next page.
 */
export function TransactionPicker({
  label,
  choicesLabel,
  value,
  onChange,
  filters,
  offer = () => true,
  error,
}: {
  /** The field's name ("Purchase transaction"); the chosen transaction is labelled so. */
  label: string;
  /** The list of choices' name and its plural ("Purchases"). */
  choicesLabel: string;
  value: Transaction | null;
  onChange: (t: Transaction | null) => void;
  filters?: Partial<TransactionFilters>;
  offer?: (t: Transaction) => boolean;
  error: string | undefined;
}) {
  const { typed, setTyped, search, list, found } = useTransactionSearch(filters);
  const problem = error && (
    <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
      {error}
    </p>
  );
  if (value) {
    return (
      <div>
        <div
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-brand-200 bg-brand-50/60 px-3 py-2 text-sm dark:border-brand-900 dark:bg-brand-950/40"
          aria-label={label}
        >
          <span className="min-w-0">
            <span className="font-medium">{describeTransaction(value)}</span>
            <span className="ml-2 text-slate-600 tabular-nums dark:text-slate-400">
              {formatShortDate(value.dateTime.slice(0, 10))} · {formatMoney(Math.abs(value.amount))}
            </span>
          </span>
          <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
            Change
          </Button>
        </div>
        {problem}
      </div>
    );
  }
  const rows = found.filter(offer);
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">
        {label} <span className="text-red-600 dark:text-red-400">*</span>
      </legend>
      <TransactionSearchField typed={typed} setTyped={setTyped} />
      <div
        role="group"
        aria-label={choicesLabel}
        className={cx(
          'mt-2 max-h-56 overflow-y-auto rounded-lg border',
          error ? 'border-red-400 dark:border-red-700' : 'border-slate-200 dark:border-slate-800',
        )}
      >
        {list.isPending && (
          <div className="flex justify-center py-4">
            <Spinner label="Loading transactions" />
          </div>
        )}
        {list.isSuccess && rows.length === 0 && (
          <p className="px-3 py-4 text-center text-sm text-slate-500 dark:text-slate-400">
            No {choicesLabel.toLowerCase()} match{search ? ` “${search}”` : ''}.
          </p>
        )}
        {rows.map((t) => (
          <button
            key={t.id}
            type="button"
            onClick={() => onChange(t)}
            className="flex w-full items-center justify-between gap-3 border-b border-slate-100 px-3 py-2 text-left text-sm last:border-0 hover:bg-slate-50 focus:outline-none focus-visible:bg-brand-50 dark:border-slate-800/70 dark:hover:bg-slate-800/40 dark:focus-visible:bg-brand-950"
          >
            <span className="min-w-0">
              <span className="block truncate font-medium">{describeTransaction(t)}</span>
              <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
                {formatShortDate(t.dateTime.slice(0, 10))}
                {t.category ? ` · ${t.category.name}` : ''}
              </span>
            </span>
            <span className="shrink-0 tabular-nums">{formatMoney(Math.abs(t.amount))}</span>
          </button>
        ))}
        {list.hasNextPage && (
          <div className="flex justify-center py-2">
            <Button variant="ghost" size="sm" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              Show more
            </Button>
          </div>
        )}
      </div>
      {problem}
    </fieldset>
  );
}
