// Vendor rules (spec documents-parties-integrations §3 "Vendor rule", §5, §7: /vendors/rule-engines and
// /vendors/rule-engines/{id}): the generated shapes, one typed call per route, and the editor's §5 check and payload
// (the parties service answers the same messages). The rule list's wording and the editor's form are the
// accounting remote's (`frontends/accounting/src/parties/vendor-rules.ts`).
import type { ApiClient } from './client';
import type { Schemas } from './types';

export const DESCRIPTION_SIGNS = [
  { value: 'equals', label: 'Equals' },
  { value: 'contains', label: 'Contains' },
] as const;
export type DescriptionSign = (typeof DESCRIPTION_SIGNS)[number]['value'];
export const AMOUNT_SIGNS = [
  { value: 'equals', label: 'Equals' },
  { value: 'greater_than', label: 'Greater than' },
  { value: 'less_than', label: 'Less than' },
  { value: 'between', label: 'Between' },
] as const;
export type AmountSign = (typeof AMOUNT_SIGNS)[number]['value'];

/** Spec §3 Vendor rule, as GET /vendors/rule-engines/{id} answers it. */
export type VendorRule = Schemas['VendorRule'];
/** Spec §3 create payload (PATCH sends the same fields). */
export type VendorRuleBody = Schemas['VendorRuleBody'];
export type VendorRuleList = Schemas['VendorRuleList'];
export type VendorRuleAnswer = Schemas['VendorRuleAnswer'];
export type VendorRuleDeleted = Schemas['VendorRuleDeleted'];

/** Spec §5. */
export const VENDOR_RULE_CONDITION_MESSAGE = 'Vendor rule needs at least one of a non-blank description value, an amount above 0, or a source';

/** The rule editor's fields as typed (amounts as text, '' for none). */
export interface VendorRuleForm {
  name: string;
  vendorId: string;
  categoryId: string;
  ruleApplyDateTime: string;
  descriptionSign: DescriptionSign;
  descriptionValue: string;
  amountSign: AmountSign;
  amountValue: string;
  upperAmountValue: string;
  sourceId: string;
}

export type VendorRuleErrors = Partial<Record<keyof VendorRuleForm | 'conditions', string>>;

const amountOf = (text: string): number | null => {
  const cleaned = text.replace(/^\$/, '').replaceAll(',', '').trim();
  if (cleaned === '' || !/^\d*\.?\d*$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
};

/** Spec §5 checks of the rule editor, with the messages the server answers. */
export function validateVendorRule(f: VendorRuleForm): VendorRuleErrors {
  const errors: VendorRuleErrors = {};
  if (f.name.trim() === '') errors.name = 'Name is required';
  if (f.vendorId === '') errors.vendorId = 'Vendor is required';
  if (f.categoryId === '') errors.categoryId = 'Category is required';
  const amount = amountOf(f.amountValue);
  if (f.amountValue.trim() !== '' && amount === null) errors.amountValue = 'Enter an amount';
  if (f.amountSign === 'between' && amount !== null && amount > 0) {
    const upper = amountOf(f.upperAmountValue);
    if (upper === null || upper <= amount) errors.upperAmountValue = 'The upper amount must be above the amount';
  }
  if (f.descriptionValue.trim() === '' && !(amount !== null && amount > 0) && f.sourceId === '') errors.conditions = VENDOR_RULE_CONDITION_MESSAGE;
  return errors;
}

/** The payload of a valid form: conditions left blank are left out. */
export function vendorRuleBody(f: VendorRuleForm): VendorRuleBody {
  const amount = amountOf(f.amountValue);
  const body: VendorRuleBody = { name: f.name.trim(), vendorId: f.vendorId, categoryId: f.categoryId };
  if (f.ruleApplyDateTime) body.ruleApplyDateTime = f.ruleApplyDateTime;
  if (f.descriptionValue.trim() !== '') {
    body.descriptionSign = f.descriptionSign;
    body.descriptionValue = f.descriptionValue.trim();
  }
  if (amount !== null && amount > 0) {
    body.amountSign = f.amountSign;
    body.amountValue = amount;
    const upper = amountOf(f.upperAmountValue);
    if (f.amountSign === 'between' && upper !== null) body.upperAmountValue = upper;
  }
  if (f.sourceId) body.sourceId = f.sourceId;
  return body;
}

export const vendorRulesApi = {
  list: (client: ApiClient, signal?: AbortSignal) => client.get('/vendors/rule-engines', { params: { query: { page: 1, take: 100 } }, signal }),
  get: (client: ApiClient, id: string, signal?: AbortSignal) => client.get('/vendors/rule-engines/{id}', { params: { path: { id } }, signal }),
  create: (client: ApiClient, body: VendorRuleBody) => client.post('/vendors/rule-engines', { body }),
  update: (client: ApiClient, id: string, body: VendorRuleBody) => client.patch('/vendors/rule-engines/{id}', { params: { path: { id } }, body }),
  remove: (client: ApiClient, id: string) => client.delete('/vendors/rule-engines/{id}', { params: { path: { id } } }),
};
