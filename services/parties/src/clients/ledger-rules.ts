import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { LedgerClient } from './ledger.js';

export interface RuleForLedger {
  ruleId: string;
  name: string;
  categoryId: string;
  vendorId: string | null;
  applyFrom: string;
  ruleApplyDateTime: string;
  descriptionSign: string | null;
  descriptionValue: string | null;
  amountSign: string | null;
  amountCents: number | null;
  upperAmountCents: number | null;
  sourceId: string | null;
}

export interface RuleDescription {
  categoryName: string;
  sourceAccountName: string;
  impactedCount: number;
  impacted: { id: string; description: string; amountCents: number; date: string; categoryId: string }[];
}

/**
 * What the parties service asks of the ledger about vendor rules (services/ledger/README.md "Vendor rules"):
 * the ledger owns transactions, so it applies a rule (set-based, one transaction) and says what it categorised.
 */
export interface RuleLedgerLink {
  apply(tenant: TenantContext, rule: RuleForLedger): Promise<{ categorised: number; impacted: number }>;
  /** Another workspace's category, vendor or source (those that are UUIDs) is a 404 naming the field. */
  checkReferences(tenant: TenantContext, ids: { categoryId: string; vendorId: string; sourceId: string }): Promise<void>;
  forget(tenant: TenantContext, ruleId: string): Promise<number>;
  describe(tenant: TenantContext, ruleIds: string[], impactedLimit: number): Promise<Map<string, RuleDescription>>;
}

/** Applying a rule is one ledger transaction whose length grows with what it re-categorises (the gateway waits as long). */
export const RULE_APPLY_TIMEOUT_MS = 120_000;

export function ruleLedgerLink(client: LedgerClient): RuleLedgerLink {
  const call = (tenant: TenantContext) => ({ headers: tenantHeaders(tenant) });
  return {
    async apply(tenant, r) {
      const out = await client.applyVendorRule(
        {
          rule: {
            ruleId: r.ruleId,
            name: r.name,
            categoryId: r.categoryId,
            vendorId: r.vendorId ?? '',
            applyFrom: r.applyFrom,
            ruleApplyDateTime: r.ruleApplyDateTime,
            descriptionSign: r.descriptionSign ?? '',
            descriptionValue: r.descriptionValue ?? '',
            amountSign: r.amountSign ?? '',
            amountCents: BigInt(r.amountCents ?? 0),
            upperAmountCents: BigInt(r.upperAmountCents ?? 0),
            sourceId: r.sourceId ?? '',
          },
        },
        { ...call(tenant), timeoutMs: RULE_APPLY_TIMEOUT_MS },
      );
      return { categorised: out.categorised, impacted: out.impacted };
    },
    async checkReferences(tenant, ids) {
      await client.applyVendorRule({ rule: ids, checkReferencesOnly: true }, call(tenant));
    },
    async forget(tenant, ruleId) {
      return (await client.forgetVendorRule({ ruleId }, call(tenant))).keptCategorisations;
    },
    async describe(tenant, ruleIds, impactedLimit) {
      const out = new Map<string, RuleDescription>();
      if (ruleIds.length === 0) return out;
      const r = await client.describeVendorRules({ ruleIds, impactedLimit }, call(tenant));
      for (const d of r.rules) {
        out.set(d.ruleId, {
          categoryName: d.categoryName,
          sourceAccountName: d.sourceAccountName,
          impactedCount: d.impactedCount,
          impacted: d.impacted.map((i) => ({
            id: i.id,
            description: i.description,
            amountCents: Number(i.amountCents),
            date: i.date,
            categoryId: i.categoryId,
          })),
        });
      }
      return out;
    },
  };
}
