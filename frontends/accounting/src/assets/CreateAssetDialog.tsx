import {
  DEFAULT_TRANSACTION_FILTERS,
  DEPRECIATION_METHODS,
  assetAccountOptions,
  defaultAssetAccount,
  describeError,
  emptyFixedAssetDraft,
  fixedAssetBody,
  fixedAssetFieldOf,
  isAssetPurchaseCandidate,
  toApiError,
  useChartOfAccounts,
  useCreateFixedAsset,
  useTransactionList,
  validateFixedAssetDraft,
  withPurchase,
  type DepreciationMethod,
  type FixedAssetDraft,
  type FixedAssetProblems,
  type Transaction,
} from '@ledgerline/api';
import { AmountInput, Button, Dialog, Select, Spinner, TextField, cx, formatMoney, formatShortDate, useNotice } from '@ledgerline/ui';
import { useEffect, useMemo, useState } from 'react';
import { describeTransaction } from '../transactions/present';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * Make a fixed asset from the bank transaction that bought it (POST /accounting/fixed-asset; decision 0025): the
 * purchase is picked from the money going out (searched by description), its amount is the cost and its date the
 * purchase date; name, asset account, method (straight line by default), useful life or units, salvage value and the
 * depreciation start. A refusal of the server is shown on the field it names.
 */
export function CreateAssetDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const chart = useChartOfAccounts();
  const accounts = useMemo(() => assetAccountOptions(chart.data?.chartOfAccounts ?? []), [chart.data]);
  const [draft, setDraft] = useState<FixedAssetDraft>(() => emptyFixedAssetDraft());
  const [purchase, setPurchase] = useState<Transaction | null>(null);
  const [problems, setProblems] = useState<FixedAssetProblems>({});
  const [refused, setRefused] = useState<string | null>(null);
  const create = useCreateFixedAsset();
  const notice = useNotice();
  const assetTypeId = draft.assetTypeId ?? defaultAssetAccount(accounts);
  const units = draft.method === 'UNITS_OF_PRODUCTION';

  const change = (next: Partial<FixedAssetDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setProblems((p) => {
      const kept = { ...p };
      for (const k of Object.keys(next)) delete kept[k as keyof FixedAssetProblems];
      return kept;
    });
    setRefused(null);
  };

  const save = () => {
    const ready = { ...draft, assetTypeId };
    const found = validateFixedAssetDraft(ready);
    setProblems(found);
    setRefused(null);
    if (Object.keys(found).length > 0) return;
    create.mutate(fixedAssetBody(ready), {
      onSuccess: (answer) => {
        notice.success(answer.message);
        onCreated(answer.fixedAsset.id);
      },
      onError: (error) => {
        const e = toApiError(error);
        if (e.handled) return;
        const field = fixedAssetFieldOf(e.field);
        if (field) setProblems({ [field]: e.message });
        else setRefused(describeError(e)?.message ?? e.message);
      },
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title="New fixed asset"
      description="Pick the bank transaction that paid for it: its amount moves from its category to the asset account and is depreciated month by month."
      actions={
        <>
          {refused && (
            <p role="alert" className="mr-auto self-center text-sm text-red-600 dark:text-red-400">
              {refused}
            </p>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={create.isPending}>
            Create asset
          </Button>
        </>
      }
    >
      <div data-remote="accounting">
        <div className="space-y-4">
          {purchase ? (
            <div
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-brand-200 bg-brand-50/60 px-3 py-2 text-sm dark:border-brand-900 dark:bg-brand-950/40"
              aria-label="Purchase transaction"
            >
              <span className="min-w-0">
                <span className="font-medium">{describeTransaction(purchase)}</span>
                <span className="ml-2 text-slate-600 tabular-nums dark:text-slate-400">
                  {formatShortDate(purchase.dateTime.slice(0, 10))} · {formatMoney(Math.abs(purchase.amount))}
                </span>
              </span>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setPurchase(null);
                  change({ transactionId: null });
                }}
              >
                Change
              </Button>
            </div>
          ) : (
            <PurchasePicker
              error={problems.transactionId}
              onPick={(t) => {
                setPurchase(t);
                const next = withPurchase(draft, t, describeTransaction(t));
                change({
                  transactionId: next.transactionId,
                  cost: next.cost,
                  purchaseDate: next.purchaseDate,
                  depreciationStartDate: next.depreciationStartDate,
                  description: next.description,
                });
              }}
            />
          )}
          {purchase && problems.transactionId && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {problems.transactionId}
            </p>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label="Name"
              name="description"
              required
              value={draft.description}
              onChange={(e) => change({ description: e.target.value })}
              error={problems.description}
              maxLength={500}
            />
            <Select<string>
              label="Asset account"
              name="assetTypeId"
              required
              options={accounts.map((a) => ({ value: a.id, label: `${a.name} (${a.coaId})` }))}
              value={assetTypeId}
              onChange={(id) => change({ assetTypeId: id })}
              error={problems.assetTypeId}
              placeholder={chart.isPending ? 'Loading accounts…' : 'Pick an account'}
            />
            <Select<DepreciationMethod>
              label="Method"
              name="method"
              required
              options={DEPRECIATION_METHODS}
              value={draft.method}
              onChange={(method) => change({ method })}
              error={problems.method}
            />
            <TextField
              label="Cost"
              name="cost"
              readOnly
              value={draft.cost === '' ? '' : formatMoney(Number(draft.cost))}
              error={problems.cost}
              hint="The purchase's amount."
            />
            <TextField
              label="Purchase date"
              name="purchaseDate"
              type="date"
              required
              value={draft.purchaseDate}
              onChange={(e) => change({ purchaseDate: e.target.value })}
              error={problems.purchaseDate}
            />
            <TextField
              label="Depreciation start date"
              name="depreciationStartDate"
              type="date"
              required
              value={draft.depreciationStartDate}
              onChange={(e) => change({ depreciationStartDate: e.target.value })}
              error={problems.depreciationStartDate}
            />
            {units ? (
              <>
                <TextField
                  label="Total estimated units"
                  name="totalEstimatedUnits"
                  type="number"
                  inputMode="numeric"
                  required
                  value={draft.totalEstimatedUnits}
                  onChange={(e) => change({ totalEstimatedUnits: e.target.value })}
                  error={problems.totalEstimatedUnits}
                />
                <TextField
                  label="Units produced per year"
                  name="unitProducedPerYear"
                  type="number"
                  inputMode="numeric"
                  required
                  value={draft.unitProducedPerYear}
                  onChange={(e) => change({ unitProducedPerYear: e.target.value })}
                  error={problems.unitProducedPerYear}
                />
              </>
            ) : (
              <TextField
                label="Useful life (years)"
                name="usefulLife"
                type="number"
                inputMode="numeric"
                required
                value={draft.usefulLife}
                onChange={(e) => change({ usefulLife: e.target.value })}
                error={problems.usefulLife}
              />
            )}
            <AmountInput
              label="Salvage value"
              name="salvageValue"
              value={draft.salvageValue}
              onValueChange={(salvageValue) => change({ salvageValue })}
              error={problems.salvageValue}
            />
          </div>
        </div>
      </div>
    </Dialog>
  );
}

/** The money going out, searched by description (GET /transactions/v2), listed as choices; linked, accrued or split ones are not offered. */
function PurchasePicker({ onPick, error }: { onPick: (t: Transaction) => void; error: string | undefined }) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useTransactionList('all', { ...DEFAULT_TRANSACTION_FILTERS, flow: 'outflow', description: search });
  const rows = (list.data?.pages.flatMap((p) => p.data) ?? []).filter(isAssetPurchaseCandidate);
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">
        Purchase transaction <span className="text-red-600 dark:text-red-400">*</span>
      </legend>
      <TextField
        label="Search transactions"
        name="transactionSearch"
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Merchant or description"
        autoComplete="off"
      />
      <div
        role="group"
        aria-label="Purchases"
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
          <p className="px-3 py-4 text-center text-sm text-slate-500 dark:text-slate-400">No purchase matches{search ? ` “${search}”` : ''}.</p>
        )}
        {rows.map((t) => (
          <button
            key={t.id}
            type="button"
            onClick={() => onPick(t)}
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
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
