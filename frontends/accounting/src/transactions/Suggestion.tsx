import { describeError, useCategoriseTransaction, type Transaction } from '@ledgerline/api';
import { Button, cx, useErrorNotice, useNotice } from '@ledgerline/ui';

/** How sure the learned categorisation was, as people read it. */
export const confidenceText = (confidence: number) => `${Math.round(confidence * 100)} % sure`;

/**
 * The learned categorisation's suggestion on a transaction row (issue #17 item 7): "✓ {category}" as a button
 * that accepts it (a categorisation by hand, PATCH /transactions/{id}), on the row's one line; it gives way to
 * the description first. Nothing when there is no suggestion or the row cannot be edited.
 */
export function SuggestionChip({ transaction: t, canEdit, onAccepted }: { transaction: Transaction; canEdit: boolean; onAccepted?: () => void }) {
  const categorise = useCategoriseTransaction();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const s = t.suggestion;
  if (!s || !canEdit) return null;
  return (
    <button
      type="button"
      data-suggestion={s.categoryId}
      title={`Suggested from your past categorisations (${confidenceText(s.confidence)}). Accept it as the category.`}
      aria-label={`Accept suggested category ${s.categoryName} for ${t.memo || t.biller?.name || 'this transaction'}`}
      disabled={categorise.isPending}
      onClick={() =>
        categorise.mutate(
          { id: t.id, categoryId: s.categoryId },
          {
            onSuccess: (answer) => {
              notice.success(answer.message);
              onAccepted?.();
            },
            onError: showError,
          },
        )
      }
      className={cx(
        'inline-flex max-w-56 min-w-20 shrink-[10000] items-center gap-1 rounded bg-brand-50 px-1.5 py-0.5 font-medium text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600',
        'dark:bg-brand-950 dark:text-brand-200 dark:hover:bg-brand-900',
      )}
    >
      <span aria-hidden="true">✓</span>
      <span className="truncate">{s.categoryName}</span>
    </button>
  );
}

/** The drawer's lines about how the category came: applied automatically, or the suggestion with Accept. */
export function SuggestionDetails({ transaction: t, editable }: { transaction: Transaction; editable: boolean }) {
  const categorise = useCategoriseTransaction();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const s = t.suggestion;
  if (t.creationMode === 'auto') {
    return (
      <p data-creation-mode="auto" className="text-sm text-slate-500 dark:text-slate-400">
        Categorised automatically from your past categorisations. Pick another category to correct it; the next ones will follow.
      </p>
    );
  }
  if (!s) return null;
  return (
    <div
      data-suggestion={s.categoryId}
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm dark:border-brand-900 dark:bg-brand-950"
    >
      <p className="min-w-0 flex-1 text-slate-800 dark:text-slate-100">
        Suggested: <span className="font-medium">{s.categoryName}</span>{' '}
        <span className="text-slate-500 dark:text-slate-400">({confidenceText(s.confidence)})</span>
      </p>
      <Button
        variant="secondary"
        disabled={!editable}
        loading={categorise.isPending}
        onClick={() => categorise.mutate({ id: t.id, categoryId: s.categoryId }, { onSuccess: (answer) => notice.success(answer.message), onError: showError })}
      >
        Accept
      </Button>
    </div>
  );
}
