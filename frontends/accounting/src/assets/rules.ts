// The Fixed Assets tab's rules (decision 0030; moved from @ledgerline/api by issue #14 item 8, decision 0034): the
// methods' labels, which transactions can become an asset, the asset accounts of a chart, and the create dialog's draft,
// checks and body. The API's shapes, calls and hooks stay in @ledgerline/api.
import type { DepreciationMethod, FixedAssetBody } from '@ledgerline/api';

/** The four methods with their screen labels; straight line is the default (spec). */
export const DEPRECIATION_METHODS: readonly { value: DepreciationMethod; label: string }[] = [
  { value: 'STRAIGHT_LINE', label: 'Straight line' },
  { value: 'UNITS_OF_PRODUCTION', label: 'Units of production' },
  { value: 'DOUBLE_DECLINING_BALANCE', label: 'Double declining balance' },
  { value: 'SUM_OF_YEARS_DIGITS', label: 'Sum of years digits' },
];

export const methodLabel = (method: string): string => DEPRECIATION_METHODS.find((m) => m.value === method)?.label ?? method;

/** A bank transaction that can become a fixed asset: money out, not linked to a document or asset, not accrued, split, a transfer or an opening balance. */
export function isAssetPurchaseCandidate(t: {
  amount: number;
  entityType: string | null;
  isAccruedParent: boolean;
  isAccruedChildren: boolean;
  isSplittedParent: boolean;
  isSplittedChildren: boolean;
  isOpeningBalance: boolean;
  pending: boolean;
  transferStatus: string | null;
}): boolean {
  return (
    t.amount < 0 &&
    t.transferStatus === null &&
    t.entityType === null &&
    !t.isAccruedParent &&
    !t.isAccruedChildren &&
    !t.isSplittedParent &&
    !t.isSplittedChildren &&
    !t.isOpeningBalance &&
    !t.pending
  );
}

/** A chart of accounts node as the rules read it (GET /chart-of-accounts). */
export interface ChartNode {
  id: string;
  name: string;
  coaId: number;
  type: string;
  level: number;
  bankAccountId: string | null;
  systemKey: string | null;
  children: readonly ChartNode[];
}

/**
 * The accounts an asset can be booked to (decision 0025: `assetTypeId`): postable accounts of class Assets that are not
 * a bank account, not a system account (cash, prepaid expenses, accumulated depreciation…) and not the default chart's
 * unkeyed Accumulated Depreciation. Sorted by chart number.
 */
export function assetAccountOptions(chart: readonly ChartNode[]): { id: string; name: string; coaId: number }[] {
  const out: { id: string; name: string; coaId: number }[] = [];
  const stack = [...chart];
  for (let node = stack.pop(); node; node = stack.pop()) {
    stack.push(...node.children);
    if (node.type !== 'Assets' || node.level < 3 || node.children.length > 0 || node.bankAccountId !== null || node.systemKey !== null) continue;
    if (/^accumulated depreciation$/i.test(node.name)) continue;
    out.push({ id: node.id, name: node.name, coaId: node.coaId });
  }
  return out.sort((a, b) => a.coaId - b.coaId || a.name.localeCompare(b.name));
}

/** The account a new asset is booked to unless the person picks another: Property and Equipment, else the first. */
export function defaultAssetAccount(options: readonly { id: string; name: string }[]): string | null {
  return (options.find((o) => /^property and equipment$/i.test(o.name)) ?? options[0])?.id ?? null;
}

/** The create dialog's fields as typed. */
export interface FixedAssetDraft {
  transactionId: string | null;
  description: string;
  assetTypeId: string | null;
  method: DepreciationMethod;
  purchaseDate: string;
  depreciationStartDate: string;
  /** Dollars: the purchase's amount (decision 0025: cost equals the transaction). */
  cost: string;
  salvageValue: string;
  usefulLife: string;
  totalEstimatedUnits: string;
  unitProducedPerYear: string;
}

export type FixedAssetField = Exclude<keyof FixedAssetDraft, never>;
export type FixedAssetProblems = Partial<Record<FixedAssetField, string>>;

export const emptyFixedAssetDraft = (assetTypeId: string | null = null): FixedAssetDraft => ({
  transactionId: null,
  description: '',
  assetTypeId,
  method: 'STRAIGHT_LINE',
  purchaseDate: '',
  depreciationStartDate: '',
  cost: '',
  salvageValue: '0',
  usefulLife: '',
  totalEstimatedUnits: '',
  unitProducedPerYear: '',
});

/** The draft with a purchase chosen: its amount is the cost, its date the purchase and depreciation start dates, its merchant the name when none is typed. */
export function withPurchase(draft: FixedAssetDraft, t: { id: string; amount: number; dateTime: string }, name: string): FixedAssetDraft {
  const date = t.dateTime.slice(0, 10);
  return {
    ...draft,
    transactionId: t.id,
    cost: Math.abs(t.amount).toFixed(2),
    purchaseDate: date,
    depreciationStartDate: date,
    description: draft.description.trim() === '' ? name : draft.description,
  };
}

const isUnits = (d: Pick<FixedAssetDraft, 'method'>) => d.method === 'UNITS_OF_PRODUCTION';
const asNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.replace(/,/g, '')));

/**
 * What the dialog checks before sending (what is missing or negative, in the server's words); the rest — a whole number
 * of years, salvage not above cost, cost equal to the purchase — is the server's 400, shown on the field it names.
 */
export function validateFixedAssetDraft(d: FixedAssetDraft): FixedAssetProblems {
  const p: FixedAssetProblems = {};
  if (!d.transactionId) p.transactionId = 'Pick the purchase transaction';
  if (d.description.trim() === '') p.description = 'Name the asset';
  if (!d.assetTypeId) p.assetTypeId = 'assetTypeId is required';
  if (d.purchaseDate === '') p.purchaseDate = 'purchaseDate is required';
  if (d.depreciationStartDate === '') p.depreciationStartDate = 'depreciationStartDate is required';
  const numbers: [FixedAssetField, boolean][] = [
    ['salvageValue', false],
    ['usefulLife', !isUnits(d)],
    ['totalEstimatedUnits', isUnits(d)],
    ['unitProducedPerYear', isUnits(d)],
  ];
  for (const [field, required] of numbers) {
    const n = asNumber(d[field] as string);
    if (n === undefined) {
      if (required) p[field] = `${field} is required`;
    } else if (!Number.isFinite(n)) p[field] = `${field} must be a number`;
    else if (n < 0) p[field] = `${field} cannot be negative`;
  }
  return p;
}

/** POST /accounting/fixed-asset's body from a checked draft (units only for units of production, useful life only for the others). */
export function fixedAssetBody(d: FixedAssetDraft): FixedAssetBody {
  const units = isUnits(d);
  return {
    transactionId: d.transactionId ?? '',
    description: d.description.trim(),
    assetTypeId: d.assetTypeId ?? '',
    method: d.method,
    purchaseDate: d.purchaseDate,
    depreciationStartDate: d.depreciationStartDate,
    cost: asNumber(d.cost) ?? 0,
    salvageValue: asNumber(d.salvageValue) ?? 0,
    ...(units
      ? { totalEstimatedUnits: asNumber(d.totalEstimatedUnits), unitProducedPerYear: asNumber(d.unitProducedPerYear) }
      : { usefulLife: asNumber(d.usefulLife) }),
  };
}

const DRAFT_FIELDS: readonly string[] = [
  'transactionId',
  'description',
  'assetTypeId',
  'method',
  'purchaseDate',
  'depreciationStartDate',
  'cost',
  'salvageValue',
  'usefulLife',
  'totalEstimatedUnits',
  'unitProducedPerYear',
];

/** The dialog field a server refusal names (its `errors[0].field`), or null when it names none of them (shown above the buttons). */
export function fixedAssetFieldOf(field: string | undefined): FixedAssetField | null {
  return field !== undefined && DRAFT_FIELDS.includes(field) ? (field as FixedAssetField) : null;
}
