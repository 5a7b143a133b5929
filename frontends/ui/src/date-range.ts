// Rules of the date range picker (spec §2 presets and calendar, §5 input rules and messages, §9 bounds) as pure
// functions over business dates (YYYY-MM-DD strings, no time zone), so they are tested without a browser.

/** A business date, YYYY-MM-DD. */
export type IsoDate = string;

export interface DateRange {
  startDate: IsoDate;
  endDate: IsoDate;
}

export const DATE_RANGE_PRESETS = [
  'Current Month',
  'Previous Month',
  'Last 3 months',
  'Previous Quarter',
  'Previous 6 months',
  'Previous Year',
  'Year to date',
] as const;
export type DateRangePreset = (typeof DATE_RANGE_PRESETS)[number];
/** What a range that matches no preset is called. */
export const CUSTOM_DATE = 'Custom Date';

/** The typed form, MM/DD/YYYY: 10 characters. */
export const DATE_INPUT_LENGTH = 10;

export const dateRangeMessages = {
  invalid: 'Invalid date',
  startAfterEnd: 'Start date cannot be greater than End date',
  endBeforeStart: 'End date cannot be less than Start date',
  minimum: (date: string) => `Minimum selectable date is ${date}`,
  maximum: (date: string) => `Maximum selectable date is ${date}`,
} as const;

interface Parts {
  year: number;
  month: number; // 1–12
  day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function parts(iso: IsoDate): Parts {
  const [year = 0, month = 1, day = 1] = iso.split('-').map(Number);
  return { year, month, day };
}

function iso({ year, month, day }: Parts): IsoDate {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The local calendar day of `now` (what "today" means to the person at the screen). */
export function todayIso(now: Date = new Date()): IsoDate {
  return iso({ year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() });
}

/** First day of the month `offset` months from the month of `date`. */
function monthStart(date: IsoDate, offset = 0): IsoDate {
  const { year, month } = parts(date);
  const index = year * 12 + (month - 1) + offset;
  return iso({ year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 });
}

function monthEnd(date: IsoDate, offset = 0): IsoDate {
  const start = parts(monthStart(date, offset));
  return iso({ ...start, day: daysInMonth(start.year, start.month) });
}

/** The same day `years` years earlier or later; 29 February becomes 28 February in a common year. */
export function addYears(date: IsoDate, years: number): IsoDate {
  const { year, month, day } = parts(date);
  return iso({ year: year + years, month, day: Math.min(day, daysInMonth(year + years, month)) });
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const { year, month, day } = parts(date);
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return iso({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

/** Spec §9: the maximum selectable date is today, the minimum four years before today. */
export function dateBounds(today: IsoDate): { min: IsoDate; max: IsoDate } {
  return { min: addYears(today, -4), max: today };
}

/**
 * The range of a preset relative to `today`. Ranges that reach the current month end today (the maximum
 * selectable date): Current Month, Last 3 months (this month and the two before), Year to date. The others are
 * whole past periods: the previous month, the previous calendar quarter, the six whole months before this
 * one, the previous calendar year.
 */
export function presetRange(preset: DateRangePreset, today: IsoDate): DateRange {
  const { year, month } = parts(today);
  switch (preset) {
    case 'Current Month':
      return { startDate: monthStart(today), endDate: today };
    case 'Previous Month':
      return { startDate: monthStart(today, -1), endDate: monthEnd(today, -1) };
    case 'Last 3 months':
      return { startDate: monthStart(today, -2), endDate: today };
    case 'Previous Quarter': {
      const quarterStart = iso({ year, month: month - ((month - 1) % 3), day: 1 });
      return { startDate: monthStart(quarterStart, -3), endDate: monthEnd(quarterStart, -1) };
    }
    case 'Previous 6 months':
      return { startDate: monthStart(today, -6), endDate: monthEnd(today, -1) };
    case 'Previous Year':
      return { startDate: iso({ year: year - 1, month: 1, day: 1 }), endDate: iso({ year: year - 1, month: 12, day: 31 }) };
    case 'Year to date':
      return { startDate: iso({ year, month: 1, day: 1 }), endDate: today };
  }
}

/**
 * The reports' period when the URL names none: the year so far (the server's own default too). The reports remote and
 * the shell (which asks for the dashboard's widgets before the remote's code arrives) read it from here, so both ask
 * for the same period.
 */
export function defaultReportPeriod(today: IsoDate = todayIso()): DateRange {
  return presetRange('Year to date', today);
}

/** The preset a range is, or 'Custom Date'. */
export function presetOf(range: DateRange, today: IsoDate): DateRangePreset | typeof CUSTOM_DATE {
  return (
    DATE_RANGE_PRESETS.find((p) => {
      const r = presetRange(p, today);
      return r.startDate === range.startDate && r.endDate === range.endDate;
    }) ?? CUSTOM_DATE
  );
}

/**
 * Spec §5: the typed value keeps digits only, at most 8, with the slashes of MM/DD/YYYY inserted while typing
 * (at most 10 characters). A slash is appended after the month and the day when the person is typing forward,
 * never while deleting, so backspace is not stuck behind it.
 */
export function formatDateInput(value: string, previous = ''): string {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  let out = digits.slice(0, 2);
  if (digits.length > 2) out += `/${digits.slice(2, 4)}`;
  if (digits.length > 4) out += `/${digits.slice(4)}`;
  const typingForward = value.length > previous.length;
  if (typingForward && (digits.length === 2 || digits.length === 4)) out += '/';
  return out.slice(0, DATE_INPUT_LENGTH);
}

/** MM/DD/YYYY to YYYY-MM-DD, or null when it is not a real calendar date. */
export function parseDateInput(text: string): IsoDate | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return iso({ year, month, day });
}

/** YYYY-MM-DD to MM/DD/YYYY. */
export function toDateInput(date: IsoDate): string {
  const { year, month, day } = parts(date);
  return `${pad(month)}/${pad(day)}/${pad(year, 4)}`;
}

export interface DateRangeInputs {
  start: string;
  end: string;
}

export type DateRangeErrors = Partial<Record<keyof DateRangeInputs, string>>;

/**
 * The message of one typed date (a single-date picker, or either input of a range): nothing before 10
 * characters; then 'Invalid date', or the bound it passes, in MM/DD/YYYY. A disabled date is 'Invalid date'.
 */
export function validateDateInput(text: string, bounds: { min: IsoDate; max: IsoDate }, disabledDates: readonly IsoDate[] = []): string | undefined {
  if (text.length < DATE_INPUT_LENGTH) return undefined;
  const date = parseDateInput(text);
  if (date === null || disabledDates.includes(date)) return dateRangeMessages.invalid;
  if (date < bounds.min) return dateRangeMessages.minimum(toDateInput(bounds.min));
  if (date > bounds.max) return dateRangeMessages.maximum(toDateInput(bounds.max));
  return undefined;
}

const checkOne = validateDateInput;

/**
 * Spec §5 messages of the two inputs; an input says nothing until it holds 10 characters. When both dates are
 * valid but out of order, the input the person changed last carries the message.
 */
export function validateDateRangeInputs(inputs: DateRangeInputs, today: IsoDate, lastEdited: keyof DateRangeInputs = 'end'): DateRangeErrors {
  const bounds = dateBounds(today);
  const errors: DateRangeErrors = {};
  const start = checkOne(inputs.start, bounds);
  const end = checkOne(inputs.end, bounds);
  if (start) errors.start = start;
  if (end) errors.end = end;
  if (start || end) return errors;
  const startDate = parseDateInput(inputs.start);
  const endDate = parseDateInput(inputs.end);
  if (startDate !== null && endDate !== null && startDate > endDate) {
    if (lastEdited === 'start') errors.start = dateRangeMessages.startAfterEnd;
    else errors.end = dateRangeMessages.endBeforeStart;
  }
  return errors;
}

/** The range the inputs hold when Save may be pressed: both complete, no message. */
export function rangeFromInputs(inputs: DateRangeInputs, today: IsoDate, lastEdited?: keyof DateRangeInputs): DateRange | null {
  if (Object.keys(validateDateRangeInputs(inputs, today, lastEdited)).length > 0) return null;
  const startDate = parseDateInput(inputs.start);
  const endDate = parseDateInput(inputs.end);
  return startDate !== null && endDate !== null ? { startDate, endDate } : null;
}

// ── Calendar ─────────────────────────────────────────────────────────────────────────────────────────

export interface CalendarDay {
  date: IsoDate;
  day: number;
  /** False for the days of the previous and next month that fill the first and last week. */
  inMonth: boolean;
}

/** The weeks of one month, each Sunday to Saturday, including the neighbouring months' days that fill them. */
export function calendarWeeks(year: number, month: number): CalendarDay[][] {
  const first = iso({ year, month, day: 1 });
  const weekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay(); // 0 = Sunday
  const last = daysInMonth(year, month);
  const cells = Math.ceil((weekday + last) / 7) * 7;
  const weeks: CalendarDay[][] = [];
  for (let i = 0; i < cells; i++) {
    const date = addDays(first, i - weekday);
    const p = parts(date);
    if (i % 7 === 0) weeks.push([]);
    weeks[weeks.length - 1]?.push({ date, day: p.day, inMonth: p.month === month && p.year === year });
  }
  return weeks;
}

export const WEEKDAY_LABELS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'] as const;

/** A day can be picked when it lies within the bounds and is not one of the disabled dates. */
export function isDaySelectable(date: IsoDate, bounds: { min: IsoDate; max: IsoDate }, disabledDates: readonly IsoDate[] = []): boolean {
  return date >= bounds.min && date <= bounds.max && !disabledDates.includes(date);
}

/** The year list: the 10 years of the decade holding `year` (2020–2029 for 2026). */
export function yearList(year: number): number[] {
  const first = year - (((year % 10) + 10) % 10);
  return Array.from({ length: 10 }, (_, i) => first + i);
}

/** Month index arithmetic for the calendar's previous/next buttons. */
export function shiftMonth(year: number, month: number, by: number): { year: number; month: number } {
  const p = parts(monthStart(iso({ year, month, day: 1 }), by));
  return { year: p.year, month: p.month };
}

/**
 * What clicking a day does to the range being picked: the first click (or one after a complete range) starts
 * a new range; the second ends it, or starts again when it lies before the start.
 */
export function pickDay(current: { start: IsoDate | null; end: IsoDate | null }, date: IsoDate): { start: IsoDate; end: IsoDate | null } {
  if (current.start === null || current.end !== null || date < current.start) return { start: date, end: null };
  return { start: current.start, end: date };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export function monthName(month: number): string {
  return MONTHS[month - 1] ?? '';
}

/** 'November 23, 2026': a day button's accessible name. */
export function longDate(date: IsoDate): string {
  const { year, month, day } = parts(date);
  return `${monthName(month)} ${day}, ${year}`;
}

export function yearMonthOf(date: IsoDate): { year: number; month: number } {
  const { year, month } = parts(date);
  return { year, month };
}

/** Spec §9 default display format, MM/dd/yy ('11/23/26'). */
export function formatShortDate(date: IsoDate): string {
  const { year, month, day } = parts(date);
  return `${pad(month)}/${pad(day)}/${pad(year % 100)}`;
}
