import { isUuid, type Knex, assertCanEdit } from '@ledgerline/platform';
import { bankTransactionLines } from '../domain/posting.js';
import { Problems } from '../domain/validation.js';
import { cleanRule, type RuleInput } from '../domain/vendor-rules.js';
import { auditMany } from '../store/audit.js';
import { markRuleApplied } from '../store/categorisation-store.js';
import { postEntries, reversalsOf, type NewEntry } from '../store/journal.js';
import { deleteRule, describeRules, hasRules, ruleChanges, upsertRule, type RuleChange } from '../store/vendor-rules-store.js';
import { transferLock } from '../store/transfers-store.js';
import { updateBookings } from '../store/workspace-transactions.js';
import { categoryForBooking } from './booking.js';
import { changeInWorkspace, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { assertReferences } from './references.js';

/** Entries per `postEntries` call when a rule re-books many transactions (1,000 transactions a slice). */
const POST_SLICE = 2_000;

/**
 * Re-books the transactions a rule application changes, set-based, in the caller's transaction: the
 * reversals of their current entries read in one statement, every reversal and new entry posted through
 * `postEntries` (one statement; balances exact; entry.posted for each in one outbox insert), the rows in one
 * UPDATE and the 'categorised' trail in chunked INSERTs. A transaction whose category is already the rule's
 * only gets its applied_rule_id (and vendor) — nothing is posted for it. The categorisation model's applied
 * suggestions go the same way (no rule; `trail` adds to each 'categorised' row of the trail).
 */
export async function rebook(
  trx: Knex.Transaction,
  changes: readonly RuleChange[],
  userId: string | null,
  trail: Record<string, unknown> = {},
): Promise<number> {
  if (changes.length === 0) return 0;
  const recategorised = changes.filter((c) => c.category_id !== c.win_category_id);
  const reversals = await reversalsOf(
    trx,
    recategorised.filter((c) => c.current_entry_id).map((c) => ({ entryId: c.current_entry_id as string, description: `Reversal: ${c.name}` })),
  );
  const entries: NewEntry[] = [];
  const newEntryOf: (number | null)[] = [];
  let nextReversal = 0;
  for (const c of recategorised) {
    if (c.current_entry_id) entries.push(reversals[nextReversal++] as NewEntry);
    if (c.ledger_account_id && c.txn_date && c.amount_cents !== 0) {
      newEntryOf.push(entries.length);
      entries.push({
        workspaceId: c.workspace_id,
        date: c.txn_date,
        sourceType: 'WorkspaceTransaction',
        sourceId: c.id,
        description: c.name,
        lines: bankTransactionLines(c.ledger_account_id, c.win_category_id, Number(c.amount_cents)),
        transactionId: c.id,
        billerId: c.biller_id,
      });
    } else newEntryOf.push(null);
  }
  // In slices (posted in order, as one after another): one huge statement's cost grows faster than its size.
  const posted: string[] = [];
  for (let i = 0; i < entries.length; i += POST_SLICE) posted.push(...(await postEntries(trx, entries.slice(i, i + POST_SLICE))));
  const entryOf = new Map(
    recategorised.map((c, i) => {
      const at = newEntryOf[i];
      return [c.id, at === null || at === undefined ? null : (posted[at] as string)] as const;
    }),
  );
  await updateBookings(
    trx,
    changes.map((c) => ({
      ...c,
      category_id: c.win_category_id,
      current_entry_id: entryOf.has(c.id) ? (entryOf.get(c.id) ?? null) : c.current_entry_id,
      applied_rule_id: c.win_rule_id,
      vendor_id: c.win_vendor_id ?? c.vendor_id,
    })),
  );
  // A rule's categorisation is creation mode auto (spec: manual or auto); the model's own is marked by its caller.
  await markRuleApplied(
    trx,
    changes.filter((c) => c.win_rule_id).map((c) => c.id),
  );
  await auditMany(
    trx,
    recategorised.map((c) => ({
      workspaceId: c.workspace_id,
      transactionId: c.id,
      userId,
      event: 'categorised' as const,
      details: { fromCategoryId: c.category_id, toCategoryId: c.win_category_id, toCategoryName: c.win_category_name, appliedRuleId: c.win_rule_id, ...trail },
    })),
  );
  return changes.length;
}

/**
 * New transactions just booked on import (after transfer detection): each editable one a rule matches is
 * re-booked to its winning rule's category. Nothing at all when the workspace has no rule.
 */
export async function applyVendorRulesTo(trx: Knex.Transaction, transactionIds: readonly string[]): Promise<number> {
  if (transactionIds.length === 0 || !(await hasRules(trx))) return 0;
  return rebook(trx, await ruleChanges(trx, { transactionIds }), null);
}

/**
 * Vendor rules (issue #17 item 4; services/ledger/README.md "Vendor rules"). The parties service owns them and
 * sends each rule's conditions here when it is made or changed; the ledger keeps a copy (`ledger_rules`) and
 * applies it in one transaction, set-based. Callers: the parties service with the user's role.
 */
export class VendorRuleUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async apply(tenant: Tenant, input: RuleInput): Promise<{ categorised: number; impacted: number; seq: number }> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const { value, problems } = cleanRule(input);
    problems.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      await assertReferences(trx, [
        { field: 'categoryId', kind: 'category', ids: [value.categoryId] },
        { field: 'vendorId', kind: 'vendor', ids: value.vendorId ? [value.vendorId] : [] },
        { field: 'sourceId', kind: 'bankAccount', ids: value.sourceId ? [value.sourceId] : [] },
      ]);
      await categoryForBooking(trx, value.categoryId);
      // Imports of the workspace take the same lock (bank-batch.ts): a rule and an import never miss each other.
      await transferLock(trx, tenant.workspaceId);
      await upsertRule(trx, tenant.workspaceId, value);
      const categorised = await rebook(trx, await ruleChanges(trx, { ruleId: value.ruleId }), tenant.userId ?? null);
      const [described] = await describeRules(trx, [value.ruleId], 0);
      return { categorised, impacted: described?.impacted_count ?? 0 };
    });
  }

  /** Another workspace's category, vendor or source (of those that are UUIDs) is a 404 naming the field; nothing else happens. */
  async checkReferences(tenant: Tenant, ids: { categoryId: string; vendorId: string; sourceId: string }): Promise<void> {
    const some = (id: string) => (isUuid(id) ? [id] : []);
    await inWorkspace(this.deps.db, tenant, (trx) =>
      assertReferences(trx, [
        { field: 'categoryId', kind: 'category', ids: some(ids.categoryId) },
        { field: 'vendorId', kind: 'vendor', ids: some(ids.vendorId) },
        { field: 'sourceId', kind: 'bankAccount', ids: some(ids.sourceId) },
      ]),
    );
  }

  async forget(tenant: Tenant, ruleId: string): Promise<{ keptCategorisations: number }> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const p = new Problems();
    p.uuid('id', ruleId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => ({ keptCategorisations: await deleteRule(trx, ruleId) }));
  }

  async describe(tenant: Tenant, ruleIds: readonly string[], limit: number) {
    const p = new Problems();
    p.uuids('ruleIds', ruleIds);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, (trx) => describeRules(trx, ruleIds, Math.max(0, Math.min(limit, 1000))));
  }
}
