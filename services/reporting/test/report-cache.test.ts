import { describe, expect, it } from 'vitest';
import { parseQuery } from '../src/domain/query.js';
import { ReportCache } from '../src/usecases/report-cache.js';

const query = (over: Partial<Record<string, string>> = {}) =>
  parseQuery({
    startDate: '2026-01-01',
    endDate: '2026-03-31',
    breakdown: 'month',
    periodicity: '',
    groups: '',
    tags: '',
    excludeZeroes: '',
    seq: '',
    ...over,
  });

describe('report cache', () => {
  it('serves a report only at the version and chart generation it was built on', () => {
    const c = new ReportCache(10);
    const key = ReportCache.key('pl', 'w1', query());
    c.set(key, 7, 'g1', 'report at 7');
    expect(c.get(key, 7, 'g1')).toBe('report at 7');
    expect(c.get(key, 8, 'g1')).toBeUndefined();
    c.set(key, 8, 'g1', 'report at 8');
    expect(c.get(key, 8, 'g2')).toBeUndefined();
    const tag = ReportCache.etag(key, 8, 'g1', true);
    expect(ReportCache.etag(key, 8, 'g1', true)).toBe(tag);
    for (const other of [
      ReportCache.etag(key, 9, 'g1', true),
      ReportCache.etag(key, 8, 'g2', true),
      ReportCache.etag(key, 8, 'g1', false),
      ReportCache.etag(ReportCache.key('pl', 'w2', query()), 8, 'g1', true),
    ])
      expect(other).not.toBe(tag);
  });

  it('every filter, the period, the workspace and the report are part of the key; seq is not', () => {
    const base = ReportCache.key('pl', 'w1', query());
    for (const other of [
      ReportCache.key('bs', 'w1', query()),
      ReportCache.key('pl', 'w2', query()),
      ...[{ endDate: '2026-02-28' }, { periodicity: 'quarterly' }, { groups: 'ops' }, { tags: 'web' }, { excludeZeroes: 'true' }].map((o) =>
        ReportCache.key('pl', 'w1', query(o)),
      ),
    ]) {
      expect(other).not.toBe(base);
    }
    expect(ReportCache.key('pl', 'w1', query({ seq: '42' }))).toBe(base);
  });

  it('keeps at most its size, dropping the least recently used; size 0 keeps nothing', () => {
    const c = new ReportCache(2);
    c.set('a', 1, 'g', 'A');
    c.set('b', 1, 'g', 'B');
    expect(c.get('a', 1, 'g')).toBe('A');
    c.set('c', 1, 'g', 'C');
    expect(c.has('b')).toBe(false);
    expect([c.get('a', 1, 'g'), c.get('c', 1, 'g')]).toEqual(['A', 'C']);
    const off = new ReportCache(0);
    off.set('a', 1, 'g', 'A');
    expect(off.has('a')).toBe(false);
  });
});
