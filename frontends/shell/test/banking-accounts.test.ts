import { describe, expect, it } from 'vitest';
import type { BankAccount, Job, JobStatus } from '@ledgerline/api';
import { accountKindLabel, accountsForSelection, groupByInstitution, jobProgress, maskLabel } from '../src/banking/accounts';

const account = (over: Partial<BankAccount>): BankAccount => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Plaid Checking',
  institution: { id: 'ins_109508', name: 'First Platypus Bank', logo: null },
  workspace: '00000000-0000-4000-8000-0000000000aa',
  mask: '0000',
  vendorAccountId: 'acc-1',
  type: 'depository',
  subtype: 'checking',
  active: true,
  reconnectRequired: false,
  availableBalance: 100,
  currentBalance: 110,
  isoCurrencyCode: 'USD',
  lastSyncedAt: null,
  dateStartAt: null,
  dateEndAt: null,
  createdOn: '2026-01-01T00:00:00.000Z',
  source: 'plaid',
  ...over,
});

const job = (id: string, status: JobStatus, pushed = 0, total = 0): Job => ({
  id,
  status,
  type: 'transaction-sync',
  order: 1,
  data: { requestId: 'r', accountId: '00000000-0000-4000-8000-000000000001', transactionPushed: pushed, totalTransactions: total, uploadType: null },
  failedReason: status === 'failed' ? 'ITEM_LOGIN_REQUIRED' : null,
  attempts: 1,
  createdOn: '2026-01-01T00:00:00.000Z',
  finishedOn: null,
});

describe('sync progress', () => {
  it('sums progress, never expecting fewer than were stored', () => {
    expect(jobProgress([job('a', 'active', 200, 5000), job('b', 'waiting', 30, 0)])).toEqual({ pushed: 230, total: 5030 });
    expect(jobProgress([])).toEqual({ pushed: 0, total: 0 });
  });
});

describe('accounts', () => {
  const checking = account({});
  const card = account({ id: '00000000-0000-4000-8000-000000000003', name: 'Plaid Credit Card', type: 'credit', subtype: 'credit card', mask: '3333' });
  const broken = account({ id: '00000000-0000-4000-8000-000000000002', name: 'Plaid Saving', subtype: 'savings', mask: '1111', reconnectRequired: true });

  it('offers bank accounts for selection without credit cards, and optionally without those needing reconnection (spec §5)', () => {
    expect(accountsForSelection([checking, card, broken]).map((a) => a.name)).toEqual(['Plaid Checking', 'Plaid Saving']);
    expect(accountsForSelection([checking, card, broken], { skipReconnectRequired: true }).map((a) => a.name)).toEqual(['Plaid Checking']);
  });

  it('labels kind and mask', () => {
    expect(accountKindLabel(card)).toBe('Credit card');
    expect(accountKindLabel({ type: 'depository', subtype: '' })).toBe('Depository');
    expect(accountKindLabel({ type: 'loan', subtype: 'line_of_credit' })).toBe('Line of credit');
    expect(maskLabel('0000')).toBe('•••• 0000');
    expect(maskLabel('')).toBe('');
  });

  it('groups by institution in first-seen order', () => {
    const other = account({ id: '00000000-0000-4000-8000-000000000009', institution: { id: 'ins_109511', name: 'Tartan Bank', logo: null } });
    const groups = groupByInstitution([checking, other, card]);
    expect(groups.map((g) => [g.institution.name, g.accounts.length])).toEqual([
      ['First Platypus Bank', 2],
      ['Tartan Bank', 1],
    ]);
  });
});
