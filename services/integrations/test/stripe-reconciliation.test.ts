// Payout reconciliation, as a property (fast-check): for random Stripe histories — charges with fees, refunds,
// Stripe's own fees and adjustments swept into payouts as Stripe sweeps the available balance — each payout's
// gross − fees − refunds + adjustments equals its amount, equals the bank deposit it is matched to, and its booking
// balances with the Stripe clearing account back at zero (revenue gross, fees as an expense).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  composePayout,
  MATCH_DAYS_AFTER,
  MATCH_DAYS_BEFORE,
  matchPayouts,
  payoutJournal,
  type BalanceTxnLike,
  type BankDepositLike,
} from '../src/domain/stripe-payouts.js';

const DAY = 86_400;
const T0 = Date.parse('2026-01-05T00:00:00Z') / 1000;
const ymd = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

interface Movement {
  kind: 'charge' | 'refund' | 'stripe_fee' | 'adjustment';
  day: number;
  amount: number;
}

/** One balance-affecting event of a Stripe account, in days from T0. */
const movement: fc.Arbitrary<Movement> = fc.oneof(
  fc.record({ kind: fc.constant('charge' as const), day: fc.integer({ min: 0, max: 60 }), amount: fc.integer({ min: 50, max: 500_000 }) }),
  fc.record({ kind: fc.constant('refund' as const), day: fc.integer({ min: 0, max: 60 }), amount: fc.integer({ min: 1, max: 200_000 }) }),
  fc.record({ kind: fc.constant('stripe_fee' as const), day: fc.integer({ min: 0, max: 60 }), amount: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant('adjustment' as const), day: fc.integer({ min: 0, max: 60 }), amount: fc.integer({ min: -50_000, max: 50_000 }) }),
);

interface History {
  payouts: Array<{ id: string; amount: number; arrival: number; members: BalanceTxnLike[] }>;
}

/** Stripe's fee on a card charge: 2.9% + 30¢ (rounded), never more than the charge. */
const cardFee = (amount: number) => Math.min(amount, Math.round(amount * 0.029) + 30);

/** Weekly payouts of everything available (as the sandbox and Stripe's automatic schedule do), when positive. */
function historyOf(moves: Movement[]): History {
  const txns: BalanceTxnLike[] = moves
    .map((m, i): BalanceTxnLike => {
      const created = T0 + m.day * DAY + i;
      switch (m.kind) {
        case 'charge': {
          const fee = cardFee(m.amount);
          return { id: `txn_${i}`, type: 'charge', amount: m.amount, fee, net: m.amount - fee, created };
        }
        case 'refund':
          return { id: `txn_${i}`, type: 'refund', amount: -m.amount, fee: 0, net: -m.amount, created };
        case 'stripe_fee':
          return { id: `txn_${i}`, type: 'stripe_fee', amount: -m.amount, fee: 0, net: -m.amount, created };
        case 'adjustment': {
          const fee = m.amount < 0 ? 1500 : 0; // a dispute carries Stripe's dispute fee
          return { id: `txn_${i}`, type: 'adjustment', amount: m.amount, fee, net: m.amount - fee, created };
        }
      }
    })
    .sort((a, b) => a.created - b.created);
  const paid = new Set<string>();
  const payouts: History['payouts'] = [];
  for (let at = T0 + 7 * DAY; at <= T0 + 70 * DAY; at += 7 * DAY) {
    const included = txns.filter((t) => !paid.has(t.id) && t.created <= at);
    const total = included.reduce((s, t) => s + t.net, 0);
    if (included.length === 0 || total <= 0) continue;
    for (const t of included) paid.add(t.id);
    const id = `po_${payouts.length}`;
    const own = { id: `txn_${id}`, type: 'payout', amount: -total, fee: 0, net: -total, created: at };
    payouts.push({ id, amount: total, arrival: at + 2 * DAY, members: [own, ...included] });
  }
  return { payouts };
}

describe('payout reconciliation (property)', () => {
  it('gross − fees − refunds ± adjustments = payout = its bank deposit, and the clearing account nets to zero', () => {
    fc.assert(
      fc.property(
        fc.array(movement, { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: -MATCH_DAYS_BEFORE, max: MATCH_DAYS_AFTER }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.record({ day: fc.integer({ min: 0, max: 80 }), amount: fc.integer({ min: 1, max: 1_000_000 }) }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 6 }),
        (moves, lags, noise, lookalikes) => {
          const { payouts } = historyOf(moves);
          const amounts = new Set(payouts.map((p) => p.amount));
          // The bank: each payout lands within the window; other deposits of other amounts; and deposits of a
          // payout's amount outside its window (a customer's transfer of the same sum weeks later).
          const deposits: BankDepositLike[] = [
            ...payouts.map((p, i) => ({ transactionId: `bank-${p.id}`, date: ymd(p.arrival + lags[i % lags.length]! * DAY), amountCents: p.amount })),
            ...noise.filter((n) => !amounts.has(n.amount)).map((n, i) => ({ transactionId: `noise-${i}`, date: ymd(T0 + n.day * DAY), amountCents: n.amount })),
            ...lookalikes
              .filter((i) => i < payouts.length)
              .map((i, k) => ({
                transactionId: `lookalike-${k}`,
                date: ymd(payouts[i]!.arrival + (MATCH_DAYS_AFTER + 1 + k) * DAY),
                amountCents: payouts[i]!.amount,
              })),
          ].reverse();
          // Same-amount payouts whose windows overlap could swap deposits; only the amounts must agree then.
          const distinct = amounts.size === payouts.length;
          const links = matchPayouts(
            payouts.map((p) => ({ payoutId: p.id, amountCents: p.amount, arrivalDate: ymd(p.arrival) })),
            deposits,
          );
          const byPayout = new Map(links.map((l) => [l.payoutId, l.transactionId]));
          const depositOf = new Map(deposits.map((d) => [d.transactionId, d]));
          expect(new Set(links.map((l) => l.transactionId)).size).toBe(links.length);
          expect(links.length).toBe(payouts.length);

          let clearing = 0;
          for (const p of payouts) {
            const c = composePayout(p.members);
            expect(c.gross - c.fees - c.refunds + c.adjustments).toBe(p.amount);
            expect(c.net).toBe(p.amount);
            expect(c.fees).toBeGreaterThanOrEqual(0);
            const deposit = depositOf.get(byPayout.get(p.id)!)!;
            expect(deposit.amountCents).toBe(p.amount);
            if (distinct) expect(deposit.transactionId).toBe(`bank-${p.id}`);

            const lines = payoutJournal(p.id, c);
            expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(0);
            const sumOf = (account: string) => lines.filter((l) => l.account === account).reduce((s, l) => s + l.amountCents, 0);
            expect(sumOf('stripe_clearing')).toBe(0);
            expect(sumOf('bank')).toBe(deposit.amountCents);
            expect(sumOf('revenue')).toBe(0 - c.gross || 0); // revenue credited gross (0, never -0, when there is none)
            expect(sumOf('stripe_fees')).toBe(c.fees); // fees an expense (debit)
            expect(sumOf('refunds')).toBe(c.refunds);
            clearing += sumOf('stripe_clearing');
          }
          expect(clearing).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches only equal amounts inside the date window, each deposit once, whatever the order of the inputs', () => {
    const payout = fc.record({
      payoutId: fc.stringMatching(/^po_[a-z0-9]{4}$/),
      amountCents: fc.integer({ min: 1, max: 20 }),
      arrivalDate: fc.integer({ min: 0, max: 30 }).map((d) => ymd(T0 + d * DAY)),
    });
    const deposit = fc.record({
      transactionId: fc.uuid(),
      amountCents: fc.integer({ min: -5, max: 20 }),
      date: fc.integer({ min: 0, max: 35 }).map((d) => ymd(T0 + d * DAY)),
      description: fc.constantFrom('STRIPE TRANSFER', 'ACH CREDIT', ''),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(payout, { selector: (p) => p.payoutId, maxLength: 15 }),
        fc.uniqueArray(deposit, { selector: (d) => d.transactionId, maxLength: 25 }),
        (ps, ds) => {
          const links = matchPayouts(ps, ds);
          const reversed = matchPayouts([...ps].reverse(), [...ds].reverse());
          expect(new Set(reversed.map((l) => `${l.payoutId}:${l.transactionId}`))).toEqual(new Set(links.map((l) => `${l.payoutId}:${l.transactionId}`)));
          expect(new Set(links.map((l) => l.transactionId)).size).toBe(links.length);
          expect(new Set(links.map((l) => l.payoutId)).size).toBe(links.length);
          for (const l of links) {
            const p = ps.find((x) => x.payoutId === l.payoutId)!;
            const d = ds.find((x) => x.transactionId === l.transactionId)!;
            expect(d.amountCents).toBe(p.amountCents);
            const offset = (Date.parse(d.date) - Date.parse(p.arrivalDate)) / 86_400_000;
            expect(offset).toBeGreaterThanOrEqual(-MATCH_DAYS_BEFORE);
            expect(offset).toBeLessThanOrEqual(MATCH_DAYS_AFTER);
          }
          // Maximal: no unmatched payout has an unused deposit it could take.
          const used = new Set(links.map((l) => l.transactionId));
          for (const p of ps.filter((x) => !links.some((l) => l.payoutId === x.payoutId))) {
            const free = ds.filter((d) => {
              const offset = (Date.parse(d.date) - Date.parse(p.arrivalDate)) / 86_400_000;
              return !used.has(d.transactionId) && d.amountCents === p.amountCents && offset >= -MATCH_DAYS_BEFORE && offset <= MATCH_DAYS_AFTER;
            });
            expect(free).toEqual([]);
          }
          // Deposits already linked are not offered again.
          expect(matchPayouts(ps, ds, used).filter((l) => used.has(l.transactionId))).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
