import {
  describeError,
  useBulkUpdateTransactions,
  useCategoriseTransaction,
  useFinalizeTransactions,
  useTransactionList,
  type Transaction,
  type TransferTransaction,
} from '@ledgerline/api';
import { transferBadge, type TransferFilter } from './transfers';
import { activeFilterCount, flowOf, transactionsQuery, type TransactionFilters, type TransactionTab } from './filters';
import { transactionRestriction } from './restrictions';
import {
  Button,
  EmptyState,
  ShortcutSheet,
  Spinner,
  cx,
  formatMoney,
  useErrorNotice,
  useNotice,
  readStoredFilterSet,
  useSearchWriter,
  useShortcuts,
  writeStoredFilterSet,
  type Shortcut,
} from '@ledgerline/ui';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type Ref } from 'react';
import { useEditAccess } from './access';
import { CategoryPicker } from './CategoryPicker';
import { TransactionsExportButton } from './ExportCsvButton';
import { FiltersBar, OrderSelect, type FilterChangeOptions } from './FiltersBar';
import { bankAccountName, describeTransaction } from './present';
import { REVIEW_KEYS, nextFocus, type ReviewAction } from './review-keys';
import { SuggestionChip } from './Suggestion';
import { formatTxnDate } from './rules';
import { useInfiniteScroll } from './use-infinite-scroll';
import {
  TRANSACTIONS_SCREEN_KEYS,
  arrivalSearch,
  clearedState,
  storedFilterSet,
  transactionsSearch,
  transactionsStateFromSearch,
  type TransactionsUrlState,
} from './url-state';

const EMPTY_TEXT: Record<TransactionTab, { title: string; description: string }> = {
  review: { title: 'Nothing to review', description: 'Every imported transaction is finalized. New ones from your banks appear here.' },
  finalized: { title: 'No finalized transactions', description: 'Transactions you finalize after review are listed here.' },
  all: { title: 'No transactions', description: 'Connect a bank account to import its transactions.' },
};

/** One tab of /transactions: filters, the list with infinite scroll, row selection and bulk actions. */
export function TransactionsTab({ tab }: { tab: TransactionTab }) {
  // Every filter lives in the query string (url-state.ts): reload, back/forward and a shared link show the same list.
  // `?filter=transfers-review` (spec §2 filter parameter) opens the one-sided transfers.
  // Every change is applied to the latest URL state (useSearchWriter), not to what this render shows: a navigation
  // is pending for a moment, and a change based on the old URL would undo the one before it.
  const [params, writeSearch] = useSearchWriter();
  const screen = TRANSACTIONS_SCREEN_KEYS[tab];
  // A bare URL (no filters: a tab opened from the navigation) shows the tab's stored filter set (spec §3), written
  // into the URL at once (replacing the entry) so a reload or a copied link shows the same list. Until that lands
  // the list is already asked with the stored set, not once without it.
  const [arrival] = useState(() => {
    const next = arrivalSearch(params, readStoredFilterSet(screen));
    return next === null ? null : { from: params.toString(), search: next.toString() };
  });
  const [arrived, setArrived] = useState(arrival === null);
  const shown = params.toString();
  const search = !arrived && arrival !== null && shown === arrival.from ? arrival.search : shown;
  useLayoutEffect(() => {
    if (arrival === null) return;
    if (shown !== arrival.from) setArrived(true);
    else if (!arrived) writeSearch(() => new URLSearchParams(arrival.search), { replace: true });
  }, [arrival, arrived, shown, writeSearch]);
  const { filters, transfer } = useMemo(() => transactionsStateFromSearch(new URLSearchParams(search)), [search]);
  const list = useTransactionList(transactionsQuery(tab, filters, transfer));
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const total = list.data?.pages[0]?.meta.itemCount;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const access = useEditAccess();

  const loadMore = useCallback(() => void list.fetchNextPage(), [list]);
  useInfiniteScroll(list.hasNextPage && !list.isFetching && !list.isError, loadMore, list.data?.pages.length ?? 0);

  // Each change becomes the tab's stored filter set too; Clear filters removes it.
  const write = useCallback(
    (update: (latest: TransactionsUrlState) => TransactionsUrlState, options: FilterChangeOptions & { clear?: boolean } = {}) => {
      writeSearch((latest) => {
        const next = update(transactionsStateFromSearch(latest));
        writeStoredFilterSet(screen, options.clear === true ? undefined : storedFilterSet(next));
        return transactionsSearch(next, latest);
      }, options);
      setSelected(new Set());
    },
    [writeSearch, screen],
  );
  const changeFilters = useCallback(
    (change: Partial<TransactionFilters>, options?: FilterChangeOptions) => write((s) => ({ ...s, filters: { ...s.filters, ...change } }), options),
    [write],
  );
  const changeTransfer = useCallback((next: TransferFilter) => write((s) => ({ ...s, transfer: next })), [write]);
  const clearFilters = useCallback(() => write((s) => clearedState(s), { clear: true }), [write]);

  // Only rows still listed stay selected (a finalized row leaves the review tab).
  const selectedRows = rows.filter((r) => selected.has(r.id));
  const allSelected = rows.length > 0 && selectedRows.length === rows.length;
  const toggle = useCallback(
    (id: string) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  // Keyboard-first review (review-keys.ts): a visible focus moves through the rows; the keys act on the focused row,
  // or on the selection when there is one (as mail clients do). The drawer, when open, has the keyboard.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const [sheetOpen, setSheetOpen] = useState(false);
  const body = useRef<HTMLTableSectionElement>(null);
  const bulkBar = useRef<HTMLElement>(null);
  // Set when `c` opened a row's category list: the choice then gives the keyboard back to the row (a list opened by
  // a click keeps the focus in its field, where the next keystroke starts a new search).
  const pickingFromKeys = useRef(false);
  const finalizeMany = useFinalizeTransactions();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const rowElement = (index: number) => body.current?.querySelectorAll<HTMLElement>('tr[data-transaction-id]')[index];
  const focusRow = useCallback((index: number) => {
    const row = body.current?.querySelectorAll<HTMLElement>('tr[data-transaction-id]')[index];
    if (!row) return;
    setFocusIndex(index);
    row.focus({ preventScroll: true });
    row.scrollIntoView({ block: 'nearest' });
  }, []);
  const focusedIndex = focusIndex === null || rows.length === 0 ? null : Math.min(focusIndex, rows.length - 1);
  const focused = focusedIndex === null ? undefined : rows[focusedIndex];

  // A row that leaves the list (finalized on the review tab) or a bulk bar that closes takes the focus with it: the
  // row now at the same place gets it, so the next key still acts on the list. Not while the drawer is open: it has
  // the keyboard then.
  const drawerOpen = params.has('txn');
  useEffect(() => {
    if (drawerOpen || focusedIndex === null || document.activeElement !== document.body) return;
    focusRow(focusedIndex);
  }, [rows, selectedRows.length, focusedIndex, focusRow, drawerOpen]);

  const finalizeRows = (targets: readonly Transaction[], onDone?: () => void) => {
    const unfinalize = tab === 'finalized' || targets.every((r) => r.isTransactionFinalized);
    finalizeMany.mutate(
      { transactionIds: targets.map((r) => r.id), isTxnFinalized: !unfinalize },
      {
        onSuccess: (answer) => {
          notice.success(answer.message);
          onDone?.();
        },
        onError: showError,
      },
    );
  };

  const actions: Record<ReviewAction, () => void> = {
    next: () => {
      const index = nextFocus(focusedIndex, 1, rows.length);
      if (index !== null) focusRow(index);
    },
    previous: () => {
      const index = nextFocus(focusedIndex, -1, rows.length);
      if (index !== null) focusRow(index);
    },
    categorise: () => {
      const input =
        selectedRows.length > 0
          ? bulkBar.current?.querySelector<HTMLInputElement>('input[role="combobox"]')
          : focusedIndex === null
            ? undefined
            : rowElement(focusedIndex)?.querySelector<HTMLInputElement>('input[role="combobox"]');
      if (input && !input.disabled) {
        pickingFromKeys.current = selectedRows.length === 0;
        input.focus();
      } else if (selectedRows.length === 0 && focused) {
        const restriction = transactionRestriction(focused);
        notice.error(restriction?.message ?? 'This transaction cannot be categorised');
      }
    },
    select: () => {
      if (focused) toggle(focused.id);
    },
    finalize: () => {
      if (!access.canEdit) return;
      if (selectedRows.length > 0) finalizeRows(selectedRows, () => setSelected(new Set()));
      else if (focused) finalizeRows([focused]);
    },
    open: () => {
      if (focused) openDetails(focused.id);
    },
    clear: () => setSelected(new Set()),
    help: () => setSheetOpen(true),
  };
  const openDetails = (id: string) =>
    writeSearch((latest) => {
      latest.set('txn', id);
      return latest;
    });
  const shortcuts: Shortcut[] = REVIEW_KEYS.map((k) => ({ keys: k.keys, label: k.label, description: k.description, run: actions[k.action] }));
  useShortcuts(shortcuts, !drawerOpen && !list.isPending);

  return (
    <div>
      <FiltersBar tab={tab} filters={filters} onChange={changeFilters} transfer={transfer} onTransferChange={changeTransfer} onClear={clearFilters} />
      {access.reason && (
        <p
          role="note"
          className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          {access.reason}
        </p>
      )}
      {selectedRows.length > 0 && <BulkBar ref={bulkBar} tab={tab} rows={selectedRows} onDone={() => setSelected(new Set())} />}
      <ShortcutSheet open={sheetOpen} onClose={() => setSheetOpen(false)} title="Keyboard shortcuts for transactions" shortcuts={REVIEW_KEYS} />
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
        transfer === 'review' && activeFilterCount(filters, tab) === 0 ? (
          <EmptyState
            title="No transfers to review"
            description="Every transfer between your linked accounts is paired. A transfer whose other side is in an account that is not linked shows here."
          />
        ) : activeFilterCount(filters, tab) > 0 || transfer !== '' ? (
          <EmptyState title="No transactions match these filters" description="Change or clear the filters to see more." />
        ) : (
          <EmptyState title={EMPTY_TEXT[tab].title} description={EMPTY_TEXT[tab].description} />
        )
      ) : (
        <>
          <div className="mb-2 flex items-center justify-between gap-2">
            <div className="flex items-baseline gap-1 text-sm text-slate-600 dark:text-slate-400">
              {/* One line on a phone: the count alone there, beside the export and order controls. */}
              <p aria-live="polite" className="whitespace-nowrap">
                <span className="max-sm:sr-only">
                  Showing {rows.length} of {total ?? rows.length} transaction{total === 1 ? '' : 's'}
                </span>
                <span className="sm:hidden" aria-hidden>
                  {rows.length} of {total ?? rows.length}
                </span>
              </p>
              <span className="hidden lg:inline">
                <span aria-hidden>· </span>
                <button
                  type="button"
                  onClick={() => setSheetOpen(true)}
                  className="underline decoration-dotted underline-offset-2 hover:text-slate-900 dark:hover:text-slate-100"
                >
                  Keyboard shortcuts
                </button>{' '}
                <kbd className="rounded border border-slate-300 px-1 font-mono text-xs dark:border-slate-700">?</kbd>
              </span>
            </div>
            <div className="flex items-end gap-2">
              <TransactionsExportButton tab={tab} filters={filters} transfer={transfer} />
              <OrderSelect filters={filters} onChange={changeFilters} />
            </div>
          </div>
          {/* Below 80em the table (60rem at least) scrolls sideways in its own box; from 80em it fits, so the box does not
              clip and the header sticks under the shell's 64 px top bar while the page scrolls (the infinite scroll follows
              the page). Fixed columns: the description takes what is left and is cut, one line per row. */}
          {/* Below 48em each row is a card (date and amount, description, account, category, finalize) stacked in the same
              box: the table keeps its rows and cells (explicit roles, as display changes can drop them) for assistive
              technology and the keyboard. */}
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white xl:overflow-visible dark:border-slate-800 dark:bg-slate-900">
            <table role="table" className="w-full text-sm max-md:block md:min-w-[60rem] md:table-fixed">
              <caption className="sr-only">Transactions</caption>
              <thead className="max-md:sr-only text-left text-xs font-semibold tracking-wide text-slate-500 uppercase xl:sticky xl:top-16 xl:z-10 dark:text-slate-400 [&_th]:border-b [&_th]:border-slate-200 [&_th]:bg-slate-50 dark:[&_th]:border-slate-800 dark:[&_th]:bg-slate-900">
                <tr>
                  <th scope="col" className="w-10 px-3 py-2 xl:rounded-tl-xl">
                    <input
                      type="checkbox"
                      aria-label="Select all listed transactions"
                      className="size-4 accent-brand-600"
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                    />
                  </th>
                  <th scope="col" className="w-24 px-3 py-2">
                    Date
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Description
                  </th>
                  {/* Wide enough for a bank's account name and its mask on a desktop; a longer one ends in an ellipsis (its title shows it whole). */}
                  <th scope="col" className="w-36 px-3 py-2 min-[1400px]:w-56 2xl:w-64">
                    Account
                  </th>
                  <th scope="col" className="w-56 px-3 py-2 min-[1400px]:w-64">
                    Category
                  </th>
                  <th scope="col" className="w-28 px-3 py-2 text-right">
                    Amount
                  </th>
                  <th scope="col" className="w-44 px-3 py-2 xl:rounded-tr-xl">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody ref={body} className="divide-y divide-slate-100 max-md:block dark:divide-slate-800">
                {rows.map((t, index) => (
                  <TransactionRow
                    key={t.id}
                    transaction={t}
                    selected={selected.has(t.id)}
                    focused={index === focusedIndex}
                    onFocus={() => setFocusIndex(index)}
                    onOpen={() => openDetails(t.id)}
                    onPicked={() => {
                      if (!pickingFromKeys.current) return;
                      pickingFromKeys.current = false;
                      setTimeout(() => focusRow(index), 0);
                    }}
                    onToggle={() => toggle(t.id)}
                  />
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

interface TransactionRowProps {
  transaction: Transaction;
  selected: boolean;
  /** The row the keyboard acts on (outlined). */
  focused: boolean;
  onFocus: () => void;
  onOpen: () => void;
  /** A category was chosen in the row's list. */
  onPicked: () => void;
  onToggle: () => void;
}

// Below 48em (max-md) the row is a card: a grid with the checkbox, date and amount on its first line, then the
// description, the account, the category and the buttons, each across the card.
const CARD_LINE = 'max-md:col-span-2 max-md:col-start-2';

function TransactionRow({ transaction: t, selected, focused, onFocus, onOpen, onPicked, onToggle }: TransactionRowProps) {
  const row = useRef<HTMLTableRowElement>(null);
  const access = useEditAccess();
  const categorise = useCategoriseTransaction();
  const finalize = useFinalizeTransactions();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const restriction = transactionRestriction(t);
  const description = describeTransaction(t);
  const open = onOpen;
  // Escape on the row's closed category list gives the keyboard back to the row.
  const backToRow = () => setTimeout(() => row.current?.focus({ preventScroll: true }), 0);

  return (
    <tr
      ref={row}
      role="row"
      data-transaction-id={t.id}
      data-focused={focused || undefined}
      tabIndex={focused ? 0 : -1}
      onFocus={onFocus}
      onKeyDown={(event: ReactKeyboardEvent<HTMLTableRowElement>) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) {
          event.preventDefault();
          open();
        }
      }}
      className={cx(
        'align-middle outline-none max-md:grid max-md:scroll-mt-20 max-md:grid-cols-[auto_minmax(0,1fr)_auto] max-md:gap-x-3 max-md:gap-y-1.5 max-md:p-3 md:h-8 md:scroll-mt-28 md:[&>td]:px-3 md:[&>td]:py-px',
        'data-focused:shadow-[inset_3px_0_0_var(--color-brand-600)] data-focused:focus:outline-2 data-focused:focus:-outline-offset-2 data-focused:focus:outline-brand-500',
        selected && 'bg-brand-50/60 dark:bg-brand-950/40',
        !selected && focused && 'bg-slate-50 dark:bg-slate-800/60',
      )}
    >
      <td role="cell" className="max-md:row-start-1 max-md:self-center">
        <input type="checkbox" aria-label={`Select ${description}`} className="size-4 accent-brand-600" checked={selected} onChange={onToggle} />
      </td>
      <td role="cell" className="whitespace-nowrap text-slate-600 max-md:row-start-1 max-md:self-center dark:text-slate-300">
        {formatTxnDate(t.dateTime)}
      </td>
      <td role="cell" className={cx(CARD_LINE, 'max-md:row-start-2')}>
        {/* One line per row: the memo and badges follow the description and are cut at the column's edge (the drawer shows all).
            The memo gives up all its room before the description loses a pixel: flex shrinks items by factor × width, so
            with a factor of 1 against 100 the description still lost a fraction of a pixel, enough for its ellipsis
            ("Starbuc…" beside a whole "STARBUCKS STORE 05432"); against 10⁶ its share rounds to nothing. */}
        <div
          className="flex items-center gap-1.5 overflow-hidden text-xs whitespace-nowrap text-slate-500 dark:text-slate-400"
          title={t.memo && t.memo !== description ? `${description} — ${t.memo}` : description}
        >
          <button
            type="button"
            onClick={open}
            className="min-w-0 shrink truncate text-left text-sm font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-100"
          >
            {description}
          </button>
          {t.memo && t.memo !== description && <span className="min-w-0 shrink-[1000000] truncate">{t.memo}</span>}
          {restriction === null && <SuggestionChip transaction={t} canEdit={access.canEdit} onAccepted={onPicked} />}
          {t.creationMode === 'auto' && <Badge>Auto</Badge>}
          {t.pending && <Badge>Pending</Badge>}
          {t.isTransactionFinalized && <Badge>Finalized</Badge>}
          {t.isSplittedParent && <Badge>Split</Badge>}
          {t.isAccruedParent && <Badge>Accrued</Badge>}
          {transferBadge(t as TransferTransaction) && <TransferBadge>{transferBadge(t as TransferTransaction)!}</TransferBadge>}
        </div>
      </td>
      <td role="cell" className={cx(CARD_LINE, 'text-slate-600 max-md:row-start-3 max-md:text-xs dark:text-slate-300')}>
        <span className="block truncate" title={bankAccountName(t)}>
          {bankAccountName(t)}
        </span>
      </td>
      <td
        role="cell"
        className={cx(CARD_LINE, 'max-md:row-start-4')}
        onKeyDownCapture={(event) => {
          // Escape on a closed list gives the keyboard back to the row (an open list closes first).
          if (event.key === 'Escape' && event.target instanceof HTMLInputElement && event.target.getAttribute('aria-expanded') !== 'true') backToRow();
        }}
      >
        {restriction === null ? (
          <CategoryPicker
            label={`Category of ${description}`}
            name={`category-${t.id}`}
            hideLabel
            value={t.category?.id ?? null}
            flow={flowOf(t.amount)}
            className="[&_input]:py-1"
            disabled={!access.canEdit}
            onChange={(categoryId) => {
              onPicked();
              if (categoryId === t.category?.id) return;
              categorise.mutate({ id: t.id, categoryId }, { onSuccess: (answer) => notice.success(answer.message), onError: showError });
            }}
          />
        ) : (
          <div className="flex items-baseline gap-2 overflow-hidden whitespace-nowrap" title={restriction.message}>
            <span className="text-slate-800 dark:text-slate-200">
              {t.isSplittedParent ? `${t.category?.name ?? ''} + ${t.splittedChildren.length} more` : (t.category?.name ?? 'Uncategorised')}
            </span>
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">{restriction.message}</p>
          </div>
        )}
        {!access.canEdit && restriction === null && <p className="sr-only">{access.reason}</p>}
      </td>
      <td
        role="cell"
        className={cx(
          'text-right font-medium whitespace-nowrap tabular-nums max-md:col-start-3 max-md:row-start-1 max-md:self-center',
          t.amount > 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-900 dark:text-slate-100',
        )}
      >
        {formatMoney(t.amount)}
      </td>
      <td role="cell" className={cx(CARD_LINE, 'whitespace-nowrap max-md:row-start-5')}>
        <Button
          size="sm"
          variant="secondary"
          className="h-7! px-2.5!"
          disabled={!access.canEdit}
          title={access.reason ?? undefined}
          loading={finalize.isPending}
          aria-label={`${t.isTransactionFinalized ? 'Un-finalize' : 'Finalize'} ${description}`}
          onClick={() =>
            finalize.mutate(
              { transactionIds: [t.id], isTxnFinalized: !t.isTransactionFinalized },
              { onSuccess: (answer) => notice.success(answer.message), onError: showError },
            )
          }
        >
          {t.isTransactionFinalized ? 'Un-finalize' : 'Finalize'}
        </Button>
        <Button size="sm" variant="ghost" className="ml-1 h-7! px-2.5!" onClick={open} aria-label={`Details of ${description}`}>
          Details
        </Button>
      </td>
    </tr>
  );
}

function Badge({ children }: { children: string }) {
  return <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">{children}</span>;
}

/** A transfer between linked accounts (issue #12): not income or expense, so it stands out from the other badges. */
function TransferBadge({ children }: { children: string }) {
  return (
    <span
      data-badge="transfer"
      className="shrink-0 rounded bg-indigo-100 px-1.5 py-0.5 font-medium whitespace-nowrap text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
    >
      ⇄ {children}
    </span>
  );
}

/** Bulk categorise and finalize / un-finalize for the selected rows (all or none, spec §7 PATCH /transactions). */
function BulkBar({ ref, tab, rows, onDone }: { ref: Ref<HTMLElement>; tab: TransactionTab; rows: readonly Transaction[]; onDone: () => void }) {
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
    <section
      ref={ref}
      aria-label="Bulk actions"
      className="mb-4 flex flex-wrap items-end gap-3 rounded-xl border border-brand-200 bg-brand-50 p-3 dark:border-brand-900 dark:bg-brand-950/40"
    >
      <p className="self-center text-sm font-medium text-slate-800 dark:text-slate-100">{rows.length} selected</p>
      <CategoryPicker
        label="Category for selected"
        name="bulk-category"
        className="w-64"
        value={categoryId}
        onChange={(id) => {
          setCategoryId(id);
          // The next step is to apply it: Enter does, without reaching for the mouse.
          setTimeout(() => document.querySelector<HTMLButtonElement>('[data-bulk-apply]')?.focus(), 0);
        }}
        flow={flows.size === 1 && flows.has('inflow') ? 'inflow' : 'outflow'}
        disabled={!access.canEdit || firstBlocked !== undefined}
      />
      <Button
        data-bulk-apply=""
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
