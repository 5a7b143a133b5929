// Field-level checks on QuickBooks request bodies and the wire formats of dates, times and money.
import { faults } from './faults.js';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Control characters other than tab, newline and carriage return (QBO answers them with a validation fault).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function optString(body: Json, field: string, max: number, path = field): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw faults.invalidProperty(path, `Property Name:${path} must be a string`);
  if (CONTROL.test(value)) throw faults.invalidProperty(path, `Property Name:${path} contains an invalid character`);
  if (value.length > max) throw faults.tooLong(path, max);
  return value;
}

export function reqString(body: Json, field: string, max: number, path = field): string {
  const value = optString(body, field, max, path);
  if (value === undefined || value.trim() === '') throw faults.required(path);
  return value;
}

export function optBoolean(body: Json, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw faults.invalidProperty(field, `Property Name:${field} must be true or false`);
}

/** The largest amount QBO stores (15 digits with 2 decimals). */
export const MAX_AMOUNT = 9_999_999_999_999.99;

/** Money in, as a number or a numeric string, at most 2 decimals; answered in cents. */
export function amountCents(value: unknown, path: string, options: { required?: boolean; allowNegative?: boolean } = {}): number | undefined {
  if (value === undefined || value === null) {
    if (options.required) throw faults.required(path);
    return undefined;
  }
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(number)) throw faults.invalidProperty(path, `Property Name:${path} must be a number`);
  if (Math.abs(number) > MAX_AMOUNT) throw faults.invalidValue(path, `${path} is too large: the most is ${MAX_AMOUNT}`);
  if (!options.allowNegative && number < 0) throw faults.business(`${path} cannot be negative`);
  const cents = Math.round(number * 100);
  if (Math.abs(cents - number * 100) > 1e-6 * Math.max(1, Math.abs(number))) {
    throw faults.invalidValue(path, `${path} has more than 2 decimal places`);
  }
  return cents;
}

export const money = (cents: number): number => Math.round(cents) / 100;

/** A calendar date, YYYY-MM-DD. */
export function optDate(body: Json, field: string, path = field): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw faults.invalidValue(path, `${path} must be a date (YYYY-MM-DD)`);
  const parsed = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) throw faults.invalidValue(path, `${path} is not a valid date`);
  return value;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The company's offset from UTC: sandbox companies keep Pacific standard time, as Intuit's sandboxes do. */
export const COMPANY_UTC_OFFSET_HOURS = -8;

/** A QBO timestamp: local time of the company with its offset, e.g. 2026-03-01T09:15:02-08:00. */
export function qboTime(at: Date): string {
  const local = new Date(at.getTime() + COMPANY_UTC_OFFSET_HOURS * 3_600_000);
  const sign = COMPANY_UTC_OFFSET_HOURS < 0 ? '-' : '+';
  const hours = String(Math.abs(COMPANY_UTC_OFFSET_HOURS)).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${hours}:00`;
}

/** The company's calendar date at `at`. */
export function companyDate(at: Date): string {
  return qboTime(at).slice(0, 10);
}
