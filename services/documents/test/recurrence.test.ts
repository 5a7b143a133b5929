// The recurrence's pure rules: the dates of every interval, month-end clamping and leap years, the three ends
// (never, on a date, after a count), and the recur body's rules with their messages (spec §5, §9).
import { describe, expect, it } from 'vitest';
import {
  addMonthsClamped,
  cleanRecur,
  kindOfEntityType,
  nextOccurrences,
  nthDate,
  occurrenceDate,
  occurrencesUntil,
  RECUR_MSG,
  type Schedule,
} from '../src/domain/recurrence.js';

const s = (o: Partial<Schedule>): Schedule => ({ startDate: '2027-01-15', interval: 'monthly', endDate: '', count: 0, ...o });
const dates = (sc: Schedule, n: number) => nextOccurrences(sc, 0, n).map((o) => o.date);

describe('schedule dates', () => {
  it('every interval steps from the start date', () => {
    expect(dates(s({ interval: 'daily', startDate: '2027-12-30' }), 4)).toEqual(['2027-12-30', '2027-12-31', '2028-01-01', '2028-01-02']);
    expect(dates(s({ interval: 'weekly', startDate: '2028-02-22' }), 3)).toEqual(['2028-02-22', '2028-02-29', '2028-03-07']);
    expect(dates(s({ interval: 'monthly' }), 3)).toEqual(['2027-01-15', '2027-02-15', '2027-03-15']);
    expect(dates(s({ interval: 'quarterly', startDate: '2027-11-30' }), 4)).toEqual(['2027-11-30', '2028-02-29', '2028-05-30', '2028-08-30']);
    expect(dates(s({ interval: 'yearly', startDate: '2027-06-01' }), 3)).toEqual(['2027-06-01', '2028-06-01', '2029-06-01']);
  });

  it('month end is clamped from the start date, never drifting: Jan 31 → Feb 28 / 29 → Mar 31 → Apr 30', () => {
    expect(dates(s({ startDate: '2027-01-31' }), 5)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    expect(dates(s({ startDate: '2028-01-31' }), 3)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
    expect(dates(s({ startDate: '2027-08-30' }), 8).slice(5)).toEqual(['2028-01-30', '2028-02-29', '2028-03-30']);
    expect(addMonthsClamped('2027-12-31', 2)).toBe('2028-02-29');
    expect(addMonthsClamped('2027-03-31', -1)).toBe('2027-02-28');
  });

  it('leap years: Feb 29 yearly is Feb 28 in common years and Feb 29 again in leap years', () => {
    expect(dates(s({ interval: 'yearly', startDate: '2028-02-29' }), 5)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']);
    expect(nthDate({ startDate: '2028-02-29', interval: 'monthly' }, 12)).toBe('2029-02-28');
    expect(nthDate({ startDate: '2028-02-28', interval: 'daily' }, 1)).toBe('2028-02-29');
    expect(nthDate({ startDate: '2027-02-28', interval: 'daily' }, 1)).toBe('2027-03-01');
  });

  it('ends never, on a date (inclusive) or after a count', () => {
    expect(nextOccurrences(s({}), 0, 100)).toHaveLength(100);
    expect(dates(s({ endDate: '2027-04-15' }), 100)).toEqual(['2027-01-15', '2027-02-15', '2027-03-15', '2027-04-15']);
    expect(dates(s({ endDate: '2027-04-14' }), 100)).toEqual(['2027-01-15', '2027-02-15', '2027-03-15']);
    expect(dates(s({ count: 2 }), 100)).toEqual(['2027-01-15', '2027-02-15']);
    expect(occurrenceDate(s({ count: 2 }), 1)).toBe('2027-02-15');
    expect(occurrenceDate(s({ count: 2 }), 2)).toBeUndefined();
    expect(occurrenceDate(s({}), -1)).toBeUndefined();
  });

  it('dates up to a day, from an index', () => {
    expect(occurrencesUntil(s({}), '2027-03-14')).toEqual([
      { index: 0, date: '2027-01-15' },
      { index: 1, date: '2027-02-15' },
    ]);
    expect(occurrencesUntil(s({}), '2027-03-15', 1)).toEqual([
      { index: 1, date: '2027-02-15' },
      { index: 2, date: '2027-03-15' },
    ]);
    expect(occurrencesUntil(s({}), '2027-01-14')).toEqual([]);
  });
});

describe('cleanRecur', () => {
  it('defaults: monthly, never ending, Active; the end type follows what is given', () => {
    expect(cleanRecur({ recurringStartDate: '2027-01-31' })).toEqual({
      problems: [],
      value: { schedule: { startDate: '2027-01-31', interval: 'monthly', endDate: '', count: 0 }, endType: 'never', activity: 'Active' },
    });
    expect(cleanRecur({ recurringStartDate: '2027-01-31', recurringEndDate: '2027-12-31', interval: 'Weekly' }).value).toEqual({
      schedule: { startDate: '2027-01-31', interval: 'weekly', endDate: '2027-12-31', count: 0 },
      endType: 'date',
      activity: 'Active',
    });
    expect(cleanRecur({ recurringStartDate: '2027-01-31', recurringCount: 3, activity: 'Paused' }).value).toEqual({
      schedule: { startDate: '2027-01-31', interval: 'monthly', endDate: '', count: 3 },
      endType: 'count',
      activity: 'Paused',
    });
  });

  it("'Please fill all recurring details' names what the chosen end needs", () => {
    expect(cleanRecur({}).problems).toEqual([{ field: 'recurringStartDate', message: RECUR_MSG.fillAll }]);
    expect(cleanRecur({ recurringStartDate: '2027-01-01', recurringEndType: 'date' }).problems).toEqual([
      { field: 'recurringEndDate', message: 'Please fill all recurring details' },
    ]);
    expect(cleanRecur({ recurringStartDate: '2027-01-01', recurringEndType: 'count' }).problems).toEqual([
      { field: 'recurringCount', message: 'Please fill all recurring details' },
    ]);
  });

  it('every other problem, each naming its field', () => {
    expect(cleanRecur({ recurringStartDate: '2027-02-30', interval: 'hourly', recurringEndType: 'soon', activity: 'Stopped' }).problems).toEqual([
      { field: 'recurringStartDate', message: 'Invalid recurringStartDate format' },
      { field: 'interval', message: RECUR_MSG.interval },
      { field: 'recurringEndType', message: RECUR_MSG.endType },
      { field: 'activity', message: RECUR_MSG.activity },
    ]);
    expect(cleanRecur({ recurringStartDate: '2027-02-01', recurringEndDate: '2027-01-31' }).problems).toEqual([
      { field: 'recurringStartDate', message: 'Start date cannot be greater than End date' },
    ]);
    expect(cleanRecur({ recurringStartDate: '2027-02-01', recurringEndDate: '01/02/2027' }).problems).toEqual([
      { field: 'recurringEndDate', message: 'Invalid recurringEndDate format' },
    ]);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(cleanRecur({ recurringStartDate: '2027-02-01', recurringCount: bad }).problems).toEqual([
        { field: 'recurringCount', message: 'Recurrence occurrence count must be a positive integer' },
      ]);
    }
    expect(cleanRecur({ recurringStartDate: '2027-02-01', recurringEndDate: '2027-05-01', recurringCount: 2 }).problems).toEqual([
      { field: 'recurringCount', message: RECUR_MSG.endDateAndCount },
    ]);
    expect(cleanRecur({ recurringStartDate: '2027-02-01', recurringEndType: 'never', recurringCount: 2 }).problems).toEqual([
      { field: 'recurringCount', message: RECUR_MSG.endDateAndCount },
    ]);
  });

  it('entityType names a kind, in any case', () => {
    expect(kindOfEntityType('Bill')).toBe('bill');
    expect(kindOfEntityType('INVOICE')).toBe('invoice');
    expect(kindOfEntityType('ManualEntry')).toBe('manual_entry');
    expect(kindOfEntityType('manual_entry')).toBe('manual_entry');
    expect(kindOfEntityType('Vendor')).toBeUndefined();
  });
});
