// The vendor rules screen's own rules (spec documents-parties-integrations §3 "Vendor rule"): the editor's fields read
// back from a rule, the rule's conditions in words, and its impacted count. Moved from the api package (issue #14):
// only this remote shows them. The §5 check and the payload stay in @ledgerline/api (the service answers the same).
import { AMOUNT_SIGNS, type VendorRule, type VendorRuleForm } from '@ledgerline/api';

/** The editor's fields for an existing rule (or a new one: all blank, description contains, amount equals). */
export function vendorRuleForm(rule: VendorRule | null): VendorRuleForm {
  return {
    name: rule?.name ?? '',
    vendorId: rule?.vendor?.id ?? '',
    categoryId: rule?.category?.id ?? '',
    ruleApplyDateTime: rule?.ruleApplyDateTime?.slice(0, 10) ?? '',
    descriptionSign: rule?.descriptionSign === 'equals' ? 'equals' : 'contains',
    descriptionValue: rule?.descriptionValue ?? '',
    amountSign: AMOUNT_SIGNS.find((s) => s.value === rule?.amountSign)?.value ?? 'equals',
    amountValue: rule?.amountValue ? String(rule.amountValue) : '',
    upperAmountValue: rule?.upperAmountValue ? String(rule.upperAmountValue) : '',
    sourceId: rule?.sourceAccount?.id ?? '',
  };
}

/** The rule's conditions in words, for the list ("Description contains "uber" · Amount between $10.00 and $50.00"). */
export function describeVendorRule(rule: VendorRule): string {
  const parts: string[] = [];
  const money = (n: number) => `$${n.toFixed(2)}`;
  if (rule.descriptionValue) parts.push(`Description ${rule.descriptionSign === 'equals' ? 'equals' : 'contains'} "${rule.descriptionValue}"`);
  if (rule.amountValue) {
    const sign = rule.amountSign ?? 'equals';
    parts.push(
      sign === 'between'
        ? `Amount between ${money(rule.amountValue)} and ${money(rule.upperAmountValue ?? 0)}`
        : `Amount ${AMOUNT_SIGNS.find((s) => s.value === sign)?.label.toLowerCase() ?? sign} ${money(rule.amountValue)}`,
    );
  }
  if (rule.sourceAccount) parts.push(`Source ${rule.sourceAccount.name}`);
  return parts.join(' · ') || '—';
}

/** How many transactions the rule categorised (the server counts them all; impactedTransactions lists at most 100). */
export function impactedCount(rule: VendorRule): number {
  return rule.impactedTransactionCount;
}
