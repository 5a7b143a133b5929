import { describe, expect, it } from 'vitest';
import {
  CUSTOM_DATE,
  DATE_RANGE_PRESETS,
  calendarWeeks,
  dateBounds,
  formatDateInput,
  formatShortDate,
  isDaySelectable,
  parseDateInput,
  pickDay,
  presetOf,
  presetRange,
  rangeFromInputs,
  shiftMonth,
  toDateInput,
  validateDateInput,
  validateDateRangeInputs,
  yearList,
} from '../src/index';

/** Types `text` one character at a time, the way the input sees it. */
function typeInto(text: string, start = ''): string {
  let value = start;
  for (const ch of text) value = formatDateInput(value + ch, value);
  return value;
}

describe('date range presets (spec §2), relative to today', () => {
  const today = '2026-11-23';
  it('gives each preset its period', () => {
    expect(presetRange('Current Month', today)).toEqual({ startDate: '2026-11-01', endDate: '2026-11-23' });
    expect(presetRange('Previous Month', today)).toEqual({ startDate: '2026-10-01', endDate: '2026-10-31' });
    expect(presetRange('Last 3 months', today)).toEqual({ startDate: '2026-09-01', endDate: '2026-11-23' });
    expect(presetRange('Previous Quarter', today)).toEqual({ startDate: '2026-07-01', endDate: '2026-09-30' });
    expect(presetRange('Previous 6 months', today)).toEqual({ startDate: '2026-05-01', endDate: '2026-10-31' });
    expect(presetRange('Previous Year', today)).toEqual({ startDate: '2025-01-01', endDate: '2025-12-31' });
    expect(presetRange('Year to date', today)).toEqual({ startDate: '2026-01-01', endDate: '2026-11-23' });
  });
  it('crosses year boundaries and month lengths', () => {
    expect(presetRange('Previous Month', '2026-01-15')).toEqual({ startDate: '2025-12-01', endDate: '2025-12-31' });
    expect(presetRange('Previous Month', '2024-03-31')).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' });
    expect(presetRange('Previous Quarter', '2026-02-10')).toEqual({ startDate: '2025-10-01', endDate: '2025-12-31' });
    expect(presetRange('Previous Quarter', '2026-04-01')).toEqual({ startDate: '2026-01-01', endDate: '2026-03-31' });
    expect(presetRange('Last 3 months', '2026-02-10')).toEqual({ startDate: '2025-12-01', endDate: '2026-02-10' });
    expect(presetRange('Previous 6 months', '2026-03-05')).toEqual({ startDate: '2025-09-01', endDate: '2026-02-28' });
  });
  it('names a range by its preset, otherwise Custom Date', () => {
    for (const preset of DATE_RANGE_PRESETS) expect(presetOf(presetRange(preset, today), today)).toBe(preset);
    expect(presetOf({ startDate: '2026-10-02', endDate: '2026-10-31' }, today)).toBe(CUSTOM_DATE);
    expect(CUSTOM_DATE).toBe('Custom Date');
  });
});

describe('date bounds (spec §9)', () => {
  it('are four years before today and today', () => {
    expect(dateBounds('2026-11-23')).toEqual({ min: '2022-11-23', max: '2026-11-23' });
    expect(dateBounds('2028-02-29')).toEqual({ min: '2024-02-29', max: '2028-02-29' });
    expect(dateBounds('2025-02-28').min).toBe('2021-02-28');
  });
});

describe('MM/DD/YYYY typing (spec §5)', () => {
  it('inserts the slashes while typing', () => {
    expect(typeInto('1')).toBe('1');
    expect(typeInto('11')).toBe('11/');
    expect(typeInto('1105')).toBe('11/05/');
    expect(typeInto('11052026')).toBe('11/05/2026');
  });
  it('keeps digits only and at most 10 characters', () => {
    expect(typeInto('110520261234')).toBe('11/05/2026');
    expect(typeInto('1a1-0x5')).toBe('11/05/');
    expect(formatDateInput('11052026999')).toBe('11/05/2026');
    expect(formatDateInput('11/05/2026').length).toBe(10);
  });
  it('formats a pasted value and lets backspace remove a slash', () => {
    expect(formatDateInput('12312025')).toBe('12/31/2025');
    expect(formatDateInput('11', '11/')).toBe('11');
    expect(formatDateInput('11/05', '11/05/')).toBe('11/05');
    // A slash typed by hand after the month is not doubled.
    expect(typeInto('11/05/2026')).toBe('11/05/2026');
  });
  it('parses only real calendar dates', () => {
    expect(parseDateInput('02/29/2024')).toBe('2024-02-29');
    expect(parseDateInput('02/29/2025')).toBeNull();
    expect(parseDateInput('13/01/2025')).toBeNull();
    expect(parseDateInput('00/10/2025')).toBeNull();
    expect(parseDateInput('04/31/2025')).toBeNull();
    expect(parseDateInput('4/3/2025')).toBeNull();
    expect(toDateInput('2026-01-05')).toBe('01/05/2026');
    expect(formatShortDate('2026-01-05')).toBe('01/05/26');
    expect(formatShortDate('2009-12-31')).toBe('12/31/09');
  });
});

describe('date range messages (spec §5)', () => {
  const today = '2026-11-23';
  it('says nothing before 10 characters', () => {
    expect(validateDateRangeInputs({ start: '13/4', end: '' }, today)).toEqual({});
    expect(rangeFromInputs({ start: '11/01/2026', end: '11/2' }, today)).toBeNull();
  });
  it('refuses an impossible date', () => {
    expect(validateDateRangeInputs({ start: '02/30/2026', end: '11/01/2026' }, today)).toEqual({ start: 'Invalid date' });
    expect(validateDateRangeInputs({ start: '11/01/2026', end: '19/01/2026' }, today)).toEqual({ end: 'Invalid date' });
  });
  it('puts the order message on the input changed last', () => {
    const inputs = { start: '11/20/2026', end: '11/10/2026' };
    expect(validateDateRangeInputs(inputs, today, 'start')).toEqual({ start: 'Start date cannot be greater than End date' });
    expect(validateDateRangeInputs(inputs, today, 'end')).toEqual({ end: 'End date cannot be less than Start date' });
  });
  it('names the bounds in MM/DD/YYYY', () => {
    expect(validateDateRangeInputs({ start: '11/22/2022', end: '11/23/2026' }, today)).toEqual({ start: 'Minimum selectable date is 11/23/2022' });
    expect(validateDateRangeInputs({ start: '11/01/2026', end: '11/24/2026' }, today)).toEqual({ end: 'Maximum selectable date is 11/23/2026' });
    expect(validateDateRangeInputs({ start: '11/23/2022', end: '11/23/2026' }, today)).toEqual({});
  });
  it('gives the range only when Save may be pressed', () => {
    expect(rangeFromInputs({ start: '11/01/2026', end: '11/23/2026' }, today)).toEqual({ startDate: '2026-11-01', endDate: '2026-11-23' });
    expect(rangeFromInputs({ start: '11/05/2026', end: '11/05/2026' }, today)).toEqual({ startDate: '2026-11-05', endDate: '2026-11-05' });
    expect(rangeFromInputs({ start: '11/24/2026', end: '11/24/2026' }, today)).toBeNull();
  });
});

describe('single date input (spec §2, §5)', () => {
  const bounds = { min: '2026-01-01', max: '2026-12-31' };
  it('says nothing before 10 characters, then the first rule broken', () => {
    expect(validateDateInput('02/3', bounds)).toBeUndefined();
    expect(validateDateInput('02/30/2026', bounds)).toBe('Invalid date');
    expect(validateDateInput('12/31/2025', bounds)).toBe('Minimum selectable date is 01/01/2026');
    expect(validateDateInput('01/01/2027', bounds)).toBe('Maximum selectable date is 12/31/2026');
    expect(validateDateInput('03/15/2026', bounds)).toBeUndefined();
    expect(validateDateInput('03/15/2026', bounds, ['2026-03-15'])).toBe('Invalid date');
  });
});

describe('calendar (spec §2)', () => {
  it('starts weeks on Sunday and fills them with the neighbouring months', () => {
    const weeks = calendarWeeks(2026, 11); // 1 November 2026 is a Sunday
    expect(weeks).toHaveLength(5);
    expect(weeks[0]?.[0]).toEqual({ date: '2026-11-01', day: 1, inMonth: true });
    expect(weeks[4]?.map((d) => d.date)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05']);
    expect(weeks[4]?.filter((d) => !d.inMonth)).toHaveLength(5);
    const february = calendarWeeks(2025, 2); // 1 February 2025 is a Saturday
    expect(february[0]?.map((d) => d.inMonth)).toEqual([false, false, false, false, false, false, true]);
    expect(february[0]?.[0]?.date).toBe('2025-01-26');
    for (const week of [...weeks, ...february]) expect(week).toHaveLength(7);
  });
  it('disables days outside the bounds and the disabled dates', () => {
    const bounds = dateBounds('2026-11-23');
    expect(isDaySelectable('2026-11-23', bounds)).toBe(true);
    expect(isDaySelectable('2026-11-24', bounds)).toBe(false);
    expect(isDaySelectable('2022-11-22', bounds)).toBe(false);
    expect(isDaySelectable('2026-11-10', bounds, ['2026-11-10'])).toBe(false);
  });
  it('lists 10 years and moves month by month', () => {
    expect(yearList(2026)).toEqual([2020, 2021, 2022, 2023, 2024, 2025, 2026, 2027, 2028, 2029]);
    expect(yearList(2030)[0]).toBe(2030);
    expect(shiftMonth(2026, 1, -1)).toEqual({ year: 2025, month: 12 });
    expect(shiftMonth(2026, 12, 1)).toEqual({ year: 2027, month: 1 });
  });
  it('picks a start, then an end, and restarts before the start', () => {
    const first = pickDay({ start: null, end: null }, '2026-11-05');
    expect(first).toEqual({ start: '2026-11-05', end: null });
    expect(pickDay(first, '2026-11-09')).toEqual({ start: '2026-11-05', end: '2026-11-09' });
    expect(pickDay(first, '2026-11-01')).toEqual({ start: '2026-11-01', end: null });
    expect(pickDay({ start: '2026-11-05', end: '2026-11-09' }, '2026-11-20')).toEqual({ start: '2026-11-20', end: null });
  });
});
