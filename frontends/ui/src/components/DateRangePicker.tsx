import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useId, useState, type KeyboardEvent } from 'react';
import { cx } from '../cx';
import {
  CUSTOM_DATE,
  DATE_INPUT_LENGTH,
  DATE_RANGE_PRESETS,
  WEEKDAY_LABELS,
  addDays,
  calendarWeeks,
  dateBounds,
  formatDateInput,
  isDaySelectable,
  longDate,
  monthName,
  parseDateInput,
  pickDay,
  presetOf,
  presetRange,
  rangeFromInputs,
  shiftMonth,
  toDateInput,
  todayIso,
  validateDateInput,
  validateDateRangeInputs,
  yearList,
  yearMonthOf,
  type DateRange,
  type DateRangeInputs,
  type IsoDate,
} from '../date-range';
import { ChevronDownIcon } from '../icons';
import { Button } from './Button';
import { TextField } from './TextField';

export interface DateRangePickerProps {
  /** The range shown, YYYY-MM-DD. */
  value: DateRange;
  /** Called with YYYY-MM-DD dates when the person saves a range. */
  onChange: (range: DateRange) => void;
  label?: string;
  /** Defaults to the local date; the bounds (spec §9) follow it. */
  today?: IsoDate;
  disabledDates?: readonly IsoDate[];
  className?: string;
}

/**
 * Spec §2/§5 date range picker: presets, MM/DD/YYYY inputs with the spec's messages, and a one-month calendar
 * starting on Sunday with a year list of 10. Nothing changes until Save, which is disabled while an input has
 * an error.
 */
export function DateRangePicker({ value, onChange, label = 'Date range', today: todayProp, disabledDates = [], className }: DateRangePickerProps) {
  const today = todayProp ?? todayIso();
  const preset = presetOf(value, today);
  const labelId = useId();
  return (
    <Popover className={cx('relative max-w-full', className)}>
      <span id={labelId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </span>
      <PopoverButton
        aria-labelledby={`${labelId} ${labelId}-value`}
        className={cx(
          // The preset and the dates each stay on one line; on a narrow screen the dates go under the preset.
          'flex max-w-full items-center justify-between gap-3 rounded-lg border border-slate-300 bg-white px-3 py-2 text-left text-sm shadow-sm',
          'focus:outline-none data-focus:ring-2 data-focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
        )}
      >
        <span id={`${labelId}-value`}>
          <span className="font-medium whitespace-nowrap">{preset}:</span>{' '}
          <span className="whitespace-nowrap text-slate-500 dark:text-slate-400">
            {toDateInput(value.startDate)} – {toDateInput(value.endDate)}
          </span>
        </span>
        <ChevronDownIcon className="size-4 shrink-0 text-slate-400" />
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'bottom end', gap: 6, padding: 8 }}
        focus
        className="z-50 rounded-xl border border-slate-200 bg-white p-4 shadow-xl focus:outline-none dark:border-slate-700 dark:bg-slate-900"
      >
        {({ close }) => (
          <RangeEditor
            initial={value}
            today={today}
            disabledDates={disabledDates}
            onCancel={() => close()}
            onSave={(range) => {
              onChange(range);
              close();
            }}
          />
        )}
      </PopoverPanel>
    </Popover>
  );
}

function RangeEditor({
  initial,
  today,
  disabledDates,
  onCancel,
  onSave,
}: {
  initial: DateRange;
  today: IsoDate;
  disabledDates: readonly IsoDate[];
  onCancel: () => void;
  onSave: (range: DateRange) => void;
}) {
  const [inputs, setInputs] = useState<DateRangeInputs>({ start: toDateInput(initial.startDate), end: toDateInput(initial.endDate) });
  const [lastEdited, setLastEdited] = useState<keyof DateRangeInputs>('end');
  const [view, setView] = useState(() => yearMonthOf(initial.endDate));
  const errors = validateDateRangeInputs(inputs, today, lastEdited);
  const range = rangeFromInputs(inputs, today, lastEdited);
  const preset = range ? presetOf(range, today) : CUSTOM_DATE;
  const bounds = dateBounds(today);

  const type = (field: keyof DateRangeInputs, text: string) => {
    setInputs((current) => ({ ...current, [field]: formatDateInput(text, current[field]) }));
    setLastEdited(field);
    const date = text.length === DATE_INPUT_LENGTH ? parseDateInput(formatDateInput(text)) : null;
    if (date !== null) setView(yearMonthOf(date));
  };

  const choose = (range: DateRange) => {
    setInputs({ start: toDateInput(range.startDate), end: toDateInput(range.endDate) });
    setLastEdited('end');
    setView(yearMonthOf(range.endDate));
  };

  const selected = { start: parseDateInput(inputs.start), end: parseDateInput(inputs.end) };

  return (
    <div className="flex flex-col gap-4 sm:flex-row">
      <div role="group" aria-label="Presets" className="flex min-w-44 flex-col gap-0.5 border-slate-100 sm:border-r sm:pr-4 dark:border-slate-800">
        {[...DATE_RANGE_PRESETS, CUSTOM_DATE].map((name) => {
          const isCustom = name === CUSTOM_DATE;
          const active = preset === name;
          return (
            <button
              key={name}
              type="button"
              aria-pressed={active}
              disabled={isCustom}
              onClick={isCustom ? undefined : () => choose(presetRange(name as (typeof DATE_RANGE_PRESETS)[number], today))}
              className={cx(
                'rounded-md px-2.5 py-1.5 text-left text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/40',
                active
                  ? 'bg-brand-50 font-medium text-brand-800 dark:bg-brand-950 dark:text-brand-200'
                  : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
                isCustom && !active && 'cursor-default text-slate-400 hover:bg-transparent dark:text-slate-500 dark:hover:bg-transparent',
              )}
            >
              {name}
            </button>
          );
        })}
      </div>
      <div className="flex w-72 flex-col gap-3">
        <div className="grid grid-cols-2 gap-2">
          {(['start', 'end'] as const).map((end) => (
            <TextField
              key={end}
              label={end === 'start' ? 'Start date' : 'End date'}
              name={`${end}Date`}
              placeholder="MM/DD/YYYY"
              inputMode="numeric"
              autoComplete="off"
              maxLength={DATE_INPUT_LENGTH}
              value={inputs[end]}
              error={errors[end]}
              onChange={(e) => type(end, e.target.value)}
            />
          ))}
        </div>
        <Calendar
          view={view}
          onView={setView}
          selected={selected}
          bounds={bounds}
          disabledDates={disabledDates}
          onPick={(date) => {
            const next = pickDay(selected, date);
            setInputs({ start: toDateInput(next.start), end: next.end === null ? '' : toDateInput(next.end) });
            setLastEdited(next.end === null ? 'start' : 'end');
          }}
        />
        <div className="flex justify-end gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
          <Button variant="secondary" size="sm" onClick={onCancel}>
            Cancel
          </Button>
          <Button size="sm" disabled={range === null} onClick={() => range && onSave(range)}>
            Save
          </Button>
        </div>
      </div>
    </div>
  );
}

function CalendarIcon({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="3.5" y="5" width="17" height="15" rx="2" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </svg>
  );
}

export interface DatePickerProps {
  label: string;
  name: string;
  /** The date, YYYY-MM-DD, or null while none is chosen. */
  value: IsoDate | null;
  /** Called with YYYY-MM-DD once a complete, valid date is typed or a day is picked. */
  onChange: (date: IsoDate) => void;
  /** Defaults to the local date; the default bounds (spec §9) follow it. */
  today?: IsoDate;
  /** Defaults to four years before today. */
  min?: IsoDate;
  /** Defaults to today. */
  max?: IsoDate;
  disabledDates?: readonly IsoDate[];
  required?: boolean;
  /** A message from the form (e.g. a required field left empty); the date's own messages come first. */
  error?: string | undefined;
  className?: string;
}

/**
 * Spec §2/§5 single-date picker: a MM/DD/YYYY input (slashes inserted while typing, its messages once 10
 * characters are in) and a calendar button opening the same one-month, Sunday-first calendar with a year list.
 */
export function DatePicker({ label, name, value, onChange, today: todayProp, min, max, disabledDates = [], required, error, className }: DatePickerProps) {
  const today = todayProp ?? todayIso();
  const defaults = dateBounds(today);
  const bounds = { min: min ?? defaults.min, max: max ?? defaults.max };
  const [text, setText] = useState(value === null ? '' : toDateInput(value));
  // A value set from outside (a reset, a preset) replaces what is typed.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value === null ? '' : toDateInput(value));
  }
  const message = validateDateInput(text, bounds, disabledDates) ?? error;
  const [view, setView] = useState(() => yearMonthOf(value ?? (today < bounds.max ? today : bounds.max)));

  const accept = (date: IsoDate) => {
    setShown(date);
    onChange(date);
  };

  return (
    <Popover className={className}>
      {({ close }) => (
        <>
          <TextField
            label={label}
            name={name}
            required={required}
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            autoComplete="off"
            maxLength={DATE_INPUT_LENGTH}
            value={text}
            error={message}
            onChange={(e) => {
              const next = formatDateInput(e.target.value, text);
              setText(next);
              const date = parseDateInput(next);
              if (date !== null && validateDateInput(next, bounds, disabledDates) === undefined) {
                setView(yearMonthOf(date));
                accept(date);
              }
            }}
            trailing={
              <PopoverButton
                aria-label={`Choose ${label} from a calendar`}
                className="rounded-md p-1.5 text-slate-500 hover:bg-slate-100 focus:outline-none data-focus:ring-2 data-focus:ring-brand-500/40 dark:text-slate-400 dark:hover:bg-slate-800"
              >
                <CalendarIcon className="size-4" />
              </PopoverButton>
            }
          />
          <PopoverPanel
            anchor={{ to: 'bottom end', gap: 6, padding: 8 }}
            focus
            className="z-50 w-72 rounded-xl border border-slate-200 bg-white p-4 shadow-xl focus:outline-none dark:border-slate-700 dark:bg-slate-900"
          >
            <Calendar
              view={view}
              onView={setView}
              selected={{ start: value, end: value }}
              bounds={bounds}
              disabledDates={disabledDates}
              onPick={(date) => {
                setText(toDateInput(date));
                accept(date);
                close();
              }}
            />
          </PopoverPanel>
        </>
      )}
    </Popover>
  );
}

interface CalendarProps {
  view: { year: number; month: number };
  onView: (view: { year: number; month: number }) => void;
  selected: { start: IsoDate | null; end: IsoDate | null };
  bounds: { min: IsoDate; max: IsoDate };
  disabledDates: readonly IsoDate[];
  onPick: (date: IsoDate) => void;
}

const navButton =
  'rounded-md p-1.5 text-slate-600 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/40 disabled:opacity-40 dark:text-slate-300 dark:hover:bg-slate-800';

function Calendar({ view, onView, selected, bounds, disabledDates, onPick }: CalendarProps) {
  const [showYears, setShowYears] = useState(false);
  const weeks = calendarWeeks(view.year, view.month);
  const heading = `${monthName(view.month)} ${view.year}`;
  const minView = yearMonthOf(bounds.min);
  const maxView = yearMonthOf(bounds.max);
  const viewIndex = view.year * 12 + view.month;
  const move = (by: number) => onView(shiftMonth(view.year, view.month, by));
  // One day of the grid is in the tab order (roving focus): the range's end or start when shown, else the first day that can be picked.
  const days = weeks.flat().filter((d) => d.inMonth);
  const focusDate =
    days.find((d) => d.date === selected.end)?.date ??
    days.find((d) => d.date === selected.start)?.date ??
    days.find((d) => isDaySelectable(d.date, bounds, disabledDates))?.date ??
    days[0]?.date;

  // Arrow keys move between days (a week up or down), as in a native date grid.
  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    const step = steps[event.key];
    const from = (event.target as HTMLElement).dataset.date;
    if (step === undefined || from === undefined) return;
    event.preventDefault();
    const grid = event.currentTarget;
    const to = addDays(from, step);
    const target = yearMonthOf(to);
    if (target.year !== view.year || target.month !== view.month) onView(target);
    requestAnimationFrame(() => grid.querySelector<HTMLButtonElement>(`[data-date="${to}"]`)?.focus());
  };

  return (
    <div>
      <div className="mb-2 flex items-center justify-between">
        <button
          type="button"
          aria-label="Previous month"
          className={navButton}
          disabled={showYears || viewIndex <= minView.year * 12 + minView.month}
          onClick={() => move(-1)}
        >
          <ChevronDownIcon className="size-4 rotate-90" />
        </button>
        <button
          type="button"
          aria-expanded={showYears}
          aria-label={`${heading}, choose a year`}
          className="rounded-md px-2 py-1 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/40 dark:text-slate-100 dark:hover:bg-slate-800"
          onClick={() => setShowYears((s) => !s)}
        >
          {heading}
        </button>
        <button
          type="button"
          aria-label="Next month"
          className={navButton}
          disabled={showYears || viewIndex >= maxView.year * 12 + maxView.month}
          onClick={() => move(1)}
        >
          <ChevronDownIcon className="size-4 -rotate-90" />
        </button>
      </div>
      {showYears ? (
        <div role="group" aria-label="Years" className="grid grid-cols-2 gap-1">
          {yearList(view.year).map((year) => {
            const enabled = year >= minView.year && year <= maxView.year;
            return (
              <button
                key={year}
                type="button"
                disabled={!enabled}
                aria-pressed={year === view.year}
                onClick={() => {
                  const month =
                    year === minView.year ? Math.max(view.month, minView.month) : year === maxView.year ? Math.min(view.month, maxView.month) : view.month;
                  onView({ year, month });
                  setShowYears(false);
                }}
                className={cx(
                  'rounded-md py-1.5 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/40 disabled:cursor-not-allowed disabled:text-slate-300 dark:disabled:text-slate-600',
                  year === view.year
                    ? 'bg-brand-600 text-white dark:bg-brand-500 dark:text-slate-950'
                    : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
                )}
              >
                {year}
              </button>
            );
          })}
        </div>
      ) : (
        <div role="grid" aria-label={heading} onKeyDown={onGridKey}>
          <div role="row" className="grid grid-cols-7 text-center text-xs font-medium text-slate-500 dark:text-slate-400">
            {WEEKDAY_LABELS.map((d) => (
              <span key={d} role="columnheader" className="py-1">
                {d}
              </span>
            ))}
          </div>
          {weeks.map((week) => (
            <div key={week[0]?.date} role="row" className="grid grid-cols-7">
              {week.map((day) => {
                const enabled = isDaySelectable(day.date, bounds, disabledDates);
                const isEdge = day.date === selected.start || day.date === selected.end;
                const inRange = selected.start !== null && selected.end !== null && day.date > selected.start && day.date < selected.end;
                return (
                  <span key={day.date} role="gridcell" aria-selected={isEdge || inRange}>
                    <button
                      type="button"
                      data-date={day.date}
                      aria-label={longDate(day.date)}
                      disabled={!enabled}
                      tabIndex={day.date === focusDate ? 0 : -1}
                      onClick={() => onPick(day.date)}
                      className={cx(
                        'flex h-8 w-full items-center justify-center rounded-md text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/60',
                        'disabled:cursor-not-allowed disabled:text-slate-300 disabled:line-through dark:disabled:text-slate-600',
                        isEdge
                          ? 'bg-brand-600 font-semibold text-white dark:bg-brand-500 dark:text-slate-950'
                          : inRange
                            ? 'bg-brand-50 text-brand-900 dark:bg-brand-950 dark:text-brand-100'
                            : day.inMonth
                              ? 'text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800'
                              : 'text-slate-400 hover:bg-slate-100 dark:text-slate-500 dark:hover:bg-slate-800',
                      )}
                    >
                      {day.day}
                    </button>
                  </span>
                );
              })}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
