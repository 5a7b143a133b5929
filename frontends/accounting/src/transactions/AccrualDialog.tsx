import {
  ACCRUAL_CATEGORIES,
  accrualCategoryFor,
  describeError,
  useCreateAccrual,
  useUpdateAccrual,
  type AccrualCategory,
  type AccrualSchedule,
  type Transaction,
} from '@ledgerline/api';
import { Button, Dialog, Select, TextField, formatMoney, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { CategoryPicker } from './CategoryPicker';
import { validateAccrual, type AccrualDraft, type AccrualProblems } from './rules';
import { ScheduleTable } from './ScheduleTable';

/**
 * Accrue a transaction (spec §3 Accrual): start and end dates, Prepaid Expenses (money out) or Deferred Revenue
 * (money in), and the category it is recognised into month by month. Saving books every month at once; the
 * dialog then shows the schedule the server answered. With `schedule` it edits an active accrual instead.
 */
export function AccrualDialog({ transaction: t, schedule, open, onClose }: { transaction: Transaction; schedule?: AccrualSchedule; open: boolean; onClose: () => void }) {
  const [draft, setDraft] = useState<AccrualDraft>(() => ({
    startDate: schedule?.accrualStartDate ?? t.dateTime.slice(0, 10),
    endDate: schedule?.accrualEndDate ?? '',
    accrualCategory: schedule?.accrualCategory ?? accrualCategoryFor(t.amount),
    recogniseCategoryId: schedule?.recogniseCategoryId ?? null,
  }));
  const [problems, setProblems] = useState<AccrualProblems>({});
  const [saved, setSaved] = useState<AccrualSchedule | null>(null);
  const create = useCreateAccrual();
  const update = useUpdateAccrual();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const editing = schedule !== undefined;

  const change = (next: Partial<AccrualDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setProblems({});
  };

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
    const body = { transactionId: t.id, accrualStartDate: draft.startDate, accrualEndDate: draft.endDate, accrualCategory: draft.accrualCategory, recogniseCategoryId: draft.recogniseCategoryId ?? '' };
    if (editing) {
      // Unchanged dates are left out: new dates spread the amount evenly again.
      const datesChanged = draft.startDate !== schedule.accrualStartDate || draft.endDate !== schedule.accrualEndDate;
      update.mutate(datesChanged ? body : { transactionId: t.id, accrualCategory: draft.accrualCategory, recogniseCategoryId: body.recogniseCategoryId }, done);
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
            <TextField label="Start date" name="accrualStartDate" type="date" required value={draft.startDate} onChange={(e) => change({ startDate: e.target.value })} error={problems.startDate} />
            <TextField label="End date" name="accrualEndDate" type="date" required value={draft.endDate} onChange={(e) => change({ endDate: e.target.value })} error={problems.endDate} />
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
            required
            value={draft.recogniseCategoryId}
            onChange={(recogniseCategoryId) => change({ recogniseCategoryId })}
            flow={t.amount > 0 ? 'inflow' : 'outflow'}
            error={problems.recogniseCategoryId}
          />
        </div>
      </div>
    </Dialog>
  );
}
