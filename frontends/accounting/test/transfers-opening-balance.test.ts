import type { TransferTransaction } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { canHaveOpeningBalance, parseOpeningBalance, validateOpeningBalance } from '../src/accounting/opening-balance';
import { rankCandidates, transferBadge } from '../src/transactions/transfers';

describe('transfers', () => {
  const txn = (over: Partial<TransferTransaction>) => ({ category: null, transferStatus: null, transferPair: null, ...over }) as unknown as TransferTransaction;
  it('badges a paired transfer, a one-sided one and a row in a Transfer category', () => {
    expect(transferBadge(txn({ transferStatus: 'paired' }))).toBe('Transfer');
    expect(transferBadge(txn({ transferStatus: 'review' }))).toBe('Transfer to review');
    expect(transferBadge(txn({ category: { id: 'c', name: 'Transfers', coaId: 1, type: 'Transfer', level: 3, parentId: null } }))).toBe('Transfer');
    expect(transferBadge(txn({}))).toBeNull();
  });

  it('ranks candidates by score, then by the nearest date', () => {
    const c = (id: string, score: number, dateTime: string) => ({ id, score, dateTime, amount: 1, accountId: 'a', accountName: 'A', name: 'n' });
    const ranked = rankCandidates([c('far', 0.5, '2026-01-10'), c('best', 0.9, '2026-01-20'), c('near', 0.5, '2026-01-02')], '2026-01-01');
    expect(ranked.map((x) => x.id)).toEqual(['best', 'near', 'far']);
  });
});

describe('opening balances', () => {
  it('are offered for balance-sheet accounts at levels 3 and 4, not for Opening Balance Equity', () => {
    expect(canHaveOpeningBalance({ type: 'Assets', level: 4, name: 'Plaid Checking' })).toBe(true);
    expect(canHaveOpeningBalance({ type: 'Liability', level: 3, name: 'Credit Cards' })).toBe(true);
    expect(canHaveOpeningBalance({ type: 'Equity', level: 3, name: 'Opening Balance Equity' })).toBe(false);
    expect(canHaveOpeningBalance({ type: 'Income', level: 3, name: 'Sales' })).toBe(false);
    expect(canHaveOpeningBalance({ type: 'Assets', level: 2, name: 'Current Assets' })).toBe(false);
  });

  it('take dollars with at most 2 decimals, negative for an overdrawn account, with a date', () => {
    expect(parseOpeningBalance('$1,234.50')).toBe(1234.5);
    expect(parseOpeningBalance('-12')).toBe(-12);
    expect(parseOpeningBalance('10.005')).toBeNull();
    expect(validateOpeningBalance({ openingBalance: '', openingBalanceDate: '' })).toEqual({});
    expect(validateOpeningBalance({ openingBalance: '10.005', openingBalanceDate: '2026-01-01' })).toEqual({
      openingBalance: 'Enter an amount in dollars with at most 2 decimals',
    });
    expect(validateOpeningBalance({ openingBalance: '10', openingBalanceDate: '' })).toEqual({ openingBalanceDate: 'Opening balance date is required' });
  });
});
