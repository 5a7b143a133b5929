export { MAX_DOLLARS, MAX_CENTS, parseDollars, moneyMessage, centsToDollars, centsToText, type MoneyProblem } from './money.js';
export { MIN_BUSINESS_DATE, MAX_BUSINESS_DATE, BUSINESS_DATE_PATTERN, isBusinessDate, dateMessage, DATE_ORDER_MESSAGE, isReversedRange } from './dates.js';
export { DEFAULT_TAKE, MAX_TAKE, MAX_PAGE, paging, pageMeta, type Paging } from './paging.js';
export { FieldProblems, orNull, commaList } from './fields.js';
