import { describe, expect, it } from 'vitest';
import {
  VENDOR_RULE_CONDITION_MESSAGE,
  describeVendorRule,
  impactedCount,
  validateVendorRule,
  vendorRuleBody,
  vendorRuleForm,
  type VendorRule,
} from '../src/parties-rules';
import { customersQuery, vendorsQuery } from '../src/parties';

const V = '0b7c8f2e-1111-4a2b-8c3d-000000000001';
const CAT = '0b7c8f2e-1111-4a2b-8c3d-000000000002';
const base = { ...vendorRuleForm(null), name: 'Uber rides', vendorId: V, categoryId: CAT };

describe('vendor rule editor (spec §3 fields, §5)', () => {
  it('needs at least one condition, in the spec words', () => {
    expect(validateVendorRule(base)).toEqual({ conditions: VENDOR_RULE_CONDITION_MESSAGE });
    expect(validateVendorRule({ ...base, amountValue: '0' })).toEqual({ conditions: VENDOR_RULE_CONDITION_MESSAGE });
    expect(validateVendorRule({ ...base, descriptionValue: 'uber' })).toEqual({});
    expect(validateVendorRule({ ...base, amountValue: '$1,200.50' })).toEqual({});
    expect(validateVendorRule({ ...base, sourceId: V })).toEqual({});
  });
  it('needs a name, a vendor and a category; between needs an upper amount above the amount', () => {
    expect(Object.keys(validateVendorRule({ ...vendorRuleForm(null), descriptionValue: 'x' })).sort()).toEqual(['categoryId', 'name', 'vendorId']);
    expect(validateVendorRule({ ...base, amountSign: 'between', amountValue: '10', upperAmountValue: '5' })).toHaveProperty('upperAmountValue');
    expect(validateVendorRule({ ...base, amountSign: 'between', amountValue: '10', upperAmountValue: '50' })).toEqual({});
  });
  it('sends only the conditions set, amounts as numbers', () => {
    expect(vendorRuleBody({ ...base, descriptionValue: ' uber ', ruleApplyDateTime: '2026-01-01' })).toEqual({
      name: 'Uber rides',
      vendorId: V,
      categoryId: CAT,
      ruleApplyDateTime: '2026-01-01',
      descriptionSign: 'contains',
      descriptionValue: 'uber',
    });
    expect(vendorRuleBody({ ...base, amountSign: 'between', amountValue: '10', upperAmountValue: '50.5' })).toMatchObject({
      amountSign: 'between',
      amountValue: 10,
      upperAmountValue: 50.5,
    });
    expect(vendorRuleBody({ ...base, amountSign: 'equals', amountValue: '10', upperAmountValue: '50' })).not.toHaveProperty('upperAmountValue');
  });
  it('reads an existing rule back into the editor and describes it', () => {
    const rule: VendorRule = {
      id: V,
      name: 'Big Uber',
      vendor: { id: V, name: 'Uber' },
      category: { id: CAT, name: 'Travel' },
      ruleApplyDateTime: '2026-03-01T00:00:00.000Z',
      descriptionSign: 'equals',
      descriptionValue: 'UBER TRIP',
      amountSign: 'between',
      amountValue: 10,
      upperAmountValue: 50,
      sourceAccount: null,
      conditions: [],
      impactedTransactions: [],
      impactedTransactionCount: 0,
      vendorId: V,
      categoryId: CAT,
      sourceId: '',
      createdOn: '2026-03-01T00:00:00.000Z',
      updatedOn: '2026-03-01T00:00:00.000Z',
    };
    expect(vendorRuleForm(rule)).toMatchObject({ vendorId: V, categoryId: CAT, ruleApplyDateTime: '2026-03-01', amountValue: '10', upperAmountValue: '50' });
    expect(describeVendorRule(rule)).toBe('Description equals "UBER TRIP" · Amount between $10.00 and $50.00');
  });
});

describe('vendor and customer list queries (spec §9: 20 a page)', () => {
  it('leaves empty filters out', () => {
    expect(vendorsQuery({ search: ' ', status: '', filter: '' }, 1)).toEqual({ page: 1, take: 20, search: undefined, status: undefined, filter: undefined });
    expect(vendorsQuery({ search: 'blue', status: 'active', filter: 'not-added' }, 3)).toEqual({
      page: 3,
      take: 20,
      search: 'blue',
      status: 'active',
      filter: 'not-added',
    });
    expect(customersQuery({ search: 'acme', status: 'inactive' }, 2)).toEqual({ page: 2, take: 20, search: 'acme', status: 'inactive' });
  });
});

describe('impactedCount', () => {
  it('takes the server’s count over the list, which stops at 100', () => {
    const impacted = new Array(100).fill({ id: 't', description: 'UBER', amount: 12, dateTime: '2026-03-02', categoryId: CAT });
    expect(impactedCount({ impactedTransactions: impacted, impactedTransactionCount: 250 } as VendorRule)).toBe(250);
  });
});
