// The one checker of lines booked from another service's document (credits, bills, invoices, manual journals).
import { newId } from '@ledgerline/platform';
import { describe, expect, it } from 'vitest';
import { checkSourcedLines, lineCategoryProblems } from '../src/domain/sourced-lines.js';

describe('checkSourcedLines', () => {
  it('names the source type alone when it is not one of the types, else each line whose category id is not a UUID', () => {
    const types = ['VendorCredit', 'CreditMemo'] as const;
    expect(checkSourcedLines({ sourceType: 'Bill', lines: [{ categoryId: 'x' }] }, types, 'sourceType must be one of: VendorCredit, CreditMemo')).toEqual({
      problems: [{ field: 'sourceType', message: 'sourceType must be one of: VendorCredit, CreditMemo' }],
    });
    expect(checkSourcedLines({ sourceType: 'CreditMemo', lines: [{ categoryId: newId() }, { categoryId: 'x' }] }, types, '')).toEqual({
      type: 'CreditMemo',
      problems: [{ field: 'lineItems.1.categoryId', message: 'lineItems.1.categoryId must be a UUID' }],
    });
    expect(checkSourcedLines({ sourceType: 'VendorCredit', lines: [] }, types, '')).toEqual({ type: 'VendorCredit', problems: [] });
  });
});

describe('lineCategoryProblems', () => {
  const found = new Map([
    ['rent', { id: 'rent', level: 3 }],
    ['group', { id: 'group', level: 2 }],
    ['ap', { id: 'ap', level: 3 }],
  ]);
  const party = { id: 'ap', name: 'Accounts Payable' };
  it('the first category the chart does not hold is not found, before any other problem', () => {
    expect(lineCategoryProblems([{ categoryId: 'group' }, { categoryId: 'theirs' }, { categoryId: 'gone' }], found, party)).toEqual({
      notFound: { field: 'lineItems.1.categoryId', message: 'Category not found' },
      problems: [],
    });
  });
  it('refuses a group and the party account itself; with no party account, that account is a category like another', () => {
    expect(lineCategoryProblems([{ categoryId: 'rent' }, { categoryId: 'group' }, { categoryId: 'ap' }], found, party)).toEqual({
      problems: [
        { field: 'lineItems.1.categoryId', message: 'lineItems.1.categoryId must be a category or sub-category, not a category type or group' },
        { field: 'lineItems.2.categoryId', message: 'lineItems.2.categoryId cannot be Accounts Payable itself' },
      ],
    });
    expect(lineCategoryProblems([{ categoryId: 'rent' }, { categoryId: 'ap' }], found, undefined)).toEqual({ problems: [] });
  });
});
