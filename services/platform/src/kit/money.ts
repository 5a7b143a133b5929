/**
 * Money at the edges: decimal dollars (USD, 2 places) outside, integer cents inside. One implementation
 * for the gateway and every service: nothing rounds a fraction of a cent, overflows int64, or turns
 * Infinity into an exception deep in a conversion.
 */

/** |amount| must stay below 10^13 dollars: cents (< 10^15) are exact in a double and far inside int64. */
export const MAX_DOLLARS = 9_999_999_999_999.99;
export const MAX_CENTS = 999_999_999_999_999n;

/** Plain decimal text with at most two decimals: "12", "-0.5", "1234.56" (no exponent, no sign of +). */
const DECIMAL = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;

export type MoneyProblem = 'not_a_number' | 'too_many_decimals' | 'too_large';

/** Dollars → cents, or the reason it is not an amount. Numbers are judged by their shortest text (5e-324 is refused). */
export function parseDollars(value: unknown): { cents: bigint } | { problem: MoneyProblem } {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'not_a_number' };
    if (Math.abs(value) > MAX_DOLLARS) return { problem: 'too_large' };
    text = String(value);
    if (/e/i.test(text)) return { problem: 'too_many_decimals' }; // tiny numbers print as 1e-7
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return { problem: 'not_a_number' };
  }
  const m = DECIMAL.exec(text);
  if (!m) {
    if (/^-?\d+\.\d{3,}$/.test(text)) return { problem: 'too_many_decimals' };
    if (/^-?\d{14,}(\.\d*)?$/.test(text)) return { problem: 'too_large' };
    return { problem: 'not_a_number' };
  }
  const [, sign, whole, frac = ''] = m;
  const cents = BigInt(whole!) * 100n + BigInt(frac.padEnd(2, '0'));
  return { cents: sign === '-' ? -cents : cents };
}

/** The message of a money problem, naming the field. */
export function moneyMessage(field: string, problem: MoneyProblem): string {
  switch (problem) {
    case 'too_many_decimals':
      return `${field} must have at most 2 decimal places`;
    case 'too_large':
      return `${field} must be less than 10000000000000 in absolute value`;
    default:
      return `${field} must be a number`;
  }
}

/** Cents → dollars as a JSON number (exact to the cent for |cents| < 2^53). */
export const centsToDollars = (cents: bigint | number): number => Number(cents) / 100;

/** Cents → "1234.56" without floating point. */
export function centsToText(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
