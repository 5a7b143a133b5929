import type { Knex } from '@ledgerline/platform';
import { BOOKS_CURRENCY } from '../domain/tie-out.js';
import type { VendorRuleConditions } from '../domain/vendor-rules.js';
import type { TxnRow } from './rows.js';

/** Upserts the ledger's copy of a rule's conditions (the parties service owns the rule). */
export async function upsertRule(trx: Knex.Transaction, workspaceId: string, r: VendorRuleConditions): Promise<void> {
  await trx.raw(
    `insert into ledger_rules (id, workspace_id, name, category_id, vendor_id, apply_from, rule_apply_date_time, description_sign, description_value, amount_sign, amount_cents, upper_amount_cents, source_bank_account_id, condition_count)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set name = excluded.name, category_id = excluded.category_id, vendor_id = excluded.vendor_id, apply_from = excluded.apply_from,
       rule_apply_date_time = excluded.rule_apply_date_time, description_sign = excluded.description_sign, description_value = excluded.description_value,
       amount_sign = excluded.amount_sign, amount_cents = excluded.amount_cents, upper_amount_cents = excluded.upper_amount_cents,
       source_bank_account_id = excluded.source_bank_account_id, condition_count = excluded.condition_count, updated_at = now()`,
    [
      r.ruleId,
      workspaceId,
      r.name,
      r.categoryId,
      r.vendorId,
      r.applyFrom,
      r.ruleApplyDateTime,
      r.descriptionSign,
      r.descriptionValue,
      r.amountSign,
      r.amountCents,
      r.upperAmountCents,
      r.sourceId,
      r.conditionCount,
    ],
  );
}

/** Removes a rule's copy; answers how many transactions keep the category it gave them. */
export async function deleteRule(trx: Knex.Transaction, ruleId: string): Promise<number> {
  await trx('ledger_rules').where({ id: ruleId }).delete();
  const row = (await trx.raw('select count(*)::int as n from workspace_transactions where applied_rule_id = ? and not is_removed', [ruleId])).rows[0] as {
    n: number;
  };
  return row.n;
}

/** Whether the workspace has any rule (the import's fast path: no rules, nothing to evaluate). */
export async function hasRules(trx: Knex.Transaction): Promise<boolean> {
  return !!(await trx('ledger_rules').first('id'));
}

/** SQL: rule `r` matches transaction `w` (the conditions of services/ledger/README.md "Vendor rules"). */
const MATCHES = (r: string, w: string) => `
  ${w}.txn_date >= ${r}.apply_from
  and (${r}.description_value is null or case ${r}.description_sign
        when 'equals' then lower(btrim(${w}.name)) = lower(btrim(${r}.description_value))
        else strpos(lower(${w}.name), lower(${r}.description_value)) > 0 end)
  and (${r}.amount_sign is null or case ${r}.amount_sign
        when 'equals' then abs(${w}.amount_cents) = ${r}.amount_cents
        when 'greater_than' then abs(${w}.amount_cents) > ${r}.amount_cents
        when 'less_than' then abs(${w}.amount_cents) < ${r}.amount_cents
        else abs(${w}.amount_cents) between ${r}.amount_cents and ${r}.upper_amount_cents end)
  and (${r}.source_bank_account_id is null or ${w}.bank_account_id = ${r}.source_bank_account_id)`;

/**
 * SQL: transaction `w` (category account `a`) is one a rule may change — spec platform-core §4: not removed, in
 * the books' currency, not linked to an entity, not finalized, not a Transfer (paired or categorised so), not
 * synced, not accrued, not split, not a split or accrual child, not an opening balance.
 */
export const EDITABLE = (w: string, a: string) => `
  not ${w}.is_removed and ${w}.iso_currency_code = '${BOOKS_CURRENCY}' and ${w}.entity_type is null and not ${w}.is_finalized
  and ${w}.transfer_pair_id is null and coalesce(${a}.class_group, '') <> 'Transfer' and not ${w}.qbo_synced
  and not ${w}.is_accrued_parent and not ${w}.is_split_parent and not ${w}.is_split_child and not ${w}.is_accrual_child
  and not ${w}.is_opening_balance and ${w}.txn_date is not null`;

/**
 * SQL: the order in which rules win a transaction both match (first wins): more conditions first; then a
 * description that must equal before one that must contain; then an amount that must equal before a range;
 * then the later ruleApplyDateTime; then the name (byte order), then the id. It depends on the rules only,
 * never on the order they were made or applied in.
 */
const PRECEDENCE = (r: string) => `${r}.condition_count desc,
  case when ${r}.description_sign = 'equals' then 0 when ${r}.description_sign = 'contains' then 1 else 2 end,
  case when ${r}.amount_sign = 'equals' then 0 when ${r}.amount_sign is null then 2 else 1 end,
  ${r}.rule_apply_date_time desc, ${r}.name collate "C", ${r}.id`;

/** A transaction a rule application changes, locked, with the rule that wins it. */
export interface RuleChange extends TxnRow {
  /** The winning rule; null when the categorisation model's suggestion is the winner (usecases/categorisation.ts). */
  win_rule_id: string | null;
  win_category_id: string;
  win_vendor_id: string | null;
  win_category_name: string;
}

/**
 * One statement: the editable transactions the target matches (a rule: the ones it matches; ids: those
 * transactions), the rule that wins each among all the workspace's rules, and — locked, in id order — those
 * whose category, rule or vendor the winner would change. With a rule target only the transactions it wins.
 */
export async function ruleChanges(trx: Knex.Transaction, target: { ruleId: string } | { transactionIds: readonly string[] }): Promise<RuleChange[]> {
  const byRule = 'ruleId' in target;
  const scope = byRule
    ? `select w.id from workspace_transactions w join ledger_rules r on r.id = ?::uuid left join accounts a on a.id = w.category_id where ${EDITABLE('w', 'a')} and ${MATCHES('r', 'w')}`
    : `select w.id from workspace_transactions w left join accounts a on a.id = w.category_id where w.id = any(?::uuid[]) and ${EDITABLE('w', 'a')}`;
  const rows = (
    await trx.raw(
      `with scope as (${scope}),
     win as (
       select distinct on (w.id) w.id, r.id as rule_id, r.category_id, r.vendor_id
       from scope s join workspace_transactions w on w.id = s.id
       join ledger_rules r on r.workspace_id = w.workspace_id and ${MATCHES('r', 'w')}
       order by w.id, ${PRECEDENCE('r')}
     )
     select w.*, win.rule_id as win_rule_id, win.category_id as win_category_id, win.vendor_id as win_vendor_id, c.name as win_category_name
     from win join workspace_transactions w on w.id = win.id join accounts c on c.id = win.category_id left join accounts cur on cur.id = w.category_id
     -- Editable again at this level: a row changed meanwhile (finalized, say) is re-checked once locked.
     where ${byRule ? 'win.rule_id = ?::uuid and' : ''} ${EDITABLE('w', 'cur')} and (w.category_id is distinct from win.category_id or w.applied_rule_id is distinct from win.rule_id
            or (win.vendor_id is not null and w.vendor_id is distinct from win.vendor_id))
     order by w.id
     for update of w`,
      (byRule ? [target.ruleId, target.ruleId] : [[...target.transactionIds]]) as Knex.RawBinding[],
    )
  ).rows as RuleChange[];
  return rows;
}

/** Per rule: its category's and source account's names, the count of transactions it categorised and the first `limit`. */
export async function describeRules(trx: Knex.Transaction, ruleIds: readonly string[], limit: number) {
  if (ruleIds.length === 0) return [];
  const rules = (
    await trx.raw(
      `select r.id, coalesce(c.name, '') as category_name, coalesce(b.name, '') as source_name,
            (select count(*)::int from workspace_transactions w where w.applied_rule_id = r.id and not w.is_removed) as impacted_count
     from ledger_rules r left join accounts c on c.id = r.category_id left join accounts b on b.bank_account_id = r.source_bank_account_id
     where r.id = any(?::uuid[])`,
      [[...ruleIds]],
    )
  ).rows as { id: string; category_name: string; source_name: string; impacted_count: number }[];
  const impacted =
    limit <= 0
      ? []
      : ((
          await trx.raw(
            `select x.* from unnest(?::uuid[]) as r(id), lateral (
       select w.applied_rule_id as rule_id, w.id, w.name, w.amount_cents, to_char(w.txn_date, 'YYYY-MM-DD') as txn_date, w.category_id
       from workspace_transactions w where w.applied_rule_id = r.id and not w.is_removed
       order by w.txn_date desc, w.id limit ?) x`,
            [[...ruleIds], limit],
          )
        ).rows as { rule_id: string; id: string; name: string; amount_cents: string; txn_date: string; category_id: string | null }[]);
  return rules.map((r) => ({ ...r, impacted: impacted.filter((i) => i.rule_id === r.id) }));
}
