import { useBankAccounts, useBillers, useCategories } from '@ledgerline/api';
import { TRANSFER_FILTERS, type TransferFilter } from './transfers';
import {
  DEFAULT_TRANSACTION_FILTERS,
  FINALIZATIONS,
  activeFilterCount,
  type Finalization,
  type Flow,
  type SortOrder,
  type TransactionFilters,
  type TransactionTab,
} from './filters';
import { AmountInput, Button, Combobox, DateRangePicker, Select, TextField, cx, dateBounds, todayIso } from '@ledgerline/ui';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { categoryOptions as chartOrder, bookableCategories } from './category-options';

/** Typing in a text filter waits this long before the list is asked again. */
const TEXT_FILTER_DELAY_MS = 300;

const FLOW_OPTIONS = [
  // "All flows": the label is visually hidden in the one-row bar, so the value says what it filters.
  { value: 'all', label: 'All flows' },
  { value: 'inflow', label: 'Inflow' },
  { value: 'outflow', label: 'Outflow' },
] as const satisfies readonly { value: Flow; label: string }[];

const ORDER_OPTIONS = [
  { value: 'DESC', label: 'Newest first' },
  { value: 'ASC', label: 'Oldest first' },
] as const satisfies readonly { value: SortOrder; label: string }[];

type TextKey = 'description' | 'amount' | 'minAmount' | 'maxAmount';
type TextFilters = Record<TextKey, string>;

const textOf = (f: TransactionFilters): TextFilters => ({ description: f.description, amount: f.amount, minAmount: f.minAmount, maxAmount: f.maxAmount });
const sameText = (a: TextFilters, b: TextFilters) =>
  a.description === b.description && a.amount === b.amount && a.minAmount === b.minAmount && a.maxAmount === b.maxAmount;

/** How a filter change reaches the URL: a choice is a history entry; settled typing replaces the current one. */
export interface FilterChangeOptions {
  replace?: boolean;
}

/** The spec §7 list filters that apply to transactions; finalization only on the 'all' tab. */
export function FiltersBar({
  tab,
  filters,
  onChange,
  transfer = '',
  onTransferChange,
  onClear,
}: {
  tab: TransactionTab;
  filters: TransactionFilters;
  /** A change to some filters; the screen applies it to its latest filters (not to the ones this render shows). */
  onChange: (change: Partial<TransactionFilters>, options?: FilterChangeOptions) => void;
  /** Transfers to review (one-sided) or paired ones (issue #12); empty: every transaction. */
  transfer?: TransferFilter;
  onTransferChange?: (next: TransferFilter) => void;
  /** Clear filters: every filter and the transfer filter, in one change (the list's order stays). */
  onClear: () => void;
}) {
  const accounts = useBankAccounts();
  const billers = useBillers();
  const categories = useCategories();
  const [text, setText] = useState<TextFilters>(() => textOf(filters));
  // The text last sent to the URL: text filters that arrive otherwise (back/forward, a link) replace what is typed.
  const sent = useRef<TextFilters>(textOf(filters));
  useEffect(() => {
    const incoming = textOf(filters);
    if (sameText(incoming, sent.current)) return;
    sent.current = incoming;
    setText(incoming);
  }, [filters]);

  // Text filters settle before the list is asked again (one replaced history entry, not one per keystroke); the others apply at once.
  // Compared with what was last sent, not with `filters`: while a navigation is pending a render still shows the
  // previous URL, and only the text is sent, so the other filters are the screen's latest ones.
  useEffect(() => {
    if (sameText(text, sent.current)) return;
    const timer = setTimeout(() => {
      sent.current = text;
      onChange(text, { replace: true });
    }, TEXT_FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onChange]);

  const today = todayIso();
  const dateRange =
    filters.startDate !== '' && filters.endDate !== ''
      ? { startDate: filters.startDate, endDate: filters.endDate }
      : { startDate: dateBounds(today).min, endDate: today };
  const accountOptions = useMemo(
    () => [{ value: '', label: 'All accounts' }, ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.mask ? `${a.name} •••• ${a.mask}` : a.name }))],
    [accounts.data],
  );
  const billerOptions = useMemo(
    () => (billers.data ?? []).map((b) => ({ value: b.id, title: b.name })).sort((a, b) => a.title.localeCompare(b.title)),
    [billers.data],
  );
  const categoryOptions = useMemo(() => chartOrder(bookableCategories(categories.data ?? [])), [categories.data]);
  const active = activeFilterCount({ ...filters, ...text }, tab) + (transfer === '' ? 0 : 1);

  // The filters a bookkeeper uses all day sit in one row; the rest open under "More filters" (open at first when one of
  // them is set, e.g. from a link; closed, its button counts the ones set).
  const hidden = hiddenFilterCount({ ...filters, ...text }, tab, transfer);
  const [showMore, setShowMore] = useState(hidden > 0);
  const moreId = useId();

  return (
    <section aria-label="Filters" className="mb-3 rounded-xl border border-slate-200 bg-white p-2 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-center gap-2">
        <TextField
          label="Description"
          name="description"
          type="search"
          placeholder="Description"
          className={cx(COMPACT, 'min-w-40 flex-1 basis-40')}
          value={text.description}
          onChange={(e) => setText((t) => ({ ...t, description: e.target.value }))}
        />
        <Select
          label="Account"
          name="accountId"
          className={cx(COMPACT, 'w-full sm:w-40')}
          options={accountOptions}
          value={filters.accountIds[0] ?? ''}
          onChange={(v) => onChange({ accountIds: v === '' ? [] : [v] })}
        />
        <div className="flex w-full items-center gap-1 sm:w-48">
          <Combobox
            label="Category"
            name="categories"
            className={cx(COMPACT, 'min-w-0 flex-1')}
            options={categoryOptions}
            value={filters.categoryIds[0] ?? null}
            onChange={(v) => onChange({ categoryIds: [v] })}
            placeholder="All categories"
          />
          {filters.categoryIds.length > 0 && (
            <Button
              variant="ghost"
              size="sm"
              className="h-7! px-2!"
              aria-label="Any category"
              title="Any category"
              onClick={() => onChange({ categoryIds: [] })}
            >
              ×
            </Button>
          )}
        </div>
        <div className="flex max-w-full items-center gap-1">
          <DateRangePicker
            className={cx(COMPACT, 'min-w-0 [&>span:first-child]:sr-only [&_button]:py-1')}
            value={dateRange}
            onChange={(r) => onChange({ startDate: r.startDate, endDate: r.endDate })}
          />
          {filters.startDate !== '' && (
            <Button variant="ghost" size="sm" className="h-7! px-2!" onClick={() => onChange({ startDate: '', endDate: '' })}>
              Any date
            </Button>
          )}
        </div>
        <Select
          label="Flow"
          name="flow"
          className={cx(COMPACT, 'w-full sm:w-32')}
          options={FLOW_OPTIONS}
          value={filters.flow}
          onChange={(v) => onChange({ flow: v })}
        />
        <Button variant="ghost" size="sm" aria-expanded={showMore} aria-controls={moreId} onClick={() => setShowMore(!showMore)}>
          More filters
          {hidden > 0 && ` (${hidden})`}
        </Button>
        {active > 0 && (
          <span className="flex items-center gap-1 text-sm text-slate-600 dark:text-slate-400">
            <span>
              {active} filter{active === 1 ? '' : 's'} applied
            </span>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                const cleared = textOf(DEFAULT_TRANSACTION_FILTERS);
                sent.current = cleared;
                setText(cleared);
                setShowMore(false);
                onClear();
              }}
            >
              Clear filters
            </Button>
          </span>
        )}
      </div>
      {showMore && (
        <div id={moreId} className="mt-2 grid gap-2 border-t border-slate-100 pt-2 sm:grid-cols-2 lg:grid-cols-4 dark:border-slate-800">
          <div>
            <Combobox
              label="Biller"
              name="billers"
              className={COMPACT_LABELLED}
              options={billerOptions}
              value={filters.billerIds[0] ?? null}
              onChange={(v) => onChange({ billerIds: [v] })}
              placeholder="All billers"
            />
            {filters.billerIds.length > 0 && (
              <Button variant="ghost" size="sm" className="mt-1" onClick={() => onChange({ billerIds: [] })}>
                Any biller
              </Button>
            )}
          </div>
          <AmountInput
            label="Amount"
            name="amount"
            className={COMPACT_LABELLED}
            value={text.amount}
            onValueChange={(v) => setText((t) => ({ ...t, amount: v }))}
          />
          <div className="grid grid-cols-2 gap-2">
            <AmountInput
              label="Min amount"
              name="minAmount"
              className={COMPACT_LABELLED}
              value={text.minAmount}
              onValueChange={(v) => setText((t) => ({ ...t, minAmount: v }))}
            />
            <AmountInput
              label="Max amount"
              name="maxAmount"
              className={COMPACT_LABELLED}
              value={text.maxAmount}
              onValueChange={(v) => setText((t) => ({ ...t, maxAmount: v }))}
            />
          </div>
          {tab === 'all' && (
            <Select<Finalization>
              label="Finalization"
              name="finalization"
              className={COMPACT_LABELLED}
              options={FINALIZATIONS}
              value={filters.finalization}
              onChange={(v) => onChange({ finalization: v })}
            />
          )}
          {onTransferChange && (
            <Select<TransferFilter>
              label="Transfers"
              name="transferStatus"
              className={COMPACT_LABELLED}
              options={TRANSFER_FILTERS}
              value={transfer}
              onChange={onTransferChange}
            />
          )}
        </div>
      )}
    </section>
  );
}

/** Fields of the one-row bar: the label is read by assistive technology (the value or placeholder says what it is), inputs 30 px high. */
const COMPACT = '[&_label]:sr-only [&_input]:py-1 [&_button]:py-1';
/** Fields under "More filters": a visible label, compact inputs. */
const COMPACT_LABELLED = '[&_input]:py-1 [&_button]:py-1 [&_label>span]:mb-0.5 [&_label>span]:text-xs';

/** How many of the filters under "More filters" are set (they stay shown while any is). */
function hiddenFilterCount(f: TransactionFilters, tab: TransactionTab, transfer: TransferFilter): number {
  return (
    (f.billerIds.length > 0 ? 1 : 0) +
    (f.amount !== '' ? 1 : 0) +
    (f.minAmount !== '' ? 1 : 0) +
    (f.maxAmount !== '' ? 1 : 0) +
    (tab === 'all' && f.finalization !== DEFAULT_TRANSACTION_FILTERS.finalization ? 1 : 0) +
    (transfer !== '' ? 1 : 0)
  );
}

/** The list's order, beside the count of listed transactions (a list control more than a filter). */
export function OrderSelect({ filters, onChange }: { filters: TransactionFilters; onChange: (change: Partial<TransactionFilters>) => void }) {
  return (
    <Select label="Order" name="order" className={cx(COMPACT, 'w-40')} options={ORDER_OPTIONS} value={filters.order} onChange={(v) => onChange({ order: v })} />
  );
}
