// Recur a bill, invoice or manual journal, or stop its recurrence (spec §3 "Recurrence", §5, §7: POST
// /accounting/{bill|invoice|manual-entry}/recur/{id}, POST /accounting/stop-recurring/{id} with entityType).
import { RECURRENCE_INTERVALS, describeError, useRecurDocument, type DocumentKind, type RecurrenceInterval } from '@ledgerline/api';
import { Button, DatePicker, Select, TextField, addYears, todayIso, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { DialogMessage, PartyDialog } from '../parties/common';
import { useEditAccess } from '../transactions/access';
import { recurrenceBody, validateRecurrence, type RecurrenceEnd, type RecurrenceForm } from './state';

const INTERVALS = RECURRENCE_INTERVALS.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }));
const ENDS: { value: RecurrenceEnd; label: string }[] = [
  { value: 'never', label: 'Never' },
  { value: 'date', label: 'On a date' },
  { value: 'count', label: 'After a number of times' },
];

export function RecurDialog({ kind, id, what, start, onClose }: { kind: DocumentKind; id: string; what: string; start: string; onClose: () => void }) {
  const today = todayIso();
  const [form, setForm] = useState<RecurrenceForm>({ start: start > today ? start : today, interval: 'monthly', end: 'never', endDate: '', count: '' });
  const [tried, setTried] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const errors = tried ? validateRecurrence(form) : {};
  const { recur, stop } = useRecurDocument(kind);
  const notice = useNotice();
  const access = useEditAccess();
  const set = <K extends keyof RecurrenceForm>(key: K, value: RecurrenceForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const fail = (error: unknown) => setRefused(describeError(error)?.message ?? 'Something went wrong');
  const submit = () => {
    setTried(true);
    setRefused(null);
    if (Object.keys(validateRecurrence(form)).length > 0) return;
    recur.mutate(
      { id, body: recurrenceBody(form) },
      {
        onSuccess: (a) => {
          notice.success(a.message);
          onClose();
        },
        onError: fail,
      },
    );
  };
  const can = { disabled: !access.canEdit, title: access.reason ?? undefined };
  return (
    <PartyDialog
      open
      onClose={onClose}
      title={`Recur this ${what.toLowerCase()}`}
      description="A copy is created on each date of the schedule, exactly once."
      actions={
        <>
          <Button
            variant="secondary"
            {...can}
            loading={stop.isPending}
            onClick={() => {
              setRefused(null);
              stop.mutate(id, {
                onSuccess: (a) => {
                  notice.success(a.message);
                  onClose();
                },
                onError: fail,
              });
            }}
          >
            Stop recurring
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button {...can} loading={recur.isPending} onClick={submit}>
            Save schedule
          </Button>
        </>
      }
    >
      <form
        className="grid gap-3"
        aria-label="Recurrence"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <DatePicker
          label="Start date"
          name="recurringStartDate"
          required
          value={form.start || null}
          max={addYears(today, 5)}
          error={errors.start}
          onChange={(d) => set('start', d)}
        />
        <Select<RecurrenceInterval> label="Interval" name="interval" options={INTERVALS} value={form.interval} onChange={(v) => set('interval', v)} />
        <Select<RecurrenceEnd> label="Ends" name="end" options={ENDS} value={form.end} onChange={(v) => set('end', v)} />
        {form.end === 'date' && (
          <DatePicker
            label="End date"
            name="recurringEndDate"
            required
            value={form.endDate || null}
            max={addYears(today, 20)}
            error={errors.endDate}
            onChange={(d) => set('endDate', d)}
          />
        )}
        {form.end === 'count' && (
          <TextField
            label="Occurrences"
            name="recurringCount"
            required
            inputMode="numeric"
            value={form.count}
            error={errors.count}
            onChange={(e) => set('count', e.target.value.replace(/\D/g, ''))}
          />
        )}
        <button type="submit" hidden />
      </form>
      <DialogMessage text={refused} />
    </PartyDialog>
  );
}
