// The vendor and customer field rules, list paging and merge rules (src/domain/parties.ts): pure.
import { describe, expect, it } from 'vitest';
import { cleanListQuery, cleanParty, mergeProblems, metaDataOf, MSG, pageMeta } from '../src/domain/parties.js';

const ID = '0192f0e4-7a1b-7c3d-8e4f-5a6b7c8d9e0f';
const ID2 = '0192f0e4-7a1b-7c3d-8e4f-5a6b7c8d9e10';

describe('cleanParty', () => {
  it('trims text, lower-cases the email, writes the EIN as XX-XXXXXXX', () => {
    expect(
      cleanParty(
        {
          name: ' Acme ',
          email: ' AP@Acme.COM ',
          ein: '12 345 6789',
          description: ' x ',
          is1099Eligible: true,
          status: 'inactive',
          metaDataJson: '{"a":"b","n":1}',
        },
        true,
      ),
    ).toEqual({
      value: { name: 'Acme', email: 'ap@acme.com', ein: '12-3456789', description: 'x', is1099Eligible: true, status: 'inactive', metaData: { a: 'b', n: 1 } },
      problems: [],
    });
  });

  it('requires a name on create only; an absent field is left alone on update; empty email and EIN clear them', () => {
    expect(cleanParty({}, true).problems).toEqual([{ field: 'name', message: MSG.nameRequired }]);
    expect(cleanParty({}, false)).toEqual({ value: {}, problems: [] });
    expect(cleanParty({ email: '', ein: '' }, false).value).toEqual({ email: '', ein: '' });
  });

  it('names every bad field in order', () => {
    const { problems } = cleanParty(
      { name: 'x'.repeat(201), companyName: 'c'.repeat(101), address: 'a'.repeat(301), email: 'nope', ein: '12-345', status: 'gone', metaDataJson: '[1]' },
      true,
    );
    expect(problems.map((p) => p.field)).toEqual(['name', 'companyName', 'address', 'email', 'ein', 'status', 'metaData']);
    expect(problems.find((p) => p.field === 'email')?.message).toBe('Please enter a valid email.');
  });
});

describe('metaDataOf', () => {
  it('takes an object of string or number values, refuses the rest', () => {
    expect(metaDataOf('')).toEqual({});
    expect(metaDataOf('{"k":"v","n":2.5}')).toEqual({ k: 'v', n: 2.5 });
    for (const bad of [
      'not json',
      'null',
      '[]',
      '"s"',
      '{"k":{"x":1}}',
      '{"k":true}',
      '{"k":null}',
      JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))),
    ])
      expect(metaDataOf(bad), bad).toBeNull();
  });
});

describe('lists', () => {
  it('defaults page 1 and take 20; refuses take above 100, page below 1, unknown status and filter', () => {
    expect(cleanListQuery({ page: 0, take: 0, search: ' a ', status: '', filter: '', all: false })).toEqual({
      value: { page: 1, take: 20, search: 'a', status: '', filter: '', all: false },
      problems: [],
    });
    expect(cleanListQuery({ page: -1, take: 101, search: '', status: 'x', filter: 'y', all: false }).problems.map((p) => p.field)).toEqual([
      'page',
      'take',
      'status',
      'filter',
    ]);
  });

  it('pageMeta', () => {
    expect(pageMeta(1, 20, 23)).toEqual({ page: 1, take: 20, itemCount: 23, pageCount: 2, hasPreviousPage: false, hasNextPage: true });
    expect(pageMeta(2, 20, 23)).toEqual({ page: 2, take: 20, itemCount: 23, pageCount: 2, hasPreviousPage: true, hasNextPage: false });
    expect(pageMeta(1, 20, 0)).toEqual({ page: 1, take: 20, itemCount: 0, pageCount: 0, hasPreviousPage: false, hasNextPage: false });
  });
});

describe('mergeProblems', () => {
  it("spec §5: 'Vendor merge needs a non-empty list of vendor ids'; ids are UUIDs; the parent is not in the list", () => {
    expect(mergeProblems(ID, [])).toEqual([{ field: 'mergingVendorsId', message: 'Vendor merge needs a non-empty list of vendor ids' }]);
    expect(mergeProblems('x', [ID2]).map((p) => p.field)).toEqual(['parentVendorId']);
    expect(mergeProblems(ID, ['x']).map((p) => p.field)).toEqual(['mergingVendorsId']);
    expect(mergeProblems(ID, [ID2, ID]).map((p) => p.message)).toEqual([MSG.mergeParentInList]);
    expect(mergeProblems(ID, [ID2])).toEqual([]);
  });
});
