// QBO's query language: `select * | count(*) | f1, f2 from Entity [where a op v [and ...]] [orderby f [asc|desc]]
// [startposition n] [maxresults m]`. Operators =, <, >, <=, >=, IN, LIKE (with %); AND only (QBO has no OR).
import { faults } from './faults.js';
import { entityTypeOf, type EntityType } from './company.js';
import { isObject, type Json } from './wire.js';

export type Operator = '=' | '<' | '>' | '<=' | '>=' | 'IN' | 'LIKE' | '!=';
type Value = string | number | boolean;

export interface Condition {
  field: string;
  operator: Operator;
  value: Value | Value[];
}

export interface Query {
  entity: EntityType;
  count: boolean;
  fields: string[] | null;
  where: Condition[];
  orderBy: { field: string; direction: 'asc' | 'desc' } | null;
  startPosition: number;
  maxResults: number;
}

/** QBO answers at most 1,000 entities per query; 100 when maxresults is not given. */
export const MAX_RESULTS = 1000;
export const DEFAULT_MAX_RESULTS = 100;

type Token = { kind: 'word' | 'string' | 'number' | 'op' | 'punct'; text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw faults.queryParse('unterminated string');
        const ch = text[i]!;
        if (ch === '\\' && i + 1 < text.length) {
          value += text[i + 1]!;
          i += 2;
        } else if (ch === "'") {
          i++;
          break;
        } else {
          value += ch;
          i++;
        }
      }
      tokens.push({ kind: 'string', text: value });
    } else if (/[<>=!]/.test(c)) {
      const two = text.slice(i, i + 2);
      const op = ['<=', '>=', '!='].includes(two) ? two : c;
      if (op === '!') throw faults.queryParse(`Encountered "!" at column ${i + 1}`);
      tokens.push({ kind: 'op', text: op });
      i += op.length;
    } else if (/[(),*]/.test(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (/[-\d]/.test(c)) {
      const match = /^-?\d+(\.\d+)?/.exec(text.slice(i));
      if (!match) throw faults.queryParse(`Encountered "${c}" at column ${i + 1}`);
      tokens.push({ kind: 'number', text: match[0] });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][\w.]*/.exec(text.slice(i))!;
      tokens.push({ kind: 'word', text: match[0] });
      i += match[0].length;
    } else {
      throw faults.queryParse(`Encountered "${c}" at column ${i + 1}`);
    }
  }
  return tokens;
}

const COMMON_FIELDS = ['Id', 'SyncToken', 'MetaData', 'domain', 'sparse', 'CurrencyRef'];
const TXN_FIELDS = ['TxnDate', 'DocNumber', 'PrivateNote', 'TotalAmt', 'Line'];
/** The fields a query may name per entity (QBO refuses others with QueryValidationError). */
export const QUERYABLE_FIELDS: Record<EntityType, readonly string[]> = {
  Account: [
    'Name',
    'SubAccount',
    'FullyQualifiedName',
    'Active',
    'Classification',
    'AccountType',
    'AccountSubType',
    'AcctNum',
    'Description',
    'CurrentBalance',
    'CurrentBalanceWithSubAccounts',
  ],
  Vendor: [
    'DisplayName',
    'GivenName',
    'FamilyName',
    'CompanyName',
    'PrintOnCheckName',
    'Active',
    'PrimaryEmailAddr',
    'PrimaryPhone',
    'BillAddr',
    'Balance',
    'Vendor1099',
    'Notes',
  ],
  Customer: [
    'DisplayName',
    'FullyQualifiedName',
    'GivenName',
    'FamilyName',
    'CompanyName',
    'PrintOnCheckName',
    'Active',
    'PrimaryEmailAddr',
    'PrimaryPhone',
    'BillAddr',
    'Balance',
    'Job',
    'Taxable',
    'BillWithParent',
    'Notes',
  ],
  Item: ['Name', 'FullyQualifiedName', 'Active', 'Type', 'Taxable', 'UnitPrice', 'IncomeAccountRef'],
  Bill: [...TXN_FIELDS, 'VendorRef', 'APAccountRef', 'DueDate', 'Balance'],
  Invoice: [...TXN_FIELDS, 'CustomerRef', 'DueDate', 'Balance', 'CustomerMemo', 'BillEmail', 'EmailStatus', 'PrintStatus', 'ApplyTaxAfterDiscount'],
  JournalEntry: [...TXN_FIELDS, 'Adjustment'],
  Purchase: [...TXN_FIELDS, 'PaymentType', 'AccountRef', 'EntityRef', 'Credit'],
  Deposit: [...TXN_FIELDS, 'DepositToAccountRef'],
};

function checkQueryable(entity: EntityType, path: string): void {
  const head = path.split('.')[0]!.toLowerCase();
  if (![...COMMON_FIELDS, ...QUERYABLE_FIELDS[entity]].some((f) => f.toLowerCase() === head)) {
    throw faults.queryValidation(`property '${path}' is not queryable`);
  }
}

export function parseQuery(text: string): Query {
  if (text.length > 100_000) throw faults.queryParse('query too long');
  const tokens = tokenize(text);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isWord = (word: string): boolean => peek()?.kind === 'word' && peek()!.text.toLowerCase() === word;
  const expectWord = (word: string): void => {
    if (!isWord(word)) throw faults.queryParse(`Encountered "${peek()?.text ?? '<EOF>'}", expected "${word.toUpperCase()}"`);
    pos++;
  };
  const next = (what: string): Token => {
    const token = tokens[pos++];
    if (!token) throw faults.queryParse(`Encountered "<EOF>", expected ${what}`);
    return token;
  };

  expectWord('select');
  let count = false;
  let fields: string[] | null = null;
  if (peek()?.text === '*') pos++;
  else if (isWord('count')) {
    pos++;
    if (next('(').text !== '(' || next('*').text !== '*' || next(')').text !== ')') throw faults.queryParse('expected count(*)');
    count = true;
  } else {
    fields = [];
    for (;;) {
      const token = next('a field');
      if (token.kind !== 'word') throw faults.queryParse(`Encountered "${token.text}", expected a field`);
      fields.push(token.text);
      if (peek()?.text !== ',') break;
      pos++;
    }
  }
  expectWord('from');
  const entityToken = next('an entity');
  const entity = entityToken.kind === 'word' ? entityTypeOf(entityToken.text) : undefined;
  if (!entity) throw faults.queryValidation(`Entity ${entityToken.text} is not supported`);

  const where: Condition[] = [];
  if (isWord('where')) {
    pos++;
    for (;;) {
      const field = next('a field');
      if (field.kind !== 'word') throw faults.queryParse(`Encountered "${field.text}", expected a field`);
      const opToken = next('an operator');
      const operator = (opToken.kind === 'word' ? opToken.text.toUpperCase() : opToken.text) as Operator;
      if (!['=', '<', '>', '<=', '>=', 'IN', 'LIKE', '!='].includes(operator)) throw faults.queryParse(`Encountered "${opToken.text}", expected an operator`);
      let value: Value | Value[];
      if (operator === 'IN') {
        if (next('(').text !== '(') throw faults.queryParse('IN needs a list in parentheses');
        const values: Value[] = [];
        for (;;) {
          values.push(literal(next('a value')));
          const sep = next(') or ,');
          if (sep.text === ')') break;
          if (sep.text !== ',') throw faults.queryParse(`Encountered "${sep.text}", expected "," or ")"`);
        }
        value = values;
      } else {
        value = literal(next('a value'));
      }
      where.push({ field: field.text, operator, value });
      if (!isWord('and')) break;
      pos++;
    }
    if (isWord('or')) throw faults.queryParse('OR is not supported: QBO queries combine conditions with AND only');
  }

  let orderBy: Query['orderBy'] = null;
  if (isWord('orderby') || isWord('order')) {
    if (isWord('order')) {
      pos++;
      expectWord('by');
    } else pos++;
    const field = next('a field');
    if (field.kind !== 'word') throw faults.queryParse(`Encountered "${field.text}", expected a field`);
    let direction: 'asc' | 'desc' = 'asc';
    if (isWord('asc') || isWord('desc')) direction = next('asc or desc').text.toLowerCase() as 'asc' | 'desc';
    orderBy = { field: field.text, direction };
  }
  let startPosition = 1;
  let maxResults = DEFAULT_MAX_RESULTS;
  for (;;) {
    if (isWord('startposition')) {
      pos++;
      startPosition = positiveInt(next('a number'), 'STARTPOSITION');
    } else if (isWord('maxresults')) {
      pos++;
      maxResults = Math.min(positiveInt(next('a number'), 'MAXRESULTS'), MAX_RESULTS);
    } else break;
  }
  if (pos < tokens.length) throw faults.queryParse(`Encountered "${tokens[pos]!.text}" at the end of the query`);
  for (const path of [...(fields ?? []), ...where.map((c) => c.field), ...(orderBy ? [orderBy.field] : [])]) checkQueryable(entity, path);
  return { entity, count, fields, where, orderBy, startPosition, maxResults };
}

function literal(token: Token): Value {
  if (token.kind === 'string') return token.text;
  if (token.kind === 'number') return Number(token.text);
  if (token.kind === 'word' && /^(true|false)$/i.test(token.text)) return token.text.toLowerCase() === 'true';
  throw faults.queryParse(`Encountered "${token.text}", expected a value`);
}

function positiveInt(token: Token, what: string): number {
  const n = Number(token.text);
  if (token.kind !== 'number' || !Number.isInteger(n) || n < 1 || n > 1_000_000_000) throw faults.queryParse(`${what} must be a positive integer`);
  return n;
}

/** A field of an entity by dotted path; a reference (`VendorRef`) compares by its value. */
export function fieldValue(entity: Json, path: string): unknown {
  let value: unknown = entity;
  for (const part of path.split('.')) {
    if (!isObject(value)) return undefined;
    const key = Object.keys(value).find((k) => k.toLowerCase() === part.toLowerCase());
    value = key === undefined ? undefined : value[key];
  }
  if (isObject(value) && 'value' in value) return value.value;
  return value;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

function compare(left: unknown, right: Value): number | null {
  if (left === undefined || left === null) return null;
  if (typeof right === 'boolean') return left === right ? 0 : null;
  if (typeof left === 'string' && TIMESTAMP.test(left) && typeof right === 'string') {
    const a = Date.parse(left);
    const b = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(right) ? `${right}T00:00:00-08:00` : right);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return Math.sign(a - b);
  }
  const ln = typeof left === 'number' ? left : typeof left === 'string' && /^-?\d+(\.\d+)?$/.test(left) ? Number(left) : NaN;
  const rn = typeof right === 'number' ? right : /^-?\d+(\.\d+)?$/.test(right) ? Number(right) : NaN;
  if (!Number.isNaN(ln) && !Number.isNaN(rn)) return Math.sign(ln - rn);
  const a = String(left).toLowerCase();
  const b = String(right).toLowerCase();
  return a < b ? -1 : a > b ? 1 : 0;
}

export function matches(entity: Json, condition: Condition): boolean {
  const left = fieldValue(entity, condition.field);
  const { operator, value } = condition;
  if (operator === 'IN') return (value as Value[]).some((v) => compare(left, v) === 0);
  if (operator === 'LIKE') {
    if (typeof left !== 'string' || typeof value !== 'string') return false;
    const pattern = new RegExp(
      `^${value
        .split('%')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      'is',
    );
    return pattern.test(left);
  }
  const c = compare(left, value as Value);
  if (c === null) return operator === '!=';
  switch (operator) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '>=':
      return c >= 0;
  }
}

export function sortBy(entities: Json[], field: string, direction: 'asc' | 'desc'): Json[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...entities].sort((a, b) => {
    const left = fieldValue(a, field);
    const right = fieldValue(b, field);
    if (left === undefined || left === null) return right === undefined || right === null ? 0 : sign;
    if (right === undefined || right === null) return -sign;
    const c = compare(left, right as Value) ?? 0;
    return c === 0 ? Number(a.Id) - Number(b.Id) : c * sign;
  });
}
