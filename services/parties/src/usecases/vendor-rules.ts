import { AppError, ErrorKind, isUuid, newId, withTenant, type Knex, type TenantContext, assertCanEdit } from '@ledgerline/platform';
import type { RuleDescription, RuleLedgerLink } from '../clients/ledger-rules.js';
import { cleanListQuery, pageMeta, type FieldProblem } from '../domain/parties.js';
import { applyFromOf, cleanRule, RULE_MSG, type RuleFieldsInput, type RuleValue } from '../domain/vendor-rules.js';
import { deleteRule, insertRule, listRules, ruleById, ruleValueOf, updateRule, type VendorRuleRow } from '../store/vendor-rules.js';
import { vendorsByIds } from '../store/vendors.js';

type Tenant = TenantContext & { workspaceId: string };

export interface VendorRuleDeps {
  db: Knex;
  ledger: RuleLedgerLink;
}

/** A rule as the API shows it: its row, and from the ledger its category's and source's names and the transactions it categorised. */
export interface RuleView {
  row: VendorRuleRow;
  value: RuleValue;
  described: RuleDescription;
}

/** How many impacted transactions a rule's read lists (the count is always whole). */
export const IMPACTED_LIMIT = 100;
const NOTHING: RuleDescription = { categoryName: '', sourceAccountName: '', impactedCount: 0, impacted: [] };

function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length > 0) throw AppError.invalid(problems);
}
function notFound(what: 'Vendor rule' | 'Vendor', field: string): AppError {
  const message = `${what} not found`;
  return new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
}
const idProblems = (field: string, id: string): FieldProblem[] => (isUuid(id) ? [] : [{ field, message: RULE_MSG.uuid(field) }]);

/**
 * Vendor rules (issue #17 item 4; services/parties/README.md "Vendor rules"). The rule is this service's; the
 * ledger applies it (it owns transactions): create and update send the ledger the rule's conditions in the
 * same step (ApplyVendorRule: one set-based statement in one ledger transaction), so a refusal there (another
 * workspace's category or source) leaves nothing behind here.
 */
export function createVendorRuleUseCases({ db, ledger }: VendorRuleDeps) {
  async function checkVendor(trx: Knex.Transaction, vendorId: string | null): Promise<void> {
    if (vendorId && isUuid(vendorId) && (await vendorsByIds(trx, [vendorId])).length === 0) throw notFound('Vendor', 'vendorId');
  }
  /** Another workspace's ids answer 404 before the fields' refusals (vendor here, category and source in the ledger). */
  async function refuse(tenant: Tenant, trx: Knex.Transaction, value: RuleValue, problems: FieldProblem[]): Promise<void> {
    await checkVendor(trx, value.vendorId);
    if (problems.length === 0) return;
    await ledger.checkReferences(tenant, { categoryId: value.categoryId, vendorId: '', sourceId: value.sourceId ?? '' });
    throwIfAny(problems);
  }
  const forLedger = (id: string, v: RuleValue) => ({ ruleId: id, ...v, applyFrom: applyFromOf(v.ruleApplyDateTime) });

  return {
    async listVendorRules(tenant: Tenant, query: { page: number; take: number; vendorId: string }) {
      const { value: q, problems } = cleanListQuery({ page: query.page, take: query.take, search: '', status: '', all: false });
      throwIfAny([...problems, ...(query.vendorId ? idProblems('vendorId', query.vendorId) : [])]);
      const { rows, count } = await withTenant(db, tenant, async (trx) => {
        // Another workspace's vendor (or a deleted one) is a 404 naming vendorId, not an empty page.
        await checkVendor(trx, query.vendorId || null);
        return listRules(trx, { page: q.page, take: q.take, vendorId: query.vendorId || null });
      });
      const described = await ledger.describe(
        tenant,
        rows.map((r) => r.id),
        IMPACTED_LIMIT,
      );
      return {
        data: rows.map((row): RuleView => ({ row, value: ruleValueOf(row), described: described.get(row.id) ?? NOTHING })),
        meta: pageMeta(q.page, q.take, count),
      };
    },

    async getVendorRule(tenant: Tenant, id: string): Promise<RuleView> {
      throwIfAny(idProblems('id', id));
      const row = await withTenant(db, tenant, (trx) => ruleById(trx, id));
      if (!row) throw notFound('Vendor rule', 'id');
      const described = await ledger.describe(tenant, [id], IMPACTED_LIMIT);
      return { row, value: ruleValueOf(row), described: described.get(id) ?? NOTHING };
    },

    /** POST /vendors/rule-engines: the rule, applied at once to the existing editable transactions from its date on. */
    async createVendorRule(tenant: Tenant, input: RuleFieldsInput): Promise<{ rule: RuleView; categorised: number }> {
      assertCanEdit(tenant);
      const { value, problems } = cleanRule(input);
      const id = newId();
      const { row, categorised } = await withTenant(db, tenant, async (trx) => {
        await refuse(tenant, trx, value, problems);
        await insertRule(trx, id, tenant.workspaceId, value);
        const applied = await ledger.apply(tenant, forLedger(id, value));
        return { row: (await ruleById(trx, id)) as VendorRuleRow, categorised: applied.categorised };
      });
      const described = await ledger.describe(tenant, [id], IMPACTED_LIMIT);
      return { rule: { row, value: ruleValueOf(row), described: described.get(id) ?? NOTHING }, categorised };
    },

    /** PATCH /vendors/rule-engines/{id}: the fields sent over the rule; applied again (what it categorised before stays). */
    async updateVendorRule(tenant: Tenant, id: string, input: RuleFieldsInput): Promise<{ rule: RuleView; categorised: number }> {
      assertCanEdit(tenant);
      throwIfAny(idProblems('id', id));
      const { row, categorised } = await withTenant(db, tenant, async (trx) => {
        const before = await ruleById(trx, id, true);
        if (!before) throw notFound('Vendor rule', 'id');
        const { value, problems } = cleanRule(input, ruleValueOf(before));
        await refuse(tenant, trx, value, problems);
        await updateRule(trx, id, value);
        const applied = await ledger.apply(tenant, forLedger(id, value));
        return { row: (await ruleById(trx, id)) as VendorRuleRow, categorised: applied.categorised };
      });
      const described = await ledger.describe(tenant, [id], IMPACTED_LIMIT);
      return { rule: { row, value: ruleValueOf(row), described: described.get(id) ?? NOTHING }, categorised };
    },

    /**
     * DELETE /vendors/rule-engines/{id}: the rule goes, here and in the ledger; the transactions it categorised
     * keep their category (as in QuickBooks Online) and the answer says how many.
     */
    async deleteVendorRule(tenant: Tenant, id: string): Promise<{ keptCategorisations: number }> {
      assertCanEdit(tenant);
      throwIfAny(idProblems('id', id));
      return withTenant(db, tenant, async (trx) => {
        if (!(await ruleById(trx, id, true))) throw notFound('Vendor rule', 'id');
        await deleteRule(trx, id);
        return { keptCategorisations: await ledger.forget(tenant, id) };
      });
    },
  };
}

export type VendorRuleUseCases = ReturnType<typeof createVendorRuleUseCases>;
