import { describeError, useSplitTransaction, useUpdateSplit, type Transaction } from '@ledgerline/api';
import { flowOf } from './filters';
import { AmountInput, Button, Dialog, cx, formatMoney, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { CategoryPicker } from './CategoryPicker';
import { splitRemainder, validateSplit, type SplitPartDraft, type SplitProblems } from './rules';

const dollars = (amount: number) => Math.abs(amount).toFixed(2);

/** The parts a split starts from: the parent's own part and its other parts, or the whole amount and an empty part. */
function initialParts(t: Transaction): SplitPartDraft[] {
  if (t.isSplittedParent && t.splittedChildren.length > 0) {
    const others = t.splittedChildren.reduce((sum, c) => sum + Math.abs(c.amount), 0);
    return [
      { id: null, amount: dollars(Math.abs(t.amount) - others), categoryId: t.category?.id ?? null },
      ...t.splittedChildren.map((c) => ({ id: c.id, amount: dollars(c.amount), categoryId: c.categoryId })),
    ];
  }
  return [
    { id: null, amount: dollars(t.amount), categoryId: t.category?.id ?? null },
    { id: null, amount: '', categoryId: null },
  ];
}

/**
 * Split a transaction into parts (spec §3 Split): the first part stays with the transaction, the others become its
 * split parts; they must add up to the transaction within 0.01, and the remainder is shown as the person types.
 * An existing split is edited through update-split (changed, added and deleted parts).
 */
export function SplitDialog({ transaction: t, open, onClose }: { transaction: Transaction; open: boolean; onClose: () => void }) {
  const [parts, setParts] = useState<SplitPartDraft[]>(() => initialParts(t));
  const [problems, setProblems] = useState<SplitProblems | null>(null);
  const split = useSplitTransaction();
  const updateSplit = useUpdateSplit();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const remainder = splitRemainder(t.amount, parts);
  const pending = split.isPending || updateSplit.isPending;
  const flow = flowOf(t.amount);

  const setPart = (index: number, change: Partial<SplitPartDraft>) => {
    setParts((list) => list.map((p, i) => (i === index ? { ...p, ...change } : p)));
    setProblems(null);
  };

  const save = () => {
    const found = validateSplit(t.amount, parts);
    setProblems(found);
    if (found) return;
    const [own, ...others] = parts as [SplitPartDraft, ...SplitPartDraft[]];
    const parentTransaction = { id: t.id, amount: Number(own.amount), categoryId: own.categoryId ?? '' };
    const done = {
      onSuccess: (answer: { message: string }) => {
        notice.success(answer.message);
        onClose();
      },
      onError: showError,
    };
    if (!t.isSplittedParent) {
      split.mutate({ parentTransaction, splitTransactions: others.map((p) => ({ amount: Number(p.amount), categoryId: p.categoryId ?? '' })) }, done);
      return;
    }
    const kept = new Set(others.filter((p) => p.id !== null).map((p) => p.id));
    updateSplit.mutate(
      {
        parentTransaction,
        updateTransactions: others.filter((p) => p.id !== null).map((p) => ({ id: p.id ?? '', amount: Number(p.amount), categoryId: p.categoryId ?? '' })),
        splitTransactions: others.filter((p) => p.id === null).map((p) => ({ amount: Number(p.amount), categoryId: p.categoryId ?? '' })),
        deleteTransactionIds: t.splittedChildren.filter((c) => !kept.has(c.id)).map((c) => c.id),
      },
      done,
    );
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t.isSplittedParent ? 'Edit split' : 'Split transaction'}
      description={`Split ${formatMoney(t.amount)} into parts with their own categories. The parts must add up to the transaction.`}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={pending}>
            Save split
          </Button>
        </>
      }
    >
      {/* The dialog is portaled out of the page: data-remote scopes this remote's styles to its content. */}
      <div data-remote="accounting">
        <div className="max-h-[60vh] space-y-3 overflow-y-auto pr-1">
          {parts.map((part, i) => (
            <fieldset key={i} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
              <legend className="px-1 text-xs font-semibold text-slate-500 dark:text-slate-400">Part {i + 1}</legend>
              <div className="grid grid-cols-[9rem_1fr] gap-2">
                <AmountInput
                  label={`Amount of part ${i + 1}`}
                  name={`part-${i}-amount`}
                  required
                  value={part.amount}
                  onValueChange={(amount) => setPart(i, { amount })}
                  error={problems?.parts[i]?.amount}
                />
                <CategoryPicker
                  label={`Category of part ${i + 1}`}
                  name={`part-${i}-category`}
                  required
                  value={part.categoryId}
                  onChange={(categoryId) => setPart(i, { categoryId })}
                  flow={flow}
                  currentCategoryId={t.category?.id ?? null}
                  error={problems?.parts[i]?.categoryId}
                />
              </div>
              {i > 0 && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-1"
                  onClick={() => {
                    setParts((list) => list.filter((_, j) => j !== i));
                    setProblems(null);
                  }}
                >
                  Remove part {i + 1}
                </Button>
              )}
            </fieldset>
          ))}
        </div>
        <div className="mt-3 flex items-center justify-between">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setParts((list) => [...list, { id: null, amount: remainder > 0 ? remainder.toFixed(2) : '', categoryId: null }])}
          >
            Add part
          </Button>
          <p
            aria-live="polite"
            className={cx(
              'text-sm font-medium tabular-nums',
              Math.abs(remainder) > 0.01 ? 'text-amber-700 dark:text-amber-400' : 'text-emerald-700 dark:text-emerald-400',
            )}
          >
            Remaining: {formatMoney(remainder)}
          </p>
        </div>
        {problems?.sum && (
          <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
            {problems.sum}
          </p>
        )}
      </div>
    </Dialog>
  );
}
