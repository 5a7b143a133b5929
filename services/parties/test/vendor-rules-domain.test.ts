// The vendor rule's fields (pure): blanks are "no condition", signs default, at least one condition remains,
// between needs an upper amount above the amount, an update is the sent fields over the stored rule.
import { describe, expect, it } from 'vitest';
import { applyFromOf, cleanRule, conditionsInWords, RULE_MSG } from '../src/domain/vendor-rules.js';

const CATEGORY = '01a21f27-1621-702b-bd9f-6b5dfc1f6476';
const base = { name: 'Rides', categoryId: CATEGORY, ruleApplyDateTime: '2026-09-15' };

describe('cleanRule', () => {
  it('defaults the signs and keeps only real conditions', () => {
    const { value, problems } = cleanRule({ ...base, descriptionValue: '  uber ', amountCents: 0, sourceId: '' });
    expect(problems).toEqual([]);
    expect(value).toMatchObject({
      descriptionSign: 'contains',
      descriptionValue: 'uber',
      amountSign: null,
      amountCents: null,
      sourceId: null,
      ruleApplyDateTime: '2026-09-15T00:00:00.000Z',
    });
    expect(cleanRule({ ...base, amountCents: 1250 }).value).toMatchObject({ amountSign: 'equals', amountCents: 1250, descriptionValue: null });
  });

  it("needs at least one condition, in a user's words", () => {
    for (const input of [{ ...base }, { ...base, descriptionValue: '   ' }, { ...base, amountCents: 0, sourceId: '' }]) {
      expect(cleanRule(input).problems).toContainEqual({ field: 'descriptionValue', message: RULE_MSG.needsCondition });
    }
  });

  it('between needs an upper amount above the amount; negative amounts and unknown signs are refused', () => {
    expect(cleanRule({ ...base, amountSign: 'between', amountCents: 2000, upperAmountCents: 2000 }).problems).toContainEqual({
      field: 'upperAmountValue',
      message: RULE_MSG.between,
    });
    expect(cleanRule({ ...base, amountSign: 'between', amountCents: 2000, upperAmountCents: 2001 }).problems).toEqual([]);
    expect(cleanRule({ ...base, descriptionValue: 'x', amountCents: -1 }).problems).toContainEqual({ field: 'amountValue', message: RULE_MSG.amountNegative });
    expect(cleanRule({ ...base, descriptionValue: 'x', descriptionSign: 'starts' }).problems).toContainEqual({
      field: 'descriptionSign',
      message: RULE_MSG.descriptionSign,
    });
    expect(cleanRule({ ...base, amountCents: 5, amountSign: 'about' }).problems).toContainEqual({ field: 'amountSign', message: RULE_MSG.amountSign });
  });

  it('reads ruleApplyDateTime as a calendar day (no time-zone shift) and refuses impossible dates', () => {
    expect(applyFromOf('2026-09-15T23:30:00-05:00')).toBe('2026-09-15');
    expect(cleanRule({ ...base, descriptionValue: 'x', ruleApplyDateTime: '2026-02-30' }).problems).toContainEqual({
      field: 'ruleApplyDateTime',
      message: RULE_MSG.applyDate,
    });
    expect(cleanRule({ ...base, descriptionValue: 'x', ruleApplyDateTime: '' }).problems).toContainEqual({
      field: 'ruleApplyDateTime',
      message: RULE_MSG.applyDateRequired,
    });
  });

  it('an update is the sent fields over the stored rule', () => {
    const stored = cleanRule({ ...base, descriptionValue: 'uber' }).value;
    const { value, problems } = cleanRule({ amountSign: 'between', amountCents: 1000, upperAmountCents: 1300 }, stored);
    expect(problems).toEqual([]);
    expect(value).toMatchObject({ name: 'Rides', descriptionValue: 'uber', amountSign: 'between', amountCents: 1000, upperAmountCents: 1300 });
    expect(cleanRule({ descriptionValue: '' }, stored).problems).toContainEqual({ field: 'descriptionValue', message: RULE_MSG.needsCondition });
  });
});

describe('conditionsInWords', () => {
  it('says each condition as the list shows it', () => {
    const { value } = cleanRule({
      ...base,
      descriptionSign: 'equals',
      descriptionValue: 'UBER EATS',
      amountSign: 'between',
      amountCents: 1000,
      upperAmountCents: 1350,
      sourceId: CATEGORY,
    });
    expect(conditionsInWords(value, 'Checking ••1234')).toEqual([
      'Description is "UBER EATS"',
      'Amount is between 10.00 and 13.50',
      'Source account is Checking ••1234',
    ]);
    expect(conditionsInWords(cleanRule({ ...base, amountSign: 'greater_than', amountCents: 99 }).value, '')).toEqual(['Amount is more than 0.99']);
  });
});
