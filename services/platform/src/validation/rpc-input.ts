import { ScalarType, type DescField, type DescMessage, type DescService } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { AppError, type FieldError } from '../errors.js';

/**
 * The input rules every service applies to every RPC request, whoever the caller is (defence in depth,
 * issue #15: the gateway applies the same rules to REST; a service never trusts its caller's input).
 * Driven by the request's protobuf descriptor, so a new RPC or field is covered without listing it.
 */
export const INPUT_LIMITS = {
  /** Characters in any text field (a field with a tighter spec limit is checked by its use case). */
  maxString: 10_000,
  /** Items in any repeated field. */
  maxList: 10_000,
  /** |cents| of any `*_cents` field: amounts are below 10^13 dollars. */
  maxAbsCents: 10n ** 15n - 1n,
  minDate: '1900-01-01',
  maxDate: '2100-12-31',
  /** `page` (with `take` ≤ 100 the offset stays far inside int64). */
  maxPage: 1_000_000,
  /** `coa_id`: at most 8 digits (the lower bound, 5 digits, is the ledger's own rule and message). */
  maxCoaId: 99_999_999,
} as const;

/** NUL and the other C0 control characters and DEL; tab, line feed and carriage return are text. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_FIELD = /(^date|Date|Dates)$/;

/** The name a field has for the client: JSON name, and `amount` for `amountCents` (REST carries dollars). */
const nameOf = (f: DescField) => f.jsonName.replace(/Cents$/, '');

/** A YYYY-MM-DD string is a real calendar date in the supported window; another shape is left to the use case. */
export function dateProblem(field: string, value: string): string | undefined {
  const m = ISO_DATE.exec(value);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(2000, mo - 1, d));
  t.setUTCFullYear(y);
  const real = t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
  if (!real) return `Invalid ${field} format`;
  if (value < INPUT_LIMITS.minDate || value > INPUT_LIMITS.maxDate) return `${field} must be a date from ${INPUT_LIMITS.minDate} to ${INPUT_LIMITS.maxDate}`;
  return undefined;
}

function stringProblem(field: string, name: string, value: string): string | undefined {
  if (CONTROL.test(value)) return `${field} must not contain control characters`;
  if (value.length > INPUT_LIMITS.maxString) return `${field} must be at most ${INPUT_LIMITS.maxString} characters`;
  if (DATE_FIELD.test(name)) return dateProblem(field, value);
  return undefined;
}

function numberProblem(field: string, name: string, scalar: ScalarType, value: unknown): string | undefined {
  if (scalar === ScalarType.DOUBLE || scalar === ScalarType.FLOAT) return Number.isFinite(value) ? undefined : `${field} must be a finite number`;
  if (typeof value === 'bigint') {
    if (/Cents$/.test(name) && (value > INPUT_LIMITS.maxAbsCents || value < -INPUT_LIMITS.maxAbsCents))
      return `${field} must be less than 10000000000000 in absolute value`;
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) return `${field} is out of range`;
    return undefined;
  }
  if (typeof value !== 'number') return undefined;
  if (name === 'page' && value > INPUT_LIMITS.maxPage) return `${field} must be at most ${INPUT_LIMITS.maxPage}`;
  if (name === 'coaId' && value > INPUT_LIMITS.maxCoaId) return `${field} must be at most 8 digits`;
  return undefined;
}

function scalarProblem(field: string, f: DescField, scalar: ScalarType, value: unknown): string | undefined {
  const name = f.jsonName;
  if (typeof value === 'string') return stringProblem(field, name, value);
  return numberProblem(field, name, scalar, value);
}

/** Reads a field's value from a protobuf-es message (a oneof member sits under its oneof). */
function valueOf(message: Record<string, unknown>, f: DescField): unknown {
  if (f.oneof) {
    const o = message[f.oneof.localName] as { case?: string; value?: unknown } | undefined;
    return o?.case === f.localName ? o.value : undefined;
  }
  return message[f.localName];
}

/** Every rule broken by `message` (of type `desc`), each naming its field: `transactions.0.vendorId`. */
export function inputProblems(desc: DescMessage, message: object, prefix = '', depth = 0): FieldError[] {
  const out: FieldError[] = [];
  if (depth > 32) return [{ field: prefix || 'request', message: `${prefix || 'request'} is nested too deeply` }];
  const m = message as Record<string, unknown>;
  for (const f of desc.fields) {
    const value = valueOf(m, f);
    if (value === undefined || value === null) continue;
    const field = `${prefix}${nameOf(f)}`;
    const add = (problem: string | undefined) => {
      if (problem) out.push({ field, message: problem });
    };
    switch (f.fieldKind) {
      case 'scalar':
        add(scalarProblem(field, f, f.scalar, value));
        break;
      case 'message':
        // A `query` message carries a REST query string's parameters: they are named as the client sent them.
        out.push(...inputProblems(f.message, value as object, f.jsonName === 'query' ? prefix : `${field}.`, depth + 1));
        break;
      case 'list': {
        const items = value as unknown[];
        if (items.length > INPUT_LIMITS.maxList) {
          add(`${field} must have at most ${INPUT_LIMITS.maxList} items`);
          break;
        }
        items.forEach((item, i) => {
          if (f.listKind === 'scalar') {
            const problem = scalarProblem(`${field}.${i}`, f, f.scalar, item);
            if (problem) out.push({ field: `${field}.${i}`, message: problem });
          } else if (f.listKind === 'message') out.push(...inputProblems(f.message, item as object, `${field}.${i}.`, depth + 1));
        });
        break;
      }
      case 'map':
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          add(stringProblem(`${field}.${k}`, '', k));
          if (typeof v === 'string') add(stringProblem(`${field}.${k}`, '', v));
        }
        break;
      default:
        break;
    }
  }
  return out;
}

/** Throws InvalidArgument naming every field of `message` that breaks the input rules. */
export function assertInput(desc: DescMessage, message: object): void {
  const problems = inputProblems(desc, message);
  if (problems.length > 0) throw AppError.invalid(problems);
}

/**
 * A service implementation whose every unary method first applies the input rules to its request, so a
 * request breaking them is refused with InvalidArgument naming the field (the gateway answers 400 in
 * the documented shape) before the use case runs. Wrapping the methods (not a router interceptor) keeps
 * the chassis's error interceptor in front: `router.service(S, withInputRules(S, impl))`.
 */
export function withInputRules<S extends DescService, T extends Partial<ServiceImpl<S>>>(service: S, impl: T): T {
  const wrapped: Record<string, unknown> = { ...impl };
  for (const method of service.methods) {
    const fn = (impl as Record<string, unknown>)[method.localName];
    if (typeof fn !== 'function' || method.methodKind !== 'unary') continue;
    wrapped[method.localName] = (req: object, ctx: unknown) => {
      assertInput(method.input, req);
      return (fn as (r: object, c: unknown) => unknown).call(impl, req, ctx);
    };
  }
  return wrapped as T;
}
