// The categorisation model (src/domain/categorisation.ts): pure, no I/O.
import { describe, expect, it } from 'vitest';
import {
  AUTO_APPLY_THRESHOLD,
  amountSimilarity,
  descriptionTokens,
  indexExamples,
  isAutoApplied,
  merchantKey,
  suggestCategory,
  type CategorisationExample,
} from '../src/domain/categorisation.js';

let at = 0;
const ex = (description: string, dollars: number, categoryId: string, more: Partial<CategorisationExample> = {}): CategorisationExample => ({
  merchantName: '',
  description,
  amountCents: Math.round(dollars * 100),
  bankAccountId: 'card',
  categoryId,
  vendorId: null,
  at: ++at,
  ...more,
});
const q = (description: string, dollars: number, bankAccountId = 'card') => ({
  merchantName: '',
  description,
  amountCents: Math.round(dollars * 100),
  bankAccountId,
});

describe('merchant keys and tokens', () => {
  it.each([
    ['SQ *BLUE BOTTLE 1234', 'BLUE BOTTLE'],
    ['BLUE BOTTLE COFFEE #22 SAN FRANCISCO CA', 'BLUE BOTTLE'],
    ['TST* SWEETGREEN 0042', 'SWEETGREEN'],
    ['AMZN MKTP US*2K4RT', 'AMZN MKTP'],
    ['Uber', 'UBER'],
  ])('%s → %s', (text, key) => expect(merchantKey('', text)).toBe(key));

  it('prefers the merchant name when there is one', () => expect(merchantKey('Blue Bottle Coffee', 'SQ *BB 99')).toBe('BLUE BOTTLE'));

  it('drops numbers, filler and a trailing state code', () => expect(descriptionTokens('STARBUCKS STORE 01234 SEATTLE WA')).toEqual(['STARBUCKS', 'SEATTLE']));
});

describe('amountSimilarity', () => {
  it('is 1 for equal amounts, 0 across directions, and falls with the ratio', () => {
    expect(amountSimilarity(-1000, -1000)).toBe(1);
    expect(amountSimilarity(-1000, 1000)).toBe(0);
    expect(amountSimilarity(-1000, -1200)).toBeGreaterThan(amountSimilarity(-1000, -3000));
  });
});

describe('suggestCategory', () => {
  it('suggests the merchant’s category with high confidence from a consistent history, whatever the store number', () => {
    const index = indexExamples([
      ex('SQ *BLUE BOTTLE 1111', -6, 'meals', { vendorId: 'v-bb' }),
      ex('BLUE BOTTLE COFFEE #12', -8, 'meals'),
      ex('SQ *BLUE BOTTLE 3333', -5.5, 'meals'),
      ex('UBER TRIP 1', -20, 'travel'),
    ]);
    const s = suggestCategory(index, q('SQ *BLUE BOTTLE 9876', -7));
    expect(s).toMatchObject({ categoryId: 'meals', vendorId: 'v-bb', basis: 'merchant' });
    expect(s!.confidence).toBeGreaterThanOrEqual(AUTO_APPLY_THRESHOLD);
    expect(isAutoApplied(s)).toBe(true);
  });

  it('tells the same merchant apart by amount', () => {
    const history = [
      ...[12, 30, 45, 18, 60, 25].map((d) => ex('AMAZON.COM*123', -d, 'office')),
      ...[900, 1400, 1800].map((d) => ex('AMAZON.COM*456', -d, 'equipment')),
    ];
    const index = indexExamples(history);
    expect(suggestCategory(index, q('AMAZON.COM*789', -35))?.categoryId).toBe('office');
    expect(suggestCategory(index, q('AMAZON.COM*789', -1250))?.categoryId).toBe('equipment');
    expect(isAutoApplied(suggestCategory(index, q('AMAZON.COM*789', -1250)))).toBe(true);
  });

  it('a correction changes the next suggestion for the merchant at once, shown but not applied until confirmed', () => {
    const history = [1, 2, 3, 4, 5, 6].map(() => ex('COSTCO WHSE 0001', -80, 'meals'));
    expect(suggestCategory(indexExamples(history), q('COSTCO WHSE 0002', -85))).toMatchObject({ categoryId: 'meals' });
    history.push(ex('COSTCO WHSE 0003', -82, 'office'));
    const after = suggestCategory(indexExamples(history), q('COSTCO WHSE 0004', -85));
    expect(after?.categoryId).toBe('office');
    expect(isAutoApplied(after)).toBe(false);
    // Confirmed a few times, it is applied again.
    history.push(
      ex('COSTCO WHSE 0005', -79, 'office'),
      ex('COSTCO WHSE 0006', -90, 'office'),
      ex('COSTCO WHSE 0007', -84, 'office'),
      ex('COSTCO WHSE 0008', -88, 'office'),
      ex('COSTCO WHSE 0009', -81, 'office'),
      ex('COSTCO WHSE 0010', -83, 'office'),
    );
    expect(isAutoApplied(suggestCategory(indexExamples(history), q('COSTCO WHSE 0011', -85)))).toBe(true);
  });

  it('does not apply a merchant that goes back and forth at the same amounts', () => {
    const history = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ex('TARGET 1234', -50, i % 2 ? 'meals' : 'office'));
    const s = suggestCategory(indexExamples(history), q('TARGET 9999', -50));
    expect(s).not.toBeNull();
    expect(isAutoApplied(s)).toBe(false);
  });

  it('never takes an inflow’s category for an outflow', () => {
    const index = indexExamples([ex('STRIPE TRANSFER 1', 5000, 'sales'), ex('STRIPE TRANSFER 2', 7000, 'sales')]);
    expect(suggestCategory(index, q('STRIPE TRANSFER 3', -40))).toBeNull();
  });

  it('falls back on description tokens for an unseen spelling, with less confidence', () => {
    const index = indexExamples([ex('PHILZ COFFEE 12', -6, 'meals'), ex('PHILZ COFFEE 13', -7, 'meals'), ex('RITUAL COFFEE ROASTERS', -5, 'meals')]);
    const s = suggestCategory(index, q('DOWNTOWN COFFEE SHOP', -6));
    expect(s).toMatchObject({ categoryId: 'meals', basis: 'tokens' });
    const byMerchant = suggestCategory(index, q('PHILZ COFFEE 99', -6));
    expect(s!.confidence).toBeLessThan(byMerchant!.confidence);
  });

  it('says nothing without any history', () => expect(suggestCategory(indexExamples([]), q('ANYTHING', -5))).toBeNull());

  it('is surer of a merchant seen on the same bank account', () => {
    const index = indexExamples([ex('SHELL OIL 1', -40, 'travel'), ex('SHELL OIL 2', -42, 'travel')]);
    expect(suggestCategory(index, q('SHELL OIL 3', -40, 'card'))!.confidence).toBeGreaterThan(
      suggestCategory(index, q('SHELL OIL 3', -40, 'checking'))!.confidence,
    );
  });
});
