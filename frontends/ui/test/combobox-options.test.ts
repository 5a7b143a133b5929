import { describe, expect, it } from 'vitest';
import { addOptionText, filterOptions, groupOptions, startsSearch, type ComboboxOptionItem } from '../src/index';

const chart: ComboboxOptionItem[] = [
  { value: 'cash', title: 'Cash on Hand', group: ['Assets', 'Current Assets'] },
  { value: 'ue', title: 'Uncategorised Expense', group: ['Expenses', 'Uncategorised'] },
  { value: 'rent', title: 'Rent', group: ['Expenses', 'Operating Expenses'] },
  { value: 'soft', title: 'Software and Subscriptions', group: ['Expenses', 'Operating Expenses'] },
  { value: 'soft-ai', title: 'AI tools', group: ['Expenses', 'Operating Expenses'], depth: 1 },
  { value: 'sales', title: 'Sales', group: ['Income', 'Operating Income'] },
  // Listed late, it still joins its group's section.
  { value: 'fees', title: 'Bank Fees', group: ['Expenses', 'Uncategorised'] },
];

const titles = (sections: ReturnType<typeof groupOptions<ComboboxOptionItem>>) =>
  sections.map((s) => ({ headers: s.headers.map((h) => `${h.level}:${h.title}`), options: s.options.map((o) => o.value) }));

describe('grouped options (class group → group → category)', () => {
  it('lists each group once under its headers, in the order the options first name them, and draws a class header once', () => {
    expect(titles(groupOptions(chart))).toEqual([
      { headers: ['0:Assets', '1:Current Assets'], options: ['cash'] },
      { headers: ['0:Expenses', '1:Uncategorised'], options: ['ue', 'fees'] },
      { headers: ['1:Operating Expenses'], options: ['rent', 'soft', 'soft-ai'] },
      { headers: ['0:Income', '1:Operating Income'], options: ['sales'] },
    ]);
  });

  it("keeps only the headers of a search's matches", () => {
    expect(titles(groupOptions(filterOptions(chart, 'soft')))).toEqual([{ headers: ['0:Expenses', '1:Operating Expenses'], options: ['soft'] }]);
    expect(titles(groupOptions(filterOptions(chart, 'ES')))).toEqual([
      { headers: ['0:Income', '1:Operating Income'], options: ['sales'] },
      { headers: ['0:Expenses', '1:Uncategorised'], options: ['fees'] },
    ]);
    expect(groupOptions(filterOptions(chart, 'nothing like it'))).toEqual([]);
  });

  it('puts options without a group first, without headers', () => {
    const sections = groupOptions([
      { value: 'a', title: 'A', group: ['X', 'Y'] },
      { value: 'b', title: 'B' },
    ]);
    expect(titles(sections)).toEqual([
      { headers: [], options: ['b'] },
      { headers: ['0:X', '1:Y'], options: ['a'] },
    ]);
  });
});

describe('search and the add option (spec §5)', () => {
  it('is a case-insensitive contains match on the title only', () => {
    expect(filterOptions(chart, 'SOFT').map((o) => o.value)).toEqual(['soft']);
    expect(filterOptions(chart, '  soft ').map((o) => o.value)).toEqual(['soft']);
    // Header names are not searched: "Operating" names no category.
    expect(filterOptions(chart, 'operating')).toEqual([]);
    expect(filterOptions(chart, '')).toHaveLength(chart.length);
  });

  it('offers Add: "{text}" only when nothing matches and creating is allowed', () => {
    expect(addOptionText('Coworking ', 0, true)).toBe('Coworking');
    expect(addOptionText('soft', 1, true)).toBeNull();
    expect(addOptionText('Coworking', 0, false)).toBeNull();
    expect(addOptionText('   ', 0, true)).toBeNull();
  });
});

describe('the first keystroke starts a fresh search', () => {
  it('counts printable characters and deleting, not navigation or shortcuts', () => {
    const key = (k: string, mods: { ctrlKey?: boolean; metaKey?: boolean } = {}) => startsSearch({ key: k, ctrlKey: false, metaKey: false, ...mods });
    expect(key('s')).toBe(true);
    expect(key('S')).toBe(true);
    expect(key(' ')).toBe(true);
    expect(key('Backspace')).toBe(true);
    expect(key('Delete')).toBe(true);
    for (const k of ['ArrowDown', 'ArrowUp', 'Enter', 'Escape', 'Tab', 'Home', 'Shift']) expect(key(k), k).toBe(false);
    expect(key('a', { ctrlKey: true })).toBe(false);
    expect(key('c', { metaKey: true })).toBe(false);
  });
});
