/**
 * Paging (spec §5): page from 1, take from 1 to 100 (default 20). The page is bounded so that the
 * offset (page − 1) × take stays a safe int32 for every take.
 */
export const DEFAULT_TAKE = 20;
export const MAX_TAKE = 100;
export const MAX_PAGE = 1_000_000;

export interface Paging {
  page: number;
  take: number;
  offset: number;
}

/** Absent or out-of-range values fall back to the defaults and bounds (a service never trusts its caller). */
export function paging(page: number | undefined, take: number | undefined): Paging {
  const p = Number.isSafeInteger(page) && page! >= 1 ? Math.min(page!, MAX_PAGE) : 1;
  const t = Number.isSafeInteger(take) && take! >= 1 ? Math.min(take!, MAX_TAKE) : DEFAULT_TAKE;
  return { page: p, take: t, offset: (p - 1) * t };
}

/** The `meta` of a list answer. */
export function pageMeta({ page, take }: Paging, itemCount: number) {
  const pageCount = Math.ceil(itemCount / take);
  return { page, take, itemCount, pageCount, hasPreviousPage: page > 1, hasNextPage: page < pageCount };
}
