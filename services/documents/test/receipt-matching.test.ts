// Receipt matching rules (domain/receipt-matching.ts): pure, no database.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUTO_MATCH_CONFIDENCE,
  candidateWindow,
  decideMatch,
  merchantSimilarity,
  merchantTokens,
  REVIEW_CONFIDENCE,
  scoreCandidate,
  type CandidateTransaction,
} from '../src/domain/receipt-matching.js';

const txn = (id: string, date: string, amountCents: number, merchantName: string): CandidateTransaction => ({ id, date, amountCents, merchantName });

describe('merchant similarity', () => {
  it('sees through card descriptors: processor prefixes, store numbers, suffixes, case', () => {
    expect(merchantTokens('SQ *BLUE BOTTLE COFFEE #1234')).toEqual(['blue', 'bottle', 'coffee']);
    expect(merchantSimilarity('Blue Bottle Coffee', 'SQ *BLUE BOTTLE COFFEE #1234')).toBe(1);
    expect(merchantSimilarity('Starbucks', 'STARBUCKS STORE 00123')).toBe(1);
    expect(merchantSimilarity('Acme Supplies, Inc.', 'ACME SUPPLIES')).toBe(1);
    expect(merchantSimilarity('Blue Bottle', 'BLUEBOTTLE')).toBe(1);
  });
  it('forgives a misread letter but not another merchant', () => {
    expect(merchantSimilarity('Whole Foods Market', 'WH0LE FOODS MKT')).toBeGreaterThanOrEqual(0.6);
    expect(merchantSimilarity('Uber', 'Lyft')).toBeLessThan(0.3);
    expect(merchantSimilarity('Delta Air Lines', 'Shell Oil')).toBeLessThan(0.3);
    expect(merchantSimilarity('', 'Shell')).toBe(0);
  });
});

describe('scoring one candidate', () => {
  const receipt = { amountCents: 1250, date: '2026-03-10', merchantName: 'Blue Bottle Coffee' };
  it('needs the amount within one cent, either sign', () => {
    expect(scoreCandidate(receipt, txn('a', '2026-03-10', -1250, 'BLUE BOTTLE'))?.confidence).toBe(1);
    expect(scoreCandidate(receipt, txn('a', '2026-03-10', -1251, 'BLUE BOTTLE'))).not.toBeNull();
    expect(scoreCandidate(receipt, txn('a', '2026-03-10', -1249, 'BLUE BOTTLE'))).not.toBeNull();
    expect(scoreCandidate(receipt, txn('a', '2026-03-10', -1252, 'BLUE BOTTLE'))).toBeNull();
    expect(scoreCandidate({ ...receipt, amountCents: null }, txn('a', '2026-03-10', -1250, 'BLUE BOTTLE'))).toBeNull();
  });
  it('needs the date within five days; nearer is surer', () => {
    const day0 = scoreCandidate(receipt, txn('a', '2026-03-10', -1250, 'x'))!.confidence;
    const day2 = scoreCandidate(receipt, txn('a', '2026-03-12', -1250, 'x'))!.confidence;
    const day5 = scoreCandidate(receipt, txn('a', '2026-03-05', -1250, 'x'))!.confidence;
    expect(day0).toBeGreaterThan(day2);
    expect(day2).toBeGreaterThan(day5);
    expect(scoreCandidate(receipt, txn('a', '2026-03-16', -1250, 'x'))).toBeNull();
  });
  it('names its reasons', () => {
    expect(scoreCandidate(receipt, txn('a', '2026-03-11', -1250, 'SQ *BLUE BOTTLE'))!.reasons).toEqual(['amount', 'date', 'merchant']);
    expect(scoreCandidate(receipt, txn('a', '2026-03-11', -1250, 'SHELL'))!.reasons).toEqual(['amount', 'date']);
  });
});

describe('the decision', () => {
  const receipt = { amountCents: 4599, date: '2026-05-02', merchantName: 'Office Depot' };
  it('matches automatically the one clear candidate', () => {
    const d = decideMatch(receipt, [
      txn('t1', '2026-05-03', -4599, 'OFFICE DEPOT #455'),
      txn('t2', '2026-05-03', -4599, 'SHELL OIL'),
      txn('t3', '2026-05-02', -1000, 'OFFICE DEPOT'),
    ]);
    expect(d.kind).toBe('auto');
    if (d.kind !== 'auto') return;
    expect(d.best.transactionId).toBe('t1');
    expect(d.best.confidence).toBeGreaterThanOrEqual(AUTO_MATCH_CONFIDENCE);
    expect(d.suggestions.map((s) => s.transactionId)).toEqual(['t1', 't2']);
  });
  it('leaves two equally good candidates for review', () => {
    const d = decideMatch(receipt, [txn('t1', '2026-05-02', -4599, 'OFFICE DEPOT'), txn('t2', '2026-05-02', -4599, 'OFFICE DEPOT')]);
    expect(d.kind).toBe('review');
    expect(d.suggestions).toHaveLength(2);
  });
  it('leaves a weak candidate (amount only, another merchant) for review, and nothing when none fits', () => {
    expect(decideMatch(receipt, [txn('t1', '2026-05-06', -4599, 'SHELL OIL')]).kind).toBe('review');
    expect(decideMatch(receipt, [txn('t1', '2026-05-02', -4500, 'OFFICE DEPOT')])).toEqual({ kind: 'none', suggestions: [] });
  });
  it('never matches automatically a transaction another receipt has', () => {
    const d = decideMatch(receipt, [txn('t1', '2026-05-02', -4599, 'OFFICE DEPOT')], new Set(['t1']));
    expect(d.kind).toBe('review');
  });
  it('property: an auto match always has the amount within a cent and the date within the window, and the best score', () => {
    const arbTxn = fc.record({
      id: fc.uuid(),
      day: fc.integer({ min: 0, max: 20 }),
      amountCents: fc.integer({ min: -5000, max: 5000 }),
      merchantName: fc.constantFrom('OFFICE DEPOT', 'SHELL', 'SQ *OFFICE DEPOT', 'UBER', ''),
    });
    fc.assert(
      fc.property(fc.array(arbTxn, { maxLength: 12 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 3, max: 17 }), (list, amountCents, day) => {
        const dateOf = (d: number) => `2026-05-${String(d + 1).padStart(2, '0')}`;
        const candidates = list.map((t) => txn(t.id, dateOf(t.day), t.amountCents, t.merchantName));
        const r = { amountCents, date: dateOf(day), merchantName: 'Office Depot' };
        const d = decideMatch(r, candidates);
        for (const s of d.suggestions) expect(s.confidence).toBeGreaterThanOrEqual(REVIEW_CONFIDENCE);
        if (d.kind === 'auto') {
          const t = candidates.find((c) => c.id === d.best.transactionId)!;
          expect(Math.abs(Math.abs(t.amountCents) - amountCents)).toBeLessThanOrEqual(1);
          expect(Math.abs(Date.parse(t.date) - Date.parse(r.date)) / 86_400_000).toBeLessThanOrEqual(5);
          const all = candidates.map((c) => scoreCandidate(r, c)?.confidence ?? 0);
          expect(d.best.confidence).toBe(Math.max(...all));
        }
      }),
    );
  });
  it('asks the ledger for the window around the date', () => {
    expect(candidateWindow('2026-03-01')).toEqual({ startDate: '2026-02-24', endDate: '2026-03-06' });
  });
});
