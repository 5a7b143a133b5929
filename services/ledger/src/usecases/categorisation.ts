import { eventMessage, EventType, isUuid, newId, startConsumer, writeEvents, type EventBus, type Knex, type Logger, type ReceivedEvent, type Subscription } from '@ledgerline/platform';
import type { CategorizationSuggested } from '@ledgerline/proto/events/v1/parties_pb';
import { SYSTEM } from '../domain/chart.js';
import { Problems } from '../domain/validation.js';
import { EDITABLE, type RuleChange } from '../store/vendor-rules-store.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { assertReferences } from './references.js';
import { rebook } from './vendor-rules.js';

/**
 * Learned categorisation, the ledger's side (issue #17 item 7; decision 00XX-learned-categorisation). The
 * parties service owns the model; the ledger owns the transactions, so it
 * - asks: after an import (transfers and vendor rules first) the new transactions nobody categorised get a
 *   categorisation job (waiting) and one `categorization.requested`, in the import's transaction;
 * - applies: `categorization.suggested` (inbox: exactly once) re-books, set-based through the vendor-rule path,
 *   the suggestions marked apply (creation mode auto) and stores the others as suggestions, only on
 *   transactions still as the import left them (editable, uncategorised, no rule, no user's choice), and
 *   completes the job;
 * - teaches: a user's categorisation marks the transaction manual and publishes `transaction.categorized`.
 */

export const CATEGORISATION_CONSUMER = 'ledger_categorisation';

/** SQL: the transaction `w` (category `a`) is still as its import left it: nobody categorised it. */
const UNCLAIMED = (w: string, a: string) => `${EDITABLE(w, a)} and ${w}.applied_rule_id is null and ${w}.creation_mode is null
  and ${a}.system_key in ('${SYSTEM.uncategorisedIncome}', '${SYSTEM.uncategorisedExpense}') and ${w}.amount_cents <> 0`;

/** After an import: one job and one categorization.requested for the new transactions nobody categorised. */
export async function requestCategorisation(trx: Knex.Transaction, workspaceId: string, transactionIds: readonly string[]): Promise<string | null> {
  if (transactionIds.length === 0) return null;
  const rows = (await trx.raw(
    `select w.id, w.name, w.amount_cents, w.bank_account_id, to_char(w.txn_date, 'YYYY-MM-DD') as txn_date, coalesce(b.name, '') as merchant
     from workspace_transactions w join accounts a on a.id = w.category_id left join billers b on b.id = w.biller_id
     where w.id = any(?::uuid[]) and ${UNCLAIMED('w', 'a')} order by w.id`,
    [[...transactionIds]],
  )).rows as { id: string; name: string; amount_cents: string; bank_account_id: string; txn_date: string; merchant: string }[];
  if (rows.length === 0) return null;
  const jobId = newId();
  await trx('categorization_jobs').insert({ id: jobId, workspace_id: workspaceId, status: 'waiting', total_transactions: rows.length });
  await trx.raw('update workspace_transactions set categorization_job_id = ? where id = any(?::uuid[])', [jobId, rows.map((r) => r.id)]);
  await writeEvents(trx, 'ledger', [{
    type: EventType.CategorizationRequested,
    workspaceId,
    payload: {
      jobId,
      candidates: rows.map((r) => ({ transactionId: r.id, merchantName: r.merchant, description: r.name, amountCents: BigInt(r.amount_cents), bankAccountId: r.bank_account_id, date: r.txn_date })),
    },
  }]);
  return jobId;
}

/** Applies a job's suggestions (in the consumer's tenant transaction, after its inbox row). */
export async function applySuggestions(trx: Knex.Transaction, workspaceId: string, answer: CategorizationSuggested): Promise<{ applied: number; suggested: number }> {
  const job = (await trx('categorization_jobs').where({ id: answer.jobId }).forUpdate().first()) as { id: string; status: string } | undefined;
  if (!job || job.status === 'completed') return { applied: 0, suggested: 0 };
  const wanted = answer.suggestions.filter((s) => isUuid(s.transactionId) && isUuid(s.categoryId));
  // Only categories of this workspace a transaction may be booked to, and vendors the ledger knows.
  const categories = new Map(((await trx.raw(
    `select id, name from accounts where id = any(?::uuid[]) and level >= 3 and bank_account_id is null and coalesce(class_group, '') <> 'Transfer'`,
    [[...new Set(wanted.map((s) => s.categoryId))]],
  )).rows as { id: string; name: string }[]).map((c) => [c.id, c.name]));
  const vendorIds = [...new Set(wanted.map((s) => s.vendorId).filter((v) => isUuid(v)))];
  const vendors = new Set(vendorIds.length ? ((await trx('ledger_vendors').whereIn('id', vendorIds).select('id')) as { id: string }[]).map((v) => v.id) : []);
  const usable = wanted.filter((s) => categories.has(s.categoryId));
  // Locked, and re-checked: a user or a rule may have categorised some since the import.
  const rows = usable.length === 0 ? [] : ((await trx.raw(
    `select w.* from workspace_transactions w join accounts a on a.id = w.category_id
     where w.id = any(?::uuid[]) and w.categorization_job_id = ? and ${UNCLAIMED('w', 'a')} order by w.id for update of w`,
    [usable.map((s) => s.transactionId), answer.jobId],
  )).rows as RuleChange[]);
  const byId = new Map(usable.map((s) => [s.transactionId, s]));
  const toApply: RuleChange[] = [];
  const toSuggest: { id: string; categoryId: string; vendorId: string | null; confidence: number }[] = [];
  for (const row of rows) {
    const s = byId.get(row.id)!;
    const vendorId = vendors.has(s.vendorId) ? s.vendorId : null;
    if (s.apply) toApply.push({ ...row, amount_cents: Number(row.amount_cents), win_rule_id: null, win_category_id: s.categoryId, win_vendor_id: vendorId, win_category_name: categories.get(s.categoryId)! });
    else toSuggest.push({ id: row.id, categoryId: s.categoryId, vendorId, confidence: s.confidence });
  }
  await rebook(trx, toApply, null, { creationMode: 'auto' });
  if (toApply.length) {
    await trx.raw(
      `update workspace_transactions w set creation_mode = 'auto', suggestion_confidence = t.confidence, suggested_category_id = null, suggested_vendor_id = null
       from unnest(?::uuid[], ?::float8[]) as t(id, confidence) where w.id = t.id`,
      [toApply.map((r) => r.id), toApply.map((r) => byId.get(r.id)!.confidence)] as unknown as Knex.RawBinding[],
    );
  }
  if (toSuggest.length) {
    await trx.raw(
      `update workspace_transactions w set suggested_category_id = t.category_id, suggested_vendor_id = t.vendor_id, suggestion_confidence = t.confidence
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::float8[]) as t(id, category_id, vendor_id, confidence) where w.id = t.id`,
      [toSuggest.map((s) => s.id), toSuggest.map((s) => s.categoryId), toSuggest.map((s) => s.vendorId), toSuggest.map((s) => s.confidence)] as unknown as Knex.RawBinding[],
    );
  }
  await trx('categorization_jobs').where({ id: answer.jobId, workspace_id: workspaceId }).update({ status: 'completed', applied: toApply.length, suggested: toSuggest.length, finished_at: trx.fn.now() });
  return { applied: toApply.length, suggested: toSuggest.length };
}

/**
 * A user categorised these transactions by hand (PATCH of a category, the bulk update): creation mode manual,
 * any suggestion dropped, and one `transaction.categorized` each for the model to learn from.
 */
export async function markManual(trx: Knex.Transaction, workspaceId: string, transactionIds: readonly string[]): Promise<void> {
  if (transactionIds.length === 0) return;
  const rows = (await trx.raw(
    `update workspace_transactions w set creation_mode = 'manual', suggested_category_id = null, suggested_vendor_id = null, suggestion_confidence = null
     from workspace_transactions o left join billers b on b.id = o.biller_id
     where w.id = o.id and w.id = any(?::uuid[]) and w.category_id is not null
     returning w.id, w.name, w.amount_cents, w.bank_account_id, w.category_id, w.vendor_id, to_char(w.txn_date, 'YYYY-MM-DD') as txn_date, coalesce(b.name, '') as merchant, b.vendor_id as merchant_vendor_id`,
    [[...transactionIds]],
  )).rows as { id: string; name: string; amount_cents: string; bank_account_id: string; category_id: string; vendor_id: string | null; txn_date: string | null; merchant: string; merchant_vendor_id: string | null }[];
  const at = new Date().toISOString();
  await writeEvents(trx, 'ledger', rows.map((r) => ({
    type: EventType.TransactionCategorized,
    workspaceId,
    payload: {
      transactionId: r.id, merchantName: r.merchant, description: r.name, amountCents: BigInt(r.amount_cents), bankAccountId: r.bank_account_id, categoryId: r.category_id,
      vendorId: r.vendor_id ?? r.merchant_vendor_id ?? '', date: r.txn_date ?? '', mode: 'manual', categorizedAt: at,
    },
  })));
}

/** The consumer of the parties service's answers (exactly once through the inbox; one tenant transaction each). */
export function startCategorisationConsumer(o: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Subscription> {
  return startConsumer({
    name: CATEGORISATION_CONSUMER,
    types: [EventType.CategorizationSuggested],
    db: o.db,
    bus: o.bus,
    logger: o.logger,
    maxDeliver: o.maxDeliver ?? 8,
    check: (event: ReceivedEvent<typeof EventType.CategorizationSuggested>) => {
      if (!isUuid(eventMessage(event).jobId)) throw new Error(`invalid ${event.type} ${event.id}: jobId`);
    },
    async handle(trx, event) {
      await applySuggestions(trx, event.workspaceId, eventMessage(event));
    },
  });
}

export interface CategorizationJobRow {
  id: string;
  status: string;
  job_order: string;
  total_transactions: number;
  applied: number;
  suggested: number;
  failed_reason: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const STATUSES = ['waiting', 'waiting-children', 'active', 'completed', 'failed', 'paused', 'repeat', 'wait', 'delayed', 'prioritized'];

/** GET /jobs/categorization: the workspace's jobs (newest first, at most 100) and the given transactions' state (another workspace's id: 404). */
export class CategorisationUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async list(tenant: Tenant, input: { statuses: readonly string[]; transactionIds: readonly string[] }) {
    const p = new Problems();
    p.uuids('transactions', input.transactionIds);
    input.statuses.forEach((s) => {
      if (!STATUSES.includes(s)) p.add('status', `status must be one of ${STATUSES.join(', ')}`);
    });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      // Another workspace's transaction (or none): 404 naming the field, as everywhere.
      await assertReferences(trx, [{ field: 'transactions', kind: 'transaction', ids: input.transactionIds }]);
      const q = trx('categorization_jobs').orderBy('job_order', 'desc').limit(100);
      if (input.statuses.length) q.whereIn('status', [...input.statuses]);
      const jobs = (await q) as CategorizationJobRow[];
      const states = input.transactionIds.length === 0 ? [] : ((await trx.raw(
        `select w.id, case when j.status in ('waiting', 'active') then 'categorizing' else 'categorized' end as category_state
         from workspace_transactions w left join categorization_jobs j on j.id = w.categorization_job_id where w.id = any(?::uuid[])`,
        [[...input.transactionIds]],
      )).rows as { id: string; category_state: string }[]);
      return { jobs, states };
    });
  }
}
