import { describe, expect, it } from 'vitest';
import { combinedStatus, dashboardTieOut, tieOutGroup, type BankAccount, type TieOut, type TiedBankAccount } from '../src/index';

let n = 0;
const account = (over: Partial<BankAccount>, tieOut: Partial<TieOut> | null = null): TiedBankAccount => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  name: 'Plaid Checking',
  institution: { id: 'ins_109508', name: 'First Platypus Bank', logo: null },
  workspace: 'w',
  mask: '0000',
  vendorAccountId: 'v',
  type: 'depository',
  subtype: 'checking',
  active: true,
  reconnectRequired: false,
  availableBalance: null,
  currentBalance: 100,
  isoCurrencyCode: 'USD',
  lastSyncedAt: '2026-01-02T00:00:00.000Z',
  dateStartAt: null,
  dateEndAt: null,
  createdOn: '2026-01-01T00:00:00.000Z',
  source: 'plaid',
  ...over,
  tieOut:
    tieOut === null
      ? null
      : {
          status: 'matches',
          bankBalance: 100,
          booksBalance: 100,
          pendingAmount: 0,
          difference: 0,
          asOf: '2026-01-02T00:00:00.000Z',
          ledgerAccountId: 'l1',
          ...tieOut,
        },
});

describe('tie-out', () => {
  it('combines statuses: catching up wins, then a difference, then all matching', () => {
    expect(combinedStatus(['matches', 'differs', 'catching_up'])).toBe('catching_up');
    expect(combinedStatus(['matches', 'differs'])).toBe('differs');
    expect(combinedStatus(['matches', 'matches', 'currency'])).toBe('matches');
    expect(combinedStatus(['matches', 'unknown'])).toBe('unknown');
    expect(combinedStatus([])).toBe('unknown');
    expect(combinedStatus(['currency'])).toBe('currency');
  });

  it('sums books and bank in cents, leaving out accounts not in USD', () => {
    const group = tieOutGroup([
      account({}, { bankBalance: 0.1, booksBalance: 0.1 }),
      account({}, { bankBalance: 0.2, booksBalance: 0.2 }),
      account({ isoCurrencyCode: 'EUR' }, { status: 'currency', bankBalance: 1000, booksBalance: 1000 }),
    ]);
    expect(group).toEqual({ books: 0.3, bank: 0.3, difference: 0, status: 'matches', excluded: 1 });
  });

  it('gives the dashboard cash, cards and the whole; the server total wins when it sent one', () => {
    const accounts = [
      account({ subtype: 'checking' }, { bankBalance: 147935.01, booksBalance: 147935.01 }),
      account({ subtype: 'savings' }, { bankBalance: 176383.4, booksBalance: 176383.4 }),
      account({ type: 'credit', subtype: 'credit card' }, { bankBalance: 2391.19, booksBalance: 2400.19, difference: 9, status: 'differs' }),
    ];
    const fromAccounts = dashboardTieOut({ accounts, tieOut: null });
    expect(fromAccounts.cash).toMatchObject({ books: 324318.41, bank: 324318.41, difference: 0, status: 'matches' });
    expect(fromAccounts.cards).toMatchObject({ books: 2400.19, bank: 2391.19, difference: 9, status: 'differs' });
    expect(fromAccounts.total).toMatchObject({ books: 321918.22, bank: 321927.22, difference: -9, status: 'differs' });
    const fromServer = dashboardTieOut({ accounts, tieOut: { bankTotal: 1, booksTotal: 2, difference: 1, status: 'catching_up' } });
    expect(fromServer.total).toMatchObject({ books: 2, bank: 1, difference: 1, status: 'catching_up' });
  });
});
