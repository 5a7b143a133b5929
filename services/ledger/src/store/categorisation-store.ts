import type { Knex } from '@ledgerline/platform';
import { SYSTEM } from '../domain/chart.js';
import type { TxnRow } from './rows.js';
import { EDITABLE } from './vendor-rules-store.js';

/**
 * The learned categorisation's rows in the ledger (usecases/categorisation.ts; migration
 * 20261128140000_ledger_categorisation): the jobs, and the transactions' creation mode and suggestion.
 */

/** SQL: the transaction `w` (category `a`) is still as its import left it: nobody categorised it. */
const UNCLAIMED = (w: string, a: string) => `${EDITABLE(w, a)} and ${w}.applied_rule_id is null and ${w}.creation_mode is null
  and ${a}.system_key in ('${SYSTEM.uncategorisedIncome}', '${SYSTEM.uncategorisedExpense}') and ${w}.amount_cents <> 0`;

export interface CandidateRow {
  id: string;
  name: string;
  amount_cents: string;
  bank_account_id: string;
  txn_date: string;
  merchant: string;
}

/** Of these transactions, the ones nobody claimed, with what the model looks at. */
export async function unclaimedCandidates(trx: Knex.Transaction, transactionIds: readonly string[]): Promise<CandidateRow[]> {
  return (
    await trx.raw(
      `select w.id, w.name, w.amount_cents, w.bank_account_id, to_char(w.txn_date, 'YYYY-MM-DD') as txn_date, coalesce(b.name, '') as merchant
     from workspace_transactions w join accounts a on a.id = w.category_id left join billers b on b.id = w.biller_id
     where w.id = any(?::uuid[]) and ${UNCLAIMED('w', 'a')} order by w.id`,
      [[...transactionIds]],
    )
  ).rows as CandidateRow[];
}

/** A waiting job for these transactions, each marked as its. */
export async function insertJob(trx: Knex.Transaction, workspaceId: string, jobId: string, transactionIds: readonly string[]): Promise<void> {
  await trx('categorization_jobs').insert({ id: jobId, workspace_id: workspaceId, status: 'waiting', total_transactions: transactionIds.length });
  await trx.raw('update workspace_transactions set categorization_job_id = ? where id = any(?::uuid[])', [jobId, [...transactionIds]]);
}

export async function lockJob(trx: Knex.Transaction, jobId: string): Promise<{ id: string; status: string } | undefined> {
  return (await trx('categorization_jobs').where({ id: jobId }).forUpdate().first()) as { id: string; status: string } | undefined;
}

/** Of these ids, the workspace's categories a transaction may be booked to (postable, not a bank account, not Transfer), with names. */
export async function bookableCategoryNames(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = (
    await trx.raw(
      `select id, name from accounts where id = any(?::uuid[]) and level >= 3 and bank_account_id is null and coalesce(class_group, '') <> 'Transfer'`,
      [[...ids]],
    )
  ).rows as { id: string; name: string }[];
  return new Map(rows.map((c) => [c.id, c.name]));
}

/** Of these ids, the vendors the parties service registered in this workspace. */
export async function knownVendors(trx: Knex.Transaction, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    (
      (await trx('ledger_vendors')
        .whereIn('id', [...ids])
        .select('id')) as { id: string }[]
    ).map((v) => v.id),
  );
}

/** The job's transactions among `ids` that are still unclaimed, locked in id order. */
export async function lockUnclaimedOfJob(trx: Knex.Transaction, jobId: string, ids: readonly string[]): Promise<TxnRow[]> {
  if (ids.length === 0) return [];
  return (
    await trx.raw(
      `select w.* from workspace_transactions w join accounts a on a.id = w.category_id
     where w.id = any(?::uuid[]) and w.categorization_job_id = ? and ${UNCLAIMED('w', 'a')} order by w.id for update of w`,
      [[...ids], jobId],
    )
  ).rows as TxnRow[];
}

/** The model applied these (after the re-booking): creation mode auto, with its confidence. */
export async function markAuto(trx: Knex.Transaction, rows: readonly { id: string; confidence: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await trx.raw(
    `update workspace_transactions w set creation_mode = 'auto', suggestion_confidence = t.confidence, suggested_category_id = null, suggested_vendor_id = null
     from unnest(?::uuid[], ?::float8[]) as t(id, confidence) where w.id = t.id`,
    [rows.map((r) => r.id), rows.map((r) => r.confidence)] as unknown as Knex.RawBinding[],
  );
}

/**
 * A vendor rule categorised these (re-booked or only given its applied_rule_id): creation mode auto — not a
 * person's choice, so the model does not learn from it — and any suggestion dropped (the rule decided).
 */
export async function markRuleApplied(trx: Knex.Transaction, transactionIds: readonly string[]): Promise<void> {
  if (transactionIds.length === 0) return;
  await trx.raw(
    `update workspace_transactions set creation_mode = 'auto', suggested_category_id = null, suggested_vendor_id = null, suggestion_confidence = null where id = any(?::uuid[])`,
    [[...transactionIds]],
  );
}

/** Suggestions shown, not applied. */
export async function storeSuggestions(
  trx: Knex.Transaction,
  rows: readonly { id: string; categoryId: string; vendorId: string | null; confidence: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx.raw(
    `update workspace_transactions w set suggested_category_id = t.category_id, suggested_vendor_id = t.vendor_id, suggestion_confidence = t.confidence
     from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::float8[]) as t(id, category_id, vendor_id, confidence) where w.id = t.id`,
    [rows.map((s) => s.id), rows.map((s) => s.categoryId), rows.map((s) => s.vendorId), rows.map((s) => s.confidence)] as unknown as Knex.RawBinding[],
  );
}

/** The ledger took up the job's answer (its own transaction, committed before the answer is applied): waiting → active. */
export async function markJobActive(trx: Knex.Transaction, jobId: string): Promise<void> {
  await trx('categorization_jobs').where({ id: jobId, status: 'waiting' }).update({ status: 'active' });
}

/** The job failed for good (its answer could not be given or applied): failed with the reason, unless it completed. */
export async function failJob(trx: Knex.Transaction, jobId: string, reason: string): Promise<void> {
  await trx('categorization_jobs')
    .where({ id: jobId })
    .whereIn('status', ['waiting', 'active'])
    .update({ status: 'failed', failed_reason: reason.slice(0, 500), finished_at: trx.fn.now() });
}

export async function completeJob(trx: Knex.Transaction, workspaceId: string, jobId: string, applied: number, suggested: number): Promise<void> {
  await trx('categorization_jobs')
    .where({ id: jobId, workspace_id: workspaceId })
    .update({ status: 'completed', applied, suggested, finished_at: trx.fn.now() });
}

export interface ManualRow {
  id: string;
  name: string;
  amount_cents: string;
  bank_account_id: string;
  category_id: string;
  vendor_id: string | null;
  txn_date: string | null;
  merchant: string;
  merchant_vendor_id: string | null;
}

/** Creation mode manual and no suggestion for these (categorised by hand); answers what the model learns from each. */
export async function markManualRows(trx: Knex.Transaction, transactionIds: readonly string[]): Promise<ManualRow[]> {
  return (
    await trx.raw(
      // The rows by primary key, each one's merchant by key (no self-join for the planner to get wrong).
      `update workspace_transactions w set creation_mode = 'manual', suggested_category_id = null, suggested_vendor_id = null, suggestion_confidence = null
     where w.id = any(?::uuid[]) and w.category_id is not null
     returning w.id, w.name, w.amount_cents, w.bank_account_id, w.category_id, w.vendor_id, to_char(w.txn_date, 'YYYY-MM-DD') as txn_date,
       coalesce((select b.name from billers b where b.id = w.biller_id), '') as merchant, (select b.vendor_id from billers b where b.id = w.biller_id) as merchant_vendor_id`,
      [[...transactionIds]],
    )
  ).rows as ManualRow[];
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

/** The workspace's jobs, newest first, at most 100, optionally of some statuses. */
export async function listJobs(trx: Knex.Transaction, statuses: readonly string[]): Promise<CategorizationJobRow[]> {
  const q = trx('categorization_jobs').orderBy('job_order', 'desc').limit(100);
  if (statuses.length) q.whereIn('status', [...statuses]);
  return (await q) as CategorizationJobRow[];
}

/** categorizing while a transaction's job waits or is active, else categorized (completed or failed: nothing more will come). */
export async function categoryStates(trx: Knex.Transaction, transactionIds: readonly string[]): Promise<{ id: string; category_state: string }[]> {
  if (transactionIds.length === 0) return [];
  return (
    await trx.raw(
      `select w.id, case when j.status in ('waiting', 'active') then 'categorizing' else 'categorized' end as category_state
     from workspace_transactions w left join categorization_jobs j on j.id = w.categorization_job_id where w.id = any(?::uuid[])`,
      [[...transactionIds]],
    )
  ).rows as { id: string; category_state: string }[];
}
