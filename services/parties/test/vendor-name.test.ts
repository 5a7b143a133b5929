// The merchant → vendor matching key (src/domain/vendor-name.ts): pure, no I/O.
import { describe, expect, it } from 'vitest';
import { vendorNameKey } from '../src/domain/vendor-name.js';

describe('vendorNameKey', () => {
  it.each([
    ['Blue Bottle Coffee', 'blue bottle coffee'],
    ['BLUE BOTTLE COFFEE', 'blue bottle coffee'],
    ['Blue Bottle Coffee, Inc.', 'blue bottle coffee'],
    ['Blue-Bottle Coffee Inc', 'blue bottle coffee'],
    ['Acme LLC', 'acme'],
    ['Acme, L.L.C.', 'acme'],
    ['ACME Ltd.', 'acme'],
    ['Acme Corp', 'acme'],
    ['Acme Co.', 'acme'],
    ['WALGREENS #1234', 'walgreens'],
    ['WALGREENS 1234', 'walgreens'],
    ['Walgreens Store 0042', 'walgreens'],
    ['Target No. 12', 'target'],
    ['SQ *BLUE BOTTLE COFFEE', 'blue bottle coffee'],
    ["TST* Joe's Pizza", 'joe s pizza'],
    ['The Home Depot #4410', 'home depot'],
    ['Café Rouge', 'cafe rouge'],
    ['AT&T', 'at and t'],
    ['  GitHub,   Inc  ', 'github'],
  ])('%s → %s', (name, key) => {
    expect(vendorNameKey(name)).toBe(key);
  });

  it('keeps a name that is only a number or only a legal form, and an empty name is empty', () => {
    expect(vendorNameKey('7-Eleven')).toBe('7 eleven');
    expect(vendorNameKey('1234')).toBe('1234');
    expect(vendorNameKey('Inc')).toBe('inc');
    expect(vendorNameKey('  ')).toBe('');
    expect(vendorNameKey('#!?')).toBe('');
  });

  it('tells different merchants apart', () => {
    expect(vendorNameKey('Amazon Web Services')).not.toBe(vendorNameKey('Amazon'));
    expect(vendorNameKey('Uber Eats')).not.toBe(vendorNameKey('Uber'));
    expect(vendorNameKey('Coinc')).toBe('coinc');
  });
});
