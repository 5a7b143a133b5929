import type { Category } from '@ledgerline/api';
import { filterOptions, groupOptions } from '@ledgerline/ui';
import { describe, expect, it } from 'vitest';
import { categoryOptions } from '../src/transactions/category-options';

let next = 0;
function category(name: string, coaId: number, path: string[], extra: Partial<Category> = {}): Category {
  next++;
  return {
    id: extra.id ?? `c${next}`,
    name,
    coaId,
    type: 'Expenses',
    level: 3,
    balance: 0,
    group: '',
    tag: '',
    parentId: 'g',
    isUserCreated: false,
    qboSynced: false,
    bankAccountId: null,
    systemKey: null,
    path: { ids: [...path, name].map((_, i) => `p${i}`), names: [...path, name] },
    ...extra,
  };
}

describe('category options (the chart: class group → group → category)', () => {
  const categories = [
    category('Software and Subscriptions', 60500, ['Expenses', 'Operating Expenses']),
    category('Rent', 60100, ['Expenses', 'Operating Expenses'], { id: 'rent' }),
    category('Office rent', 60110, ['Expenses', 'Operating Expenses', 'Rent'], { level: 4, parentId: 'rent' }),
    category('Uncategorised Expense', 69999, ['Expenses', 'Uncategorised']),
    category('Sales', 40100, ['Income', 'Revenue'], { type: 'Income' }),
    category('Advertising', 60200, ['Expenses', 'Operating Expenses']),
  ];

  it('lists groups in chart order, categories by name within a group, a sub-category after its category', () => {
    const options = categoryOptions(categories);
    expect(options.map((o) => [o.title, o.group?.join(' / '), o.depth])).toEqual([
      ['Sales', 'Income / Revenue', 0],
      ['Advertising', 'Expenses / Operating Expenses', 0],
      ['Rent', 'Expenses / Operating Expenses', 0],
      ['Office rent', 'Expenses / Operating Expenses', 1],
      ['Software and Subscriptions', 'Expenses / Operating Expenses', 0],
      ['Uncategorised Expense', 'Expenses / Uncategorised', 0],
    ]);
  });

  it('a search keeps the class group and group headers of what matches', () => {
    const sections = groupOptions(filterOptions(categoryOptions(categories), 'soft'));
    expect(sections.map((s) => [s.headers.map((h) => h.title), s.options.map((o) => o.title)])).toEqual([
      [['Expenses', 'Operating Expenses'], ['Software and Subscriptions']],
    ]);
  });
});
