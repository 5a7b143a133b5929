import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import type { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { VendorRuleUseCases } from '../usecases/vendor-rules.js';

const tenantOf = (ctx: HandlerContext) => requireTenant(ctx);

/** The vendor-rule RPCs the parties service calls (thin edge). */
export function vendorRuleHandlers(
  u: VendorRuleUseCases,
): Pick<ServiceImpl<typeof LedgerService>, 'applyVendorRule' | 'forgetVendorRule' | 'describeVendorRules'> {
  return {
    async applyVendorRule(req, ctx) {
      const r = req.rule;
      if (req.checkReferencesOnly) {
        await u.checkReferences(tenantOf(ctx), { categoryId: r?.categoryId ?? '', vendorId: r?.vendorId ?? '', sourceId: r?.sourceId ?? '' });
        return { categorised: 0, impacted: 0, seq: 0n };
      }
      const out = await u.apply(tenantOf(ctx), {
        ruleId: r?.ruleId ?? '',
        name: r?.name ?? '',
        categoryId: r?.categoryId ?? '',
        vendorId: r?.vendorId ?? '',
        applyFrom: r?.applyFrom ?? '',
        ruleApplyDateTime: r?.ruleApplyDateTime ?? '',
        descriptionSign: r?.descriptionSign ?? '',
        descriptionValue: r?.descriptionValue ?? '',
        amountSign: r?.amountSign ?? '',
        amountCents: Number(r?.amountCents ?? 0n),
        upperAmountCents: Number(r?.upperAmountCents ?? 0n),
        sourceId: r?.sourceId ?? '',
      });
      return { categorised: out.categorised, impacted: out.impacted, seq: BigInt(out.seq) };
    },
    async forgetVendorRule(req, ctx) {
      return u.forget(tenantOf(ctx), req.ruleId);
    },
    async describeVendorRules(req, ctx) {
      const rows = await u.describe(tenantOf(ctx), req.ruleIds, req.impactedLimit);
      return {
        rules: rows.map((r) => ({
          ruleId: r.id,
          categoryName: r.category_name,
          sourceAccountName: r.source_name,
          impactedCount: r.impacted_count,
          impacted: r.impacted.map((i) => ({
            id: i.id,
            description: i.name,
            amountCents: BigInt(i.amount_cents),
            date: i.txn_date,
            categoryId: i.category_id ?? '',
          })),
        })),
      };
    },
  };
}
