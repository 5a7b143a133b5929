import { describe, expect, it } from 'vitest';
import type { VendorRule } from '@ledgerline/api';
import { describeVendorRule, impactedCount, vendorRuleForm } from '../src/parties/vendor-rules';

const V = '0b7c8f2e-1111-4a2b-8c3d-000000000001';
const CAT = '0b7c8f2e-1111-4a2b-8c3d-000000000002';

describe('the vendor rules screen', () => {
  it('starts a new rule blank: description contains, amount equals', () => {
    expect(vendorRuleForm(null)).toMatchObject({ name: '', vendorId: '', descriptionSign: 'contains', amountSign: 'equals', amountValue: '' });
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

describe('impactedCount', () => {
  it('takes the server’s count over the list, which stops at 100', () => {
    const impacted = new Array(100).fill({ id: 't', description: 'UBER', amount: 12, dateTime: '2026-03-02', categoryId: CAT });
    expect(impactedCount({ impactedTransactions: impacted, impactedTransactionCount: 250 } as VendorRule)).toBe(250);
  });
});
