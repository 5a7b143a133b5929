import { FieldProblems, MAX_DOLLARS } from '@ledgerline/platform';
import { HttpError } from './errors.js';

/** The largest amount the REST edge takes (the kit's bound: |amount| < 10^13 dollars). */
export const MAX_AMOUNT = MAX_DOLLARS;

/**
 * Decimal dollars at the REST edge to integer cents with the kit's parser (platform kit/money.ts):
 * more than two decimals, not a finite number or |amount| ≥ 10^13 is refused, never rounded. The schema
 * layer (hardening.ts) has already refused them; this is the conversion, and the last guard. Collects
 * every bad field of a request, then `throwIfAny` answers one 400 naming them (nothing is called).
 */
export class Amounts extends FieldProblems {
  throwIfAny(): void {
    if (this.any) throw HttpError.invalid(this.fields);
  }
}

/** Runs `build` with an Amounts collector and throws its 400 before returning what it built. */
export function withAmounts<T>(build: (a: Amounts) => T): T {
  const a = new Amounts();
  const out = build(a);
  a.throwIfAny();
  return out;
}
