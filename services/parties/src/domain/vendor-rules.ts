import { isUuid } from '@ledgerline/platform';
import type { FieldProblem } from './parties.js';

export const DESCRIPTION_SIGNS = ['equals', 'contains'] as const;
export const AMOUNT_SIGNS = ['equals', 'greater_than', 'less_than', 'between'] as const;

/** The wording of the vendor rule refusals (spec §5's rule, said as a user would understand it). */
export const RULE_MSG = {
  needsCondition: 'A vendor rule needs at least one condition: a description to match, an amount above 0, or a source account',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 200 characters',
  categoryRequired: 'Choose the category the rule gives its transactions',
  applyDateRequired: 'Choose the date the rule applies from',
  applyDate: 'ruleApplyDateTime must be a date (YYYY-MM-DD) or a date and time',
  descriptionSign: 'descriptionSign must be equals or contains',
  descriptionTooLong: 'descriptionValue must be at most 200 characters',
  amountSign: 'amountSign must be equals, greater_than, less_than or between',
  amountNegative: 'amountValue cannot be negative',
  upperNegative: 'upperAmountValue cannot be negative',
  between: 'For an amount between two values, upperAmountValue must be greater than amountValue',
  uuid: (field: string) => `${field} must be a UUID`,
  notFound: 'Vendor rule not found',
  deleted: 'Vendor rule deleted',
} as const;

/** A rule's fields as sent (absent = not sent; on update, unchanged). Money in cents. */
export interface RuleFieldsInput {
  name?: string;
  vendorId?: string;
  categoryId?: string;
  ruleApplyDateTime?: string;
  descriptionSign?: string;
  descriptionValue?: string;
  amountSign?: string;
  amountCents?: number;
  upperAmountCents?: number;
  sourceId?: string;
}

/** A whole rule, as stored (null = no such condition). */
export interface RuleValue {
  name: string;
  vendorId: string | null;
  categoryId: string;
  ruleApplyDateTime: string;
  descriptionSign: string | null;
  descriptionValue: string | null;
  amountSign: string | null;
  amountCents: number | null;
  upperAmountCents: number | null;
  sourceId: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** The calendar day a rule applies from: the date part as written (no time-zone shift). */
export function applyFromOf(ruleApplyDateTime: string): string {
  return (DATE.exec(ruleApplyDateTime)?.[0] ?? '') as string;
}

/**
 * The rule after a create (`before` undefined) or an update (`before` the stored rule, the sent fields over it):
 * blanks are "no condition" (a blank description, an amount of 0, an empty source); the sign defaults to
 * contains / equals when a value comes without one. At least one condition must remain (spec §5).
 */
export function cleanRule(input: RuleFieldsInput, before?: RuleValue): { value: RuleValue; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  const pick = <T>(sent: T | undefined, old: T): T => (sent === undefined ? old : sent);

  const name = pick(input.name, before?.name ?? '').trim();
  if (!name) add('name', RULE_MSG.nameRequired);
  else if (name.length > 200) add('name', RULE_MSG.nameTooLong);

  const vendorId = pick(input.vendorId, before?.vendorId ?? '') || null;
  if (vendorId && !isUuid(vendorId)) add('vendorId', RULE_MSG.uuid('vendorId'));
  const categoryId = pick(input.categoryId, before?.categoryId ?? '');
  if (!categoryId) add('categoryId', RULE_MSG.categoryRequired);
  else if (!isUuid(categoryId)) add('categoryId', RULE_MSG.uuid('categoryId'));
  const sourceId = pick(input.sourceId, before?.sourceId ?? '') || null;
  if (sourceId && !isUuid(sourceId)) add('sourceId', RULE_MSG.uuid('sourceId'));

  const when = pick(input.ruleApplyDateTime, before?.ruleApplyDateTime ?? '').trim();
  let ruleApplyDateTime = when;
  if (!when) add('ruleApplyDateTime', RULE_MSG.applyDateRequired);
  else {
    const m = DATE.exec(when);
    const day = m ? new Date(`${m[0]}T00:00:00Z`) : null;
    const valid = !!m && !!day && day.toISOString().slice(0, 10) === m[0] && !Number.isNaN(Date.parse(when.length === 10 ? `${when}T00:00:00Z` : when));
    if (!valid) add('ruleApplyDateTime', RULE_MSG.applyDate);
    else ruleApplyDateTime = new Date(when.length === 10 ? `${when}T00:00:00Z` : when).toISOString();
  }

  const descriptionValue = pick(input.descriptionValue, before?.descriptionValue ?? '').trim();
  let descriptionSign: string | null = pick(input.descriptionSign, before?.descriptionSign ?? '') || null;
  if (descriptionValue.length > 200) add('descriptionValue', RULE_MSG.descriptionTooLong);
  if (descriptionSign && !(DESCRIPTION_SIGNS as readonly string[]).includes(descriptionSign)) add('descriptionSign', RULE_MSG.descriptionSign);
  if (descriptionValue && !descriptionSign) descriptionSign = 'contains';

  const amountCents = pick(input.amountCents, before?.amountCents ?? 0) ?? 0;
  const upperAmountCents = pick(input.upperAmountCents, before?.upperAmountCents ?? 0) ?? 0;
  let amountSign: string | null = pick(input.amountSign, before?.amountSign ?? '') || null;
  if (amountCents < 0) add('amountValue', RULE_MSG.amountNegative);
  if (upperAmountCents < 0) add('upperAmountValue', RULE_MSG.upperNegative);
  if (amountSign && !(AMOUNT_SIGNS as readonly string[]).includes(amountSign)) add('amountSign', RULE_MSG.amountSign);
  if (amountCents > 0 && !amountSign) amountSign = 'equals';
  if (amountCents > 0 && amountSign === 'between' && !(upperAmountCents > amountCents)) add('upperAmountValue', RULE_MSG.between);

  const hasDescription = descriptionValue !== '';
  const hasAmount = amountCents > 0;
  if (!hasDescription && !hasAmount && !sourceId) add('descriptionValue', RULE_MSG.needsCondition);

  return {
    problems,
    value: {
      name,
      vendorId,
      categoryId,
      ruleApplyDateTime,
      sourceId,
      descriptionSign: hasDescription ? descriptionSign : null,
      descriptionValue: hasDescription ? descriptionValue : null,
      amountSign: hasAmount ? amountSign : null,
      amountCents: hasAmount ? amountCents : null,
      upperAmountCents: hasAmount && amountSign === 'between' ? upperAmountCents : null,
    },
  };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);
const AMOUNT_WORDS: Record<string, string> = { equals: 'is', greater_than: 'is more than', less_than: 'is less than' };

/** The rule's conditions in words, for the list and the drawer. */
export function conditionsInWords(r: RuleValue, sourceName: string): string[] {
  const out: string[] = [];
  if (r.descriptionValue) out.push(`Description ${r.descriptionSign === 'equals' ? 'is' : 'contains'} "${r.descriptionValue}"`);
  if (r.amountCents) {
    out.push(
      r.amountSign === 'between'
        ? `Amount is between ${dollars(r.amountCents)} and ${dollars(r.upperAmountCents ?? 0)}`
        : `Amount ${AMOUNT_WORDS[r.amountSign ?? 'equals'] ?? 'is'} ${dollars(r.amountCents)}`,
    );
  }
  if (r.sourceId) out.push(`Source account is ${sourceName || r.sourceId}`);
  return out;
}
