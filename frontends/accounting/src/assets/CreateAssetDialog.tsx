import { describeError, toApiError, useChartOfAccounts, useCreateFixedAsset, type DepreciationMethod, type Transaction } from '@ledgerline/api';
import {
  DEPRECIATION_METHODS,
  assetAccountOptions,
  defaultAssetAccount,
  emptyFixedAssetDraft,
  fixedAssetBody,
  fixedAssetFieldOf,
  isAssetPurchaseCandidate,
  validateFixedAssetDraft,
  withPurchase,
  type FixedAssetDraft,
  type FixedAssetProblems,
} from './rules';
import { AmountInput, Button, Dialog, Select, TextField, bindDraft, formatMoney, useNotice } from '@ledgerline/ui';
import { useMemo, useState } from 'react';
import { describeTransaction } from '../transactions/present';
import { TransactionPicker } from '../transactions/TransactionPicker';

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
  const field = bindDraft(draft, problems, change);

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
        const named = fixedAssetFieldOf(e.field);
        if (named) setProblems({ [named]: e.message });
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
          <TransactionPicker
            label="Purchase transaction"
            choicesLabel="Purchases"
            filters={{ flow: 'outflow' }}
            offer={isAssetPurchaseCandidate}
            value={purchase}
            error={problems.transactionId}
            onChange={(t) => {
              setPurchase(t);
              if (t === null) {
                change({ transactionId: null });
                return;
              }
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
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Name" required maxLength={500} {...field('description')} />
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
            <TextField label="Purchase date" type="date" required {...field('purchaseDate')} />
            <TextField label="Depreciation start date" type="date" required {...field('depreciationStartDate')} />
            {units ? (
              <>
                <TextField label="Total estimated units" type="number" inputMode="numeric" required {...field('totalEstimatedUnits')} />
                <TextField label="Units produced per year" type="number" inputMode="numeric" required {...field('unitProducedPerYear')} />
              </>
            ) : (
              <TextField label="Useful life (years)" type="number" inputMode="numeric" required {...field('usefulLife')} />
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
