import { describe, expect, it } from 'vitest';
import {
  canHaveOpeningBalance,
  combinedStatus,
  parseOpeningBalance,
  validateOpeningBalance,
  dashboardTieOut,
  drillHref,
  ledgerHref,
  openingBalanceHref,
  persistentDifferences,
  rankCandidates,
  rowEmphasis,
  serverDrill,
  tieOutGroup,
  tieOutLabel,
  tieOutProblemMessage,
  transferBadge,
  transferFilterFromSearch,
  type BankAccount,
  type DrillableReportRow,
  type TieOut,
  type TiedBankAccount,
  type TransferTransaction,
} from '../src/index';

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

  it('says Matches bank, Differs by $X (from the bank), or that it is catching up', () => {
    expect(tieOutLabel('matches', 0)).toEqual({ tone: 'ok', text: 'Matches bank' });
    expect(tieOutLabel('differs', -1234.5)).toEqual({ tone: 'warn', text: 'Differs by $1,234.50' });
    expect(tieOutLabel('differs', 12, { long: true }).text).toBe('Differs by $12.00 from the bank');
    expect(tieOutLabel('catching_up', 12).text).toBe('Updating from the bank…');
  });

  it('raises a notice only for an account that differs and is not syncing, keyed by the difference', () => {
    const differing = account(
      { name: 'Plaid Saving', mask: '1111' },
      { status: 'differs', bankBalance: 10, booksBalance: 15, difference: 5, ledgerAccountId: 'l2' },
    );
    const syncing = account({}, { status: 'differs', difference: 3 });
    const fine = account({});
    const problems = persistentDifferences([differing, syncing, fine], new Set([syncing.id]));
    expect(problems.map((p) => p.accountId)).toEqual([differing.id]);
    expect(problems[0]).toMatchObject({ difference: 5, ledgerAccountId: 'l2' });
    const again = persistentDifferences([{ ...differing, tieOut: { ...differing.tieOut!, difference: 6 } }]);
    expect(again[0]!.key).not.toBe(problems[0]!.key);
    expect(tieOutProblemMessage(problems[0]!)).toEqual({
      title: 'Plaid Saving •••• 1111 differs from the bank',
      message:
        "The books differ by $5.00 after the last sync. The books say $15.00, the bank $10.00. Sync again, set the account's opening balance, or look at its ledger lines.",
    });
  });

  it('links to the ledger and to the chart of accounts edit of an account', () => {
    expect(ledgerHref('a b')).toBe('/accounting?tab=ledger&ledgerAccount=a+b');
    expect(openingBalanceHref('x')).toBe('/accounting?tab=coa&acc=x&mode=edit');
  });
});

describe('transfers', () => {
  const txn = (over: Partial<TransferTransaction>) => ({ category: null, transferStatus: null, transferPair: null, ...over }) as unknown as TransferTransaction;
  it('badges a paired transfer, a one-sided one and a row in a Transfer category', () => {
    expect(transferBadge(txn({ transferStatus: 'paired' }))).toBe('Transfer');
    expect(transferBadge(txn({ transferStatus: 'review' }))).toBe('Transfer to review');
    expect(transferBadge(txn({ category: { id: 'c', name: 'Transfers', coaId: 1, type: 'Transfer', level: 3, parentId: null } }))).toBe('Transfer');
    expect(transferBadge(txn({}))).toBeNull();
  });

  it('reads the transfers filter from the URL', () => {
    expect(transferFilterFromSearch('transfers-review')).toBe('review');
    expect(transferFilterFromSearch('transfers-paired')).toBe('paired');
    expect(transferFilterFromSearch(null)).toBe('');
  });

  it('ranks candidates by score, then by the nearest date', () => {
    const c = (id: string, score: number, dateTime: string) => ({ id, score, dateTime, amount: 1, accountId: 'a', accountName: 'A', name: 'n' });
    const ranked = rankCandidates([c('far', 0.5, '2026-01-10'), c('best', 0.9, '2026-01-20'), c('near', 0.5, '2026-01-02')], '2026-01-01');
    expect(ranked.map((x) => x.id)).toEqual(['best', 'near', 'far']);
  });
});

describe('report rows', () => {
  const row = (over: Partial<DrillableReportRow>): DrillableReportRow => ({
    id: null,
    name: 'Net Income',
    coaId: null,
    type: null,
    level: 1,
    group: '',
    tag: '',
    rowType: 'summary',
    amounts: [1, 2],
    total: 2,
    children: [],
    ...over,
  });
  it('emphasises section headers, subtotals and the bottom line', () => {
    expect(rowEmphasis(row({ rowType: 'section', name: 'Income' }))).toBe('section');
    expect(rowEmphasis(row({ name: 'Gross Profit' }))).toBe('subtotal');
    expect(rowEmphasis(row({ name: 'Net Income' }))).toBe('grand-total');
    expect(rowEmphasis(row({ rowType: 'account', name: 'Sales' }))).toBe('account');
  });

  it('takes the server drill link per column, the last for a balance sheet total', () => {
    const a = { report: 'pnl' as const, startDate: '2025-01-01', endDate: '2025-12-31' };
    const b = { report: 'pnl' as const, startDate: '2026-01-01', endDate: '2026-01-31' };
    const r = row({ drill: [a, b] });
    expect(serverDrill(r, 0, 2)).toEqual(a);
    expect(serverDrill(r, 'total', 2)).toEqual(b);
    expect(serverDrill(row({ drill: [null, a] }), 0, 2)).toBeNull();
    expect(serverDrill(row({}), 0, 2)).toBeNull();
    expect(drillHref(b)).toBe('/reports?tab=pnl&startDate=2026-01-01&endDate=2026-01-31');
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
