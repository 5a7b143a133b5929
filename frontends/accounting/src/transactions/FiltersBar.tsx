import {
  DEFAULT_TRANSACTION_FILTERS,
  FINALIZATIONS,
  activeFilterCount,
  useBankAccounts,
  useBillers,
  useCategories,
  bookableCategories,
  type Finalization,
  type Flow,
  type SortOrder,
  type TransactionFilters,
  type TransactionTab,
} from '@ledgerline/api';
import { AmountInput, Button, Combobox, DateRangePicker, Select, TextField, dateBounds, todayIso } from '@ledgerline/ui';
import { useEffect, useMemo, useState } from 'react';

/** Typing in a text filter waits this long before the list is asked again. */
const TEXT_FILTER_DELAY_MS = 300;

const FLOW_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'inflow', label: 'Inflow' },
  { value: 'outflow', label: 'Outflow' },
] as const satisfies readonly { value: Flow; label: string }[];

const ORDER_OPTIONS = [
  { value: 'DESC', label: 'Newest first' },
  { value: 'ASC', label: 'Oldest first' },
] as const satisfies readonly { value: SortOrder; label: string }[];

type TextKey = 'description' | 'amount' | 'minAmount' | 'maxAmount';

/** The spec §7 list filters that apply to transactions; finalization only on the 'all' tab. */
export function FiltersBar({ tab, filters, onChange }: { tab: TransactionTab; filters: TransactionFilters; onChange: (next: TransactionFilters) => void }) {
  const accounts = useBankAccounts();
  const billers = useBillers();
  const categories = useCategories();
  const [text, setText] = useState<Record<TextKey, string>>({ description: filters.description, amount: filters.amount, minAmount: filters.minAmount, maxAmount: filters.maxAmount });

  // Text filters settle before the list is asked again; the others apply at once.
  useEffect(() => {
    if (text.description === filters.description && text.amount === filters.amount && text.minAmount === filters.minAmount && text.maxAmount === filters.maxAmount) return;
    const timer = setTimeout(() => onChange({ ...filters, ...text }), TEXT_FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);

  const today = todayIso();
  const dateRange = filters.startDate !== '' && filters.endDate !== '' ? { startDate: filters.startDate, endDate: filters.endDate } : { startDate: dateBounds(today).min, endDate: today };
  const accountOptions = useMemo(() => [{ value: '', label: 'All accounts' }, ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.mask ? `${a.name} •••• ${a.mask}` : a.name }))], [accounts.data]);
  const billerOptions = useMemo(() => (billers.data ?? []).map((b) => ({ value: b.id, title: b.name })).sort((a, b) => a.title.localeCompare(b.title)), [billers.data]);
  const categoryOptions = useMemo(() => bookableCategories(categories.data ?? []).map((c) => ({ value: c.id, title: c.name })), [categories.data]);
  const active = activeFilterCount({ ...filters, ...text }, tab);

  return (
    <section aria-label="Filters" className="mb-6 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="Description"
          name="description"
          type="search"
          placeholder="Merchant or memo"
          value={text.description}
          onChange={(e) => setText((t) => ({ ...t, description: e.target.value }))}
        />
        <Select label="Account" name="accountId" options={accountOptions} value={filters.accountIds[0] ?? ''} onChange={(v) => onChange({ ...filters, accountIds: v === '' ? [] : [v] })} />
        <div>
          <Combobox label="Biller" name="billers" options={billerOptions} value={filters.billerIds[0] ?? null} onChange={(v) => onChange({ ...filters, billerIds: [v] })} placeholder="All billers" />
          {filters.billerIds.length > 0 && (
            <Button variant="ghost" size="sm" className="mt-1" onClick={() => onChange({ ...filters, billerIds: [] })}>
              Any biller
            </Button>
          )}
        </div>
        <div>
          <Combobox label="Category" name="categories" options={categoryOptions} value={filters.categoryIds[0] ?? null} onChange={(v) => onChange({ ...filters, categoryIds: [v] })} placeholder="All categories" />
          {filters.categoryIds.length > 0 && (
            <Button variant="ghost" size="sm" className="mt-1" onClick={() => onChange({ ...filters, categoryIds: [] })}>
              Any category
            </Button>
          )}
        </div>
        <div className="flex items-end gap-2 lg:col-span-2">
          <DateRangePicker value={dateRange} onChange={(r) => onChange({ ...filters, startDate: r.startDate, endDate: r.endDate })} />
          {filters.startDate !== '' && (
            <Button variant="ghost" size="sm" onClick={() => onChange({ ...filters, startDate: '', endDate: '' })}>
              Any date
            </Button>
          )}
        </div>
        <AmountInput label="Amount" name="amount" value={text.amount} onValueChange={(v) => setText((t) => ({ ...t, amount: v }))} />
        <div className="grid grid-cols-2 gap-2">
          <AmountInput label="Min amount" name="minAmount" value={text.minAmount} onValueChange={(v) => setText((t) => ({ ...t, minAmount: v }))} />
          <AmountInput label="Max amount" name="maxAmount" value={text.maxAmount} onValueChange={(v) => setText((t) => ({ ...t, maxAmount: v }))} />
        </div>
        <Select label="Flow" name="flow" options={FLOW_OPTIONS} value={filters.flow} onChange={(v) => onChange({ ...filters, flow: v })} />
        {tab === 'all' && (
          <Select<Finalization> label="Finalization" name="finalization" options={FINALIZATIONS} value={filters.finalization} onChange={(v) => onChange({ ...filters, finalization: v })} />
        )}
        <Select label="Order" name="order" options={ORDER_OPTIONS} value={filters.order} onChange={(v) => onChange({ ...filters, order: v })} />
      </div>
      {active > 0 && (
        <div className="mt-4 flex items-center justify-between text-sm text-slate-600 dark:text-slate-400">
          <span>
            {active} filter{active === 1 ? '' : 's'} applied
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setText({ description: '', amount: '', minAmount: '', maxAmount: '' });
              onChange({ ...DEFAULT_TRANSACTION_FILTERS, order: filters.order });
            }}
          >
            Clear filters
          </Button>
        </div>
      )}
    </section>
  );
}
