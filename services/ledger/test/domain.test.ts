import { describe, expect, it } from 'vitest';
import { addDays, addMonths, isIsoDate, monthEnd } from '../src/domain/dates.js';
import { bankTransactionLines, isBalanced, reversalLines } from '../src/domain/posting.js';
import { editRestriction, type EditableState } from '../src/domain/restrictions.js';
import { beancountNames, centsToDecimal, hledgerNames } from '../src/domain/plaintext.js';

const open: EditableState = {
  entityType: null,
  isFinalized: false,
  categoryClass: 'Expenses',
  qboSynced: false,
  isAccruedParent: false,
  isSplitParent: false,
  isSplitChild: false,
  isAccrualChild: false,
  isOpeningBalance: false,
  isRemoved: false,
};

describe('spec §4 restrictions', () => {
  it('lets an open transaction be edited', () => {
    expect(editRestriction(open)).toBeNull();
  });

  it('checks in the spec order, the first match applying: entity, finalized, Transfer, synced, accrued, split; then the edit rules', () => {
    const all: EditableState = {
      ...open,
      entityType: 'Bill',
      isFinalized: true,
      categoryClass: 'Transfer',
      qboSynced: true,
      isAccruedParent: true,
      isSplitParent: true,
      isSplitChild: true,
      isAccrualChild: true,
      isOpeningBalance: true,
    };
    const order: [keyof EditableState, unknown, string][] = [
      ['entityType', null, 'TRANSACTION_LINKED'],
      ['isFinalized', false, 'TRANSACTION_FINALIZED'],
      ['categoryClass', 'Expenses', 'TRANSACTION_TRANSFER'],
      ['qboSynced', false, 'TRANSACTION_SYNCED'],
      ['isAccruedParent', false, 'TRANSACTION_ACCRUED'],
      ['isSplitParent', false, 'TRANSACTION_SPLIT'],
      ['isSplitChild', false, 'TRANSACTION_SPLIT_CHILD'],
      ['isAccrualChild', false, 'TRANSACTION_ACCRUAL_CHILD'],
      ['isOpeningBalance', false, 'TRANSACTION_OPENING_BALANCE'],
    ];
    let state = all;
    for (const [key, cleared, code] of order) {
      expect(editRestriction(state)?.code).toBe(code);
      state = { ...state, [key]: cleared };
    }
    expect(editRestriction(state)).toBeNull();
  });

  it('names what the transaction is linked to', () => {
    expect(editRestriction({ ...open, entityType: 'Bill' })?.message).toBe('This transaction is linked to a bill and cannot be edited here');
    expect(editRestriction({ ...open, entityType: 'FixedAsset' })?.message).toBe('This transaction is linked to a fixed asset and cannot be edited here');
    expect(editRestriction({ ...open, entityType: 'ManualEntry' })?.message).toBe('This transaction is linked to a manual journal and cannot be edited here');
  });
});

describe('posting', () => {
  it('books money in as a debit of the bank account, money out as a credit; zero books nothing', () => {
    expect(bankTransactionLines('bank', 'cat', 1234)).toEqual([
      { accountId: 'bank', direction: 'debit', amountCents: 1234 },
      { accountId: 'cat', direction: 'credit', amountCents: 1234 },
    ]);
    expect(bankTransactionLines('bank', 'cat', -5)).toEqual([
      { accountId: 'bank', direction: 'credit', amountCents: 5 },
      { accountId: 'cat', direction: 'debit', amountCents: 5 },
    ]);
    expect(bankTransactionLines('bank', 'cat', 0)).toEqual([]);
    expect(() => bankTransactionLines('bank', 'cat', 1.5)).toThrow(RangeError);
  });

  it('reverses by swapping directions; balanced means ≥ 2 positive integer lines summing to zero', () => {
    const lines = bankTransactionLines('bank', 'cat', -700);
    expect(isBalanced(lines) && isBalanced(reversalLines(lines))).toBe(true);
    expect(reversalLines(lines).map((l) => l.direction)).toEqual(['debit', 'credit']);
    expect(isBalanced([{ accountId: 'a', direction: 'debit', amountCents: 1 }])).toBe(false);
    expect(
      isBalanced([
        { accountId: 'a', direction: 'debit', amountCents: 2 },
        { accountId: 'b', direction: 'credit', amountCents: 1 },
      ]),
    ).toBe(false);
  });
});

describe('dates and plain text', () => {
  it('validates YYYY-MM-DD calendar dates and does month arithmetic', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-2-01')).toBe(false);
    expect(monthEnd('2024-02-10')).toBe('2024-02-29');
    expect(addMonths('2024-12-15', 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('writes cents as decimals and makes account names each tool accepts', () => {
    expect([5, -5, 12345, -100, 0].map(centsToDecimal)).toEqual(['0.05', '-0.05', '123.45', '-1.00', '0.00']);
    const accounts = [
      { id: 'r', name: 'Assets', coaId: 10000, classGroup: 'Assets', parentId: null },
      { id: 'g', name: 'Cash: main  account', coaId: 11000, classGroup: 'Assets', parentId: 'r' },
      { id: 'a', name: 'Twin', coaId: 11001, classGroup: 'Assets', parentId: 'g' },
      { id: 'b', name: 'Twin', coaId: 11002, classGroup: 'Assets', parentId: 'g' },
    ];
    const h = hledgerNames(accounts);
    expect(h.get('g')).toBe('Assets:Cash- main account');
    expect(h.get('a')).not.toBe(h.get('b'));
    expect(beancountNames(accounts).get('a')).toBe('Assets:Cash-Main-Account-11000:Twin-11001');
  });
});
