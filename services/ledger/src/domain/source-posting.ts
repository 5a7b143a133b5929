import { createHash } from 'node:crypto';
import { isUuid, type FieldError } from '@ledgerline/platform';
import { isDebitNormal } from './chart.js';
import { isIsoDate } from './dates.js';
import type { PostingLine } from './posting.js';

/** Source types other services post through PostEntry (spec §3 "Transaction-like source types"). */
export const DOCUMENT_SOURCE_TYPES = ['ManualEntry', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'] as const;
export type DocumentSourceType = (typeof DOCUMENT_SOURCE_TYPES)[number];

export const DESCRIPTION_MAX = 1000;
export const LINES_MAX = 500;

export interface PostingRequestInput {
  sourceType?: string;
  sourceId?: string;
  version?: bigint | number;
  date?: string;
  description?: string;
  lines: { accountId?: string; direction?: string; amountCents?: bigint | number }[];
}

/** A checked posting request: a balanced entry, or a void (no lines, no date). */
export interface PostingRequest {
  sourceType: DocumentSourceType;
  sourceId: string;
  version: number;
  date: string;
  description: string;
  lines: PostingLine[];
}

export const POSTING_MSG = {
  sourceType: `sourceType must be one of: ${DOCUMENT_SOURCE_TYPES.join(', ')}`,
  sourceId: 'sourceId must be a UUID',
  version: 'version must be a whole number of at least 1',
  date: 'Invalid date format',
  description: `description must be at most ${DESCRIPTION_MAX} characters`,
  tooFewLines: 'lines must hold at least two lines (or none, to void)',
  tooManyLines: `lines must hold at most ${LINES_MAX} lines`,
  accountId: (i: number) => `lines[${i}].accountId must be a UUID`,
  direction: (i: number) => `lines[${i}].direction must be one of: debit, credit`,
  amount: (i: number) => `lines[${i}].amountCents must be a whole number of cents greater than 0`,
  unbalanced: (debits: number, credits: number) => `lines do not balance: debits ${debits} cents, credits ${credits} cents`,
  accountUnknown: (i: number) => `lines[${i}].accountId is not an account of this workspace`,
  accountNotPostable: (i: number) => `lines[${i}].accountId must be a category or sub-category, not a category type or group`,
  bodyChanged: (type: string, id: string, version: number) =>
    `${type} ${id} version ${version} was already posted with a different body; post a new version to change it`,
  versionStale: (version: number, current: number) => `version ${version} is older than the posted version ${current}`,
} as const;

const toNumber = (v: bigint | number | undefined): number | undefined =>
  v === undefined
    ? undefined
    : typeof v === 'bigint'
      ? v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)
        ? Number.NaN
        : Number(v)
      : v;

/**
 * Checks a PostEntry request field by field (every problem at once, each naming its field). A
 * request with no lines is a void and needs no date.
 */
export function checkPostingRequest(input: PostingRequestInput): { request?: PostingRequest; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  const sourceType = input.sourceType ?? '';
  if (!(DOCUMENT_SOURCE_TYPES as readonly string[]).includes(sourceType)) add('sourceType', POSTING_MSG.sourceType);
  if (!input.sourceId || !isUuid(input.sourceId)) add('sourceId', POSTING_MSG.sourceId);
  const version = toNumber(input.version);
  if (version === undefined || !Number.isSafeInteger(version) || version < 1) add('version', POSTING_MSG.version);
  const isVoid = input.lines.length === 0;
  const date = input.date ?? '';
  if (!isVoid && !isIsoDate(date)) add('date', POSTING_MSG.date);
  const description = (input.description ?? '').trim();
  if (description.length > DESCRIPTION_MAX) add('description', POSTING_MSG.description);
  if (input.lines.length === 1) add('lines', POSTING_MSG.tooFewLines);
  if (input.lines.length > LINES_MAX) add('lines', POSTING_MSG.tooManyLines);
  const lines: PostingLine[] = [];
  let debits = 0;
  let credits = 0;
  let linesOk = true;
  input.lines.slice(0, LINES_MAX).forEach((l, i) => {
    if (!l.accountId || !isUuid(l.accountId)) {
      add(`lines[${i}].accountId`, POSTING_MSG.accountId(i));
      linesOk = false;
    }
    if (l.direction !== 'debit' && l.direction !== 'credit') {
      add(`lines[${i}].direction`, POSTING_MSG.direction(i));
      linesOk = false;
    }
    const amount = toNumber(l.amountCents);
    if (amount === undefined || !Number.isSafeInteger(amount) || amount <= 0) {
      add(`lines[${i}].amountCents`, POSTING_MSG.amount(i));
      linesOk = false;
    }
    if (!linesOk) return;
    const line: PostingLine = { accountId: l.accountId as string, direction: l.direction as PostingLine['direction'], amountCents: amount as number };
    if (line.direction === 'debit') debits += line.amountCents;
    else credits += line.amountCents;
    lines.push(line);
  });
  if (linesOk && input.lines.length >= 2 && debits !== credits) add('lines', POSTING_MSG.unbalanced(debits, credits));
  if (problems.length > 0) return { problems };
  return {
    problems,
    request: {
      sourceType: sourceType as DocumentSourceType,
      sourceId: input.sourceId as string,
      version: version as number,
      date: isVoid ? '' : date,
      description,
      lines,
    },
  };
}

/**
 * The fingerprint of what a version asks for: the same idempotency key must come with the same
 * fingerprint. Lines keep their order (an entry's lines are shown in it); a void is only a void.
 */
export function bodyHash(body: { date: string; description: string; lines: readonly PostingLine[] }): string {
  const canonical =
    body.lines.length === 0
      ? JSON.stringify({ void: true })
      : JSON.stringify({ date: body.date, description: body.description, lines: body.lines.map((l) => [l.accountId, l.direction, l.amountCents]) });
  return createHash('sha256').update(canonical).digest('hex');
}

/** Class groups whose accounts may carry an opening balance: the balance-sheet ones. */
export const OPENING_BALANCE_CLASSES = ['Assets', 'Liability', 'Equity'] as const;

export function canHaveOpeningBalance(classGroup: string): boolean {
  return (OPENING_BALANCE_CLASSES as readonly string[]).includes(classGroup);
}

/**
 * The entry of an opening balance: the account against Opening Balance Equity. The amount is in the
 * account's normal direction (a bank account's 1,000.00 debits it; a loan's 1,000.00 credits it; a
 * negative amount, e.g. an overdrawn account, the other way). Zero books nothing.
 */
export function openingBalanceLines(accountId: string, classGroup: string, openingBalanceEquityId: string, amountCents: number): PostingLine[] {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError(`amount ${amountCents} is not integer cents`);
  if (amountCents === 0) return [];
  const debitAccount = isDebitNormal(classGroup) === amountCents > 0;
  const abs = Math.abs(amountCents);
  return [
    { accountId, direction: debitAccount ? 'debit' : 'credit', amountCents: abs },
    { accountId: openingBalanceEquityId, direction: debitAccount ? 'credit' : 'debit', amountCents: abs },
  ];
}
