import {
  ACCRUAL_CATEGORIES,
  describeError,
  useCreateAccrual,
  useUpdateAccrual,
  type AccrualCategory,
  type AccrualSchedule,
  type Transaction,
} from '@ledgerline/api';
import { AmountInput, Button, Dialog, Select, TextField, bindDraft, cx, formatMoney, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { CategoryPicker } from './CategoryPicker';
import {
  formatTxnDate,
  splitRemainder,
  validateAccrual,
  validateAccrualMonths,
  type AccrualDraft,
  type AccrualMonthDraft,
  type AccrualProblems,
  accrualCategoryFor,
} from './rules';
import { ScheduleTable } from './ScheduleTable';

/**
 * Accrue a transaction (spec §3 Accrual): start and end dates, Prepaid Expenses (money out) or Deferred Revenue
 * (money in), and the category it is recognised into month by month. Saving books every month at once; the
 * dialog then shows the schedule the server answered. With `schedule` it edits an active accrual instead.
 */
export function AccrualDialog({
  transaction: t,
  schedule,
  open,
  onClose,
}: {
  transaction: Transaction;
  schedule?: AccrualSchedule;
  open: boolean;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<AccrualDraft>(() => ({
    startDate: schedule?.accrualStartDate ?? t.dateTime.slice(0, 10),
    endDate: schedule?.accrualEndDate ?? '',
    accrualCategory: schedule?.accrualCategory ?? accrualCategoryFor(t.amount),
    recogniseCategoryId: schedule?.recogniseCategoryId ?? null,
  }));
  const [problems, setProblems] = useState<AccrualProblems>({});
  // Editing: each month's amount (update-accrual's updatedAccrualChildren), while the dates stay the same.
  const initialMonths = (schedule?.accruedChildren ?? []).map((m): AccrualMonthDraft => ({
    id: m.id,
    date: m.accrualDateTime,
    amount: m.accrualAmount.toFixed(2),
  }));
  const [months, setMonths] = useState<AccrualMonthDraft[]>(initialMonths);
  const [monthProblems, setMonthProblems] = useState<ReturnType<typeof validateAccrualMonths>>(null);
  const [saved, setSaved] = useState<AccrualSchedule | null>(null);
  const create = useCreateAccrual();
  const update = useUpdateAccrual();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const editing = schedule !== undefined;
  const datesChanged = editing && (draft.startDate !== schedule.accrualStartDate || draft.endDate !== schedule.accrualEndDate);
  const monthsChanged = months.some((m, i) => Number(m.amount) !== Number(initialMonths[i]?.amount));

  const change = (next: Partial<AccrualDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setProblems({});
  };
  const field = bindDraft(draft, problems, change);

  const save = () => {
    const found = validateAccrual(draft);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const done = {
      onSuccess: (answer: { message: string; schedule: AccrualSchedule }) => {
        notice.success(answer.message);
        setSaved(answer.schedule);
      },
      onError: showError,
    };
    const body = {
      transactionId: t.id,
      accrualStartDate: draft.startDate,
      accrualEndDate: draft.endDate,
      accrualCategory: draft.accrualCategory,
      recogniseCategoryId: draft.recogniseCategoryId ?? '',
    };
    if (editing) {
      // New dates spread the amount evenly again, so they go without month amounts (the ledger refuses both at once).
      if (datesChanged) {
        update.mutate(body, done);
        return;
      }
      const common = { transactionId: t.id, accrualCategory: draft.accrualCategory, recogniseCategoryId: body.recogniseCategoryId };
      if (!monthsChanged) {
        update.mutate(common, done);
        return;
      }
      const foundMonths = validateAccrualMonths(t.amount, months);
      setMonthProblems(foundMonths);
      if (foundMonths) return;
      update.mutate({ ...common, updatedAccrualChildren: months.map((m) => ({ id: m.id, amount: Number(m.amount) })) }, done);
    } else {
      create.mutate(body, done);
    }
  };

  if (saved) {
    return (
      <Dialog
        open={open}
        onClose={onClose}
        title="Accrual schedule"
        description={`${formatMoney(saved.amount)} from ${saved.accrualCategory}, recognised into ${saved.recogniseCategoryName}.`}
        actions={<Button onClick={onClose}>Done</Button>}
      >
        {/* The dialog is portaled out of the page: data-remote scopes this remote's styles to its content. */}
        <div data-remote="accounting">
          <ScheduleTable schedule={saved} />
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={editing ? 'Edit accrual' : 'Accrue transaction'}
      description={`Recognise ${formatMoney(Math.abs(t.amount))} evenly over the months between the dates.`}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={create.isPending || update.isPending}>
            {editing ? 'Save accrual' : 'Accrue'}
          </Button>
        </>
      }
    >
      <div data-remote="accounting">
        <div className="space-y-4">
          <div className="grid grid-cols-2 gap-3">
            <TextField label="Start date" type="date" required {...field('startDate', 'accrualStartDate')} />
            <TextField label="End date" type="date" required {...field('endDate', 'accrualEndDate')} />
          </div>
          <Select<AccrualCategory>
            label="Accrual account"
            name="accrualCategory"
            required
            options={ACCRUAL_CATEGORIES.map((c) => ({ value: c, label: c }))}
            value={draft.accrualCategory}
            onChange={(accrualCategory) => change({ accrualCategory })}
          />
          <CategoryPicker
            label="Recognise into"
            name="recogniseCategoryId"
            forRecognition
            required
            value={draft.recogniseCategoryId}
            onChange={(recogniseCategoryId) => change({ recogniseCategoryId })}
            flow={t.amount > 0 ? 'inflow' : 'outflow'}
            error={problems.recogniseCategoryId}
          />
          {editing &&
            (datesChanged ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">New dates spread the amount evenly over the new months again.</p>
            ) : (
              <fieldset>
                <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-300">Month amounts</legend>
                <div className="max-h-56 space-y-2 overflow-y-auto pr-1">
                  {months.map((m, i) => (
                    <AmountInput
                      key={m.id}
                      label={`Amount for ${formatTxnDate(m.date)}`}
                      name={`month-${i}`}
                      value={m.amount}
                      onValueChange={(amount) => {
                        setMonths((list) => list.map((x, j) => (j === i ? { ...x, amount } : x)));
                        setMonthProblems(null);
                      }}
                      error={monthProblems?.months[i]}
                    />
                  ))}
                </div>
                <p
                  aria-live="polite"
                  className={cx(
                    'mt-2 text-right text-sm font-medium tabular-nums',
                    Math.abs(splitRemainder(t.amount, months)) > 0.01 ? 'text-amber-700 dark:text-amber-400' : 'text-emerald-700 dark:text-emerald-400',
                  )}
                >
                  Remaining: {formatMoney(splitRemainder(t.amount, months))}
                </p>
                {monthProblems?.sum && (
                  <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
                    {monthProblems.sum}
                  </p>
                )}
              </fieldset>
            ))}
        </div>
      </div>
    </Dialog>
  );
}
