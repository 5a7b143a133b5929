import { describe, expect, it } from 'vitest';
import { multiSelectSummary } from '../src/components/MultiSelect';

describe('multi-select summary', () => {
  it('says the placeholder, the one choice, or how many are chosen', () => {
    expect(multiSelectSummary([], 'All groups')).toBe('All groups');
    expect(multiSelectSummary(['Payroll'], 'All groups')).toBe('Payroll');
    expect(multiSelectSummary(['Payroll', 'Rent', 'Travel'], 'All groups')).toBe('3 selected');
  });
});
