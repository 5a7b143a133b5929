/**
 * Business dates: calendar days as YYYY-MM-DD text, within the window the product supports. PostgreSQL
 * has no year 0 (JavaScript does) and years far ahead make reports run for ever, so both edges refuse
 * what is outside it.
 */
export const MIN_BUSINESS_DATE = '1900-01-01';
export const MAX_BUSINESS_DATE = '2100-12-31';

/**
 * A real calendar day from 1900-01-01 to 2100-12-31, as one regular expression (JSON Schema `pattern`,
 * so the OpenAPI document states the rule): months of 30 and 31 days, February 29 only in leap years
 * (1900 and 2100 are not).
 */
export const BUSINESS_DATE_PATTERN =
  '^(?:(?:19\\d\\d|20\\d\\d|2100)-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)' +
  '|(?:19(?:0[48]|[2468][048]|[13579][26])|20(?:[02468][048]|[13579][26]))-02-29)$';

const DATE_RE = new RegExp(BUSINESS_DATE_PATTERN);

export function isBusinessDate(value: unknown): value is string {
  return typeof value === 'string' && DATE_RE.test(value);
}

export const dateMessage = (field: string): string => `Invalid ${field} format`;
export const DATE_ORDER_MESSAGE = 'Start date cannot be greater than End date';

/** Both given and start after end: the range is upside down (dates compare as text). */
export const isReversedRange = (start: string | undefined, end: string | undefined): boolean => !!start && !!end && start > end;
