import { describe, expect, it } from 'vitest';
import {
  AUTO_PAIR_THRESHOLD,
  counterpartProblem,
  hasTransferKeyword,
  isOneSidedTransfer,
  planPairs,
  rankCounterparts,
  transferKind,
  transferScore,
  type TransferSide,
} from '../src/domain/transfers.js';

const side = (over: Partial<TransferSide> & { id: string }): TransferSide => ({
  amountCents: -10_000,
  date: '2026-03-10',
  bankAccountId: 'chk',
  isCreditCard: false,
  name: 'Something',
  ...over,
});

describe('transfer rules', () => {
  it('recognises the descriptions banks give transfers and card payments, and not ordinary ones', () => {
    for (const d of [
      'ONLINE TRANSFER TO SAV 1111',
      'Xfer from checking',
      'PAYMENT THANK YOU',
      'Payment - Thank You',
      'AUTOPAY 123',
      'Credit card payment',
      'EPAY CHASE CARD',
      'Online Transfer',
    ])
      expect(hasTransferKeyword(d), d).toBe(true);
    for (const d of ['Starbucks', 'Uber 063015', 'Payroll', 'Transferwise fees incl']) expect(hasTransferKeyword(d), d).toBe(false);
  });

  it('a counterpart has the exact opposite amount, another account, at most 5 days apart', () => {
    const a = side({ id: 'a' });
    expect(counterpartProblem(a, side({ id: 'b', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-15' }))).toBeNull();
    expect(counterpartProblem(a, side({ id: 'b', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-16' }))).toBe('days');
    expect(counterpartProblem(a, side({ id: 'b', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-05' }))).toBeNull();
    expect(counterpartProblem(a, side({ id: 'b', amountCents: 10_001, bankAccountId: 'sav' }))).toBe('amount');
    expect(counterpartProblem(a, side({ id: 'b', amountCents: -10_000, bankAccountId: 'sav' }))).toBe('amount');
    expect(counterpartProblem(a, side({ id: 'b', amountCents: 10_000 }))).toBe('account');
    expect(counterpartProblem(a, a)).toBe('same');
    expect(counterpartProblem(a, side({ id: 'b', amountCents: 10_000, bankAccountId: 'sav', isoCurrencyCode: 'EUR' }))).toBe('currency');
  });

  it('pairs with a keyword or a card-payment shape even 5 days apart; a bare amount coincidence is only a candidate', () => {
    const out = side({ id: 'a' });
    const keyword = side({ id: 'b', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-15', name: 'Online transfer from CHK' });
    const card = side({ id: 'c', amountCents: 10_000, bankAccountId: 'card', isCreditCard: true, date: '2026-03-15' });
    const bare = side({ id: 'd', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-10' });
    expect(transferScore(out, keyword)).toBeGreaterThanOrEqual(AUTO_PAIR_THRESHOLD);
    expect(transferScore(out, card)).toBeGreaterThanOrEqual(AUTO_PAIR_THRESHOLD);
    expect(transferScore(out, bare)).toBeLessThan(AUTO_PAIR_THRESHOLD);
    expect(transferScore(out, bare)).toBeGreaterThan(0);
    // Money out of the card into checking is no card payment shape.
    const reverse = side({ id: 'e', amountCents: 10_000, bankAccountId: 'chk', date: '2026-03-10' });
    expect(transferScore(side({ id: 'f', amountCents: -10_000, bankAccountId: 'card', isCreditCard: true }), reverse)).toBeLessThan(AUTO_PAIR_THRESHOLD);
    expect(transferKind(out, card)).toBe('card_payment');
    expect(transferKind(out, keyword)).toBe('internal');
  });

  it('confidence falls with the days apart and is symmetric', () => {
    const a = side({ id: 'a', name: 'transfer' });
    const scores = [0, 1, 2, 3, 4, 5].map((d) =>
      transferScore(a, side({ id: 'b', amountCents: 10_000, bankAccountId: 'sav', date: `2026-03-${String(10 + d).padStart(2, '0')}` })),
    );
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1] as number);
    const b = side({ id: 'b', amountCents: 10_000, bankAccountId: 'card', isCreditCard: true, date: '2026-03-12' });
    expect(transferScore(a, b)).toBe(transferScore(b, a));
  });

  it('takes the best candidate: closest date, then earliest, then id; never one transaction twice', () => {
    const s = side({ id: 's', name: 'Transfer to savings' });
    const later = side({ id: 'x2', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-12' });
    const earlier = side({ id: 'x1', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-08' });
    const far = side({ id: 'x0', amountCents: 10_000, bankAccountId: 'sav', date: '2026-03-14' });
    expect(rankCounterparts(s, [far, later, earlier]).map((c) => c.candidate.id)).toEqual(['x1', 'x2', 'x0']);
    // Two outflows of the same amount, one inflow: only one pair.
    const s2 = side({ id: 's2', bankAccountId: 'chk2', name: 'transfer' });
    const plan = planPairs([s, s2], [s, s2, earlier]);
    expect(plan).toHaveLength(1);
    expect(plan[0]?.a.id).toBe('s');
    expect(plan[0]?.b.id).toBe('x1');
    // A dismissed pair is never planned.
    expect(planPairs([s], [earlier], (a, b) => [a, b].sort().join() === ['s', 'x1'].sort().join())).toEqual([]);
  });
});

describe('one-sided transfers (to review)', () => {
  const s = (amountCents: number, name: string, isCreditCard = false) => ({ amountCents, name, isCreditCard });
  it('money into a card with a payment description, or a transfer to or from another account', () => {
    expect(isOneSidedTransfer(s(48_000, 'AUTOPAY PAYMENT - THANK YOU', true))).toBe(true);
    expect(isOneSidedTransfer(s(48_000, 'Payment Thank You', true))).toBe(true);
    expect(isOneSidedTransfer(s(-12_000, 'Online Transfer to Savings ...1111'))).toBe(true);
    expect(isOneSidedTransfer(s(12_000, 'Funds transfer from CHK 0001'))).toBe(true);
    expect(isOneSidedTransfer(s(-30_000, 'CREDIT CARD AUTOPAY PMT ...3333'))).toBe(true);
  });
  it('not a purchase, a refund, a fee or money out of a card', () => {
    expect(isOneSidedTransfer(s(-2_500, 'Wire transfer fee'))).toBe(false);
    expect(isOneSidedTransfer(s(3_000, 'Amazon refund', true))).toBe(false);
    expect(isOneSidedTransfer(s(-48_000, 'Payment Thank You', true))).toBe(false);
    expect(isOneSidedTransfer(s(-4_550, 'Starbucks'))).toBe(false);
    expect(isOneSidedTransfer(s(0, 'Online Transfer to Savings'))).toBe(false);
  });
});
