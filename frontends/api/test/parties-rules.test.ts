import { describe, expect, it } from 'vitest';
import { VENDOR_RULE_CONDITION_MESSAGE, validateVendorRule, vendorRuleBody, type VendorRuleForm } from '../src/parties-rules';
import { customersQuery, vendorsQuery } from '../src/parties';

const V = '0b7c8f2e-1111-4a2b-8c3d-000000000001';
const CAT = '0b7c8f2e-1111-4a2b-8c3d-000000000002';
const blank: VendorRuleForm = {
  name: '',
  vendorId: '',
  categoryId: '',
  ruleApplyDateTime: '',
  descriptionSign: 'contains',
  descriptionValue: '',
  amountSign: 'equals',
  amountValue: '',
  upperAmountValue: '',
  sourceId: '',
};
const base = { ...blank, name: 'Uber rides', vendorId: V, categoryId: CAT };

describe('vendor rule editor (spec §3 fields, §5)', () => {
  it('needs at least one condition, in the spec words', () => {
    expect(validateVendorRule(base)).toEqual({ conditions: VENDOR_RULE_CONDITION_MESSAGE });
    expect(validateVendorRule({ ...base, amountValue: '0' })).toEqual({ conditions: VENDOR_RULE_CONDITION_MESSAGE });
    expect(validateVendorRule({ ...base, descriptionValue: 'uber' })).toEqual({});
    expect(validateVendorRule({ ...base, amountValue: '$1,200.50' })).toEqual({});
    expect(validateVendorRule({ ...base, sourceId: V })).toEqual({});
  });
  it('needs a name, a vendor and a category; between needs an upper amount above the amount', () => {
    expect(Object.keys(validateVendorRule({ ...blank, descriptionValue: 'x' })).sort()).toEqual(['categoryId', 'name', 'vendorId']);
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
