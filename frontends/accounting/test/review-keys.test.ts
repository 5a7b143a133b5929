import { describe, expect, it } from 'vitest';
import { REVIEW_KEYS, nextFocus } from '../src/transactions/review-keys';

describe('keyboard review of transactions', () => {
  it('moves the focus one row at a time and stays inside the list', () => {
    expect(nextFocus(null, 1, 5)).toBe(0);
    expect(nextFocus(null, -1, 5)).toBe(4);
    expect(nextFocus(0, 1, 5)).toBe(1);
    expect(nextFocus(4, 1, 5)).toBe(4);
    expect(nextFocus(0, -1, 5)).toBe(0);
    expect(nextFocus(3, 1, 0)).toBeNull();
  });

  it('gives each key one action, and the sheet lists every action', () => {
    const keys = REVIEW_KEYS.flatMap((k) => k.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(REVIEW_KEYS.map((k) => k.action).sort()).toEqual(['categorise', 'clear', 'finalize', 'help', 'next', 'open', 'previous', 'select']);
    for (const k of ['j', 'k', 'ArrowDown', 'ArrowUp', 'c', 'x', 'f', '?', 'Escape']) expect(keys).toContain(k);
  });
});
