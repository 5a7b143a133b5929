/** Cents to text without going through floating point: 123456n → "1234.56", -5n → "-0.05". */
export function plainAmount(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Cents as an accountant prints them: thousands separators, negatives in parentheses ("(1,234.56)"). */
export function statementAmount(cents: bigint): string {
  const negative = cents < 0n;
  const [whole = '0', frac = '00'] = plainAmount(negative ? -cents : cents).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return negative ? `(${grouped}.${frac})` : `${grouped}.${frac}`;
}

/** Cents as a spreadsheet number (exact for any amount below 2^53 cents). */
export const amountNumber = (cents: bigint): number => Number(cents) / 100;
