/**
 * Plaid amounts are decimal numbers of the currency, positive when money LEAVES the account. Ledgerline
 * keeps integer cents, positive when money comes IN (proto/ledgerline/events/v1/banking.proto). Payloads
 * from Plaid are validated like user input (RELIABILITY 14): a float with sub-cent digits, NaN or an
 * absurd size is refused, never rounded silently.
 */
const MAX_ABS_CENTS = 1e13; // 100 billion in the currency: far beyond any real transaction

export function plaidAmountToCents(amount: unknown): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new RangeError(`amount ${String(amount)} is not a finite number`);
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6 * Math.max(1, Math.abs(cents))) throw new RangeError(`amount ${amount} has more than 2 decimals`);
  if (Math.abs(cents) > MAX_ABS_CENTS) throw new RangeError(`amount ${amount} is out of range`);
  return cents === 0 ? 0 : -cents;
}

/** A balance as Plaid reports it (no sign flip: a balance is a level, not a flow); null stays null. */
export function balanceToCents(amount: number | null | undefined): number | null {
  if (amount === null || amount === undefined) return null;
  if (!Number.isFinite(amount)) throw new RangeError(`balance ${amount} is not a finite number`);
  return Math.round(amount * 100);
}

/** Cents → the REST edge's decimal number with 2 places. */
export function centsToDecimal(cents: number): number {
  return Math.round(cents) / 100;
}
