import { describe, expect, it } from 'vitest';
import {
  addOptionLabel,
  filterOptions,
  formatMoney,
  formatRelativeTime,
  formatShortMoney,
  noticeSpace,
  noticeSpaceVariable,
  resolveNotice,
  shortId,
} from '../src/index';

describe('format helpers (spec §9)', () => {
  it('formats USD in en-US with 2 decimals', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(-0.456)).toBe('-$0.46');
  });
  it('shortens at 1e3, 1e6 and 1e9', () => {
    expect(formatShortMoney(999)).toBe('$999.00');
    expect(formatShortMoney(1000)).toBe('$1k');
    expect(formatShortMoney(1530)).toBe('$1.53k');
    expect(formatShortMoney(2_500_000)).toBe('$2.5m');
    expect(formatShortMoney(-3_000_000_000)).toBe('-$3b');
  });
  it('keeps the last 6 characters of an id, upper-cased', () => {
    expect(shortId('0190b2a4-7c1e-7aa0-9f1c-4c1d2e3f4a5b')).toBe('3F4A5B');
  });
});

describe('dropdown search (spec §5)', () => {
  const options = [
    { value: '1', title: 'Office Supplies' },
    { value: '2', title: 'Software' },
  ];
  it('matches a case-insensitive substring of the title', () => {
    expect(filterOptions(options, 'SOFT').map((o) => o.value)).toEqual(['2']);
    expect(filterOptions(options, 'ice sup').map((o) => o.value)).toEqual(['1']);
    expect(filterOptions(options, '')).toHaveLength(2);
    expect(filterOptions(options, 'travel')).toEqual([]);
  });
  it('labels the add option', () => {
    expect(addOptionLabel('Travel')).toBe('Add: "Travel"');
  });
});

describe('notice rules (spec §8)', () => {
  it('shows errors at the bottom with a timeout by default', () => {
    expect(resolveNotice({ message: 'x' })).toMatchObject({ type: 'error', placement: 'bottom', duration: 5000 });
  });
  it('turns a 401 into a warning at the top', () => {
    expect(resolveNotice({ message: 'Session expired', statusCode: 401 })).toMatchObject({ type: 'warning', placement: 'top' });
    expect(resolveNotice({ message: 'x', type: 'warning' })).toMatchObject({ placement: 'top' });
  });
  it('keeps custom notices at the bottom without a timeout', () => {
    expect(resolveNotice({ message: 'Please wait while we finish uploading', title: 'Importing', type: 'custom' })).toMatchObject({
      placement: 'bottom',
      duration: null,
    });
  });
  it('tells dialogs how much of the window edge the notices take: their height, offset and gap, none when empty', () => {
    expect(noticeSpace(0)).toBe('0px');
    expect(noticeSpace(61.2)).toBe('86px');
    expect([noticeSpaceVariable('top'), noticeSpaceVariable('bottom')]).toEqual(['--notice-space-top', '--notice-space-bottom']);
  });
});

describe('relative time (spec §9)', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('shows days, hours, minutes or seconds ago', () => {
    expect(formatRelativeTime('2026-11-23T11:59:58Z', now)).toBe('2 seconds ago');
    expect(formatRelativeTime('2026-11-23T11:59:00Z', now)).toBe('1 minute ago');
    expect(formatRelativeTime(new Date('2026-11-23T09:00:00Z'), now)).toBe('3 hours ago');
    expect(formatRelativeTime('2026-11-21T12:00:00Z', now)).toBe('2 days ago');
    expect(formatRelativeTime('2026-11-23T12:00:05Z', now)).toBe('0 seconds ago');
  });
});
