import { Problems } from './validation.js';

export const DESCRIPTION_SIGNS = ['equals', 'contains'] as const;
export const AMOUNT_SIGNS = ['equals', 'greater_than', 'less_than', 'between'] as const;
export type DescriptionSign = (typeof DESCRIPTION_SIGNS)[number];
export type AmountSign = (typeof AMOUNT_SIGNS)[number];

/** A vendor rule's conditions as the ledger keeps them (null = no such condition). */
export interface VendorRuleConditions {
  ruleId: string;
  name: string;
  categoryId: string;
  vendorId: string | null;
  /** YYYY-MM-DD: transactions dated on or after it. */
  applyFrom: string;
  /** RFC 3339. */
  ruleApplyDateTime: string;
  descriptionSign: DescriptionSign | null;
  descriptionValue: string | null;
  amountSign: AmountSign | null;
  amountCents: number | null;
  upperAmountCents: number | null;
  /** A bank account id (the transaction's accountId). */
  sourceId: string | null;
  conditionCount: number;
}

export interface RuleInput {
  ruleId: string;
  name: string;
  categoryId: string;
  vendorId: string;
  applyFrom: string;
  ruleApplyDateTime: string;
  descriptionSign: string;
  descriptionValue: string;
  amountSign: string;
  amountCents: number;
  upperAmountCents: number;
  sourceId: string;
}

export const RULE_NEEDS_A_CONDITION = 'A vendor rule needs at least one condition: a description to match, an amount above 0, or a source account';

/**
 * The rule as sent by the parties service (which checked it for the user first) to the conditions the
 * ledger evaluates: a blank description, an amount of 0 and no source are "no condition"; at least one must
 * remain. Refusals name the parties service's REST fields.
 */
export function cleanRule(input: RuleInput): { value: VendorRuleConditions; problems: Problems } {
  const p = new Problems();
  p.uuid('id', input.ruleId, { required: true });
  p.uuid('categoryId', input.categoryId, { required: true });
  p.uuid('vendorId', input.vendorId || undefined);
  p.uuid('sourceId', input.sourceId || undefined);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.applyFrom) || Number.isNaN(Date.parse(input.ruleApplyDateTime)))
    p.add('ruleApplyDateTime', 'ruleApplyDateTime must be a date and time');
  const description = input.descriptionValue.trim();
  const hasDescription = description !== '';
  const hasAmount = input.amountCents > 0;
  const hasSource = input.sourceId !== '';
  if (hasDescription && !(DESCRIPTION_SIGNS as readonly string[]).includes(input.descriptionSign))
    p.add('descriptionSign', 'descriptionSign must be equals or contains');
  if (hasAmount && !(AMOUNT_SIGNS as readonly string[]).includes(input.amountSign))
    p.add('amountSign', 'amountSign must be equals, greater_than, less_than or between');
  if (hasAmount && input.amountSign === 'between' && !(input.upperAmountCents > input.amountCents))
    p.add('upperAmountValue', 'upperAmountValue must be greater than amountValue');
  if (!hasDescription && !hasAmount && !hasSource) p.add('descriptionValue', RULE_NEEDS_A_CONDITION);
  return {
    problems: p,
    value: {
      ruleId: input.ruleId,
      name: input.name,
      categoryId: input.categoryId,
      vendorId: input.vendorId || null,
      applyFrom: input.applyFrom,
      ruleApplyDateTime: input.ruleApplyDateTime,
      descriptionSign: hasDescription ? (input.descriptionSign as DescriptionSign) : null,
      descriptionValue: hasDescription ? description : null,
      amountSign: hasAmount ? (input.amountSign as AmountSign) : null,
      amountCents: hasAmount ? input.amountCents : null,
      upperAmountCents: hasAmount && input.amountSign === 'between' ? input.upperAmountCents : null,
      sourceId: hasSource ? input.sourceId : null,
      conditionCount: Number(hasDescription) + Number(hasAmount) + Number(hasSource),
    },
  };
}
