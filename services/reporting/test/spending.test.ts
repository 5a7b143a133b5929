// The spending and top-merchants rules: validation naming the field, the cut into "Others", order,
// shares, the spec money types, groups and tags, and "No merchant".
import { rejectedFields } from '@ledgerline/platform/testing';
import { describe, expect, it } from 'vitest';
import {
  classAccountIds,
  merchantAmounts,
  mergeCategories,
  mergeMerchants,
  NO_MERCHANT_NAME,
  parseOrder,
  parseSpendingQuery,
  rankMerchants,
  rankSpending,
  shareBp,
  spendingRows,
  type RawSpendingQuery,
} from '../src/domain/spending.js';
import type { Account } from '../src/domain/report.js';

const account = (id: string, type: string, over: Partial<Account> = {}): Account => ({
  id,
  name: id,
  coaId: 60000 + id.length,
  type,
  level: 3,
  group: '',
  tag: '',
  parentId: null,
  ...over,
});
const raw = (over: Partial<RawSpendingQuery> = {}): RawSpendingQuery => ({
  startDate: '',
  endDate: '',
  groups: '',
  tags: '',
  moneyType: '',
  seq: '',
  workspaces: '',
  ...over,
});
const fields = rejectedFields;

describe('the query', () => {
  it('defaults: every origin (ALL), DESC, the year to date in one total column', () => {
    const q = parseSpendingQuery(raw(), [], new Date('2026-11-23T10:00:00Z'));
    expect(q).toMatchObject({ moneyType: 'ALL', report: { start: '2026-01-01', end: '2026-11-23', periodicity: 'totals_only', origins: null } });
    expect(q.report.columns).toHaveLength(1);
    expect(parseOrder('')).toEqual({ order: 'DESC', problems: [] });
    expect(parseOrder(' asc ').order).toBe('ASC');
    expect(parseSpendingQuery(raw({ moneyType: 'Non-Bank' })).report.origins).toEqual([1, 2]);
    expect(parseSpendingQuery(raw({ moneyType: 'unadjusted' })).report.origins).toEqual([0, 1]);
  });

  it('a bad value is named, every one at once', () => {
    // The in/out of the first version of these cards is gone: the spec's money types only.
    expect(fields(() => parseSpendingQuery(raw({ moneyType: 'in' })))).toEqual(['moneyType']);
    expect(fields(() => parseSpendingQuery(raw({ moneyType: 'x', startDate: '2026-02-30' }), parseOrder('up').problems))).toEqual([
      'order',
      'startDate',
      'moneyType',
    ]);
    expect(fields(() => parseSpendingQuery(raw({ startDate: '2026-03-01', endDate: '2026-02-01' })))).toEqual(['startDate']);
    expect(fields(() => parseSpendingQuery(raw({ workspaces: 'abc' })))).toEqual(['workspaces']);
    const many = Array.from({ length: 21 }, (_, i) => `018f0000-0000-7000-8000-${String(i).padStart(12, '0')}`).join(',');
    expect(fields(() => parseSpendingQuery(raw({ workspaces: many })))).toEqual(['workspaces']);
  });

  it('workspaces: ids lower-cased, blanks and repeats dropped, order kept', () => {
    const a = '018F0000-0000-7000-8000-00000000000A';
    const b = '018f0000-0000-7000-8000-00000000000b';
    expect(parseSpendingQuery(raw({ workspaces: ` ${a}, ,${b},${a.toLowerCase()}` })).workspaceIds).toEqual([a.toLowerCase(), b]);
    expect(parseSpendingQuery(raw()).workspaceIds).toEqual([]);
  });
});

describe('spending rows', () => {
  const accounts = ['a', 'bb', 'ccc', 'dddd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].map((id) => account(id, 'Expenses'));
  const sums = new Map(accounts.map((a, i) => [a.id, { debit: (i + 1) * 100, credit: 0 }]));

  it('at most 10 rows: the 9 largest, then Others with the rest (last in either order); shares of the whole', () => {
    const desc = spendingRows({ accounts, sums, classGroup: 'Expenses', groups: [], tags: [], order: 'DESC' });
    expect(desc.totalCents).toBe(6_600);
    expect(desc.rows.map((r) => [r.name, r.amountCents])).toEqual([
      ['k', 1100],
      ['j', 1000],
      ['i', 900],
      ['h', 800],
      ['g', 700],
      ['f', 600],
      ['e', 500],
      ['dddd', 400],
      ['ccc', 300],
      ['Others', 300],
    ]);
    expect(desc.rows.at(-1)).toMatchObject({ id: null, coaId: null, percentageBp: shareBp(300, 6_600) });
    expect(desc.rows[0]?.percentageBp).toBe(1667);
    const asc = spendingRows({ accounts, sums, classGroup: 'Expenses', groups: [], tags: [], order: 'ASC' });
    expect(asc.rows.map((r) => r.name)).toEqual(['ccc', 'dddd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'Others']);
  });

  it('ten categories or fewer are all shown; other classes, zero amounts and filtered accounts are not', () => {
    const few = [
      account('rent', 'Expenses', { tag: 'office' }),
      account('food', 'Expenses'),
      account('sales', 'Income'),
      account('idle', 'Expenses', { tag: 'office' }),
    ];
    const s = new Map([
      ['rent', { debit: 1000, credit: 0 }],
      ['food', { debit: 300, credit: 100 }],
      ['sales', { debit: 0, credit: 5000 }],
      ['idle', { debit: 50, credit: 50 }],
    ]);
    expect(
      spendingRows({ accounts: few, sums: s, classGroup: 'Expenses', groups: [], tags: [], order: 'DESC' }).rows.map((r) => [
        r.id,
        r.amountCents,
        r.percentageBp,
      ]),
    ).toEqual([
      ['rent', 1000, 8333],
      ['food', 200, 1667],
    ]);
    expect(spendingRows({ accounts: few, sums: s, classGroup: 'Expenses', groups: [], tags: ['office'], order: 'DESC' }).rows.map((r) => r.id)).toEqual([
      'rent',
    ]);
    expect(spendingRows({ accounts: few, sums: s, classGroup: 'Income', groups: [], tags: [], order: 'DESC' }).rows.map((r) => [r.id, r.amountCents])).toEqual([
      ['sales', 5000],
    ]);
  });
});

describe('merchant rows', () => {
  const accounts = [account('rent', 'Expenses'), account('coffee', 'Expenses', { group: 'Meals' }), account('bank', 'Assets'), account('sales', 'Income')];
  const m = (billerId: string, name: string, debit: number, credit: number, txns: number) => ({ billerId, name, debit, credit, txns });

  it("the accounts read: the class's, after groups and tags", () => {
    expect(classAccountIds(accounts, 'Expenses', { groups: [], tags: [] })).toEqual(['rent', 'coffee']);
    expect(classAccountIds(accounts, 'Expenses', { groups: ['meals'], tags: [] })).toEqual(['coffee']);
    expect(classAccountIds(accounts, 'Income', { groups: [], tags: [] })).toEqual(['sales']);
  });

  it('money out per merchant, "No merchant" for none, refunds net, non-positive left out of the ranking but in the total', () => {
    const r = rankMerchants(
      merchantAmounts(
        [m('w', 'WeWork', 120_000, 0, 1), m('b', 'Blue Bottle', 1_000, 100, 4), m('', '', 5_000, 0, 2), m('r', 'Refunder', 0, 300, -1), m('u', '', 10, 0, 1)],
        'Expenses',
      ),
    );
    expect(r.totalCents).toBe(125_610);
    expect(r.rows.map((x) => [x.id, x.name, x.amountCents, x.transactionCount, x.percentageBp])).toEqual([
      ['w', 'WeWork', 120_000, 1, 9553],
      [null, NO_MERCHANT_NAME, 5_000, 2, 398],
      ['b', 'Blue Bottle', 900, 4, 72],
      ['u', 'Unnamed merchant', 10, 1, 1],
    ]);
    const income = rankMerchants(merchantAmounts([m('s', 'Stripe', 0, 9_000, 1)], 'Income'));
    expect(income.rows.map((x) => [x.name, x.amountCents, x.percentageBp])).toEqual([['Stripe', 9_000, 10_000]]);
  });

  it('the top 10 only', () => {
    const r = rankMerchants(
      merchantAmounts(
        Array.from({ length: 14 }, (_, i) => m(`b${i}`, `M${i}`, (i + 1) * 10, 0, 1)),
        'Expenses',
      ),
    );
    expect(r.rows).toHaveLength(10);
    expect(r.rows[0]?.name).toBe('M13');
    expect(r.totalCents).toBe(1_050);
  });
});

describe('several workspaces as one', () => {
  it('categories match by coaId (the first workspace names them); merchants by name, No merchant together', () => {
    const cats = mergeCategories([
      [
        { id: 'a-rent', name: 'Rent', coaId: 61000, amountCents: 1000 },
        { id: 'a-food', name: 'Meals', coaId: 62000, amountCents: 300 },
      ],
      [
        { id: 'b-rent', name: 'Office rent', coaId: 61000, amountCents: 500 },
        { id: 'b-food', name: 'Meals', coaId: 62000, amountCents: -300 },
        { id: 'b-x', name: 'X', coaId: 63000, amountCents: 10 },
      ],
    ]);
    expect(rankSpending(cats, 'DESC').rows.map((r) => [r.id, r.name, r.amountCents])).toEqual([
      ['a-rent', 'Rent', 1500],
      ['b-x', 'X', 10],
    ]);
    const merchants = mergeMerchants([
      [
        { id: 'a1', name: 'Blue Bottle', amountCents: 500, transactionCount: 2 },
        { id: null, name: NO_MERCHANT_NAME, amountCents: 100, transactionCount: 1 },
      ],
      [
        { id: 'b1', name: 'BLUE BOTTLE', amountCents: 250, transactionCount: 1 },
        { id: null, name: NO_MERCHANT_NAME, amountCents: 50, transactionCount: 1 },
        { id: 'b2', name: 'Other', amountCents: 20, transactionCount: 1 },
      ],
    ]);
    expect(rankMerchants(merchants)).toEqual({
      totalCents: 920,
      rows: [
        { id: 'a1', name: 'Blue Bottle', amountCents: 750, transactionCount: 3, percentageBp: 8152 },
        { id: null, name: NO_MERCHANT_NAME, amountCents: 150, transactionCount: 2, percentageBp: 1630 },
        { id: 'b2', name: 'Other', amountCents: 20, transactionCount: 1, percentageBp: 217 },
      ],
    });
  });
});
