import {
  BUSINESS_DATE_PATTERN,
  DATE_ORDER_MESSAGE,
  MAX_BUSINESS_DATE,
  MAX_DOLLARS,
  MAX_PAGE,
  MAX_TAKE,
  MIN_BUSINESS_DATE,
  parseDollars,
} from '@ledgerline/platform';

/**
 * THE validation layer of the REST edge: every request schema (body, query string, path parameters)
 * is hardened here before fastify compiles it and before @fastify/swagger documents it, so ajv and the
 * OpenAPI document state the same rules and a new route gets them without anyone remembering:
 *
 * - text refuses NUL and every other control character (SINGLE_LINE_PATTERN; a field that documents
 *   line breaks sets MULTI_LINE_PATTERN itself) and has a maximum length (DEFAULT_MAX_LENGTH unless the
 *   schema sets a smaller one);
 * - a text field named `date` or `…Date` is a business date: YYYY-MM-DD, a real calendar day from
 *   1900-01-01 to 2100-12-31 (empty text means "not given");
 * - integers have ranges: `page` 1–MAX_PAGE (the offset stays a safe int32), `take` 1–100, `coaId`
 *   10000–99999999, anything else int32;
 * - numbers are amounts in dollars: at most two decimals (`x-decimals`, checked by the kit's
 *   parseDollars) and |amount| < 10^13; Infinity, 1e17 and 1e308 are refused;
 * - arrays have a maximum number of items.
 *
 * Closed enums (e.g. `heardAboutUs`) and UUID formats are written in the schemas themselves.
 */

/** No C0 control character (NUL, tab, line breaks, ESC…) and no DEL. */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001F\\u007F]*$';
/** Multi-line text: tab, line feed and carriage return allowed, every other control character refused. */
export const MULTI_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';
/** A business date, or empty text (= not given: the service applies its default). */
export const OPTIONAL_DATE_PATTERN = `^$|${BUSINESS_DATE_PATTERN}`;

export const DEFAULT_MAX_LENGTH = 1000;
export const DEFAULT_MAX_ITEMS = 1000;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
export const MIN_COA_ID = 10_000;
export const MAX_COA_ID = 99_999_999;

/** The ajv keyword for amounts: `'x-decimals': 2`. */
export const DECIMALS_KEYWORD = 'x-decimals';
/** The ajv keyword of integers: `'x-finite': true`. Fastify's ajv coerces the text 'Infinity' (or 1e400) to a number that passes its integer and range checks. */
export const FINITE_KEYWORD = 'x-finite';

const DATE_FIELD = /^(date|.*Date)$/;

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

function hardenString(s: Schema, name: string): Schema {
  if (s.format !== undefined || s.enum !== undefined || s.const !== undefined) return s;
  if (DATE_FIELD.test(name) && s.pattern === undefined) {
    const description = typeof s.description === 'string' && s.description !== '' ? s.description : 'YYYY-MM-DD.';
    return {
      ...s,
      maxLength: 10,
      pattern: OPTIONAL_DATE_PATTERN,
      description: `${description} A calendar date from ${MIN_BUSINESS_DATE} to ${MAX_BUSINESS_DATE}.`,
    };
  }
  const maxLength = typeof s.maxLength === 'number' ? Math.min(s.maxLength, 100_000) : DEFAULT_MAX_LENGTH;
  return { ...s, maxLength, pattern: s.pattern ?? SINGLE_LINE_PATTERN };
}

function hardenInteger(s: Schema, name: string): Schema {
  const bounded = (min: number, max: number) => ({
    ...s,
    [FINITE_KEYWORD]: true,
    minimum: Math.max(typeof s.minimum === 'number' ? s.minimum : min, min),
    maximum: Math.min(typeof s.maximum === 'number' ? s.maximum : max, max),
  });
  if (name === 'page') return bounded(1, MAX_PAGE);
  if (name === 'take') return bounded(1, MAX_TAKE);
  if (name === 'coaId') return bounded(MIN_COA_ID, MAX_COA_ID);
  return bounded(INT32_MIN, INT32_MAX);
}

function hardenNumber(s: Schema): Schema {
  return { ...s, minimum: -MAX_DOLLARS, maximum: MAX_DOLLARS, [DECIMALS_KEYWORD]: 2, [FINITE_KEYWORD]: true };
}

/**
 * The hardened copy of a request schema (the input is not changed). `name` is the property the
 * schema describes (the rules by name above); `$ref`s are left alone: shared body schemas are hardened
 * when they are registered (see addRequestSchemas).
 */
export function hardenRequestSchema<T>(schema: T, name = ''): T {
  if (!isObject(schema) || schema.$ref !== undefined) return schema;
  let s: Schema = { ...schema };
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) s[key] = (s[key] as unknown[]).map((x) => hardenRequestSchema(x, name));
  }
  const types = typesOf(s);
  if (isObject(s.properties)) {
    s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, hardenRequestSchema(v, k)]));
  }
  if (types.includes('array') || s.items !== undefined) {
    if (s.items !== undefined) s.items = hardenRequestSchema(s.items, name);
    if (typeof s.maxItems !== 'number') s.maxItems = DEFAULT_MAX_ITEMS;
  }
  if (types.includes('string')) s = hardenString(s, name);
  if (types.includes('integer')) s = hardenInteger(s, name);
  else if (types.includes('number')) s = hardenNumber(s);
  return s as T;
}

/** The ajv keyword behind `x-decimals: 2`: the kit's own reading of an amount decides (5e-324 and 12.345 refused). */
export function decimalsKeyword(ajv: { addKeyword: (def: object) => unknown }): void {
  ajv.addKeyword({
    keyword: DECIMALS_KEYWORD,
    type: 'number',
    schemaType: 'number',
    errors: true,
    validate: function validate(this: unknown, _decimals: number, data: number) {
      const ok = !('problem' in parseDollars(data));
      if (!ok)
        (validate as unknown as { errors: object[] }).errors = [
          { keyword: DECIMALS_KEYWORD, message: 'must have at most 2 decimal places', params: { decimals: 2 } },
        ];
      return ok;
    },
  });
}

/** The ajv keyword behind `x-finite: true`: Infinity and NaN are not integers, whatever the coercion made of the text. */
export function finiteKeyword(ajv: { addKeyword: (def: object) => unknown }): void {
  ajv.addKeyword({
    keyword: FINITE_KEYWORD,
    // No `type`: ajv guards number keywords with isFinite(), which is exactly what lets Infinity through.
    schemaType: 'boolean',
    errors: true,
    validate: function validate(this: unknown, _finite: boolean, data: unknown) {
      const ok = typeof data !== 'number' || Number.isFinite(data);
      if (!ok) (validate as unknown as { errors: object[] }).errors = [{ keyword: FINITE_KEYWORD, message: 'must be a finite integer', params: {} }];
      return ok;
    },
  });
}

/** Human messages for the hardened rules (ajv's defaults otherwise). */
export function ruleMessage(field: string, keyword: string | undefined, params: Record<string, unknown> | undefined): string | undefined {
  if (keyword === 'pattern' && params?.pattern === OPTIONAL_DATE_PATTERN) return `Invalid ${field} format`;
  if (keyword === 'pattern' && (params?.pattern === SINGLE_LINE_PATTERN || params?.pattern === MULTI_LINE_PATTERN))
    return `${field} must not contain control characters`;
  if (keyword === 'minimum' && field.split('.').pop() === 'coaId') return 'coaId must be minimum 5 digits number';
  // The paging messages the services answered before the gateway checked paging itself.
  if ((keyword === 'minimum' || keyword === 'maximum') && field === 'take') return `take must be between 1 and ${MAX_TAKE}`;
  if (keyword === 'minimum' && field === 'page') return 'page must not be less than 1';
  if (keyword === 'maximum' && field === 'page') return `page must not be greater than ${MAX_PAGE}`;
  if (keyword === 'enum' && field === 'heardAboutUs') return 'Please tell us how you heard about us';
  if (keyword === 'enum' && Array.isArray(params?.allowedValues)) return `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
  return undefined;
}

/** Per app: the `$id`s of the request schemas addSchemas hardened. */
const hardenedIds = new WeakMap<object, Set<string>>();

/**
 * Registers shared schemas; request bodies (`$id` ending in `Body`) hardened first. Every route whose
 * body is a `$ref` must point at one of these (installValidationLayer refuses to start otherwise).
 */
export function addSchemas(app: { addSchema: (s: unknown) => unknown }, schemas: readonly { readonly $id: string }[]): void {
  const ids = hardenedIds.get(app) ?? new Set<string>();
  hardenedIds.set(app, ids);
  for (const schema of schemas) {
    if (!/Body$/.test(schema.$id)) {
      app.addSchema(schema);
      continue;
    }
    ids.add(schema.$id);
    app.addSchema(hardenRequestSchema(schema));
  }
}

interface RouteLike {
  url: string;
  method: string | string[];
  schema?: Record<string, unknown>;
}
interface AppLike {
  addHook: (name: 'onRoute', hook: (route: RouteLike) => void) => unknown;
}

/**
 * Hardens the schemas of every route as it is added (install it before @fastify/swagger, which then
 * documents the hardened schemas): query string, path parameters and inline bodies here, `$ref` bodies
 * at registration (addSchemas).
 */
export function installValidationLayer(app: AppLike): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (!schema) return;
    const next = { ...schema };
    for (const part of ['querystring', 'params', 'body'] as const) {
      const s = next[part] as Schema | undefined;
      if (!s) continue;
      if (typeof s.$ref === 'string') {
        if (!hardenedIds.get(app)?.has(s.$ref.replace(/#$/, '')))
          throw new Error(`${String(route.method)} ${route.url}: ${part} schema ${s.$ref} is not registered with addSchemas (so it is not hardened)`);
        continue;
      }
      next[part] = hardenRequestSchema(s);
    }
    route.schema = next;
  });
}

/**
 * Pairs of fields that make a filter's date range: `startDate`/`endDate`, `xStartDate`/`xEndDate`. An accrual's
 * `accrualStartDate`/`accrualEndDate` is a schedule, not a filter: the ledger refuses it upside down with its own
 * message naming the end ('accrualEndDate cannot be less than accrualStartDate').
 */
function dateRanges(input: Record<string, unknown>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of Object.keys(input)) {
    if (key === 'accrualStartDate') continue;
    const m = /^(.*)(s|S)tartDate$/.exec(key);
    if (m) pairs.push([key, `${m[1]}${m[2] === 's' ? 'e' : 'E'}ndDate`]);
  }
  return pairs;
}

/** The first upside-down date range of a validated query or body, as a field problem. */
export function reversedRange(input: unknown): { field: string; message: string } | undefined {
  // A raw body (multipart uploads) is bytes: its keys are millions of indices, never dates.
  if (!isObject(input) || ArrayBuffer.isView(input)) return undefined;
  for (const [start, end] of dateRanges(input)) {
    const a = input[start];
    const b = input[end];
    if (typeof a === 'string' && typeof b === 'string' && a !== '' && b !== '' && a > b) return { field: start, message: DATE_ORDER_MESSAGE };
  }
  return undefined;
}
