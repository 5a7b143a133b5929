// Depreciation, pure: each method against a textbook worked example, the monthly rows and their rounding, the create
// body's rules, and a property over random assets (never more than cost − salvage, never below salvage, monotone).
//
// Worked examples:
// - Weygandt, Kimmel & Kieso, "Accounting Principles" (Wiley), chapter "Plant Assets": Barb's Florists' delivery truck,
//   cost $13,000, salvage $1,000, useful life 5 years, 100,000 miles. Straight line $2,400 a year; double declining
//   balance at 40%: $5,200, $3,120, $1,872, $1,123.20, $684.80 (the last year only down to salvage); units of activity
//   $0.12 a mile.
// - Kieso, Weygandt & Warfield, "Intermediate Accounting" (Wiley), chapter "Depreciation, Impairments, and Depletion":
//   Stanley Coal Mines' crane, cost $500,000, salvage $50,000, 5 years, 30,000 hours. Straight line $90,000; sum of the
//   years' digits 5/15 … 1/15: $150,000, $120,000, $90,000, $60,000, $30,000; declining balance (40%): $200,000,
//   $120,000, $72,000, $43,200, $14,800; activity $15 an hour.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  annualAmounts,
  ASSET_MSG,
  cleanAsset,
  depreciationSchedule,
  METHODS,
  type DepreciationInput,
  type DepreciationMethod,
} from '../src/domain/depreciation.js';

const truck = (method: DepreciationMethod, o: Partial<DepreciationInput> = {}): DepreciationInput => ({
  method,
  costCents: 1_300_000,
  salvageCents: 100_000,
  usefulLife: 5,
  totalEstimatedUnits: 100_000,
  unitProducedPerYear: 20_000,
  depreciationStartDate: '2027-01-01',
  ...o,
});
const crane = (method: DepreciationMethod, o: Partial<DepreciationInput> = {}): DepreciationInput => ({
  method,
  costCents: 50_000_000,
  salvageCents: 5_000_000,
  usefulLife: 5,
  totalEstimatedUnits: 30_000,
  unitProducedPerYear: 6_000,
  depreciationStartDate: '2027-01-01',
  ...o,
});
/** Sum of each asset year's twelve monthly rows. */
const byYear = (i: DepreciationInput) => {
  const rows = depreciationSchedule(i);
  const out: number[] = [];
  rows.forEach((r) => {
    out[Math.floor(r.index / 12)] = (out[Math.floor(r.index / 12)] ?? 0) + r.depreciationAmountCents;
  });
  return out;
};

describe('textbook worked examples', () => {
  it('straight line: truck $2,400 a year, crane $90,000 a year', () => {
    expect(annualAmounts(truck('STRAIGHT_LINE'))).toEqual([240_000, 240_000, 240_000, 240_000, 240_000]);
    expect(byYear(truck('STRAIGHT_LINE'))).toEqual([240_000, 240_000, 240_000, 240_000, 240_000]);
    expect(byYear(crane('STRAIGHT_LINE'))).toEqual(Array(5).fill(9_000_000));
  });

  it('double declining balance: truck 5,200 / 3,120 / 1,872 / 1,123.20 / 684.80; crane 200,000 / 120,000 / 72,000 / 43,200 / 14,800', () => {
    expect(byYear(truck('DOUBLE_DECLINING_BALANCE'))).toEqual([520_000, 312_000, 187_200, 112_320, 68_480]);
    expect(byYear(crane('DOUBLE_DECLINING_BALANCE'))).toEqual([20_000_000, 12_000_000, 7_200_000, 4_320_000, 1_480_000]);
  });

  it('double declining balance switches to straight line when that is larger (no salvage: 4,000 / 2,400 / 1,440 / 1,080 / 1,080)', () => {
    expect(annualAmounts({ method: 'DOUBLE_DECLINING_BALANCE', costCents: 1_000_000, salvageCents: 0, usefulLife: 5 })).toEqual([
      400_000, 240_000, 144_000, 108_000, 108_000,
    ]);
  });

  it('sum of the years digits: crane 150,000 / 120,000 / 90,000 / 60,000 / 30,000', () => {
    expect(byYear(crane('SUM_OF_YEARS_DIGITS'))).toEqual([15_000_000, 12_000_000, 9_000_000, 6_000_000, 3_000_000]);
  });

  it('units of production: truck $0.12 a mile at 20,000 miles a year (200 a month); crane $15 an hour at 6,000 hours a year', () => {
    const rows = depreciationSchedule(truck('UNITS_OF_PRODUCTION'));
    expect(rows).toHaveLength(60);
    expect(rows[0]?.depreciationAmountCents).toBe(20_000); // 20,000 / 12 miles × $0.12
    expect(byYear(truck('UNITS_OF_PRODUCTION'))).toEqual(Array(5).fill(240_000));
    expect(byYear(crane('UNITS_OF_PRODUCTION'))).toEqual(Array(5).fill(9_000_000));
    // 100,000 miles at 30,000 a year: 3 years and 4 months, the last month what is left.
    const fast = depreciationSchedule(truck('UNITS_OF_PRODUCTION', { unitProducedPerYear: 30_000 }));
    expect(fast).toHaveLength(40);
    expect(fast[0]?.depreciationAmountCents).toBe(30_000);
    expect(fast.at(-1)?.accumulatedDepreciationCents).toBe(1_200_000);
  });
});

describe('monthly rows', () => {
  it('month ends from the start month, carrying values from cost down to salvage', () => {
    const rows = depreciationSchedule(truck('STRAIGHT_LINE', { depreciationStartDate: '2027-11-15' }));
    expect(rows.slice(0, 4).map((r) => r.depreciationDate)).toEqual(['2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29']);
    expect(rows[0]).toMatchObject({
      period: '2027-11',
      beginningCarryingValueCents: 1_300_000,
      depreciationAmountCents: 20_000,
      accumulatedDepreciationCents: 20_000,
      endingCarryingValueCents: 1_280_000,
    });
    expect(rows.at(-1)).toMatchObject({ period: '2032-10', accumulatedDepreciationCents: 1_200_000, endingCarryingValueCents: 100_000 });
  });

  it('the rounding remainder goes to the last month of the year: 1,000.00 over 3 years', () => {
    const rows = depreciationSchedule({ ...truck('STRAIGHT_LINE'), costCents: 100_000, salvageCents: 0, usefulLife: 3 });
    // 100,000 cents / 3 years = 33,333 + 33,333 + 33,334; 33,333 / 12 = 2,777 × 11 + 2,786.
    expect(rows[0]?.depreciationAmountCents).toBe(2_777);
    expect(rows[11]?.depreciationAmountCents).toBe(2_786);
    expect(rows[35]?.depreciationAmountCents).toBe(2_787);
    expect(rows.reduce((s, r) => s + r.depreciationAmountCents, 0)).toBe(100_000);
  });

  it('nothing to depreciate when salvage equals cost', () => {
    expect(depreciationSchedule(truck('STRAIGHT_LINE', { salvageCents: 1_300_000 }))).toEqual([]);
  });
});

describe('the create body', () => {
  const body = {
    transactionId: 'x',
    purchaseDate: '2027-01-05',
    depreciationStartDate: '2027-02-01',
    assetTypeId: 'y',
    cost: 1300,
    salvageValue: 100,
    usefulLife: 5,
  };

  it('defaults to straight line; money in cents', () => {
    const { asset, problems } = cleanAsset(body);
    expect(problems).toEqual([]);
    expect(asset).toMatchObject({ method: 'STRAIGHT_LINE', costCents: 130_000, salvageCents: 10_000, usefulLife: 5 });
  });

  it('refuses negatives naming each field (spec wording)', () => {
    const { problems } = cleanAsset({ ...body, cost: -1, salvageValue: -1, usefulLife: -1, totalEstimatedUnits: -1, unitProducedPerYear: -5 });
    expect(problems).toEqual([
      { field: 'cost', message: ASSET_MSG.negative('cost') },
      { field: 'salvageValue', message: ASSET_MSG.negative('salvageValue') },
      { field: 'usefulLife', message: ASSET_MSG.negative('usefulLife') },
      { field: 'totalEstimatedUnits', message: ASSET_MSG.negative('totalEstimatedUnits') },
      { field: 'unitProducedPerYear', message: ASSET_MSG.negative('unitProducedPerYear') },
    ]);
    expect(ASSET_MSG.negative('cost')).toBe('cost cannot be negative');
  });

  it("each method's own rules", () => {
    expect(cleanAsset({ ...body, salvageValue: 2000 }).problems).toEqual([{ field: 'salvageValue', message: ASSET_MSG.salvageAboveCost }]);
    expect(cleanAsset({ ...body, usefulLife: 2.5 }).problems).toEqual([{ field: 'usefulLife', message: ASSET_MSG.usefulLife }]);
    expect(cleanAsset({ ...body, method: 'SOMETHING' }).problems).toEqual([{ field: 'method', message: ASSET_MSG.method }]);
    expect(cleanAsset({ ...body, method: 'UNITS_OF_PRODUCTION', usefulLife: undefined }).problems.map((p) => p.field)).toEqual([
      'totalEstimatedUnits',
      'unitProducedPerYear',
    ]);
    expect(cleanAsset({ ...body, cost: 10.001 }).problems).toEqual([{ field: 'cost', message: ASSET_MSG.cents('cost') }]);
    expect(cleanAsset({ ...body, depreciationStartDate: '2026-12-31' }).problems).toEqual([
      { field: 'depreciationStartDate', message: ASSET_MSG.startBeforePurchase },
    ]);
  });
});

describe('property: any asset, any method', () => {
  it('rows add up to cost − salvage, never above it nor negative, carrying value never below salvage, monotone', () => {
    const asset = fc.record({
      method: fc.constantFrom(...METHODS),
      costCents: fc.integer({ min: 1, max: 1_000_000_000 }),
      salvageShare: fc.double({ min: 0, max: 1, noNaN: true }),
      usefulLife: fc.integer({ min: 1, max: 40 }),
      totalEstimatedUnits: fc.integer({ min: 1, max: 1_000_000 }),
      perYearShare: fc.double({ min: 0.03, max: 5, noNaN: true }),
      month: fc.integer({ min: 0, max: 11 }),
    });
    fc.assert(
      fc.property(asset, (a) => {
        const salvageCents = Math.floor(a.costCents * a.salvageShare);
        const unitProducedPerYear = Math.max(1, Math.round(a.totalEstimatedUnits * a.perYearShare));
        const i: DepreciationInput = {
          method: a.method,
          costCents: a.costCents,
          salvageCents,
          usefulLife: a.usefulLife,
          totalEstimatedUnits: a.totalEstimatedUnits,
          unitProducedPerYear,
          depreciationStartDate: `2027-${String(a.month + 1).padStart(2, '0')}-10`,
        };
        const rows = depreciationSchedule(i);
        const base = a.costCents - salvageCents;
        if (base === 0) return rows.length === 0;
        let previous = 0;
        for (const r of rows) {
          if (r.depreciationAmountCents < 0) return false;
          if (r.accumulatedDepreciationCents < previous || r.accumulatedDepreciationCents > base) return false;
          if (r.endingCarryingValueCents < salvageCents || r.endingCarryingValueCents > r.beginningCarryingValueCents) return false;
          if (r.beginningCarryingValueCents - r.depreciationAmountCents !== r.endingCarryingValueCents) return false;
          previous = r.accumulatedDepreciationCents;
        }
        return rows.at(-1)?.accumulatedDepreciationCents === base && rows.at(-1)?.endingCarryingValueCents === salvageCents;
      }),
      { numRuns: 400 },
    );
  });
});
