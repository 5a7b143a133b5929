import type { FieldError } from '../errors.js';
import { moneyMessage, parseDollars } from './money.js';

/**
 * Field problems of one request, collected so that one answer names every bad field
 * (`{ field: 'splitTransactions.0.amount', message: '…' }`). The caller turns a non-empty list into
 * its own invalid-input error (the gateway a 400, a service AppError.invalid).
 */
export class FieldProblems {
  readonly fields: FieldError[] = [];

  add(field: string, message: string): void {
    this.fields.push({ field, message });
  }

  get any(): boolean {
    return this.fields.length > 0;
  }

  /** `value` dollars as cents; absent (undefined or null) stays absent; a bad amount is recorded. */
  cents(field: string, value: unknown): bigint | undefined {
    if (value === undefined || value === null) return undefined;
    const r = parseDollars(value);
    if ('problem' in r) {
      this.add(field, moneyMessage(field, r.problem));
      return undefined;
    }
    return r.cents;
  }
}

/** The proto3 "unset" value (empty text by default, or e.g. 0) as null: proto3 scalars have no null. */
export function orNull<T>(value: T, empty: T = '' as T): T | null {
  return value === empty ? null : value;
}

/** A comma-separated list of ids or names: trimmed, empties dropped. */
export const commaList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
