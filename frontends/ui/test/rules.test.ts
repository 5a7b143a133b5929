import { describe, expect, it } from 'vitest';
import {
  addOptionLabel,
  filterOptions,
  formatMoney,
  formatRelativeTime,
  formatShortMoney,
  noticeEdges,
  noticeSpace,
  noticeSpaces,
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

describe('notices yield to an open dropdown (decision 0041)', () => {
  const phone = { width: 390, height: 844 };
  // Two stacked notices at the bottom take 150 px: from y 678 to 828, x 16 to 374.
  const heights = { top: 0, bottom: 150 };
  it('keep their edges with no panel open, or with one clear of them', () => {
    expect(noticeEdges(heights, [], phone)).toEqual({ top: 'top', bottom: 'bottom' });
    expect(noticeEdges(heights, [{ x: 16, y: 400, width: 358, height: 277 }], phone)).toEqual({ top: 'top', bottom: 'bottom' });
    // Beside the column of notices (a wide window): no overlap.
    expect(noticeEdges(heights, [{ x: 0, y: 700, width: 300, height: 100 }], { width: 1440, height: 900 })).toEqual({ top: 'top', bottom: 'bottom' });
  });
  it('move to the other edge, after the notices there, when an open panel would be under them', () => {
    expect(noticeEdges(heights, [{ x: 16, y: 560, width: 358, height: 256 }], phone)).toEqual({ top: 'top', bottom: 'top' });
    expect(noticeEdges({ top: 60, bottom: 150 }, [{ x: 16, y: 560, width: 358, height: 256 }], phone)).toEqual({ top: 'top', bottom: 'top' });
    // A panel flipped above its field, near the top, sends the top's warnings down.
    expect(noticeEdges({ top: 60, bottom: 0 }, [{ x: 16, y: 20, width: 200, height: 256 }], phone)).toEqual({ top: 'bottom', bottom: 'bottom' });
  });
  it('hide while a panel reaches both edges', () => {
    expect(noticeEdges(heights, [{ x: 16, y: 10, width: 358, height: 820 }], phone)).toEqual({ top: 'top', bottom: 'hidden' });
  });
  it('tell dialogs how far they reach from each edge where they are drawn', () => {
    expect(noticeSpaces({ top: 60, bottom: 150 }, { top: 'top', bottom: 'bottom' })).toEqual({ top: '84px', bottom: '174px' });
    expect(noticeSpaces({ top: 60, bottom: 150 }, { top: 'top', bottom: 'top' })).toEqual({ top: '242px', bottom: '0px' });
    expect(noticeSpaces({ top: 60, bottom: 150 }, { top: 'top', bottom: 'hidden' })).toEqual({ top: '84px', bottom: '0px' });
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
