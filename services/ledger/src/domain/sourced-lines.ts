import { isUuid, type FieldError } from '@ledgerline/platform';
import { isPostableLevel } from './chart.js';
import { PARTY_CREDIT_MSG } from './party-credits.js';

/**
 * The checks shared by every document another service asks the ledger to book line by line (vendor credits and
 * credit memos, bills, invoices and manual journals): the source type is one the request's RPC books, each line names
 * its category by a UUID, and each category is of the workspace, postable, and not the party account the document is
 * booked against.
 */

/** A line as the ledger's checks see it: the category it books to. */
export interface SourcedLine {
  categoryId: string;
}

/**
 * The request's own checks (before any database work): `type` when the source type is one of `types`, with each
 * line's category id that is not a UUID in `problems`; else no `type` and the one `sourceType` problem.
 */
export function checkSourcedLines<T extends string>(
  input: { sourceType: string; lines: readonly SourcedLine[] },
  types: readonly T[],
  sourceTypeMessage: string,
): { type?: T; problems: FieldError[] } {
  const type = types.find((t) => t === input.sourceType);
  if (type === undefined) return { problems: [{ field: 'sourceType', message: sourceTypeMessage }] };
  const problems: FieldError[] = [];
  input.lines.forEach((l, i) => {
    if (!isUuid(l.categoryId)) problems.push({ field: `lineItems.${i}.categoryId`, message: `lineItems.${i}.categoryId must be a UUID` });
  });
  return { type, problems };
}

/** What the workspace's chart holds of a line's category. */
export interface LineCategory {
  id: string;
  level: number;
}

/**
 * Each line's category against what the chart holds (`found`, by id): the first line whose category is not there
 * (`notFound`, a 404 naming it); else the problems of categories that are not postable or are the party account.
 */
export function lineCategoryProblems(
  lines: readonly SourcedLine[],
  found: ReadonlyMap<string, LineCategory>,
  party: { id: string; name: string } | undefined,
): { notFound?: FieldError; problems: FieldError[] } {
  const missing = lines.findIndex((l) => !found.has(l.categoryId));
  if (missing >= 0) return { notFound: { field: `lineItems.${missing}.categoryId`, message: PARTY_CREDIT_MSG.categoryNotFound }, problems: [] };
  const problems: FieldError[] = [];
  lines.forEach((l, i) => {
    const a = found.get(l.categoryId) as LineCategory;
    if (!isPostableLevel(a.level)) problems.push({ field: `lineItems.${i}.categoryId`, message: PARTY_CREDIT_MSG.categoryNotPostable(i) });
    else if (party && a.id === party.id) problems.push({ field: `lineItems.${i}.categoryId`, message: PARTY_CREDIT_MSG.categoryIsParty(i, party.name) });
  });
  return { problems };
}
