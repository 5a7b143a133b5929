import { AppError, isUuid, type FieldError } from '@ledgerline/platform';
import { fiscalYearStart, isIsoDate, todayUtc } from './dates.js';
import { MONEY_TYPES, originsOf, parseMoneyType, type MoneyType, type Origin } from './origins.js';
import { BREAKDOWNS, columnsFor, effectivePeriodicity, isBreakdown, isPeriodicity, PERIODICITIES, type Column, type Periodicity } from './periods.js';

/** A report's query as the REST edge carries it (strings), before validation. */
export interface RawQuery {
  startDate: string;
  endDate: string;
  breakdown: string;
  periodicity: string;
  groups: string;
  tags: string;
  excludeZeroes: string;
  seq: string;
  /** Spec money type: ALL (default), non-bank, unadjusted, adjusted. */
  moneyType?: string;
  /** Comma-joined workspace ids for a consolidated report (the gateway checked the caller belongs to each). */
  workspaces?: string;
}

export interface ReportQuery {
  start: string;
  end: string;
  requested: Periodicity;
  periodicity: Periodicity;
  columns: Column[];
  groups: string[];
  tags: string[];
  excludeZeroes: boolean;
  seq: number | null;
  moneyType: MoneyType;
  /** The origins read; null: every row. */
  origins: Origin[] | null;
  /** The workspaces to consolidate, in the order given (duplicates dropped); empty: the caller's alone. */
  workspaceIds: string[];
}

/** More columns than a screen or an export can use; also bounds the work of one request. */
export const MAX_COLUMNS = 400;
/** Workspaces one consolidated report may cover (bounds the work of one request). */
export const MAX_WORKSPACES = 20;

export const MESSAGES = {
  date: (field: string) => `Invalid ${field} format`,
  dateOrder: 'startDate cannot be greater than endDate',
  breakdown: `breakdown must be one of ${Object.keys(BREAKDOWNS).join(', ')}`,
  periodicity: `periodicity must be one of ${PERIODICITIES.join(', ')}`,
  tooManyColumns: `Too many columns for this period: choose a longer periodicity (at most ${MAX_COLUMNS} columns)`,
  excludeZeroes: 'excludeZeroes must be true or false',
  seq: 'seq must be a non-negative integer',
  moneyType: `moneyType must be one of ${MONEY_TYPES.join(', ')}`,
  workspaces: `workspaces must be at most ${MAX_WORKSPACES} comma-joined workspace ids`,
} as const;

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * Validates a report query; every problem is named by its REST field (400, nothing else happens).
 * Defaults: endDate today (UTC), startDate the first day of the fiscal year holding endDate (1 January
 * unless the workspace's fiscal year starts in another month), periodicity from breakdown, else monthly
 * (spec §3: breakdown Monthly by default).
 */
export function parseQuery(input: RawQuery, now = new Date(), fiscalYearStartMonth = 1): ReportQuery {
  // The screens' filter set says "Monthly"; the API's values are lower case.
  const raw = { ...input, breakdown: input.breakdown.trim().toLowerCase(), periodicity: input.periodicity.trim().toLowerCase() };
  const problems: FieldError[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  if (raw.startDate && !isIsoDate(raw.startDate)) add('startDate', MESSAGES.date('startDate'));
  if (raw.endDate && !isIsoDate(raw.endDate)) add('endDate', MESSAGES.date('endDate'));
  if (raw.breakdown && !isBreakdown(raw.breakdown)) add('breakdown', MESSAGES.breakdown);
  if (raw.periodicity && !isPeriodicity(raw.periodicity)) add('periodicity', MESSAGES.periodicity);
  if (raw.excludeZeroes && raw.excludeZeroes !== 'true' && raw.excludeZeroes !== 'false') add('excludeZeroes', MESSAGES.excludeZeroes);
  if (raw.seq && !/^\d{1,18}$/.test(raw.seq)) add('seq', MESSAGES.seq);
  const moneyType = parseMoneyType(raw.moneyType ?? '');
  if (!moneyType) add('moneyType', MESSAGES.moneyType);
  const workspaceIds = [
    ...new Set(
      (raw.workspaces ?? '')
        .split(',')
        .map((w) => w.trim().toLowerCase())
        .filter((w) => w !== ''),
    ),
  ];
  if (workspaceIds.length > MAX_WORKSPACES || !workspaceIds.every(isUuid)) add('workspaces', MESSAGES.workspaces);
  if (problems.length) throw AppError.invalid(problems);
  const end = raw.endDate || todayUtc(now);
  const start = raw.startDate || fiscalYearStart(end, fiscalYearStartMonth);
  if (start > end) throw AppError.invalid([{ field: 'startDate', message: MESSAGES.dateOrder }]);
  const requested: Periodicity = isPeriodicity(raw.periodicity) ? raw.periodicity : isBreakdown(raw.breakdown) ? BREAKDOWNS[raw.breakdown] : 'monthly';
  const periodicity = effectivePeriodicity(requested, start, end);
  const columns = columnsFor(periodicity, start, end);
  if (columns.length > MAX_COLUMNS) throw AppError.invalid([{ field: raw.periodicity ? 'periodicity' : 'breakdown', message: MESSAGES.tooManyColumns }]);
  const mt = moneyType ?? 'ALL';
  return {
    start,
    end,
    requested,
    periodicity,
    columns,
    groups: list(raw.groups),
    tags: list(raw.tags),
    excludeZeroes: raw.excludeZeroes === 'true',
    seq: raw.seq ? Number(raw.seq) : null,
    moneyType: mt,
    origins: originsOf(mt),
    workspaceIds,
  };
}
