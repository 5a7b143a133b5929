import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILTERS_STORAGE_KEY, readStoredFilterSet, readStoredFilterSets, writeStoredFilterSet } from '../src/stored-filters';

/** A Storage of the browser's shape, in memory (the tests run without a DOM). */
class MemoryStorage {
  items = new Map<string, string>();
  full = false;
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (this.full) throw new Error('QuotaExceededError');
    this.items.set(key, value);
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

describe("each screen's stored filter set (spec §3), under one root key (spec §9)", () => {
  it('keeps each screen key apart, and removes one without touching the others', () => {
    writeStoredFilterSet('profitLoss', { groups: ['Payroll'] });
    writeStoredFilterSet('transactionsAll', { flow: 'inflow' });
    expect(JSON.parse(storage.getItem(FILTERS_STORAGE_KEY)!)).toEqual({ profitLoss: { groups: ['Payroll'] }, transactionsAll: { flow: 'inflow' } });
    writeStoredFilterSet('transactionsAll', undefined);
    expect(readStoredFilterSets()).toEqual({ profitLoss: { groups: ['Payroll'] } });
    expect(readStoredFilterSet('transactionsAll')).toBeUndefined();
  });

  it('reads nothing from storage that holds something else, and survives a full storage', () => {
    for (const junk of ['not json', '[1,2]', '42', 'null']) {
      storage.items.set(FILTERS_STORAGE_KEY, junk);
      expect(readStoredFilterSets(), junk).toEqual({});
    }
    storage.full = true;
    expect(() => writeStoredFilterSet('dashboard', { tags: [] })).not.toThrow();
  });
});
