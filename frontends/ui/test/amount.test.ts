import { describe, expect, it } from 'vitest';
import { AMOUNT_MAX_LENGTH, parseAmount, sanitizeAmount } from '../src/index';

describe('amount input (spec §5)', () => {
  it('accepts digits with an optional decimal point, or nothing', () => {
    expect(sanitizeAmount('')).toBe('');
    expect(sanitizeAmount('125')).toBe('125');
    expect(sanitizeAmount('125.5')).toBe('125.5');
    expect(sanitizeAmount('.5')).toBe('.5');
    expect(sanitizeAmount('12.')).toBe('12.');
  });
  it('refuses anything else', () => {
    expect(sanitizeAmount('12a')).toBeNull();
    expect(sanitizeAmount('-12')).toBeNull();
    expect(sanitizeAmount('1.2.3')).toBeNull();
    expect(sanitizeAmount('1e5')).toBeNull();
    expect(sanitizeAmount('12$')).toBeNull();
  });
  it('strips a leading dollar sign and commas', () => {
    expect(sanitizeAmount('$1,234.50')).toBe('1234.50');
    expect(sanitizeAmount('$')).toBe('');
    expect(sanitizeAmount('1,000,000')).toBe('1000000');
    expect(sanitizeAmount('$$5')).toBeNull();
  });
  it('keeps at most 10 characters', () => {
    expect(AMOUNT_MAX_LENGTH).toBe(10);
    expect(sanitizeAmount('1234567.89')).toBe('1234567.89');
    expect(sanitizeAmount('12345678.90')).toBeNull();
    // Counted after the dollar sign and commas are stripped.
    expect(sanitizeAmount('$1,234,567.89')).toBe('1234567.89');
  });
  it('reads the number typed', () => {
    expect(parseAmount('1234.50')).toBe(1234.5);
    expect(parseAmount('.5')).toBe(0.5);
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('.')).toBeNull();
  });
});
