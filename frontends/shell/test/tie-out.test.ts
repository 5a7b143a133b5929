import { type BankAccount, type TieOut, type TiedBankAccount } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { ledgerHref, openingBalanceHref, persistentDifferences, tieOutLabel, tieOutProblemMessage } from '../src/banking/tie-out';

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

describe('tie-out wording', () => {
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
