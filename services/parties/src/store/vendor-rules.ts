import type { Knex } from '@ledgerline/platform';
import type { RuleValue } from '../domain/vendor-rules.js';

export interface VendorRuleRow {
  id: string;
  workspace_id: string;
  name: string;
  vendor_id: string | null;
  category_id: string;
  rule_apply_date_time: Date;
  description_sign: string | null;
  description_value: string | null;
  amount_sign: string | null;
  amount_cents: string | number | null;
  upper_amount_cents: string | number | null;
  source_id: string | null;
  created_at: Date;
  updated_at: Date;
  vendor_name: string | null;
}

const SELECT = 'select r.*, v.name as vendor_name from vendor_rules r left join vendors v on v.id = r.vendor_id';

export function ruleValueOf(r: VendorRuleRow): RuleValue {
  return {
    name: r.name,
    vendorId: r.vendor_id,
    categoryId: r.category_id,
    ruleApplyDateTime: r.rule_apply_date_time.toISOString(),
    descriptionSign: r.description_sign,
    descriptionValue: r.description_value,
    amountSign: r.amount_sign,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    upperAmountCents: r.upper_amount_cents === null ? null : Number(r.upper_amount_cents),
    sourceId: r.source_id,
  };
}

const columns = (v: RuleValue) => ({
  name: v.name,
  vendor_id: v.vendorId,
  category_id: v.categoryId,
  rule_apply_date_time: v.ruleApplyDateTime,
  description_sign: v.descriptionSign,
  description_value: v.descriptionValue,
  amount_sign: v.amountSign,
  amount_cents: v.amountCents,
  upper_amount_cents: v.upperAmountCents,
  source_id: v.sourceId,
});

export async function insertRule(trx: Knex.Transaction, id: string, workspaceId: string, v: RuleValue): Promise<void> {
  await trx('vendor_rules').insert({ id, workspace_id: workspaceId, ...columns(v) });
}

export async function updateRule(trx: Knex.Transaction, id: string, v: RuleValue): Promise<void> {
  await trx('vendor_rules')
    .where({ id })
    .update({ ...columns(v), updated_at: trx.fn.now() });
}

export async function deleteRule(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('vendor_rules').where({ id }).delete();
}

export async function ruleById(trx: Knex.Transaction, id: string, lock = false): Promise<VendorRuleRow | undefined> {
  return (await trx.raw(`${SELECT} where r.id = ?${lock ? ' for update of r' : ''}`, [id])).rows[0] as VendorRuleRow | undefined;
}

/** A page of rules, newest first (optionally one vendor's), and the count. */
export async function listRules(
  trx: Knex.Transaction,
  q: { page: number; take: number; vendorId: string | null },
): Promise<{ rows: VendorRuleRow[]; count: number }> {
  const where = q.vendorId ? 'where r.vendor_id = ?' : '';
  const args = q.vendorId ? [q.vendorId] : [];
  const rows = (await trx.raw(`${SELECT} ${where} order by r.created_at desc, r.id limit ? offset ?`, [...args, q.take, (q.page - 1) * q.take]))
    .rows as VendorRuleRow[];
  const count = ((await trx.raw(`select count(*)::int as n from vendor_rules r ${where}`, args)).rows[0] as { n: number }).n;
  return { rows, count };
}

/** The vendors among `ids` that have at least one rule (the vendor's hasRule). */
export async function vendorsWithRules(trx: Knex.Transaction, ids?: readonly string[]): Promise<Set<string>> {
  const rows = (
    ids
      ? await trx.raw('select distinct vendor_id from vendor_rules where vendor_id = any(?::uuid[])', [[...ids]])
      : await trx.raw('select distinct vendor_id from vendor_rules where vendor_id is not null')
  ).rows as { vendor_id: string }[];
  return new Set(rows.map((r) => r.vendor_id));
}

/** Merged vendors' rules go to the parent; a deleted vendor's rules keep no vendor. */
export async function moveRules(trx: Knex.Transaction, fromIds: readonly string[], toId: string | null): Promise<void> {
  if (fromIds.length === 0) return;
  await trx('vendor_rules')
    .whereIn('vendor_id', [...fromIds])
    .update({ vendor_id: toId });
}
