import { isBusinessDate } from '@ledgerline/platform';
import type { FieldProblem } from './documents.js';

/**
 * Depreciation of fixed assets (spec documents-parties-integrations "Fixed asset"; issue #19 item 6; decision
 * docs/decisions/0025-fixed-assets-and-depreciation.md), pure, in integer cents.
 *
 * - Straight line (the default): (cost − salvage) / useful life per year.
 * - Units of production: (cost − salvage) / totalEstimatedUnits per unit, unitProducedPerYear units a year (a twelfth
 *   of them each month) until the estimated units are used up; usefulLife is not used.
 * - Double declining balance: twice the straight-line rate on the carrying value at the start of each year, never below
 *   salvage, switching to straight line on what is left when that is larger (the usual textbook rule, e.g. Kieso,
 *   Weygandt & Warfield, Intermediate Accounting, ch. 11; also what the US MACRS tables build in), so the asset always
 *   reaches its salvage value at the end of its life.
 * - Sum of the years' digits: (cost − salvage) × (remaining years / (n(n+1)/2)) per year.
 *
 * Years are asset years counted from the depreciation start month ("full month" convention, as Xero's default
 * averaging: the start month counts whole). Each year's amount is split into twelve monthly rows: eleven equal whole
 * cents and the twelfth takes the remainder; the last row of the schedule takes whatever rounding is left, so the
 * rows add up to exactly cost − salvage.
 */
export const METHODS = ['STRAIGHT_LINE', 'UNITS_OF_PRODUCTION', 'DOUBLE_DECLINING_BALANCE', 'SUM_OF_YEARS_DIGITS'] as const;
export type DepreciationMethod = (typeof METHODS)[number];
export const DEFAULT_METHOD: DepreciationMethod = 'STRAIGHT_LINE';
export const isMethod = (s: string): s is DepreciationMethod => (METHODS as readonly string[]).includes(s);

/** The longest life a schedule is drawn for (months are rows: 100 years is 1,200 of them). */
export const MAX_LIFE_YEARS = 100;

export const ASSET_MSG = {
  negative: (field: string) => `${field} cannot be negative`,
  required: (field: string) => `${field} is required`,
  number: (field: string) => `${field} must be a number`,
  cents: (field: string) => `${field} must have at most 2 decimal places`,
  cost: 'cost must be greater than 0',
  salvageAboveCost: 'salvageValue cannot be more than cost',
  usefulLife: `usefulLife must be a whole number of years from 1 to ${MAX_LIFE_YEARS}`,
  units: 'totalEstimatedUnits must be greater than 0 for units of production',
  unitsPerYear: 'unitProducedPerYear must be greater than 0 for units of production',
  unitsLife: `totalEstimatedUnits / unitProducedPerYear cannot be more than ${MAX_LIFE_YEARS} years`,
  method: `method must be one of: ${METHODS.join(', ')}`,
  date: (field: string) => `${field} must be a date (YYYY-MM-DD)`,
  startBeforePurchase: 'depreciationStartDate cannot be before purchaseDate',
} as const;

export interface DepreciationInput {
  method: DepreciationMethod;
  costCents: number;
  salvageCents: number;
  /** Whole years (not used by units of production). */
  usefulLife: number;
  totalEstimatedUnits: number;
  unitProducedPerYear: number;
  /** YYYY-MM-DD: the first row is this month's. */
  depreciationStartDate: string;
}

export interface ScheduleRow {
  /** 0-based month of the schedule. */
  index: number;
  /** YYYY-MM. */
  period: string;
  /** The month's last day (YYYY-MM-DD): the date the month's entry is posted at. */
  depreciationDate: string;
  beginningCarryingValueCents: number;
  depreciationAmountCents: number;
  accumulatedDepreciationCents: number;
  endingCarryingValueCents: number;
}

/** Whole cents of a split of `total` into `parts`: equal floors, the last part takes the remainder. */
function split(total: number, parts: number): number[] {
  if (parts <= 0) return [];
  const each = Math.floor(total / parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? total - each * (parts - 1) : each));
}

/** Each asset year's depreciation in cents (their sum is exactly cost − salvage). */
export function annualAmounts(i: Pick<DepreciationInput, 'method' | 'costCents' | 'salvageCents' | 'usefulLife'>): number[] {
  const base = i.costCents - i.salvageCents;
  const n = i.usefulLife;
  if (base <= 0 || n < 1) return [];
  const out: number[] = [];
  if (i.method === 'STRAIGHT_LINE') return split(base, n);
  if (i.method === 'SUM_OF_YEARS_DIGITS') {
    const sum = (n * (n + 1)) / 2;
    for (let y = 0; y < n; y++) out.push(Math.floor((base * (n - y)) / sum));
  } else if (i.method === 'DOUBLE_DECLINING_BALANCE') {
    let book = i.costCents;
    for (let y = 0; y < n; y++) {
      const declining = Math.round((book * 2) / n);
      const straight = Math.round((book - i.salvageCents) / (n - y));
      const amount = Math.max(0, Math.min(Math.max(declining, straight), book - i.salvageCents));
      out.push(amount);
      book -= amount;
    }
  } else {
    throw new Error(`annualAmounts: ${i.method} is drawn month by month`);
  }
  const short = base - out.reduce((s, a) => s + a, 0);
  out[n - 1] = (out[n - 1] ?? 0) + short;
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM of the month `k` months after the date's. */
function monthOf(date: string, k: number): { period: string; lastDay: string } {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + k;
  const year = y + Math.floor(m / 12);
  const month = (m % 12) + 1;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { period: `${year}-${pad(month)}`, lastDay: `${year}-${pad(month)}-${pad(days)}` };
}

/** Monthly amounts of units of production: a twelfth of a year's units each month until the estimated units are used. */
function unitsOfProductionMonths(i: DepreciationInput): number[] {
  const base = i.costCents - i.salvageCents;
  if (base <= 0 || i.totalEstimatedUnits <= 0 || i.unitProducedPerYear <= 0) return [];
  const months = Math.ceil((i.totalEstimatedUnits * 12) / i.unitProducedPerYear - 1e-9);
  const out: number[] = [];
  let done = 0;
  for (let k = 1; k <= months; k++) {
    const unitsSoFar = Math.min(i.totalEstimatedUnits, (i.unitProducedPerYear * k) / 12);
    const target = k === months ? base : Math.floor((base * unitsSoFar) / i.totalEstimatedUnits);
    out.push(target - done);
    done = target;
  }
  return out;
}

/** The month-by-month schedule (no rows when cost equals salvage). */
export function depreciationSchedule(i: DepreciationInput): ScheduleRow[] {
  const monthly = i.method === 'UNITS_OF_PRODUCTION' ? unitsOfProductionMonths(i) : annualAmounts(i).flatMap((a) => split(a, 12));
  const rows: ScheduleRow[] = [];
  let accumulated = 0;
  for (const [index, amount] of monthly.entries()) {
    const { period, lastDay } = monthOf(i.depreciationStartDate, index);
    const beginning = i.costCents - accumulated;
    accumulated += amount;
    rows.push({
      index,
      period,
      depreciationDate: lastDay,
      beginningCarryingValueCents: beginning,
      depreciationAmountCents: amount,
      accumulatedDepreciationCents: accumulated,
      endingCarryingValueCents: i.costCents - accumulated,
    });
  }
  return rows;
}

export interface AssetBody {
  transactionId?: unknown;
  purchaseDate?: unknown;
  depreciationStartDate?: unknown;
  description?: unknown;
  assetTypeId?: unknown;
  cost?: unknown;
  salvageValue?: unknown;
  usefulLife?: unknown;
  method?: unknown;
  totalEstimatedUnits?: unknown;
  unitProducedPerYear?: unknown;
}

export interface CleanAsset extends DepreciationInput {
  purchaseDate: string;
  description: string;
}

/** Money in decimal units to cents; undefined when not a number with at most two decimals. */
function toCents(v: number): number | undefined {
  const c = Math.round(v * 100);
  return Math.abs(c - v * 100) < 1e-6 ? c : undefined;
}

/**
 * The create body's rules (after the gateway's schema: types): negatives refused naming the field (spec "cost, salvage
 * value, useful life, estimated units and units per year cannot be negative"), then the rules of each method.
 * `transactionId` and `assetTypeId` are checked by the ledger (of the workspace, money out, editable; an asset account).
 */
export function cleanAsset(b: AssetBody): { asset?: CleanAsset; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const num = (field: string, v: unknown, required: boolean): number | undefined => {
    if (v === undefined || v === null || v === '') {
      if (required) problems.push({ field, message: ASSET_MSG.required(field) });
      return undefined;
    }
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) {
      problems.push({ field, message: ASSET_MSG.number(field) });
      return undefined;
    }
    if (n < 0) {
      problems.push({ field, message: ASSET_MSG.negative(field) });
      return undefined;
    }
    return n;
  };
  const method = b.method === undefined || b.method === null || b.method === '' ? DEFAULT_METHOD : String(b.method);
  if (!isMethod(method)) problems.push({ field: 'method', message: ASSET_MSG.method });
  const units = method === 'UNITS_OF_PRODUCTION';
  const cost = num('cost', b.cost, true);
  const salvage = num('salvageValue', b.salvageValue, false) ?? 0;
  const life = num('usefulLife', b.usefulLife, !units);
  const totalUnits = num('totalEstimatedUnits', b.totalEstimatedUnits, units);
  const perYear = num('unitProducedPerYear', b.unitProducedPerYear, units);
  const costCents = cost === undefined ? undefined : toCents(cost);
  const salvageCents = toCents(salvage);
  if (cost !== undefined && costCents === undefined) problems.push({ field: 'cost', message: ASSET_MSG.cents('cost') });
  else if (costCents !== undefined && costCents <= 0) problems.push({ field: 'cost', message: ASSET_MSG.cost });
  if (salvageCents === undefined) problems.push({ field: 'salvageValue', message: ASSET_MSG.cents('salvageValue') });
  else if (costCents !== undefined && costCents > 0 && salvageCents > costCents) problems.push({ field: 'salvageValue', message: ASSET_MSG.salvageAboveCost });
  if (life !== undefined && (!Number.isInteger(life) || life < 1 || life > MAX_LIFE_YEARS))
    problems.push({ field: 'usefulLife', message: ASSET_MSG.usefulLife });
  if (units) {
    if (totalUnits !== undefined && totalUnits <= 0) problems.push({ field: 'totalEstimatedUnits', message: ASSET_MSG.units });
    if (perYear !== undefined && perYear <= 0) problems.push({ field: 'unitProducedPerYear', message: ASSET_MSG.unitsPerYear });
    if (totalUnits && perYear && totalUnits / perYear > MAX_LIFE_YEARS) problems.push({ field: 'totalEstimatedUnits', message: ASSET_MSG.unitsLife });
  }
  const date = (field: string, v: unknown): string | undefined => {
    if (v === undefined || v === null || v === '') {
      problems.push({ field, message: ASSET_MSG.required(field) });
      return undefined;
    }
    if (typeof v !== 'string' || !isBusinessDate(v)) {
      problems.push({ field, message: ASSET_MSG.date(field) });
      return undefined;
    }
    return v;
  };
  const purchaseDate = date('purchaseDate', b.purchaseDate);
  const depreciationStartDate = date('depreciationStartDate', b.depreciationStartDate);
  if (purchaseDate && depreciationStartDate && depreciationStartDate < purchaseDate)
    problems.push({ field: 'depreciationStartDate', message: ASSET_MSG.startBeforePurchase });
  if (problems.length > 0 || costCents === undefined || salvageCents === undefined || !purchaseDate || !depreciationStartDate) return { problems };
  return {
    problems,
    asset: {
      method: method as DepreciationMethod,
      costCents,
      salvageCents,
      usefulLife: life ?? 0,
      totalEstimatedUnits: totalUnits ?? 0,
      unitProducedPerYear: perYear ?? 0,
      depreciationStartDate,
      purchaseDate,
      description: typeof b.description === 'string' ? b.description.trim() : '',
    },
  };
}
