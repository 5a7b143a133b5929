// Spec §3 money types: which source types count as which origin, which origins each money type reads,
// the query's validation, and consolidating several workspaces' balances on one chart.
import { rejectedFields } from '@ledgerline/platform/testing';
import { describe, expect, it } from 'vitest';
import { consolidate } from '../src/domain/consolidate.js';
import { ORIGIN, originOf, originsOf, parseMoneyType } from '../src/domain/origins.js';
import { parseQuery, type RawQuery } from '../src/domain/query.js';
import type { Account } from '../src/domain/report.js';
import { ReportCache } from '../src/usecases/report-cache.js';

const raw = (over: Partial<RawQuery> = {}): RawQuery => ({
  startDate: '2026-01-01',
  endDate: '2026-03-31',
  breakdown: '',
  periodicity: '',
  groups: '',
  tags: '',
  excludeZeroes: '',
  seq: '',
  ...over,
});
const fields = rejectedFields;

describe('origins and money types', () => {
  it('bank transactions are bank, manual journals adjustments, every other document a document; unknown types none', () => {
    expect(originOf('WorkspaceTransaction')).toBe(ORIGIN.bank);
    expect(originOf('ManualEntry')).toBe(ORIGIN.adjustment);
    for (const t of ['OpeningBalance', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo']) expect(originOf(t)).toBe(ORIGIN.document);
    for (const t of ['', 'manualentry', 'toString', 'Journal']) expect(originOf(t)).toBeUndefined();
  });

  it('non-bank leaves out bank entries, unadjusted adjusting entries; ALL and adjusted read every row', () => {
    expect(originsOf('non-bank')).toEqual([ORIGIN.document, ORIGIN.adjustment]);
    expect(originsOf('unadjusted')).toEqual([ORIGIN.bank, ORIGIN.document]);
    expect(originsOf('ALL')).toBeNull();
    expect(originsOf('adjusted')).toBeNull();
  });

  it('the spec values, case-insensitive, empty is ALL; anything else is a 400 naming moneyType', () => {
    expect(parseMoneyType('')).toBe('ALL');
    expect(parseMoneyType(' all ')).toBe('ALL');
    expect(parseMoneyType('NON-BANK')).toBe('non-bank');
    expect(parseQuery(raw()).moneyType).toBe('ALL');
    expect(parseQuery(raw({ moneyType: 'Unadjusted' }))).toMatchObject({ moneyType: 'unadjusted', origins: [ORIGIN.bank, ORIGIN.document] });
    for (const bad of ['out', 'in', 'nonbank', 'bank']) expect(fields(() => parseQuery(raw({ moneyType: bad })))).toEqual(['moneyType']);
    expect(fields(() => parseQuery(raw({ moneyType: 'x', startDate: 'bad' })))).toEqual(['startDate', 'moneyType']);
  });

  it('workspaces: ids lower-cased and deduplicated; a malformed id or more than 20 is a 400 naming workspaces', () => {
    const a = '018F0000-0000-7000-8000-00000000000A';
    expect(parseQuery(raw({ workspaces: `${a}, ,${a.toLowerCase()}` })).workspaceIds).toEqual([a.toLowerCase()]);
    expect(fields(() => parseQuery(raw({ workspaces: 'abc' })))).toEqual(['workspaces']);
    const many = Array.from({ length: 21 }, (_, i) => `018f0000-0000-7000-8000-${String(i).padStart(12, '0')}`).join(',');
    expect(fields(() => parseQuery(raw({ workspaces: many })))).toEqual(['workspaces']);
  });

  it('the cache key tells money types and workspace sets apart, not the order the workspaces were written in', () => {
    const [a, b] = ['018f0000-0000-7000-8000-00000000000a', '018f0000-0000-7000-8000-00000000000b'];
    const key = (over: Partial<RawQuery>) => ReportCache.key('pl', a, parseQuery(raw(over)));
    const keys = [key({}), key({ moneyType: 'non-bank' }), key({ moneyType: 'unadjusted' }), key({ workspaces: a }), key({ workspaces: `${a},${b}` })];
    expect(new Set(keys).size).toBe(keys.length);
    expect(key({ workspaces: `${b},${a}` })).toBe(key({ workspaces: `${a},${b}` }));
    // ALL and adjusted read the same rows but are asked for by name: two entries, never a wrong one.
    expect(key({ moneyType: 'adjusted' })).not.toBe(key({}));
  });
});

describe('consolidating workspaces', () => {
  const acc = (id: string, coaId: number, over: Partial<Account> = {}): Account => ({
    id,
    name: id,
    coaId,
    type: 'Expenses',
    level: 2,
    group: '',
    tag: '',
    parentId: null,
    ...over,
  });

  it('accounts matched by coaId add up; accounts only another workspace has are added under their matched parent', () => {
    const one = {
      accounts: [acc('exp1', 60000, { level: 1 }), acc('rent1', 61000, { parentId: 'exp1' })],
      sums: new Map([['rent1', [{ debit: 100, credit: 0 }, undefined]]]),
    };
    const two = {
      accounts: [
        acc('exp2', 60000, { level: 1 }),
        acc('rent2', 61000, { parentId: 'exp2' }),
        acc('travel2', 62000, { parentId: 'exp2' }),
        acc('taxi2', 62100, { parentId: 'travel2', level: 3 }),
      ],
      sums: new Map([
        [
          'rent2',
          [
            { debit: 5, credit: 1 },
            { debit: 7, credit: 0 },
          ],
        ],
        ['taxi2', [undefined, { debit: 3, credit: 0 }]],
      ]),
    };
    const r = consolidate([one, two], 2);
    expect(r.accounts.map((a) => [a.id, a.parentId])).toEqual([
      ['exp1', null],
      ['rent1', 'exp1'],
      ['travel2', 'exp1'],
      ['taxi2', 'travel2'],
    ]);
    expect(r.sums.get('rent1')).toEqual([
      { debit: 105, credit: 1 },
      { debit: 7, credit: 0 },
    ]);
    expect(r.sums.get('taxi2')).toEqual([undefined, { debit: 3, credit: 0 }]);
    expect(r.sums.has('rent2')).toBe(false);
    expect(r.idMaps[1]?.get('rent2')).toBe('rent1');
    // The first workspace's own sums are not changed by consolidating.
    expect(one.sums.get('rent1')).toEqual([{ debit: 100, credit: 0 }, undefined]);
  });

  it('accounts without a coaId are never matched across workspaces', () => {
    const r = consolidate(
      [
        { accounts: [acc('a', 0)], sums: new Map() },
        { accounts: [acc('b', 0)], sums: new Map([['b', [{ debit: 1, credit: 0 }]]]) },
      ],
      1,
    );
    expect(r.accounts.map((a) => a.id)).toEqual(['a', 'b']);
    expect(r.sums.get('b')).toEqual([{ debit: 1, credit: 0 }]);
  });
});
