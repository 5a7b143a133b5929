import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { PageMetaSchema, VendorRuleSchema, type PartiesService, type VendorRule, type VendorRuleFields } from '@ledgerline/proto/parties/v1/parties_pb';
import { conditionsInWords, type RuleFieldsInput } from '../domain/vendor-rules.js';
import type { RuleView, VendorRuleUseCases } from '../usecases/vendor-rules.js';

export function vendorRuleMessage(v: RuleView): VendorRule {
  const r = v.value;
  return create(VendorRuleSchema, {
    id: v.row.id,
    name: r.name,
    vendorId: r.vendorId ?? '',
    vendorName: v.row.vendor_name ?? '',
    categoryId: r.categoryId,
    categoryName: v.described.categoryName,
    ruleApplyDateTime: r.ruleApplyDateTime,
    descriptionSign: r.descriptionSign ?? '',
    descriptionValue: r.descriptionValue ?? '',
    amountSign: r.amountSign ?? '',
    amountCents: BigInt(r.amountCents ?? 0),
    upperAmountCents: BigInt(r.upperAmountCents ?? 0),
    sourceId: r.sourceId ?? '',
    sourceAccountName: v.described.sourceAccountName,
    conditions: conditionsInWords(r, v.described.sourceAccountName),
    impactedCount: v.described.impactedCount,
    impacted: v.described.impacted.map((i) => ({
      id: i.id,
      description: i.description,
      amountCents: BigInt(i.amountCents),
      date: i.date,
      categoryId: i.categoryId,
    })),
    createdOn: v.row.created_at.toISOString(),
    updatedOn: v.row.updated_at.toISOString(),
  });
}

const ruleInput = (f: VendorRuleFields | undefined): RuleFieldsInput => ({
  name: f?.name,
  vendorId: f?.vendorId,
  categoryId: f?.categoryId,
  ruleApplyDateTime: f?.ruleApplyDateTime,
  descriptionSign: f?.descriptionSign,
  descriptionValue: f?.descriptionValue,
  amountSign: f?.amountSign,
  amountCents: f?.amountCents === undefined ? undefined : Number(f.amountCents),
  upperAmountCents: f?.upperAmountCents === undefined ? undefined : Number(f.upperAmountCents),
  sourceId: f?.sourceId,
});

/** The vendor-rule RPCs (thin edge). */
export function vendorRuleHandlers(
  u: VendorRuleUseCases,
): Pick<ServiceImpl<typeof PartiesService>, 'listVendorRules' | 'getVendorRule' | 'createVendorRule' | 'updateVendorRule' | 'deleteVendorRule'> {
  return {
    async listVendorRules(req, ctx) {
      const a = await u.listVendorRules(requireTenant(ctx), { page: req.page, take: req.take, vendorId: req.vendorId });
      return { data: a.data.map(vendorRuleMessage), meta: create(PageMetaSchema, a.meta) };
    },
    async getVendorRule(req, ctx) {
      return { rule: vendorRuleMessage(await u.getVendorRule(requireTenant(ctx), req.id)) };
    },
    async createVendorRule(req, ctx) {
      const r = await u.createVendorRule(requireTenant(ctx), ruleInput(req.fields));
      return { rule: vendorRuleMessage(r.rule), categorised: r.categorised };
    },
    async updateVendorRule(req, ctx) {
      const r = await u.updateVendorRule(requireTenant(ctx), req.id, ruleInput(req.fields));
      return { rule: vendorRuleMessage(r.rule), categorised: r.categorised };
    },
    async deleteVendorRule(req, ctx) {
      return u.deleteVendorRule(requireTenant(ctx), req.id);
    },
  };
}
